"""Who may see a game's pages: anyone logged in for a public game, only its players for a game
either player made private (services.watching)."""

from __future__ import annotations

from django.http import Http404

from backgammon.models import Game

__all__ = ["known_actor", "visible_game_or_404"]


def visible_game_or_404(game_id: int, user: object) -> Game:
    """The game, if this user may see it: anyone for a public game, only its players for a
    private one (others get the same 404 as for a game that does not exist)."""
    # Sliced rather than first(), whose ORDER BY costs more to build than the row takes to read.
    found = list(Game.objects.select_related("black", "white").filter(pk=game_id)[:1])
    if not found or not found[0].visible_to(user):
        raise Http404("There is no such game.")
    return known_actor(found[0])


def known_actor(game: Game) -> Game:
    """The player to act is one of the two players already read: no join, no query for them."""
    if game.actor_id is not None:
        game.actor = game.black if game.actor_id == game.black_id else game.white
    return game
