"""Tell backgammon which games are ladder or tournament games (backgammon.competitions)."""

from __future__ import annotations

from django.urls import reverse

from backgammon.competitions import Competition
from tournaments.models import LadderMatch, TournamentMatch

__all__ = ["competitions_of_games"]


def competitions_of_games(game_ids: list[int]) -> dict[int, Competition]:
    """{game id: Competition} for the ladder and tournament games among ``game_ids``: two queries."""
    found: dict[int, Competition] = {}
    ladders_page = reverse("tournaments:ladders")
    ladder_rows = LadderMatch.objects.filter(challenge__game_id__in=game_ids).values_list(
        "challenge__game_id", "ladder_id", "ladder__name"
    )
    for game_id, ladder_id, name in ladder_rows:
        found[game_id] = Competition("ladder", name, f"{ladders_page}#ladder-{ladder_id}")
    tournament_rows = TournamentMatch.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "tournament_id", "tournament__name"
    )
    for game_id, tournament_id, name in tournament_rows:
        found[game_id] = Competition("tournament", name, reverse("tournaments:tournament", args=[tournament_id]))
    return found
