"""The move generator's core: every way to play a roll on a packed integer board.

Kept apart from the value objects of ``plays`` so that the interop command's batch path, which
other engines are timed against, imports nothing but this (no dataclasses, no typing at run time).

The board is one integer in the mover's numbering, a byte a place: byte ``p`` holds the number of
my checkers on point ``p`` (1..24), byte 25 my bar and byte 0 my borne-off checkers; ``opp[p]`` is
the number of the opponent's checkers on my point ``p``. A move is two additions, a state hashes as
fast as an int, and "all checkers home" is one shift. A play's identity is its *state*: my board,
the set of opponent blots it hit (a bit mask over my points) and how many of my bar checkers still
wait from the start (race variants). Two plays reaching the same state reach the same position, so
the search keeps one per state at every depth.

>>> start = pack([0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0])
>>> opp = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0, 0]
>>> len(search(start, opp, 0, (3, 1)))
16
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["BAR_SHIFT", "Board", "Found", "RawMove", "State", "pack", "search", "steps", "unpack"]

BAR_SHIFT = 200
"""``board >> BAR_SHIFT`` is the number of checkers on the bar (place 25, eight bits a place)."""
_UNIT = tuple(1 << 8 * place for place in range(26))
_OUTSIDE_HOME = 56
"""``board >> _OUTSIDE_HOME`` is non-zero while a checker is above point 6 or on the bar."""
_HIGHER_IN_HOME = tuple(sum(255 << 8 * p for p in range(origin + 1, 7)) for origin in range(26))
"""For each point, the bits of the home points above it."""

Board = int
"""Places 0 (borne off), 1..24 (points) and 25 (bar) of the mover, a byte each, place 0 lowest."""
RawMove = tuple[int, int, bool]
State = tuple[Board, int, int]
"""(board, mask of the points where an opponent blot was hit, checkers still waiting on the bar)."""
Found = dict[State, tuple[RawMove, ...]]


def pack(counts: Sequence[int]) -> Board:
    """The packed board of 26 counts (borne off, points 1..24, bar)."""
    return int.from_bytes(bytes(counts), "little")


def unpack(board: Board) -> list[int]:
    """The 26 counts of a packed board."""
    return list(board.to_bytes(26, "little"))


def steps(board: Board, opp: list[int], hits: int, waiting: int, die: int,
          top: int = 25) -> list[tuple[State, RawMove]]:
    """Every single-checker move of ``die`` from an origin not above ``top``, with its new state."""
    found: list[tuple[State, RawMove]] = []
    bar = board >> BAR_SHIFT
    if bar > waiting:
        # A hit checker is on the bar: it must enter before anything else moves.
        origins: Sequence[int] = (25,) if top == 25 else ()
    else:
        origins = range(top if top < 25 or bar else 24, 0, -1)
    home = None
    unit = _UNIT
    for origin in origins:
        if not board >> (origin << 3) & 255:
            continue
        dest = origin - die
        hit = False
        if dest >= 1:
            there = opp[dest]
            if there:
                if there > 1:
                    continue
                hit = not hits >> dest & 1
        else:
            if home is None:
                home = not board >> _OUTSIDE_HOME
            # Bearing off needs every checker home, and a die larger than the point only bears
            # off from the highest occupied point.
            if not home or (dest < 0 and board & _HIGHER_IN_HOME[origin]):
                continue
            dest = 0
        left = waiting - 1 if origin == 25 and bar == waiting else waiting
        found.append(((board - unit[origin] + unit[dest], hits | (1 << dest) if hit else hits, left),
                      (origin, dest, hit)))
    return found


def search(board: Board, opp: list[int], waiting: int, dice: tuple[int, int]) -> Found:
    """Every legal play as state -> one move sequence reaching it; ``{start: ()}`` for no move."""
    high, low = max(dice), min(dice)
    start: State = (board, 0, waiting)
    if high == low:
        return _search_doubles(start, opp, high)
    full: Found = {}
    singles: dict[int, Found] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        for state, move in steps(board, opp, 0, waiting, first):
            nexts = steps(state[0], opp, state[1], state[2], second)
            if not nexts:
                singles[first].setdefault(state, (move,))
            for state2, move2 in nexts:
                full.setdefault(state2, (move, move2))
    # Both dice when possible; otherwise the higher one when it can be played, else the lower.
    return full or singles[high] or singles[low] or {start: ()}


def _search_doubles(start: State, opp: list[int], die: int) -> Found:
    # The moves of a double can always be reordered so origins never rise (a move only ever helps
    # moves from lower points), so each level only extends from origins at or below the last one,
    # remembering for each state the highest such bound any path to it allows.
    level: dict[State, tuple[int, tuple[RawMove, ...]]] = {start: (25, ())}
    for _ in range(4):
        deeper: dict[State, tuple[int, tuple[RawMove, ...]]] = {}
        for (board, hits, waiting), (top, moves) in level.items():
            for state, move in steps(board, opp, hits, waiting, die, top):
                seen = deeper.get(state)
                if seen is None or seen[0] < move[0]:
                    deeper[state] = (move[0], seen[1] if seen else moves + (move,))
        if not deeper:
            break
        level = deeper
    return {state: moves for state, (_, moves) in level.items()}
