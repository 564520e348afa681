"""The menu bar's two counts, PLAY (games waiting for the player) and TALK (unread messages):
what /menu-counts/ answers (gamesite/views.py) and what a pushed status event carries
(backgammon/live.py), from the same template."""

from __future__ import annotations

from typing import Any

from backgammon.services import games_awaiting_count
from messaging.services import unread_count

__all__ = ["MENU_COUNTS_TEMPLATE", "menu_counts_context"]

MENU_COUNTS_TEMPLATE = "partials/menu_counts.html"


def menu_counts_context(user: Any) -> dict[str, int]:
    return {"games_awaiting_count": games_awaiting_count(user), "unread_messages_count": unread_count(user)}
