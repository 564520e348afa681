"""Live updates by push: who hears of what, and telling them.

When a game changes (``signals.game_changed``, sent after commit) its page's group hears a
``game`` event and, unless the player to act only rolled, both players' own groups a ``status``
event (their Game status lists and PLAY counts); a new challenge tells the challenged player's
group. The events carry no game data: a ``game`` event says only the game's action count now
(so a page that already shows it, the mover's own, asks nothing), and a page that hears one
asks its usual GET view for its fresh region, so every authorization stays in those views.
The stream itself (backgammon/views/live.py) lets a user into their own group and into the
group of a game they may watch, nothing else.

Publishing goes through the Channels layer (settings.CHANNEL_LAYERS): Redis across app servers
and the task worker, an in-memory layer within one development process.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from backgammon import signals
from backgammon.models import Game

__all__ = [
    "EVENT_GAME",
    "EVENT_STATUS",
    "connect",
    "game_group",
    "layer_is_shared",
    "may_watch",
    "publish_game_changed",
    "publish_status",
    "user_group",
]

log = logging.getLogger(__name__)

EVENT_GAME = "game"
EVENT_STATUS = "status"
# The message type the stream's channel receives (Channels wants a "type" on every message).
MESSAGE_TYPE = "live.event"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def may_watch(game: Game, user: Any) -> bool:
    """Whether ``user`` may follow this game live: exactly when the game page would show it to
    them. That is the watching feature's ``Game.visible_to`` (players always, anyone else unless
    a player made the game private), merged beside this branch; until it is there, every game
    page is open to every logged-in player (backgammon/views/game.py). At the merge this can
    become ``return user.is_authenticated and game.visible_to(user)``."""
    if not user.is_authenticated:
        return False
    visible_to = getattr(game, "visible_to", None)
    return True if visible_to is None else bool(visible_to(user))


def layer_is_shared() -> bool:
    """False for the in-memory layer: it reaches only pages served by this very process, so
    what the task worker does (bot moves, timeouts) needs the page's slow poll too."""
    return not isinstance(get_channel_layer(), InMemoryChannelLayer)


# The ASGI server's event loop in an app-server process (gamesite/asgi.py says which): the pages'
# threads publish on it, so the channel layer keeps one Redis connection pool (a loop made per
# publication connected anew each time, a quarter of a roll's server time), and the in-memory
# layer of a development server wakes the streams it serves.
_server_loop: asyncio.AbstractEventLoop | None = None
PUBLISH_TIMEOUT_SECONDS = 3.0


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


# Set in the app server's page threads: their answers do not wait for a publication. Any other
# thread that publishes on the server's loop (the browser tests' own code setting a scene) waits,
# so a page opened next never hears of what happened before it was opened.
_page_thread = threading.local()


def answers_pages(wsgi_app: Any) -> Any:
    """``wsgi_app``, marking the threads that run it as page threads (gamesite/asgi.py)."""

    def marked(environ: Any, start_response: Any) -> Any:
        _page_thread.answering = True
        return wsgi_app(environ, start_response)

    return marked


def _send(messages: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Send each (group, event, data) message, all in one go; a failure is logged, never raised."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, event, data in messages:
            await layer.group_send(group, {"type": MESSAGE_TYPE, "event": event, "data": data})

    # Redis down: the move itself stands, and pages fall back to polling.
    unpublished = "live update not published to %s"
    groups = [group for group, _, _ in messages]

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # the usual case: a view's thread, the worker, a management command
        server_loop = _server_loop
        try:
            if server_loop is not None and server_loop.is_running():
                # A page's answer does not wait for the publication: the loop sends it while the
                # response goes out, within a time limit (Redis down); a failure is logged then.
                bounded = asyncio.wait_for(send_all(), PUBLISH_TIMEOUT_SECONDS)
                sent = asyncio.run_coroutine_threadsafe(bounded, server_loop)
                if getattr(_page_thread, "answering", False):
                    sent.add_done_callback(lambda done: _log_failure(done, unpublished, groups))
                else:
                    sent.result()
            else:
                async_to_sync(send_all)()
        except Exception:
            log.warning(unpublished, groups, exc_info=True)
        return

    # A thread that runs an event loop itself (only with DJANGO_ALLOW_ASYNC_UNSAFE, as the
    # browser tests' Playwright thread) cannot wait for a coroutine: send from a thread of its own.
    def send_from_thread() -> None:
        try:
            async_to_sync(send_all)()
        except Exception:
            log.warning(unpublished, groups, exc_info=True)

    sender = threading.Thread(target=send_from_thread, name="live-publish")
    sender.start()
    sender.join()


def _log_failure(sent: Any, unpublished: str, groups: list[str]) -> None:
    error = None if sent.cancelled() else sent.exception()
    if error is not None:
        log.warning(unpublished, groups, exc_info=error)


def publish_game_changed(*, game_id: int, action_number: int, player_ids: tuple[int | None, int | None],
                         same_turn: bool = False, **_: Any) -> None:
    """Tell the game's open pages, and, unless the player to act only rolled, its two players'
    status pages and PLAY counts (a roll leaves whose turn it is as it was; a quarter of all
    events were rolls, each making both players' pages ask for both their counts)."""
    messages = [(game_group(game_id), EVENT_GAME, {"n": action_number})]
    if not same_turn:
        messages += [(user_group(player_id), EVENT_STATUS, {}) for player_id in player_ids
                     if player_id is not None]
    _send(messages)


def publish_status(user_id: int) -> None:
    """Something on the player's own pages changed (a message, say): their counts ask again."""
    _send([(user_group(user_id), EVENT_STATUS, {})])


def publish_challenge_created(*, challenged_id: int, **_: Any) -> None:
    """A challenge appears in the challenged player's status lists."""
    _send([(user_group(challenged_id), EVENT_STATUS, {})])


def connect() -> None:
    signals.game_changed.connect(publish_game_changed, dispatch_uid="live-game-changed")
    signals.challenge_created.connect(publish_challenge_created, dispatch_uid="live-challenge-created")
