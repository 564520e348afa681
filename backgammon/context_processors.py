"""Template context for every page: the PLAY menu's count of games waiting for me."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from backgammon.services import games_awaiting_count


def play_menu(request: HttpRequest) -> dict[str, Any]:
    """``games_awaiting_count``: games where the logged-in player must act (0 for visitors).

    Lazy, so a page that does not show the menu costs no query.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"games_awaiting_count": 0}
    return {"games_awaiting_count": SimpleLazyObject(lambda: games_awaiting_count(user))}
