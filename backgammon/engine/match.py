"""The game and match state machine: opening roll, roll or double, take or drop, play, resign.

A ``MatchState`` is an immutable value; ``apply_action`` returns the next one or raises a typed
error whose message a player can read, changing nothing. ``replay`` folds a whole record.

>>> from backgammon.engine.variants import find_variant
>>> state = new_match(MatchRules(find_variant("BP"), 5))
>>> state.phase, state.actor
(<Phase.OPENING_ROLL: 'opening_roll'>, None)
>>> state = apply_action(state, Action.roll(3, 1))
>>> state.phase, state.turn.name, state.dice
(<Phase.MOVE: 'move'>, 'BLACK', (3, 1))
>>> state = apply_action(state, Action.play([(8, 5), (6, 5)]))
>>> state.phase, state.actor.name, state.position.id
(<Phase.ROLL: 'roll'>, 'WHITE', 'sGfwATDgc/ABMA')
>>> apply_action(state, Action.take())
Traceback (most recent call last):
...
backgammon.engine.errors.IllegalActionError: There is no double to take
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from .actions import Action, ActionKind
from .board import PerSide, Position, Side
from .errors import EngineError, IllegalActionError
from .game import MAX_CUBE, GameResult, MatchRules, WinKind, bear_off_win
from .match_id import GameState, MatchIdInfo, encode_match_id
from .plays import Play, find_play, legal_plays

__all__ = ["MatchState", "Phase", "apply_action", "new_match", "replay"]


class Phase(StrEnum):
    """What the match is waiting for."""

    OPENING_ROLL = "opening_roll"
    ROLL = "roll"
    MOVE = "move"
    TAKE_OR_DROP = "take_or_drop"
    RESIGN_OFFERED = "resign_offered"
    MATCH_OVER = "match_over"


_RESIGN_KINDS = {1: WinKind.SINGLE, 2: WinKind.GAMMON, 3: WinKind.BACKGAMMON}


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything needed to continue a match, seen from ``turn``, the side whose turn it is.

    In OPENING_ROLL ``turn`` is Black and nobody acts: the system rolls one die for each side.
    In TAKE_OR_DROP and RESIGN_OFFERED ``turn`` stays with the doubler or resigner, and the
    opponent is the ``actor``; after a beaver (``beavered``) the doubler answers in turn, facing
    the beavered cube, which the beaverer holds at the value taken, as gnubg keeps it.
    ``crawford`` marks the Crawford game itself. ``moves_played`` counts each side's plays in the
    current game (for the BA draw). Once the match is over, an accepted resignation keeps its
    level and roll, as gnubg does.
    """

    rules: MatchRules
    score: PerSide[int]
    game_number: int
    crawford: bool
    phase: Phase
    turn: Side
    position: Position
    dice: tuple[int, int] | None
    cube_value: int
    cube_owner: Side | None
    resign_level: int
    moves_played: PerSide[int]
    last_game_result: GameResult | None
    match_winner: Side | None

    @property
    def actor(self) -> Side | None:
        """Who must act now; None while the system rolls the opening or once the match is over."""
        if self.phase in (Phase.OPENING_ROLL, Phase.MATCH_OVER):
            return None
        if self.beavered:
            return self.turn
        if self.phase in (Phase.TAKE_OR_DROP, Phase.RESIGN_OFFERED):
            return self.turn.other
        return self.turn

    @property
    def beavered(self) -> bool:
        """The doubled player beavered: the doubler must take the redouble or drop."""
        # Only a beaver hands the opponent the cube while the double is pending.
        return self.phase is Phase.TAKE_OR_DROP and self.cube_owner is self.turn.other

    @property
    def doubled_by(self) -> Side | None:
        """Who offered the pending double (or beaver); None when no double waits."""
        if self.phase is not Phase.TAKE_OR_DROP:
            return None
        return self.turn.other if self.beavered else self.turn

    @property
    def roll_is_automatic(self) -> bool:
        """The player must roll and has no choice (no double): the site rolls for them at once."""
        return self.phase is Phase.ROLL and not self.can_double()

    def can_double(self) -> bool:
        """The player on turn may double now."""
        return self.phase is Phase.ROLL and _double_refusal(self) is None

    def can_beaver(self) -> bool:
        """The doubled player may beaver now."""
        return self.phase is Phase.TAKE_OR_DROP and _beaver_refusal(self) is None

    def legal_plays(self) -> list[Play]:
        """The plays the player on turn may choose from (empty outside the MOVE phase)."""
        if self.phase is not Phase.MOVE or self.dice is None:
            return []
        return legal_plays(self.position, self.dice)

    def position_for(self, side: Side) -> Position:
        """The board from ``side``'s point of view."""
        return self.position if side is self.turn else self.position.swapped()

    @property
    def on_roll(self) -> Side:
        """gnubg's player on roll (its fMove), whose side its Position ID is seen from.

        That is ``turn``, also while a double (or beaver) or a resignation waits for the
        opponent's answer: gnubg pairs those with the doubler's or resigner's side. Once a match
        ends by bearing off, gnubg has passed the roll to the loser.
        """
        on_roll, _ = _id_sides(self)
        return on_roll

    def position_id(self) -> str:
        """The Position ID gnubg shows beside ``match_id()``: the board from ``on_roll``'s side."""
        return self.position_for(self.on_roll).id

    def match_id(self) -> str:
        """The GNU Backgammon Match ID of this state, as gnubg itself would write it."""
        on_roll, turn = _id_sides(self)
        return encode_match_id(
            MatchIdInfo(
                cube_value=self.cube_value,
                cube_owner=self.cube_owner,
                player_on_roll=on_roll,
                # gnubg clears the Crawford flag once the match is over.
                crawford=self.crawford and self.phase is not Phase.MATCH_OVER,
                game_state=_game_state(self),
                turn=turn,
                double_offered=self.phase is Phase.TAKE_OR_DROP,
                resign_level=self.resign_level,
                dice=self.dice or (0, 0),
                match_length=self.rules.match_length,
                score=self.score,
                jacoby=self.rules.money and self.rules.jacoby,
            )
        )


def new_match(rules: MatchRules) -> MatchState:
    """A match (or single game) waiting for its opening roll."""
    return _new_game(rules, PerSide(0, 0), 1, crawford=False, last=None)


def apply_action(state: MatchState, action: Action, *, by: Side | None = None) -> MatchState:
    """The state after ``action``; IllegalActionError or IllegalPlayError, with the reason, if refused.

    ``by``, when given, is the side that claims to act; it must be the actor (a TIMEOUT is
    claimed by the system against the actor, so it is not checked).
    """
    if state.phase is Phase.MATCH_OVER:
        raise IllegalActionError("The match is over")
    if by is not None and action.kind is not ActionKind.TIMEOUT and by is not state.actor:
        raise IllegalActionError(f"It is not your turn to {_VERBS[action.kind]}")
    return _HANDLERS[action.kind](state, action)


def replay(rules: MatchRules, actions: Iterable[Action]) -> MatchState:
    """The state a record of actions leads to; the first refused action raises, naming its number."""
    state = new_match(rules)
    for number, action in enumerate(actions, start=1):
        try:
            state = apply_action(state, action)
        except EngineError as error:
            raise type(error)(f"Action {number} ({action!r}): {error}") from None
    return state


_VERBS = {
    ActionKind.ROLL: "roll",
    ActionKind.PLAY: "move",
    ActionKind.DOUBLE: "double",
    ActionKind.TAKE: "take",
    ActionKind.DROP: "drop",
    ActionKind.BEAVER: "beaver",
    ActionKind.RESIGN: "resign",
    ActionKind.ACCEPT_RESIGN: "accept a resignation",
    ActionKind.REJECT_RESIGN: "reject a resignation",
    ActionKind.TIMEOUT: "claim a timeout",
}


def _new_game(
    rules: MatchRules, score: PerSide[int], number: int, *, crawford: bool, last: GameResult | None
) -> MatchState:
    return MatchState(
        rules=rules,
        score=score,
        game_number=number,
        crawford=crawford,
        phase=Phase.OPENING_ROLL,
        turn=Side.BLACK,
        position=Position.initial(rules.variant.layout),
        dice=None,
        cube_value=1,
        cube_owner=None,
        resign_level=0,
        moves_played=PerSide(0, 0),
        last_game_result=last,
        match_winner=None,
    )


def _expected(state: MatchState) -> str:
    """What the match waits for, as a refusal of anything else."""
    if state.phase is Phase.OPENING_ROLL:
        return "The game has not started: the opening roll comes first"
    if state.phase is Phase.ROLL:
        return "You must roll or double first" if state.can_double() else "You must roll first"
    if state.phase is Phase.MOVE and state.dice is not None:
        return f"You must play your roll of {max(state.dice)}-{min(state.dice)} first"
    if state.phase is Phase.TAKE_OR_DROP:
        return "A double is waiting for an answer: take or drop"
    return "A resignation is waiting for an answer: accept or reject"


def _double_refusal(state: MatchState) -> str | None:
    if not state.rules.variant.uses_cube:
        return "This game is played without the doubling cube"
    if state.crawford:
        return "You cannot double in the Crawford game"
    if state.cube_owner is state.turn.other:
        return "Your opponent owns the cube"
    if state.cube_value * 2 > MAX_CUBE:
        return f"The cube cannot go above {MAX_CUBE}"
    return None


def _roll(state: MatchState, action: Action) -> MatchState:
    assert action.dice is not None
    if state.phase is Phase.OPENING_ROLL:
        return _opening_roll(state, action.dice)
    if state.phase is not Phase.ROLL:
        raise IllegalActionError(_expected(state))
    return replace(state, phase=Phase.MOVE, dice=action.dice)


def _opening_roll(state: MatchState, dice: tuple[int, int]) -> MatchState:
    black, white = dice
    if black == white:
        cap = 1 << state.rules.automatic_doubles
        if state.rules.money and state.cube_value < cap:
            return replace(state, cube_value=state.cube_value * 2)
        return state
    first = Side.BLACK if black > white else Side.WHITE
    own, other = (black, white) if first is Side.BLACK else (white, black)
    return replace(
        state, phase=Phase.MOVE, turn=first, position=state.position_for(first), dice=(own, other)
    )


def _double(state: MatchState, action: Action) -> MatchState:
    if state.phase is Phase.MOVE:
        raise IllegalActionError("You can double only before you roll")
    if state.phase is not Phase.ROLL:
        raise IllegalActionError(_expected(state))
    refusal = _double_refusal(state)
    if refusal is not None:
        raise IllegalActionError(refusal)
    return replace(state, phase=Phase.TAKE_OR_DROP)


def _take(state: MatchState, action: Action) -> MatchState:
    if state.phase is not Phase.TAKE_OR_DROP:
        raise IllegalActionError("There is no double to take")
    # The doubled player owns the cube; after a beaver the beaverer already does.
    return replace(
        state, phase=Phase.ROLL, cube_value=state.cube_value * 2, cube_owner=state.turn.other
    )


def _beaver_refusal(state: MatchState) -> str | None:
    if not state.rules.beavers:
        return "Beavers are not allowed in this game"
    if state.beavered:
        return "The double has already been beavered: take or drop"
    if state.cube_value * 4 > MAX_CUBE:
        return f"A beaver would take the cube above {MAX_CUBE}"
    return None


def _beaver(state: MatchState, action: Action) -> MatchState:
    if state.phase is not Phase.TAKE_OR_DROP:
        raise IllegalActionError("There is no double to beaver")
    refusal = _beaver_refusal(state)
    if refusal is not None:
        raise IllegalActionError(refusal)
    # The beaverer takes (and holds the cube at the doubled value) and redoubles at once; the
    # doubler may take the redouble or drop and lose the value taken, as in gnubg.
    return replace(state, cube_value=state.cube_value * 2, cube_owner=state.turn.other)


def _drop(state: MatchState, action: Action) -> MatchState:
    if state.phase is not Phase.TAKE_OR_DROP:
        raise IllegalActionError("There is no double to drop")
    winner = state.doubled_by
    assert winner is not None
    return _end_game(state, winner, WinKind.DROP, state.cube_value)


def _play(state: MatchState, action: Action) -> MatchState:
    if state.phase is not Phase.MOVE or state.dice is None:
        raise IllegalActionError(_expected(state))
    play = find_play(state.position, state.dice, action.moves)
    mover = state.turn
    played = state.moves_played.replace(mover, state.moves_played[mover] + 1)
    after = replace(state, position=play.result, dice=None, moves_played=played)
    variant = state.rules.variant
    if not any(play.result.mine):
        if variant.last_off_loses:
            return _end_game(after, mover.other, WinKind.SINGLE, 1)
        kind = bear_off_win(play.result)
        points = state.rules.points(
            kind, cube_value=state.cube_value, cube_turned=state.cube_owner is not None
        )
        return _end_game(after, mover, kind, points)
    if variant.draw_after_moves and min(played) >= variant.draw_after_moves:
        return _end_game(after, None, WinKind.DRAW, 0)
    return replace(after, phase=Phase.ROLL, turn=mover.other, position=play.result.swapped())


def _resign(state: MatchState, action: Action) -> MatchState:
    if state.phase not in (Phase.ROLL, Phase.MOVE):
        raise IllegalActionError(_expected(state))
    return replace(state, phase=Phase.RESIGN_OFFERED, resign_level=action.level)


def _accept_resign(state: MatchState, action: Action) -> MatchState:
    if state.phase is not Phase.RESIGN_OFFERED:
        raise IllegalActionError("There is no resignation to accept")
    size = _RESIGN_KINDS[state.resign_level]
    cube_turned = state.cube_owner is not None
    points = state.rules.points(size, cube_value=state.cube_value, cube_turned=cube_turned)
    return _end_game(state, state.turn.other, WinKind.RESIGN, points)


def _reject_resign(state: MatchState, action: Action) -> MatchState:
    if state.phase is not Phase.RESIGN_OFFERED:
        raise IllegalActionError("There is no resignation to reject")
    phase = Phase.ROLL if state.dice is None else Phase.MOVE
    return replace(state, phase=phase, resign_level=0)


def _timeout(state: MatchState, action: Action) -> MatchState:
    loser = state.actor
    if loser is None:
        raise IllegalActionError("Nobody is on the clock during the opening roll")
    winner = loser.other
    length = state.rules.match_length
    # A money game lost on time costs the cube's value, as passing it would: running down the
    # clock must not be a cheaper way out of a doubled game than giving it up.
    points = length - state.score[winner] if length else state.cube_value
    score = state.score.replace(winner, state.score[winner] + points)
    return _match_over(state, score, GameResult(winner, WinKind.TIMEOUT, points, state.game_number))


def _match_over(state: MatchState, score: PerSide[int], result: GameResult) -> MatchState:
    # An accepted resignation stays on the record with its roll, as gnubg keeps it.
    resigned = result.kind is WinKind.RESIGN
    return replace(
        state,
        score=score,
        phase=Phase.MATCH_OVER,
        dice=state.dice if resigned else None,
        resign_level=state.resign_level if resigned else 0,
        last_game_result=result,
        match_winner=result.winner,
    )


def _end_game(state: MatchState, winner: Side | None, kind: WinKind, points: int) -> MatchState:
    """Score a finished game; then the match is over or the next game waits for its opening roll."""
    score = (
        state.score if winner is None else state.score.replace(winner, state.score[winner] + points)
    )
    result = GameResult(winner, kind, points, state.game_number)
    length = state.rules.match_length
    if length == 0 or (winner is not None and score[winner] >= length):
        return _match_over(state, score, result)
    crawford = (
        state.rules.variant.uses_cube
        and not state.crawford
        and length - 1 in score
        and length - 1 not in state.score
    )
    return _new_game(state.rules, score, state.game_number + 1, crawford=crawford, last=result)


def _id_sides(state: MatchState) -> tuple[Side, Side]:
    """gnubg's player on roll and the side whose turn it is (who decides now), in that order.

    At the end of a match gnubg leaves the turn where the last decision was: with the player who
    dropped, or who accepted a resignation; once the last checker is off, with the other player
    (gnubg passes the turn after every play).
    """
    result = state.last_game_result
    if state.phase is not Phase.MATCH_OVER or result is None:
        return state.turn, state.actor if state.actor is not None else state.turn
    if result.kind is WinKind.DROP and result.winner is not None:
        return state.turn, result.winner.other
    if result.kind is WinKind.RESIGN and result.winner is not None:
        return state.turn, result.winner
    if result.kind is WinKind.TIMEOUT:
        return state.turn, state.turn
    return state.turn.other, state.turn.other


def _game_state(state: MatchState) -> GameState:
    if state.phase is Phase.OPENING_ROLL:
        return GameState.NONE
    if state.phase is not Phase.MATCH_OVER or state.last_game_result is None:
        return GameState.PLAYING
    kind = state.last_game_result.kind
    if kind is WinKind.DROP:
        return GameState.DROPPED
    return GameState.RESIGNED if kind is WinKind.RESIGN else GameState.OVER


_HANDLERS: dict[ActionKind, Callable[[MatchState, Action], MatchState]] = {
    ActionKind.ROLL: _roll,
    ActionKind.PLAY: _play,
    ActionKind.DOUBLE: _double,
    ActionKind.TAKE: _take,
    ActionKind.DROP: _drop,
    ActionKind.BEAVER: _beaver,
    ActionKind.RESIGN: _resign,
    ActionKind.ACCEPT_RESIGN: _accept_resign,
    ActionKind.REJECT_RESIGN: _reject_resign,
    ActionKind.TIMEOUT: _timeout,
}
