"""A position someone brings to be analysed: an XGID, or a Position ID with a Match ID, read back
to the engine's ``MatchState`` of a backgammon game in play (the analysis board's input).

Only what the IDs hold is kept: the board, who is on roll, the dice, the cube, the score and the
rules (match length, Crawford; for money play the Jacoby rule and beavers). Anything they cannot
hold starts fresh: it is game 1, nobody has moved yet. A pending double (XGID ``D``, a Match ID's
double flag) is read as the doubler's offer, with the cube still at its value before the double;
a beaver (XGID ``B``) and a pending resignation are refused, as the board analyses neither.

>>> from backgammon.engine import MatchRules, Action, apply_action, encode_xgid, find_variant, new_match
>>> state = apply_action(new_match(MatchRules(find_variant("BP"), 5)), Action.roll(5, 2))
>>> state_from_xgid(encode_xgid(state)) == state_for_analysis(state)
True
>>> state_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:5:10")
Traceback (most recent call last):
...
backgammon.engine.errors.InvalidIdError: The dice '77' are not a roll: two digits from 1 to 6, 00 before the roll, or D for a double
"""

from __future__ import annotations

from dataclasses import replace

from .board import CHECKERS, Layout, PerSide, Position, Side
from .errors import EngineError, InvalidIdError
from .game import MAX_CUBE, MatchRules
from .match import MatchState, Phase
from .match_id import GameState, decode_match_id
from .variants import find_variant

__all__ = ["parse_dice", "state_for_analysis", "state_from_ids", "state_from_xgid", "xgid_layouts"]

MATCH_VARIANT, MONEY_VARIANT = "BP", "MP"
"""Backgammon itself with the cube, as a match or for money: what XGIDs, Position IDs and gnubg
describe."""

_BAR = 24


def state_from_xgid(xgid: str) -> MatchState:
    """The state an XGID names (``XGID=`` in front is optional), Black as X; InvalidIdError,
    saying what is wrong, for anything else."""
    text = xgid.strip()
    if text.upper().startswith("XGID="):
        text = text[5:]
    fields = text.split(":")
    if len(fields) not in (9, 10):
        raise InvalidIdError("An XGID has ten fields separated by colons: position, cube, cube owner, "
                             "turn, dice, two scores, Crawford/Jacoby, match length, largest cube")
    board, cube_log, cube_position, turn_text, dice_text, score_x, score_o, flags, length = fields[:9]
    black, white = xgid_layouts(board)
    turn = {"1": Side.BLACK, "-1": Side.WHITE}.get(turn_text.strip())
    if turn is None:
        raise InvalidIdError(f"The turn field is {turn_text!r}: 1 when X is on roll, -1 when O is")
    owner = {"0": None, "1": Side.BLACK, "-1": Side.WHITE}
    if cube_position.strip() not in owner:
        raise InvalidIdError(f"The cube owner is {cube_position!r}: 0 centred, 1 X, -1 O")
    match_length = _number(length, "match length")
    flag_bits = _number(flags, "Crawford/Jacoby field")
    money = match_length == 0
    if flag_bits > (3 if money else 1):
        raise InvalidIdError(f"The Crawford/Jacoby field is {flag_bits}: 0 or 1 in a match, 0 to 3 in money play")
    rules = _rules(match_length, jacoby=money and bool(flag_bits & 1), beavers=money and bool(flag_bits & 2))
    dice_word = dice_text.strip().upper()
    if dice_word == "B":
        raise InvalidIdError("A beavered double is not analysed here: set up the position before the double")
    try:
        position = Position(black, white) if turn is Side.BLACK else Position(white, black)
    except EngineError as error:
        raise InvalidIdError(f"The XGID's position is impossible: {error}") from None
    return _checked(
        rules,
        score=PerSide(_number(score_x, "X's score"), _number(score_o, "O's score")),
        crawford=not money and bool(flag_bits & 1),
        turn=turn,
        position=position,
        dice=None if dice_word in ("00", "D") else _high_first(parse_dice(dice_word)),
        double_offered=dice_word == "D",
        cube_value=_cube_value(_number(cube_log, "cube")),
        cube_owner=owner[cube_position.strip()],
    )


def state_from_ids(position_id: str, match_id: str, *, beavers: bool = False) -> MatchState:
    """The state of a Position ID and a Match ID as gnubg pairs them (the board from the side on
    roll). A Match ID does not say whether beavers are allowed in money play: ``beavers`` does."""
    info = decode_match_id(match_id)
    try:
        position = Position.from_id(position_id.strip())
    except EngineError as error:
        raise InvalidIdError(f"{position_id.strip()!r} is not a Position ID: {error}") from None
    if info.game_state is not GameState.PLAYING:
        raise InvalidIdError("The Match ID is of a game not in play: it must be a game under way")
    if info.resign_level:
        raise InvalidIdError("The Match ID has a resignation waiting: the board analyses positions, not resignations")
    money = info.match_length == 0
    rules = _rules(info.match_length, jacoby=money and info.jacoby, beavers=money and beavers)
    return _checked(
        rules,
        score=info.score,
        crawford=info.crawford,
        turn=info.player_on_roll,
        position=position,
        dice=None if info.dice == (0, 0) or info.double_offered else info.dice,
        double_offered=info.double_offered,
        cube_value=info.cube_value,
        cube_owner=info.cube_owner,
    )


def state_for_analysis(state: MatchState) -> MatchState:
    """``state`` (of backgammon with the cube) reduced to what the IDs keep, as the readers above
    give it back: the variant and rules they name, game 1, nobody moved yet."""
    rules = state.rules
    return replace(state, rules=_rules(rules.match_length, jacoby=rules.jacoby, beavers=rules.beavers),
                   dice=None if state.dice is None else _high_first(state.dice),
                   game_number=1, moves_played=PerSide(0, 0), last_game_result=None,
                   position=replace(state.position, mine_waiting=0, theirs_waiting=0))


def parse_dice(text: str) -> tuple[int, int]:
    """Two dice written as two digits from 1 to 6 (``63``), in the order given."""
    word = text.strip()
    if len(word) != 2 or not all(ch in "123456" for ch in word):
        raise InvalidIdError(
            f"The dice {word!r} are not a roll: two digits from 1 to 6, 00 before the roll, or D for a double")
    return int(word[0]), int(word[1])


def _high_first(dice: tuple[int, int]) -> tuple[int, int]:
    return (max(dice), min(dice))  # as a Match ID keeps them: the order changes no play


def xgid_layouts(board: str) -> tuple[Layout, Layout]:
    """(X's layout, O's layout) from the 26 characters of an XGID's position."""
    if len(board) != 26:
        raise InvalidIdError(f"An XGID's position has 26 characters, not {len(board)}")
    x_side = [0] * 25
    o_side = [0] * 25
    for index, char in enumerate(board):
        if char == "-":
            continue
        if not ("A" <= char <= "O" or "a" <= char <= "o"):
            raise InvalidIdError(f"{char!r} is not a checker count in an XGID (- or A-O for X, a-o for O)")
        count = ord(char.upper()) - ord("A") + 1
        is_x = char.isupper()
        if index == 0:  # O's bar
            if is_x:
                raise InvalidIdError("The first character of an XGID is O's bar: a lower-case letter or -")
            o_side[_BAR] = count
        elif index == 25:  # X's bar
            if not is_x:
                raise InvalidIdError("The last character of an XGID is X's bar: a capital letter or -")
            x_side[_BAR] = count
        elif is_x:
            x_side[index - 1] = count
        else:
            o_side[24 - index] = count  # X's point p is O's point 25 - p
    return tuple(x_side), tuple(o_side)


def _number(text: str, name: str) -> int:
    word = text.strip()
    if not (word.isascii() and word.isdigit()) or len(word) > 5:
        raise InvalidIdError(f"The {name} is {word!r}: a whole number is needed")
    return int(word)


def _cube_value(log2: int) -> int:
    if (1 << log2) > MAX_CUBE:
        raise InvalidIdError(f"A cube of 2^{log2} is above the largest cube, {MAX_CUBE}")
    return 1 << log2


def _rules(match_length: int, *, jacoby: bool, beavers: bool) -> MatchRules:
    if match_length > 64:
        raise InvalidIdError(f"A match to {match_length} points is longer than the site plays (64 at most)")
    variant = find_variant(MATCH_VARIANT if match_length else MONEY_VARIANT)
    return MatchRules(variant, match_length, jacoby=jacoby, beavers=beavers)


def _checked(rules: MatchRules, *, score: PerSide[int], crawford: bool, turn: Side, position: Position,
             dice: tuple[int, int] | None, double_offered: bool, cube_value: int,
             cube_owner: Side | None) -> MatchState:
    """The state, once everything that makes no sense in a game under way is refused."""
    for name, layout in (("The player on roll", position.mine), ("The opponent", position.theirs)):
        if sum(layout) > CHECKERS:
            raise InvalidIdError(f"{name} has {sum(layout)} checkers: a side has 15")
        if sum(layout) == 0:
            raise InvalidIdError(f"{name} has borne off every checker: the game is over")
    length = rules.match_length
    if length:
        if max(score) >= length:
            raise InvalidIdError(f"A score of {score.black}-{score.white} ends a match to {length}")
        if crawford and length - 1 not in score:
            raise InvalidIdError("The Crawford game is played only when a player is one point from winning")
        if crawford and (cube_value != 1 or cube_owner is not None):
            raise InvalidIdError("In the Crawford game the cube stays at 1 in the middle")
    elif any(score):
        score = PerSide(0, 0)  # a money session's running score changes no decision
    if cube_value == 1 and cube_owner is not None:
        raise InvalidIdError("A cube of 1 is in the middle: nobody owns it before a double")
    state = MatchState(
        rules=rules, score=score, game_number=1, crawford=crawford,
        phase=Phase.TAKE_OR_DROP if double_offered else Phase.MOVE if dice else Phase.ROLL,
        turn=turn, position=position, dice=dice, cube_value=cube_value, cube_owner=cube_owner,
        resign_level=0, moves_played=PerSide(0, 0), last_game_result=None, match_winner=None,
    )
    if double_offered and not replace(state, phase=Phase.ROLL).can_double():
        raise InvalidIdError("A double is pending that the player on roll could not have offered "
                             "(the opponent owns the cube, or it is the Crawford game)")
    return state
