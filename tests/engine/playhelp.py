"""Shared by the move tests: a readable position builder and a brute-force reference generator.

The reference is written for clarity, not speed: it tries every checker with every die in every
order on Position objects, then applies the "use as many dice as possible, the higher die when
only one can be played" rules to the finished sequences. The fast generator must agree with it.
"""

from __future__ import annotations

from backgammon.engine import Position


def pos(mine: dict[int, int], opp: dict[int, int] | None = None, *, waiting: int = 0) -> Position:
    """A position from counts per point, both in the MOVER's numbering (25 = bar)."""
    mine_counts = [0] * 25
    for point, count in mine.items():
        mine_counts[point - 1] = count
    theirs = [0] * 25
    for point, count in (opp or {}).items():
        theirs[24 if point == 25 else 24 - point] = count
    return Position(tuple(mine_counts), tuple(theirs), waiting)


def _single(position: Position, origin: int, die: int) -> Position | None:
    """The position after moving one checker from ``origin`` by ``die``, or None if illegal."""
    mine, theirs = list(position.mine), list(position.theirs)
    waiting = position.mine_waiting
    if not mine[origin - 1]:
        return None
    if mine[24] > waiting and origin != 25:
        return None
    dest = origin - die
    if dest >= 1:
        if theirs[24 - dest] >= 2:
            return None
        if theirs[24 - dest] == 1:
            theirs[24 - dest] = 0
            theirs[24] += 1
        mine[dest - 1] += 1
    else:
        if any(mine[6:]):
            return None
        if dest < 0 and any(mine[origin:6]):
            return None
    if origin == 25 and mine[24] == waiting:
        waiting -= 1
    mine[origin - 1] -= 1
    return Position(tuple(mine), tuple(theirs), waiting, position.theirs_waiting)


def reference_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """The distinct positions after every legal play, by brute force."""
    orders = [(dice[0],) * 4] if dice[0] == dice[1] else [dice, (dice[1], dice[0])]
    finished: list[tuple[Position, tuple[int, ...]]] = []

    def extend(current: Position, rest: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if rest:
            for origin in range(25, 0, -1):
                after = _single(current, origin, rest[0])
                if after is not None:
                    moved = True
                    extend(after, rest[1:], used + (rest[0],))
        if not moved:
            finished.append((current, used))

    for order in orders:
        extend(position, order, ())
    most = max(len(used) for _, used in finished)
    best = [(p, used) for p, used in finished if len(used) == most]
    if most == 1 and dice[0] != dice[1]:
        high = [(p, used) for p, used in best if used[0] == max(dice)]
        best = high or best
    return {p for p, _ in best}


def most_dice(position: Position, dice: tuple[int, int]) -> int:
    """How many dice the longest sequence of legal single moves uses, in any order."""
    orders = [(dice[0],) * 4] if dice[0] == dice[1] else [dice, (dice[1], dice[0])]

    def deepest(current: Position, rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        best = 0
        for origin in range(25, 0, -1):
            after = _single(current, origin, rest[0])
            if after is not None:
                best = max(best, 1 + deepest(after, rest[1:]))
        return best

    return max(deepest(position, order) for order in orders)
