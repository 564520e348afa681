"""How often a player may write to the waiting room and auto-match (settings.LOBBY_WRITE_RATE):
each write may start games and runs the pairing, so a script cannot hammer it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

__all__ = ["LOBBY_TOO_FAST", "lobby_write_refused"]

LOBBY_TOO_FAST = "Too many waiting-room and auto-match changes just now: wait a minute and try again."


def lobby_write_refused(request: HttpRequest, user: Any) -> bool:
    """Count this write against the player; True when over the rate (the page says so, the
    API answers 429)."""
    return is_ratelimited(
        request,
        group="lobby-write",
        key=lambda _group, _request: str(user.pk),
        rate=settings.LOBBY_WRITE_RATE,
        increment=True,
    )
