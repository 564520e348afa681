"""How far players' vacations pause the games of a ladder or a tournament.

Registered with backgammon's clocks (``register_vacation_policy``) from ``receivers.connect``:
backgammon asks about a game and never learns what a ladder or a tournament is.
"""

from __future__ import annotations

from backgammon.models import Game
from tournaments.models import LadderMatch, TournamentMatch

__all__ = ["competition_vacation_cap"]


def competition_vacation_cap(game: Game) -> int | None:
    """The vacation cap in days of the ladder or tournament this game belongs to (None: no cap,
    or no competition)."""
    caps = [
        *LadderMatch.objects.filter(challenge__game=game)
        .values_list("ladder__vacation_days_cap", flat=True),
        *TournamentMatch.objects.filter(game=game)
        .values_list("tournament__vacation_days_cap", flat=True),
    ]
    return min((cap for cap in caps if cap is not None), default=None)
