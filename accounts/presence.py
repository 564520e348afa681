"""Who is here: each signed-in request marks its player as seen, at most once a minute.

The session (already loaded to know the user) remembers when the player was last marked, so a
request costs no query at all, and once a minute one UPDATE of the profile plus the session's
own save; "Who is here?" reads Profile.last_seen.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import Profile

__all__ = ["SEEN_EVERY", "SeenMiddleware", "here_now", "mark_seen"]

SEEN_EVERY = timedelta(seconds=60)
_SESSION_KEY = "presence_marked_at"


def mark_seen(user_id: int) -> None:
    """Record that the player is here now."""
    Profile.objects.filter(user_id=user_id).update(last_seen=timezone.now())


def here_now() -> QuerySet[Profile]:
    """Profiles of the players seen in the last ``PRESENCE_MINUTES`` minutes, latest first."""
    since = timezone.now() - timedelta(minutes=getattr(settings, "PRESENCE_MINUTES", 10))
    return Profile.objects.filter(last_seen__gte=since, user__is_active=True).order_by("-last_seen")


class SeenMiddleware:
    """Marks the signed-in player as seen (after the view, so a refused or missing page still
    counts), except when the server failed: a 503 is usually the database out of reach, and
    marking would wait for it a second time (a pooled connection's timeout, 2 s) before the
    answer goes out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code >= 500:
            return response
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not hasattr(request, "session"):
            return response
        if request.session.session_key is None:
            # Signed in without a session (an API token): never start one just for this; the
            # shared cache remembers the minute instead.
            if cache.add(f"seen:{user.pk}", 1, timeout=int(SEEN_EVERY.total_seconds())):
                mark_seen(user.pk)
            return response
        now = timezone.now().timestamp()
        if now - request.session.get(_SESSION_KEY, 0) >= SEEN_EVERY.total_seconds():
            mark_seen(user.pk)
            request.session[_SESSION_KEY] = now
        return response
