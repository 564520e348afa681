"""Template context for every page: the TALK menu's count of unread messages."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from messaging.services import unread_count


def talk_menu(request: HttpRequest) -> dict[str, Any]:
    """``unread_messages_count``: unread messages in the logged-in player's inbox (0 for visitors).

    Lazy, so a page that does not show the menu costs no query, and kept on the request, so a
    page showing it twice (the bar and the menu item) asks once.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_messages_count": 0}

    def count() -> int:
        cached = getattr(request, "_unread_messages_count", None)
        if cached is None:
            cached = unread_count(user)
            request._unread_messages_count = cached  # type: ignore[attr-defined]
        return cached

    return {"unread_messages_count": SimpleLazyObject(count)}
