"""Who has a page open: an open page's live stream marks its player as listening
(backgammon/views/live.py), under these keys in the shared cache, while it stays open."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache

from backgammon.models import Game
from gamesite.kept import kept_of_these

__all__ = ["listening_key", "opponent_here"]

log = logging.getLogger(__name__)


def listening_key(user_id: int, game_id: int | None = None) -> str:
    """The mark of ``user_id``'s open pages: any page, or (with ``game_id``) that game's page."""
    return f"live:listening:{user_id}" if game_id is None else f"live:listening:{user_id}:{game_id}"


def opponent_here(game: Game, viewer_id: int) -> bool:
    """Whether the opponent of player ``viewer_id`` has this game's page open now (the mark is
    asked in the page's one trip to the cache: game_reads.keys_of_page)."""
    key = listening_key(game.white_id if viewer_id == game.black_id else game.black_id, game.pk)
    try:
        marks = kept_of_these([key]) if settings.KEPT_ANSWERS else cache.get_many([key])
    except Exception:  # the cache out of reach: nobody can tell, and the page still shows
        log.warning("could not read whether the opponent is here", exc_info=True)
        return False
    return bool(marks.get(key))
