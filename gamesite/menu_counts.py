"""The menu bar's two counts, PLAY (games waiting for the player) and TALK (unread messages):
what /menu-counts/ answers (gamesite/views.py) and what a pushed status event carries
(backgammon/live.py), from the same template.

The markup depends on the two numbers alone, so each process draws it once per pair and keeps
it: a move pushes both players' counts, and most players have the same few small numbers."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.urls import get_script_prefix

from backgammon.services import games_awaiting_count
from backgammon.services.queries import awaiting_count_key
from messaging.services import unread_count, unread_key

__all__ = ["MENU_COUNTS_TEMPLATE", "menu_counts_context", "menu_counts_keys", "menu_counts_markup"]

MENU_COUNTS_TEMPLATE = "partials/menu_counts.html"


def menu_counts_context(user: Any) -> dict[str, int]:
    return {"games_awaiting_count": games_awaiting_count(user), "unread_messages_count": unread_count(user)}


def menu_counts_keys(user_id: Any) -> list[str]:
    """The kept answers (gamesite.kept) behind the two counts: a page asks for them in the same
    trip to the cache as the rest of what it shows."""
    return [awaiting_count_key(user_id), unread_key(user_id)]


def menu_counts_markup(counts: dict[str, int]) -> str:
    """MENU_COUNTS_TEMPLATE drawn with ``counts`` (menu_counts_context's)."""
    return _drawn(get_script_prefix(), counts["games_awaiting_count"], counts["unread_messages_count"])


@lru_cache(maxsize=1024)
def _drawn(prefix: str, games_awaiting: int, unread: int) -> str:  # the prefix is part of its URL
    return render_to_string(MENU_COUNTS_TEMPLATE,
                            {"games_awaiting_count": games_awaiting, "unread_messages_count": unread})
