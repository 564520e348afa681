"""The push channel: a Server-Sent Events stream per open page (htmx's SSE extension connects it
from <body>, see templates/base.html and static/js/live.js).

``/live/`` streams the logged-in player's own events (``status``: their Game status lists, main
screen and menu counts; ``game``: news of their games, with the game region itself for the page
of a game the opponent moved in); ``/live/?game=ID`` is the stream of that game's page: a
watcher's also hears the game's group (``game``: its page asks for its fresh region).
``&topic=NAME`` (up to three) adds the ``changed`` events of a page everybody may see (the
Waiting Room's ``lobby``, ``ladders``, ``tournaments``, ``tournament-ID``, a profile's
``player-ID``; backgammon/live_topics.py); a topic of nothing that exists is refused with 404. What the events carry is
described in backgammon/live.py; what a page shows is decided by the same code whether fetched or
pushed. A game the player may not watch is refused with 404, as an unknown one is (as the game's page
does: an outsider cannot tell that a private game exists), streams
opened beyond LIVE_STREAMS_RATE with 429; when the channel layer (Redis) cannot be reached, or
a WSGI server that cannot hold a stream open serves the site, the answer is 503. A page refused
any of these polls instead.

While it is open, a stream marks its player as listening (live.listening_key, in the cache):
publications render pushed regions and counts only for players who will see them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    StreamingHttpResponse,
)
from django.views.decorators.http import require_GET
from django_ratelimit.core import is_ratelimited

from accounts.computer_players import computer_players
from accounts.presence import keep_seen
from backgammon.live import (
    EVENT_GAME,
    EVENT_PRESENCE,
    LISTENING_SECONDS,
    MESSAGE_TYPE,
    game_group,
    layer_is_shared,
    listening_key,
    live_turn_waiting,
    may_watch,
    user_group,
)
from backgammon.live_topics import MOST_TOPICS, topic_group, topic_mark, topic_refusal
from backgammon.models import Game
from gamesite.page_threads import FINISH_ON_LOOP
from gamesite.redis_guard import RedisUnavailable

__all__ = ["live_events"]

log = logging.getLogger(__name__)

# A comment line this often keeps proxies and browsers from closing an idle stream (nginx's
# default proxy_read_timeout is 60 s), and the page's listening marks are renewed as often.
# Every quiet page costs the app server this check and renewal: at 20 s, 600 bench players'
# pages made up to 30 of them a second, beside their 60 requests.
KEEPALIVE_SECONDS = 30
# How long the browser waits before reconnecting a stream that dropped (the SSE "retry" field).
RECONNECT_MS = 2000
# With the in-memory layer the worker's changes never reach the stream: pages then look
# themselves this often as well (development only; Redis in production).
UNSHARED_LAYER_POLL_SECONDS = 15


# A page refused its stream with 503 polls meanwhile, and tries the stream again this much later.
UNAVAILABLE_RETRY_SECONDS = 30
PLAIN_TEXT = "text/plain; charset=utf-8"


def _unavailable(reason: str) -> HttpResponse:
    response = HttpResponse(reason, status=503, content_type=PLAIN_TEXT)
    response["Retry-After"] = str(UNAVAILABLE_RETRY_SECONDS)
    return response


def _too_many_streams(request: HttpRequest) -> bool:
    return is_ratelimited(request, group="live-streams", key=lambda _group, _request: str(request.user.pk),
                          rate=settings.LIVE_STREAMS_RATE, increment=True)


def _game_for(game_id_text: str, user: Any) -> Game | HttpResponse:
    try:
        game_id = int(game_id_text)
    except ValueError:
        raise Http404("There is no such game.") from None
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404("There is no such game.")
    if not may_watch(game, user):
        raise Http404("There is no such game.")
    return game


@login_required
@require_GET
def live_events(request: HttpRequest) -> HttpResponse:
    """The event stream for one open page (see the module's docstring).

    The request is checked here, in a page thread, as any page is; the stream itself is then held
    on the app server's event loop (gamesite/page_threads.py, FINISH_ON_LOOP), where an open page
    weighs only its coroutine and its connection: none of Django's request, its thread or its
    per-request contexts stays alive while the page waits."""
    user = request.user
    if _too_many_streams(request):
        response = HttpResponse("Too many live-update streams opened just now: this page polls instead.",
                                status=429, content_type=PLAIN_TEXT)
        response["Retry-After"] = "60"
        return response
    groups = [user_group(user.pk)]
    marks = [listening_key(user.pk)]
    presence: Presence | None = None
    shown_game_id: int | None = None
    game_id_text = request.GET.get("game")
    if game_id_text is not None:
        found = _game_for(game_id_text, user)
        if isinstance(found, HttpResponse):
            return found
        shown_game_id = found.pk
        side = found.side_of(user)
        if side is None:
            groups.append(game_group(found.pk))
        else:  # a player hears their own games' news in their own group, the region included
            marks.append(listening_key(user.pk, found.pk))
            if found.is_live and found.is_active:  # the opponent's page shows whether this one is open
                opponent_id = found.player_id(side.other)
                presence = Presence(found.pk, user.pk, opponent_id,
                                    opponent_is_computer=opponent_id in computer_players().ids)
    topics = list(dict.fromkeys(request.GET.getlist("topic")))
    if len(topics) > MOST_TOPICS:
        return HttpResponse(f"At most {MOST_TOPICS} topics a stream.", status=400, content_type=PLAIN_TEXT)
    for topic in topics:
        if topic_refusal(topic, user) is not None:
            raise Http404("There is no such topic.")
        groups.append(topic_group(topic))
        marks.append(topic_mark(topic))  # counted: the topic's events spread its pages' requests
    finish_on_loop = request.META.get(FINISH_ON_LOOP)
    if finish_on_loop is None:
        return _unavailable("Live updates need the ASGI server: this page polls instead.")
    layer = get_channel_layer()
    if layer is None:
        return _unavailable("Live updates are not configured: this page polls instead.")
    # Told at once, as the news would have been had the page been open when the turn came.
    first_news = live_turn_waiting(user.pk, shown_game_id)
    finish_on_loop(functools.partial(_stream, layer, groups, marks, presence, user.pk, first_news))
    # The body is the finisher's: a streamed answer, so that no Content-Length is set for it.
    response = StreamingHttpResponse((), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _stream(layer: BaseChannelLayer, groups: list[str], marks: list[str], presence: Presence | None,
                  player_id: int, first_news: dict[str, Any] | None, start: dict[str, Any], receive: Any,
                  send: Any) -> None:
    """The answer of a checked stream request, on the event loop: its groups joined, ``hello``,
    then the events until the page goes away (see ``_events``)."""
    if start["status"] != 200:  # Django's answer was not the stream after all (an error page)
        await send(start)
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        return
    try:
        channel = await layer.new_channel()
        for group in groups:
            await layer.group_add(group, channel)
    except RedisUnavailable:  # Redis failed a moment ago (logged then): the page polls meanwhile.
        await _send_unavailable(start, send, "Live updates are unavailable just now: this page polls instead.")
        return
    except Exception:  # Redis unreachable: the page polls until it can connect again.
        log.warning("live updates unavailable", exc_info=True)
        await _send_unavailable(start, send, "Live updates are unavailable just now: this page polls instead.")
        return
    await send(start)
    gone = asyncio.ensure_future(_page_gone(receive))
    try:
        async with contextlib.aclosing(_events(layer, channel, marks, gone, presence, player_id,
                                               first_news)) as events:
            async for text in events:
                await send({"type": "http.response.body", "body": text.encode(), "more_body": True})
        if not gone.done():
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        gone.cancel()
        try:
            for group in groups:
                await layer.group_discard(group, channel)
        except Exception:  # Redis gone meanwhile: the group's members expire there by themselves.
            log.info("live stream left its groups uncleaned", exc_info=True)


async def _send_unavailable(start: dict[str, Any], send: Any, reason: str) -> None:
    """``_unavailable``'s answer in place of the stream, once Django has answered for it: its
    headers, but the 503's own type and Retry-After."""
    headers = [(name, value) for name, value in start["headers"] if name not in (b"content-type", b"cache-control")]
    headers += [(b"content-type", PLAIN_TEXT.encode()), (b"retry-after", str(UNAVAILABLE_RETRY_SECONDS).encode())]
    await send({**start, "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": reason.encode(), "more_body": False})


async def _page_gone(receive: Any) -> None:
    """Returns once the browser has closed the connection (the request's body is read already)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _hello() -> str:
    poll = 0 if layer_is_shared() else UNSHARED_LAYER_POLL_SECONDS
    return f"retry: {RECONNECT_MS}\nevent: hello\ndata: {json.dumps({'poll': poll})}\n\n"


async def _events(layer: BaseChannelLayer, channel: str, marks: list[str],
                  gone: asyncio.Future[None], presence: Presence | None = None,
                  player_id: int | None = None, first_news: dict[str, Any] | None = None) -> AsyncIterator[str]:
    """``hello`` first (a page that never sees it is behind a buffering proxy and polls), then
    the events of each message to the page's groups, with a keep-alive comment when quiet,
    until the page is ``gone`` or a message says it is the ``last`` (live.publish_game_made_private).
    While it is open, its listening marks are renewed and its player kept seen (here for live
    play, accounts.presence.keep_seen) every KEEPALIVE_SECONDS."""
    waiting: asyncio.Future[dict[str, Any]] | None = None
    marked_at = 0.0
    checking = False  # a delivery check is on its way to this stream
    try:
        await _in_a_shared_thread(_open_marks, marks)
        marked_at = time.monotonic()
        if presence is not None:
            await _tell_presence(layer, presence, here=True)
        yield _hello()
        if presence is not None and not presence.opponent_is_computer:
            yield await _opponent_presence_now(presence)
        if first_news is not None:  # a live match waits on this player's decision elsewhere
            yield _event_text(EVENT_GAME, first_news)
        while True:
            if time.monotonic() - marked_at >= KEEPALIVE_SECONDS:
                await _in_a_shared_thread(_renew_marks, marks, player_id)
                marked_at = time.monotonic()
            if waiting is None:
                waiting = asyncio.ensure_future(layer.receive(channel))
            done, _ = await asyncio.wait({waiting, gone}, timeout=KEEPALIVE_SECONDS,
                                         return_when=asyncio.FIRST_COMPLETED)
            if gone in done:
                return
            if not done:
                # Quiet: check that messages still reach this stream, by sending it one. A Redis
                # subscription that broke says nothing; the check sent a quiet period ago never
                # came back, or cannot be sent: end the stream, so the browser reconnects (and its
                # page polls while Redis is away), rather than wait on a stream nothing reaches.
                if checking or not await _sent_a_check(layer, channel):
                    log.info("live stream ended: its messages no longer arrive")
                    return
                checking = True
                yield ": still here\n\n"
                continue
            message = waiting.result()
            waiting = None
            if message.get("check"):
                checking = False
                continue
            yield "".join(_event_text(name, data) for name, data in message.get("events") or ())
            if message.get("last"):  # a watched game made private: nothing more for this page
                return
    finally:
        if waiting is not None:
            waiting.cancel()
        if marked_at:
            try:
                await _in_a_shared_thread(_close_marks, marks)
            except Exception:  # the cache out of reach: the marks lapse by themselves
                log.info("live stream left its listening marks", exc_info=True)
            if presence is not None:
                # Away only once the player's last page of the game has gone (another tab may stay).
                key = listening_key(presence.player_id, presence.game_id)
                if not await _in_a_shared_thread(cache.get, key):
                    await _tell_presence(layer, presence, here=False)


@dataclass(frozen=True, slots=True)
class Presence:
    """A player's page of their live game: its opening and closing are told to the opponent."""

    game_id: int
    player_id: int
    opponent_id: int
    opponent_is_computer: bool = False  # always here (game_reads), and it opens no page


async def _opponent_presence_now(presence: Presence) -> str:
    """A ``presence`` event for this page itself, once its stream listens: whether the opponent's
    page is open now. Their page may have told it was here before this stream joined this player's
    group (both pages open at once, as a Waiting Room join sends both players to the match), and
    this page's region was drawn before it was. Read after joining: an opening the read misses
    comes after it, and its event reaches this stream."""
    try:
        mark = await _in_a_shared_thread(cache.get, listening_key(presence.opponent_id, presence.game_id))
    except Exception:  # the cache out of reach: the page shows what its region said
        log.info("live: the opponent's presence not read", exc_info=True)
        return ": presence unknown\n\n"
    return _event_text(EVENT_PRESENCE, {"g": presence.game_id, "here": bool(mark)})


async def _tell_presence(layer: BaseChannelLayer, presence: Presence, *, here: bool) -> None:
    """A ``presence`` event ({"g": game, "here": bool}) to the opponent's pages; a failure only
    leaves their page as it was until its next region (which reads the marks afresh)."""
    event = {"type": MESSAGE_TYPE, "events": [[EVENT_PRESENCE, {"g": presence.game_id, "here": here}]]}
    try:
        await asyncio.wait_for(layer.group_send(user_group(presence.opponent_id), event), timeout=2)
    except Exception:
        log.info("live: presence not told", exc_info=True)


async def _sent_a_check(layer: BaseChannelLayer, channel: str) -> bool:
    try:
        await layer.send(channel, {"type": MESSAGE_TYPE, "check": True})
    except Exception:  # Redis out of reach
        log.info("live stream could not check its delivery", exc_info=True)
        return False
    return True


def _event_text(name: str, data: Any) -> str:
    # JSON on one line: a pushed region's newlines travel escaped inside it.
    return f"event: {name}\ndata: {json.dumps(data or {})}\n\n"


async def _in_a_shared_thread(call: Any, *args: Any) -> Any:
    # Not the cache's own async methods: those run in the stream's request thread, one thread
    # and one Redis connection per open stream, and when a server's streams all end at once
    # (a restart, a proxy's reload) their cleanups asked for more connections than redis-py's
    # pool allows (100). The loop's few shared threads take turns instead.
    return await sync_to_async(call, thread_sensitive=False)(*args)


# A mark counts the player's pages open under it: two tabs of one game, or the status page left
# open beside a game, each hold it, and the page closed first must not take it from the other
# (nor a page of the game just left from the page of the next game). Every open page renews the
# mark's lifetime, so a crashed server's counts lapse with it.


def _open_marks(marks: list[str]) -> None:
    """This page is open: one more under each mark."""
    try:
        for mark in marks:
            if not cache.add(mark, 1, LISTENING_SECONDS):
                try:
                    cache.incr(mark)
                except ValueError:  # lapsed between the two
                    cache.set(mark, 1, LISTENING_SECONDS)
                cache.touch(mark, LISTENING_SECONDS)
    except Exception:  # the cache out of reach: pushes then carry no region, and the page asks
        log.info("live stream could not mark its page as listening", exc_info=True)


def _renew_marks(marks: list[str], player_id: int | None = None) -> None:
    """Still open: each mark lives on (or counts this page again, if it lapsed meanwhile), and the
    page's player is still here (accounts.presence.keep_seen), in the same hand-over to a shared
    thread. Its database connection goes back at once: this thread serves no request to end it."""
    try:
        for mark in marks:
            if not cache.touch(mark, LISTENING_SECONDS):
                cache.add(mark, 1, LISTENING_SECONDS)
    except Exception:
        log.info("live stream could not renew its listening marks", exc_info=True)
    if player_id is None:
        return
    try:
        keep_seen(player_id)
    except Exception:  # the cache or the database out of reach: the mark waits for the next time
        log.info("live stream could not keep its player seen", exc_info=True)
    finally:
        connection.close()


def _close_marks(marks: list[str]) -> None:
    """This page is closed: one fewer under each mark, and a mark nobody holds is gone."""
    for mark in marks:
        try:
            if cache.decr(mark) <= 0:
                cache.delete(mark)
        except ValueError:  # lapsed already
            pass
