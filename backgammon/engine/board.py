"""The board: checkers of both sides, seen from the player on roll.

Each side's checkers are a tuple of 25 counts in that side's own numbering, as GNU Backgammon keeps
them: index ``p - 1`` holds the checkers on point ``p`` (1..24, the side's home board is 1..6) and
index 24 (``BAR``) holds the checkers on the bar. Checkers not on the board are borne off. A checker
on my point ``p`` stands on my opponent's point ``25 - p``.

>>> start = Position.initial()
>>> start.pip_count(), start.borne_off()
((167, 167), (0, 0))
>>> start.swapped() == start
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Generic, TypeAlias, TypeVar

from .errors import InvalidPositionError

__all__ = [
    "BAR",
    "CHECKERS",
    "NACKGAMMON_LAYOUT",
    "OFF",
    "RACE_LAYOUT",
    "STANDARD_LAYOUT",
    "Layout",
    "PerSide",
    "Point",
    "Position",
    "Side",
]

Point: TypeAlias = int
"""A point in the mover's own numbering: 1..24, ``BAR`` (25) or ``OFF`` (0)."""

BAR: Point = 25
OFF: Point = 0
CHECKERS = 15
_BAR_INDEX = 24

Layout: TypeAlias = tuple[int, ...]
"""25 checker counts for one side in its own numbering: points 1..24, then the bar."""


def _layout(points: dict[int, int]) -> Layout:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


STANDARD_LAYOUT: Layout = _layout({24: 2, 13: 5, 8: 3, 6: 5})
NACKGAMMON_LAYOUT: Layout = _layout({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})
RACE_LAYOUT: Layout = _layout({BAR: 15})


class Side(IntEnum):
    """The two players of a game, numbered as in GNU Backgammon's Match ID (0 and 1).

    ItsYourTurn calls them Black (who takes the first turn: the opening roll) and White.
    """

    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PerSide(Generic[T]):
    """One value for each side, in place of ``black_x`` / ``white_x`` pairs.

    >>> score = PerSide(3, 1)
    >>> score[Side.WHITE]
    1
    >>> score.replace(Side.WHITE, 2)
    PerSide(black=3, white=2)
    """

    black: T
    white: T

    def __getitem__(self, side: Side) -> T:
        # Strict on purpose: Django templates try item lookup first (``names.black`` becomes
        # ``names["black"]``), and a lenient lookup would quietly answer with White's value.
        if side is Side.BLACK:
            return self.black
        if side is Side.WHITE:
            return self.white
        raise KeyError(side)

    def replace(self, side: Side, value: T) -> PerSide[T]:
        return PerSide(value, self.white) if side is Side.BLACK else PerSide(self.black, value)

    def __iter__(self) -> Iterator[T]:
        yield self.black
        yield self.white


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers, from the point of view of the player on roll ("me").

    ``mine_waiting`` and ``theirs_waiting`` matter only in the race variants (BR, BS): how many of
    each side's bar checkers have been there since the start and were never hit. Such checkers may
    wait while others move; a hit checker (bar count above the waiting count) must enter first.
    They are not part of the GNU Backgammon Position ID.
    """

    mine: Layout
    theirs: Layout
    mine_waiting: int = 0
    theirs_waiting: int = 0

    def __post_init__(self) -> None:
        for name, layout, waiting in (
            ("player on roll", self.mine, self.mine_waiting),
            ("opponent", self.theirs, self.theirs_waiting),
        ):
            if len(layout) != 25:
                raise InvalidPositionError(f"{name}: a side needs 25 counts (24 points and the bar)")
            if min(layout) < 0:
                raise InvalidPositionError(f"{name}: a point cannot hold a negative number of checkers")
            if sum(layout) > CHECKERS:
                raise InvalidPositionError(f"{name} has {sum(layout)} checkers; a side has 15")
            if not 0 <= waiting <= layout[_BAR_INDEX]:
                raise InvalidPositionError(f"{name}: {waiting} checkers cannot wait on a bar of {layout[_BAR_INDEX]}")
        for point in range(1, 25):
            if self.mine[point - 1] and self.theirs[24 - point]:
                raise InvalidPositionError(f"Both sides have checkers on point {point} of the player on roll")

    @classmethod
    def initial(cls, layout: Layout = STANDARD_LAYOUT) -> Position:
        """The starting position of a variant whose sides both start on ``layout``."""
        waiting = layout[_BAR_INDEX]
        return cls(layout, layout, waiting, waiting)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID; the player on roll is the one gnubg says.

        >>> Position.from_id("4HPwATDgc/ABMA") == Position.initial()
        True
        """
        from .position_id import decode_position_id

        theirs, mine = decode_position_id(position_id)
        return cls(mine, theirs)

    @property
    def id(self) -> str:
        """The GNU Backgammon Position ID of this position, player on roll as gnubg defines it."""
        from .position_id import encode_position_id

        return encode_position_id(self.theirs, self.mine)

    def swapped(self) -> Position:
        """The same board with the other player on roll."""
        return Position(self.theirs, self.mine, self.theirs_waiting, self.mine_waiting)

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (mine, theirs)."""
        return CHECKERS - sum(self.mine), CHECKERS - sum(self.theirs)

    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (mine, theirs)."""
        return self.mine[_BAR_INDEX], self.theirs[_BAR_INDEX]

    def pip_count(self) -> tuple[int, int]:
        """Pips each side needs to bear everything off: (mine, theirs). A bar checker counts 25."""
        return _pips(self.mine), _pips(self.theirs)

    def all_home(self) -> bool:
        """True when every checker of the player on roll still on the board is on points 1..6."""
        return not any(self.mine[6:])

    def __repr__(self) -> str:
        extra = ""
        if self.mine_waiting or self.theirs_waiting:
            extra = f", mine_waiting={self.mine_waiting}, theirs_waiting={self.theirs_waiting}"
        return f"Position.from_id({self.id!r}){extra}"


def _pips(layout: Layout) -> int:
    return sum(count * (index + 1) for index, count in enumerate(layout))
