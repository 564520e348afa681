"""Who may see a game's pages: anyone logged in for a public game, only its players for a game
either player made private (services.watching)."""

from __future__ import annotations

from django.http import Http404

from backgammon.models import Game

__all__ = ["visible_game_or_404"]


def visible_game_or_404(game_id: int, user: object) -> Game:
    """The game, if this user may see it: anyone for a public game, only its players for a
    private one (others get the same 404 as for a game that does not exist)."""
    game = Game.objects.select_related("black", "white", "actor").filter(pk=game_id).first()
    if game is None or not game.visible_to(user):
        raise Http404("There is no such game.")
    return game
