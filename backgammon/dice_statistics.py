"""How the site's dice have actually fallen, site-wide and per player, against fair dice.

Every roll is a logged ``GameAction`` of kind ``roll`` whose ``data`` holds the dice: a player's
roll has the roller's side, an opening roll (``side`` empty) holds Black's die, then White's. The
counts are aggregated in the database (GROUP BY the two dice), so a page costs a few queries
whatever the number of games; the site-wide figures are also cached for a few minutes, since
they change slowly and cover the whole table.

Site-wide, an opening roll counts as a roll like any other (both dice come from the same keyed
table). Per player, a roll counts for the player who rolled it; of an opening roll only the
player's own die counts, among the faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet

from backgammon.chi_square import ChiSquare, chi_square_test
from backgammon.engine import Side
from backgammon.models import GameAction

__all__ = [
    "DISTINCT_ROLLS",
    "SITE_CACHE_KEY",
    "SITE_CACHE_SECONDS",
    "DiceReport",
    "DiceTally",
    "player_report",
    "site_report",
]

SITE_CACHE_KEY = "dice-statistics:site"
SITE_CACHE_SECONDS = 300

DISTINCT_ROLLS: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in range(6, 0, -1) for low in range(high, 0, -1)
)
"""The 21 rolls players tell apart, higher die first: 6-6, 6-5, ... 1-1."""


@dataclass(frozen=True, slots=True)
class DiceTally:
    """Raw counts: rolls by (higher, lower) die, and single die faces 1..6."""

    rolls: dict[tuple[int, int], int]
    faces: dict[int, int]

    @classmethod
    def empty(cls) -> DiceTally:
        return cls({roll: 0 for roll in DISTINCT_ROLLS}, {face: 0 for face in range(1, 7)})

    def add_rolls(self, rows: Any) -> None:
        """Add rows of (first die, second die, count); each roll gives two faces."""
        for first, second, count in rows:
            first, second = int(first), int(second)
            self.rolls[(max(first, second), min(first, second))] += count
            self.faces[first] += count
            self.faces[second] += count

    def add_faces(self, rows: Any) -> None:
        for face, count in rows:
            self.faces[int(face)] += count


@dataclass(frozen=True, slots=True)
class Row:
    """One bar of a chart and one line of its table."""

    label: str
    observed: int
    expected: float

    @property
    def share(self) -> float:
        """Observed over expected, in percent (100 is exactly as often as fair dice)."""
        return 100 * self.observed / self.expected if self.expected else 0.0


@dataclass(frozen=True, slots=True)
class Section:
    """A distribution and its chi-square test (None while there are no rolls to test)."""

    rows: tuple[Row, ...]
    test: ChiSquare | None


@dataclass(frozen=True, slots=True)
class DiceReport:
    rolls_total: int
    faces_total: int
    rolls: Section
    faces: Section
    doubles: Section


def _section(rows: list[Row]) -> Section:
    total = sum(row.observed for row in rows)
    if not total:
        return Section(tuple(rows), None)
    return Section(tuple(rows), chi_square_test([r.observed for r in rows], [r.expected for r in rows]))


def report_from(tally: DiceTally) -> DiceReport:
    """Observed against expected counts for fair dice, and the three chi-square tests."""
    rolls_total = sum(tally.rolls.values())
    faces_total = sum(tally.faces.values())
    roll_rows = [
        Row(f"{high}-{low}", tally.rolls[(high, low)], rolls_total * (1 if high == low else 2) / 36)
        for high, low in DISTINCT_ROLLS
    ]
    face_rows = [Row(str(face), tally.faces[face], faces_total / 6) for face in range(1, 7)]
    doubles = sum(count for (high, low), count in tally.rolls.items() if high == low)
    double_rows = [Row("Doubles", doubles, rolls_total / 6),
                   Row("Other rolls", rolls_total - doubles, rolls_total * 5 / 6)]
    return DiceReport(rolls_total, faces_total, _section(roll_rows), _section(face_rows),
                      _section(double_rows))


def _by_dice(actions: QuerySet[GameAction]) -> Any:
    return (actions.values_list("data__dice__0", "data__dice__1")
            .annotate(count=Count("pk")).order_by())


def _by_die(actions: QuerySet[GameAction], index: int) -> Any:
    return actions.values_list(f"data__dice__{index}").annotate(count=Count("pk")).order_by()


def site_tally() -> DiceTally:
    """Every roll on the site, opening rolls included: one query."""
    tally = DiceTally.empty()
    tally.add_rolls(_by_dice(GameAction.objects.filter(kind="roll")))
    return tally


def player_tally(user: Any) -> DiceTally:
    """The rolls ``user`` rolled, plus their own die of each opening roll: three queries."""
    tally = DiceTally.empty()
    rolls = GameAction.objects.filter(kind="roll")
    own = rolls.filter(Q(side=Side.BLACK, game__black=user) | Q(side=Side.WHITE, game__white=user))
    tally.add_rolls(_by_dice(own))
    opening = rolls.filter(side__isnull=True)
    tally.add_faces(_by_die(opening.filter(game__black=user), 0))
    tally.add_faces(_by_die(opening.filter(game__white=user), 1))
    return tally


def site_report() -> DiceReport:
    """The site-wide report, from a tally cached for ``SITE_CACHE_SECONDS``."""
    tally = cache.get(SITE_CACHE_KEY)
    if not isinstance(tally, DiceTally):
        tally = site_tally()
        cache.set(SITE_CACHE_KEY, tally, SITE_CACHE_SECONDS)
    return report_from(tally)


def player_report(user: Any) -> DiceReport:
    return report_from(player_tally(user))
