"""The variants as data: one frozen record each, in a registry keyed by its persisted code.

Movement is the same in all of them; they differ in the starting layout, the cube, what a win
scores, and (BA) who wins. The codes are ItsYourTurn's, plus ``MP`` for a money game.

>>> find_variant("bp").match_length
5
>>> [v.code for v in VARIANTS.values() if v.uses_cube]
['BP', 'BS', 'BO', 'B9', 'MP']
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import NACKGAMMON_LAYOUT, RACE_LAYOUT, STANDARD_LAYOUT, Layout
from .errors import EngineError

__all__ = ["MAX_MATCH_LENGTH", "VARIANTS", "Variant", "find_variant"]

MAX_MATCH_LENGTH = 25


@dataclass(frozen=True, slots=True)
class Variant:
    code: str
    name: str
    layout: Layout
    """Each side's starting checkers, in its own numbering."""
    uses_cube: bool
    counts_gammons: bool
    """False where a win is a win (1 point), as in ItsYourTurn's BX."""
    match_length: int
    """Points to win; 0 for a single game (BX, BA, BN, BR, and the money game)."""
    last_off_loses: bool = False
    """Anti-backgammon: the first to bear off all checkers loses."""
    draw_after_moves: int = 0
    """A game still running after this many moves per side is a draw (BA: 500); 0 for never."""
    money: bool = False
    """A single game played for a stake per point, with Jacoby, beavers and automatic doubles."""
    summary: str = ""

    @property
    def is_match(self) -> bool:
        return self.match_length > 0

    @property
    def starts_on_bar(self) -> bool:
        return self.layout == RACE_LAYOUT


_ALL = (
    Variant("BX", "Backgammon", STANDARD_LAYOUT, uses_cube=False, counts_gammons=False, match_length=0,
            summary="Classic backgammon, one game, no cube: the first to bear off all checkers wins."),
    Variant("BP", "Pro Backgammon", STANDARD_LAYOUT, uses_cube=True, counts_gammons=True, match_length=5,
            summary="A match to 5 points with the doubling cube, gammons and backgammons, and the Crawford rule."),
    Variant("BA", "Anti-Backgammon", STANDARD_LAYOUT, uses_cube=False, counts_gammons=False, match_length=0,
            last_off_loses=True, draw_after_moves=500,
            summary="The first to bear off all checkers loses; 500 moves a side is a draw. No cube."),
    Variant("BN", "Nackgammon", NACKGAMMON_LAYOUT, uses_cube=False, counts_gammons=False, match_length=0,
            summary="Backgammon from Nack Ballard's starting position, one game, no cube."),
    Variant("BR", "Backgammon Race", RACE_LAYOUT, uses_cube=False, counts_gammons=False, match_length=0,
            summary="All checkers start on the bar; a hit checker must enter before anything else moves. No cube."),
    Variant("BS", "Pro Backgammon Race", RACE_LAYOUT, uses_cube=True, counts_gammons=True, match_length=5,
            summary="Backgammon Race as a match to 5 with the cube and the Crawford rule."),
    Variant("BO", "Pro Nackgammon", NACKGAMMON_LAYOUT, uses_cube=True, counts_gammons=True, match_length=5,
            summary="Nackgammon as a match to 5 with the cube and the Crawford rule."),
    Variant("B9", "Pro Backgammon-9", STANDARD_LAYOUT, uses_cube=True, counts_gammons=True, match_length=9,
            summary="Pro Backgammon to 9 points."),
    Variant("MP", "Money game", STANDARD_LAYOUT, uses_cube=True, counts_gammons=True, match_length=0,
            money=True,
            summary="One game with the cube for a stake per point; optional Jacoby rule, beavers and automatic doubles."),
)

VARIANTS: dict[str, Variant] = {variant.code: variant for variant in _ALL}


def find_variant(code: str) -> Variant:
    """The variant with this code, in any case; a clear error for an unknown one."""
    try:
        return VARIANTS[code.strip().upper()]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise EngineError(f"Unknown variant {code!r}; the variants are {known}") from None
