"""Who may see a game's pages: anyone logged in for a public game, only its players for a game
either player made private (services.watching)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import Http404

from accounts.backends import kept_user, signed_in_user_key
from backgammon.models import Game
from gamesite.kept import ask_together

__all__ = ["NoGameToShow", "known_actor", "visible_game_or_404"]


class NoGameToShow(Http404):
    """No game of this id that this user may see: there is none, or its players keep it private.
    One answer for both (backgammon/no_game_page.py shows the site's page for it, a 404), so an
    outsider learns nothing of a private game, not even that it exists."""

    def __init__(self, game_id: int) -> None:
        super().__init__("There is no such game.")
        self.game_id = game_id


def visible_game_or_404(game_id: int, user: object,
                        also_kept: Callable[[Game], Iterable[str]] | None = None) -> Game:
    """The game with its two players, if this user may see it: anyone for a public game, only
    its players for a private one (others get the same 404 as for a game that does not exist).

    With kept answers (Redis) the players are the kept users (accounts.backends.kept_user),
    asked of the cache in one trip with whatever else the page will show (``also_kept(game)``,
    gamesite.kept.ask_together) rather than joined to the game's row: building that join's SQL
    cost more than the row took to read. Otherwise the join, one query."""
    if settings.KEPT_ANSWERS:
        game = _game_with_kept_players(game_id, also_kept)
    else:
        # Sliced rather than first(), whose ORDER BY costs more to build than the row takes to read.
        found = list(Game.objects.select_related("black", "white").filter(pk=game_id)[:1])
        game = found[0] if found else None
    if game is None or not game.visible_to(user):
        raise NoGameToShow(game_id)
    return known_actor(game)


def _game_with_kept_players(game_id: int, also_kept: Callable[[Game], Iterable[str]] | None) -> Game | None:
    found = list(Game.objects.filter(pk=game_id)[:1])
    if not found:
        return None
    game = found[0]
    ask_together([signed_in_user_key(game.black_id), signed_in_user_key(game.white_id),
                  *(also_kept(game) if also_kept is not None else ())])
    black, white = kept_user(game.black_id), kept_user(game.white_id)
    if black is not None and white is not None:  # never otherwise: a player's row cannot be deleted
        game.black, game.white = black, white
    return game


def known_actor(game: Game) -> Game:
    """The player to act is one of the two players already read: no join, no query for them."""
    if game.actor_id is not None:
        game.actor = game.black if game.actor_id == game.black_id else game.white
    return game
