"""Watching games: the list of games in progress anyone may watch, and each player's wish to keep
their game private (then nobody but its two players sees it, here or on its pages)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from backgammon.engine import Side
from backgammon.models import Game
from backgammon.signals import game_made_private

from .refusals import Refusal, Rejected

__all__ = ["PrivacyRejected", "game_set_private", "games_to_watch"]


class PrivacyRejected(Rejected):
    """A privacy change that may not happen; nothing is changed."""


def games_to_watch() -> QuerySet[Game]:
    """Games in progress that neither player made private, latest activity first."""
    return (Game.objects.filter(status=Game.Status.ACTIVE, private_black=False, private_white=False)
            .select_related("black", "white").order_by("-updated_at", "-pk"))


def game_set_private(*, game_id: int, user: Any, private: bool) -> Game:
    """Record ``user``'s wish that the game be private (or no longer); the game is private while
    either player wishes it, so one player cannot open a game the other closed.

    The row lock keeps two toggles (the player's two tabs, or both players at once) from losing
    each other's wish; the update leaves ``updated_at`` alone, as nothing happened in the game.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise PrivacyRejected("There is no such game.", Refusal.NOT_FOUND)
        side = game.side_of(user)
        if side is None:
            kind = Refusal.NOT_FOUND if game.is_private else Refusal.NOT_PLAYER
            raise PrivacyRejected("Only the game's players can make it private.", kind)
        field = "private_black" if side is Side.BLACK else "private_white"
        was_private = game.is_private
        Game.objects.filter(pk=game.pk).update(**{field: private})
        setattr(game, field, private)
        if game.is_private and not was_private:  # its watchers' open pages must hear no more
            transaction.on_commit(partial(game_made_private.send, sender=Game, game_id=game.pk,
                                          player_ids=(game.black_id, game.white_id)))
    return game
