"""Who is here: each signed-in request marks its player as seen, at most once a minute, and so
does each open page's live stream while it stays open (backgammon/views/live.py), so a player
reading a page without clicking is here too.

The app server's process remembers whom it marked (or found marked) in the last minute, so most
requests cost nothing; otherwise the shared cache's mark (one ``add``) tells the processes and
servers apart which of them writes, and once a minute one UPDATE of the profile. The session is
left alone: saving it once a minute per player was a database write of its own. "Who is here?"
reads Profile.last_seen.

Live play asks more (``here_for_live``): a live offer or Auto-Match request starts a match at once,
so it counts only the players seen in the last ``LIVE_PRESENCE_SECONDS`` (2 minutes): about as
soon as a player closes their last page, their live offers leave the Waiting Room, rather than
after "Who is here?"'s ten minutes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import Profile

__all__ = [
    "SEEN_EVERY", "SeenMiddleware", "forget_marks_here", "here_for_live", "here_for_live_since", "here_now", "keep_seen",
    "mark_here_for_live", "mark_seen", "note_seen", "seen_key",
]

SEEN_EVERY = timedelta(seconds=60)
# Player id -> when this process last marked them or found them marked (a timestamp). Forgotten
# whole when it grows past _MARKS_KEPT: the price is one cache ``add`` per player.
_marked_here: dict[int, float] = {}
_MARKS_KEPT = 100_000


def seen_key(user_id: int) -> str:
    return f"seen:{user_id}"


def forget_marks_here() -> None:
    """Forget whom this process marked (each test starts from nothing, as with the cache)."""
    _marked_here.clear()


def mark_seen(user_id: int) -> None:
    """Record that the player is here now."""
    Profile.objects.filter(user_id=user_id).update(last_seen=timezone.now())


def here_now() -> QuerySet[Profile]:
    """Profiles of the players seen in the last ``PRESENCE_MINUTES`` minutes, latest first."""
    since = timezone.now() - timedelta(minutes=getattr(settings, "PRESENCE_MINUTES", 10))
    return Profile.objects.filter(last_seen__gte=since, user__is_active=True).order_by("-last_seen")


def here_for_live() -> QuerySet[Profile]:
    """Profiles of the players seen in the last ``LIVE_PRESENCE_SECONDS``: those with a page of
    the site open now (its stream marks them at least every 90 s), or a request that recent."""
    return Profile.objects.filter(last_seen__gte=here_for_live_since(), user__is_active=True)


def here_for_live_since() -> datetime:
    """The earliest a player was last seen to be ``here_for_live`` now."""
    return timezone.now() - timedelta(seconds=settings.LIVE_PRESENCE_SECONDS)


def mark_here_for_live(user_id: int) -> None:
    """A live offer or Auto-Match request marks its player here before it pairs them. As every
    request marks (``note_seen``, at most once a minute): a mark at most ``SEEN_EVERY`` old is
    here for live play (``LIVE_PRESENCE_SECONDS``, at least 90 by the settings' check), so a player
    whose page marked them a moment ago is not written again while they wait to be paired."""
    note_seen(user_id)


def note_seen(user_id: int) -> None:
    """The player is here: marked at most once a minute (``SEEN_EVERY``) across the servers."""
    now = timezone.now().timestamp()
    every = SEEN_EVERY.total_seconds()
    if now - _marked_here.get(user_id, -every) < every:
        return
    if len(_marked_here) >= _MARKS_KEPT:
        _marked_here.clear()
    _marked_here[user_id] = now
    # One of the processes that see the player this minute writes; the others find the mark.
    if cache.add(seen_key(user_id), 1, timeout=int(every)):
        mark_seen(user_id)


def keep_seen(user_id: int) -> None:
    """An open page's stream says its player is still here (every ``KEEPALIVE_SECONDS``, 30): a
    write when nobody marked them this minute. Unlike ``note_seen`` it asks the shared cache each
    time, so that a mark another server made and then stopped renewing is taken over within the
    next half-minute: the player's ``last_seen`` is never more than 90 s old while a page is open."""
    if cache.add(seen_key(user_id), 1, timeout=int(SEEN_EVERY.total_seconds())):
        mark_seen(user_id)


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
        if user is not None and user.is_authenticated:
            note_seen(user.pk)
        return response
