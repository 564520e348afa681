"""The rules a match is played under, and how a finished game is scored.

>>> from backgammon.engine.variants import find_variant
>>> rules = MatchRules(find_variant("BP"), 5)
>>> rules.points(WinKind.GAMMON, cube_value=2, cube_turned=True)
4
>>> MatchRules(find_variant("BX"), 0).points(WinKind.BACKGAMMON, cube_value=1, cube_turned=False)
1
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .board import BAR, CHECKERS, Position, Side
from .errors import InvalidRulesError
from .variants import MAX_MATCH_LENGTH, Variant

__all__ = ["MAX_CUBE", "GameResult", "MatchRules", "WinKind", "bear_off_win"]

MAX_CUBE = 4096
"""The highest cube value, as in GNU Backgammon."""

_MAX_AUTOMATIC_DOUBLES = 6


class WinKind(StrEnum):
    """How a game ended."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    DRAW = "draw"


_MULTIPLIER = {WinKind.SINGLE: 1, WinKind.GAMMON: 2, WinKind.BACKGAMMON: 3}


@dataclass(frozen=True, slots=True)
class MatchRules:
    """A variant, a match length (0: a single game) and the money-play options.

    ``automatic_doubles`` caps how many tied opening rolls turn the cube (money play only).

    >>> from backgammon.engine.variants import find_variant
    >>> MatchRules(find_variant("BX"), 0, beavers=True)
    Traceback (most recent call last):
    ...
    backgammon.engine.errors.InvalidRulesError: The Jacoby rule, beavers and automatic doubles belong to money play
    """

    variant: Variant
    match_length: int
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            raise InvalidRulesError(
                f"A match is 1 to {MAX_MATCH_LENGTH} points long (0 for a single game), not {self.match_length}"
            )
        money_options = self.jacoby or self.beavers or self.automatic_doubles
        if money_options and not (self.variant.money and self.match_length == 0):
            raise InvalidRulesError(
                "The Jacoby rule, beavers and automatic doubles belong to money play"
            )
        if not 0 <= self.automatic_doubles <= _MAX_AUTOMATIC_DOUBLES:
            raise InvalidRulesError(
                f"Automatic doubles are capped at 0 to {_MAX_AUTOMATIC_DOUBLES}"
            )

    @property
    def money(self) -> bool:
        return self.variant.money and self.match_length == 0

    def points(self, kind: WinKind, *, cube_value: int, cube_turned: bool) -> int:
        """What a SINGLE, GAMMON or BACKGAMMON win (or a resignation of that size) scores.

        Gammons count where the variant counts them, except that under the Jacoby rule they count
        only once a double has been taken in the game.
        """
        multiplier = _MULTIPLIER[kind]
        if not self.variant.counts_gammons or (self.jacoby and not cube_turned):
            multiplier = 1
        return multiplier * cube_value


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of one game: ``winner`` is None only for a draw; ``points`` is what it added."""

    winner: Side | None
    kind: WinKind
    points: int
    game_number: int


def bear_off_win(position: Position) -> WinKind:
    """How big the win of the player on roll is, who has just borne off the last checker.

    A gammon when the loser has borne off nothing; a backgammon when the loser also still has a
    checker on the bar or in the winner's home board (the loser's points 19..24).

    >>> from backgammon.engine.board import STANDARD_LAYOUT
    >>> bear_off_win(Position((0,) * 25, STANDARD_LAYOUT))
    <WinKind.BACKGAMMON: 'backgammon'>
    """
    loser = position.theirs
    if sum(loser) < CHECKERS:
        return WinKind.SINGLE
    if loser[BAR - 1] or any(loser[18:24]):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON
