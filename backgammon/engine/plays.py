"""Legal plays: every way to play a roll, one per distinct resulting position.

The search itself runs on packed integer boards in ``movegen``; this module turns its states into
value objects and explains, in a player's words, why a play is refused.

>>> start = Position.initial()
>>> len(legal_plays(start, (3, 1)))
16
>>> find_play(start, (3, 1), [(8, 5), (6, 5)]).moves
(Move(origin=8, destination=5, hit=False), Move(origin=6, destination=5, hit=False))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import CHECKERS, Position
from .errors import IllegalPlayError
from .movegen import Board, RawMove, State, pack, search, steps, unpack

__all__ = ["BEAR_OFF_RULE", "Move", "Play", "check_dice", "find_play", "legal_plays", "only_play"]

BEAR_OFF_RULE = "You cannot bear off while any of your checkers is outside your home board"


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, in the mover's own numbering (25 = bar, 0 = borne off)."""

    origin: int
    destination: int
    hit: bool


@dataclass(frozen=True, slots=True)
class Play:
    """A whole turn: its checker moves (``()`` when nothing can move) and the position after it.

    ``result`` is still seen from the mover's side; ``result.swapped()`` puts the opponent on roll.
    """

    moves: tuple[Move, ...]
    result: Position


def check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """The dice as two ints 1..6, or an IllegalPlayError naming what is wrong."""
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise IllegalPlayError(f"{dice!r} is not a roll: it takes two dice, each from 1 to 6")
    return dice[0], dice[1]


def to_board(position: Position) -> tuple[Board, list[int]]:
    """The mover's packed board and the opponent's counts per point of the mover's numbering."""
    mine = position.mine
    board = pack((CHECKERS - sum(mine),) + mine)
    theirs = position.theirs
    opp = [0] * 26
    for point in range(1, 25):
        opp[point] = theirs[24 - point]
    return board, opp


def to_position(position: Position, state: State) -> Position:
    """The Position (mover's view) of a search state reached from ``position``."""
    board, hits, waiting = state
    theirs = list(position.theirs)
    if hits:
        for point in range(1, 25):
            if hits >> point & 1:
                theirs[24 - point] = 0
                theirs[24] += 1
    return Position(tuple(unpack(board)[1:]), tuple(theirs), waiting, position.theirs_waiting)


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every legal play of ``dice``, one per distinct resulting position.

    A single ``Play`` with ``moves=()`` when no checker can move.

    >>> [len(legal_plays(Position.initial(), roll)) for roll in ((6, 5), (1, 1), (6, 6))]
    [7, 42, 11]
    """
    board, opp = to_board(position)
    found = search(board, opp, position.mine_waiting, check_dice(dice))
    return [_play(position, state, moves) for state, moves in found.items()]


def only_play(position: Position, dice: tuple[int, int]) -> Play | None:
    """The one legal play of ``dice`` when there is no other (a forced move, or ``moves=()``
    when no checker can move); None when there is a choice. ``legal_plays`` without building
    the plays it would throw away: the site asks this after every roll.

    >>> only_play(Position.initial(), (6, 5)) is None
    True
    >>> on_the_bar = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)
    >>> closed_board = (2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    >>> only_play(Position(on_the_bar, closed_board), (6, 5)).moves
    ()
    """
    board, opp = to_board(position)
    found = search(board, opp, position.mine_waiting, check_dice(dice))
    if len(found) != 1:
        return None
    ((state, moves),) = found.items()
    return _play(position, state, moves)


def find_play(position: Position, dice: tuple[int, int],
              moves: Sequence[tuple[int, int]]) -> Play:
    """The legal play made of exactly these (origin, destination) checker moves, in any order.

    A move may span several dice (``(13, 7)`` for a 4-2 is 13/9/7 or 13/11/7, whichever is legal;
    name the stop, ``(13, 9), (9, 7)``, to say where a checker hits on its way).
    Raises IllegalPlayError with the reason in a player's words.

    >>> find_play(Position.initial(), (6, 5), [(24, 13)]).moves
    (Move(origin=24, destination=18, hit=False), Move(origin=18, destination=13, hit=False))
    >>> find_play(Position.initial(), (6, 5), [(13, 7)])
    Traceback (most recent call last):
    ...
    backgammon.engine.errors.IllegalPlayError: You must use both dice: after 13/7 play the 5 too, for example 13/8 13/7
    """
    dice = check_dice(dice)
    target = _net(position, moves)
    board, opp = to_board(position)
    found = search(board, opp, position.mine_waiting, dice)
    if target in found:
        return _play(position, target, found[target])
    # The player may leave out the stop where the checker hit on its way: accept that when only
    # one legal play moves the same checkers.
    loose = [_play(position, state, raw) for state, raw in found.items() if state[0] == target[0]]
    if len(loose) == 1:
        return loose[0]
    plays = [_play(position, state, raw) for state, raw in found.items()]
    raise IllegalPlayError(_refusal(position, dice, moves, plays, loose))


def _play(position: Position, state: State, moves: tuple[RawMove, ...]) -> Play:
    return Play(tuple(Move(*raw) for raw in moves), to_position(position, state))


def _name(point: int) -> str:
    return "the bar" if point == 25 else "off" if point == 0 else f"point {point}"


def net_state(position: Position, moves: Sequence[tuple[int, int]]) -> Position:
    """Where these checker moves lead, whatever the dice (see ``_net``)."""
    return to_position(position, _net(position, moves))


def _net(position: Position, moves: Sequence[tuple[int, int]]) -> State:
    """Where these checker moves lead, whatever the dice, or an IllegalPlayError saying why not.

    Hits are taken on every named destination holding an opponent blot; the order of the moves
    does not matter.
    """
    board, opp = to_board(position)
    counts = unpack(board)
    hits = 0
    for origin, dest in moves:
        if not (isinstance(origin, int) and isinstance(dest, int) and 1 <= origin <= 25
                and 0 <= dest <= 24):
            raise IllegalPlayError(f"There is no move {origin}/{dest}: points run from 25 (bar) to 0 (off)")
        if dest >= origin:
            raise IllegalPlayError(f"The move {origin}/{dest} goes backwards: checkers move to lower points")
        if opp[dest] >= 2 and dest:
            raise IllegalPlayError(f"Point {dest} is blocked")
        counts[origin] -= 1
        counts[dest] += 1
        if dest and opp[dest] == 1:
            hits |= 1 << dest
    # The bear-off rule comes before the count check: "6/off 5/off" from the starting position
    # breaks the rule, whatever is (or is not) on point 5.
    if any(dest == 0 for _, dest in moves) and _left_outside_home(position, moves):
        raise IllegalPlayError(BEAR_OFF_RULE)
    for origin, _ in moves:
        if counts[origin] < 0:
            raise IllegalPlayError(f"You have no checker on {_name(origin)} to move")
    waiting = position.mine_waiting
    on_bar = position.mine[24]
    entered = on_bar - counts[25]
    waiting -= max(0, entered - (on_bar - waiting))
    return pack(counts), hits, waiting


def _left_outside_home(position: Position, moves: Sequence[tuple[int, int]]) -> bool:
    """Whether some checker stays outside the home board (points 7 to 24 or the bar) after these moves."""
    outside = sum(position.mine[6:])
    brought_home = sum(1 for origin, dest in moves if origin > 6 >= dest)
    return outside > brought_home


def _partial_states(position: Position, dice: tuple[int, int]) -> dict[Board, int]:
    """Every board reachable by playing some of the dice, with the most dice used to reach it."""
    board, opp = to_board(position)
    orders = [[dice[0]] * 4] if dice[0] == dice[1] else [list(dice), list(reversed(dice))]
    reached: dict[Board, int] = {board: 0}
    for order in orders:
        level: list[State] = [(board, 0, position.mine_waiting)]
        for used, die in enumerate(order, start=1):
            level = [state for b, h, w in level for state, _ in steps(b, opp, h, w, die)]
            for b, _, _ in level:
                reached[b] = max(reached.get(b, 0), used)
    return reached


def _refusal(position: Position, dice: tuple[int, int], moves: Sequence[tuple[int, int]],
             plays: list[Play], loose: list[Play]) -> str:
    from .notation import format_moves, format_play

    text = format_moves(moves) or "no move"
    if len(loose) > 1:
        options = " or ".join(format_play(play) for play in loose)
        return f"{text} is ambiguous: say where the checker hits, {options}"
    if not plays[0].moves:
        return f"You have no legal move with {dice[0]}-{dice[1]}: the turn passes"
    rule = _broken_rule(position, dice, moves)
    if rule:
        return rule
    needed = len(plays[0].moves)
    reached = _partial_states(position, dice)
    after = net_state(position, moves)
    board, opp = to_board(after)
    used = reached.get(board)
    if used is not None and (used < needed or dice[0] != dice[1] and needed == 1):
        span = sum(o - d for o, d in moves)
        left = [die for die in dice if die != span] if span in dice else list(dice)
        stranded = not any(steps(board, opp, 0, after.mine_waiting, die) for die in left)
        return _more_dice(dice, text, used, needed, moves, plays, stranded)
    return f"{text} is not a legal play of {dice[0]}-{dice[1]}"


def _broken_rule(position: Position, dice: tuple[int, int],
                 moves: Sequence[tuple[int, int]]) -> str | None:
    """The first basic rule these moves break: the bar, bearing off, or a distance no die makes."""
    hit_on_bar = position.mine[24] - position.mine_waiting
    if sum(1 for origin, _ in moves if origin == 25) < hit_on_bar and any(o != 25 for o, _ in moves):
        return "A checker on the bar must enter first"
    after = net_state(position, [(o, d) for o, d in moves if d != 0])
    if any(d == 0 for _, d in moves) and not after.all_home():
        return BEAR_OFF_RULE
    pips = sum(o - d for o, d in moves)
    total = sum(dice) * (2 if dice[0] == dice[1] else 1)
    if pips > total and all(d for _, d in moves):
        return f"Those moves take {pips} pips but a {dice[0]}-{dice[1]} gives only {total}"
    makes = {dice[0] * k for k in range(1, 5)} if dice[0] == dice[1] else {*dice, sum(dice)}
    for origin, dest in moves:
        span = origin - dest
        if dest and span not in makes:
            return f"The move {'bar' if origin == 25 else origin}/{dest} takes {span} pips, which a {dice[0]}-{dice[1]} cannot make"
        if not dest and span not in makes and any(after.mine[origin:6]):
            return (f"A die larger than the point bears off only from your highest point: "
                    f"move the checkers above point {origin} first")
    return None


def _more_dice(dice: tuple[int, int], text: str, used: int, needed: int,
               moves: Sequence[tuple[int, int]], plays: list[Play], stranded: bool) -> str:
    from .notation import format_play

    example = format_play(_closest(plays, moves))
    if dice[0] == dice[1]:
        return f"You must play {needed} of your {dice[0]}s when you can: {example} does"
    if used == 0:
        return f"You must move when you can: for example {example}"
    if needed == 2:
        unused = sum(dice) - sum(o - d for o, d in moves) if all(d for _, d in moves) else 0
        other = f"the {unused}" if unused in dice else "the other die"
        if not stranded:
            return f"You must use both dice: after {text} play {other} too, for example {example}"
        return f"You must use both dice: after {text} {other} cannot be played, but {example} plays both"
    return f"You must play the higher die ({max(dice)}) when only one die can be played"


def _closest(plays: list[Play], moves: Sequence[tuple[int, int]]) -> Play:
    # Suggest a full play that keeps as many of the player's own moves as possible.
    wanted = set(moves)

    def kept(play: Play) -> int:
        return sum((m.origin, m.destination) in wanted for m in play.moves)

    return max(plays, key=kept)
