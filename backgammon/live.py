"""Live updates by push: who hears of what, and telling them.

When a game changes (``signals.game_changed``, sent after commit):
- the game's group (the pages of people watching it) hears a ``game`` event with the game's
  action count, ``{"g": 12, "n": 57}``; those pages then ask their usual GET view for the
  fresh region;
- each player's own group hears the same ``game`` event, and the player who did not make the
  move, when their page of the game is open, gets the game region in it (``"html"``), rendered
  here as that page's own view would (backgammon/game_region.py): the page swaps it in and asks
  nothing. When the opponent only rolled, what that changes on the page comes instead
  (``"roll"``, game_region.pushed_roll: in-process, 0.1 ms against the region's 2.3-2.8 of a
  roll's 16-20 ms, for a region that differed from the page's by its dice, its prompt, its clock
  (a live game's clocks, a correspondence game's time left) and its match ID). The mover's page
  already has its region (the answer to the move), and a page that shows the count already
  ignores the event;
- in a live match, the event of the player whose decision it now is (their clock running) says
  so, with the match's page and the opponent (``"live_turn"``): a page of theirs other than the
  match's tells them and links to it (static/js/live.js);
- unless the player to act only rolled, each player's group also hears a ``status`` event (their
  Game status lists and main screen, and their menu counts as the badges show them:
  ``"counts"``), and each player's profile topic, when a page shows it, a ``changed`` event
  (backgammon/live_topics.py).
A new challenge, one declined or withdrawn, or a message tells the player's group a ``status``
event; an open challenge put in, taken or withdrawn tells the Waiting Room's topic.

So what a player sees is decided by the same code whether it is fetched or pushed, and nobody
hears of a game they may not see: players hear their own groups, and the stream
(backgammon/views/live.py) lets a user into their own group, into the group of a game they may
watch and into the topics of public pages, nothing else.

Publishing goes through the Channels layer (settings.CHANNEL_LAYERS): Redis across app servers
and the task worker; without it an in-memory layer in the app server, which hears the task
worker through the database (gamesite/live_bridge).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_save

from accounts.backends import signed_in_user_key
from accounts.vacations import vacations_end_key
from backgammon import signals
from backgammon.game_reads import keys_of_page
from backgammon.game_region import pushed_region, pushed_roll
from backgammon.listening import listening_key
from backgammon.live_topics import LOBBY, player_topic, publish_changed, topic_mark, topic_messages
from backgammon.models import Challenge, Game
from backgammon.services.queries import games_awaiting, games_awaiting_counts_kept
from backgammon.views.access import known_actor
from gamesite.after_answer import after_answer, in_a_page_thread
from gamesite.kept import kept_of_these
from gamesite.kept_urls import kept_reverse
from gamesite.live_layers import group_send_all
from gamesite.menu_counts import menu_counts_context, menu_counts_keys, menu_counts_markup

__all__ = [
    "EVENT_GAME",
    "EVENT_PRESENCE",
    "EVENT_PRIVATE",
    "EVENT_STATUS",
    "connect",
    "game_group",
    "layer_is_shared",
    "listening_key",
    "live_turn_waiting",
    "may_watch",
    "publish_game_changed",
    "publish_game_made_private",
    "publish_status",
    "send_messages",
    "user_group",
]

log = logging.getLogger(__name__)

EVENT_GAME = "game"
EVENT_STATUS = "status"
# Told to a game's watchers when a player makes it private: their streams end with it.
EVENT_PRIVATE = "private"
EVENT_PRESENCE = "presence"
"""A live game's opponent opened or left the game's page ({"g": game, "here": bool})."""
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
    """False for the plain in-memory layer: it reaches only pages served by this very process, so
    what the task worker does (bot moves, timeouts) needs the page's slow poll too. The layer
    without Redis that reads the worker's events from the database (gamesite/live_bridge) is
    shared."""
    layer = get_channel_layer()
    return not isinstance(layer, InMemoryChannelLayer) or bool(getattr(layer, "shared", False))


# The ASGI server's event loop in an app-server process (gamesite/asgi.py says which): the pages'
# threads publish on it, so the channel layer keeps one Redis connection pool (a loop made per
# publication connected anew each time, a quarter of a roll's server time), and the in-memory
# layer of a development server wakes the streams it serves.
_server_loop: asyncio.AbstractEventLoop | None = None
PUBLISH_TIMEOUT_SECONDS = 3.0


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


Message = tuple[str, list[tuple[str, dict[str, Any]]]]
"""A group and the events (name, data) its streams send on, in order."""


def _send(messages: list[Message], *, last: bool = False) -> None:
    """Send each message to its group, all in one go; a failure is logged, never raised. With
    ``last``, each stream that hears it ends after its events (backgammon/views/live.py)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    ending = {"last": True} if last else {}

    async def send_all() -> None:
        await group_send_all(layer, [(group, {"type": MESSAGE_TYPE, "events": events, **ending})
                                     for group, events in messages])

    # Redis down: the move itself stands, and pages fall back to polling.
    unpublished = "live update not published to %s"
    groups = [group for group, _ in messages]

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # the usual case: a view's thread, the worker, a management command
        server_loop = _server_loop
        try:
            if server_loop is not None and server_loop.is_running():
                # A page thread does not wait for the publication: the loop sends it within a time
                # limit (Redis down), and a failure is logged then. Any other thread publishing on
                # the server's loop (the browser tests' own code setting a scene) waits, so a
                # page opened next never hears of what happened before it was opened.
                bounded = asyncio.wait_for(send_all(), PUBLISH_TIMEOUT_SECONDS)
                sent = asyncio.run_coroutine_threadsafe(bounded, server_loop)
                if in_a_page_thread():
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


send_messages = _send
"""Send (group, events) messages to their groups (backgammon/live_topics.py publishes through it)."""


def _log_failure(sent: Any, unpublished: str, groups: list[str]) -> None:
    error = None if sent.cancelled() else sent.exception()
    if error is not None:
        log.warning(unpublished, groups, exc_info=error)


# An open page's stream marks its player as listening, under these keys (refreshed while it stays
# open; each counts the pages open under it, and goes when the last closes): a publication
# renders a player's pushed region and menu counts only for someone who will see them. A mark
# that lapsed early costs only the push's HTML: the event still goes, and the page then asks for
# what it shows, as without these marks.
LISTENING_SECONDS = 90


TOPIC_MARK_PREFIX = topic_mark("")


_NOT_AN_ACTION = object()

_asked_with_the_news: list[Callable[[list[int]], list[str]]] = []


def ask_with_the_news(keys_for: Callable[[list[int]], list[str]]) -> None:
    """Another app's kept answers (gamesite.kept) about a changed game's players, which its own
    receivers of ``game_changed`` read after the answer (notices: whether the player to act has a
    device for push): asked in the same trip to the cache as the news's own."""
    if keys_for not in _asked_with_the_news:
        _asked_with_the_news.append(keys_for)


def publish_game_changed(**change: Any) -> None:
    """Tell the game's open pages, and, unless the player to act only rolled, its two players'
    menu counts and status pages (a roll leaves whose turn it is as it was); from a page
    request, once its answer has gone out.

    Each player's own group hears the game's news: the player who did not make the move, when
    their page of the game is open, with the game region as they would fetch it (their page
    swaps it in and asks nothing), and with the counts their menu bar shows. Watchers hear the
    game's group, and fetch.
    """
    after_answer(partial(_publish_game_changed, **change))


def _publish_game_changed(*, game_id: int, action_number: int, player_ids: tuple[int | None, int | None],
                          same_turn: bool = False, game: Game | None = None, mover_id: Any = _NOT_AN_ACTION,
                          rolled_only: bool = False, actor_id: int | None = None, turn_passed: bool = False,
                          **_: Any) -> None:
    players = [player_id for player_id in player_ids if player_id is not None]
    news = {"g": game_id, "n": action_number}
    live_turn = _live_turn(game, actor_id) if turn_passed and game is not None else None
    messages: list[Message] = []
    private = game_is_private(game_id, game)
    if not private:  # a private game's news reaches its players alone
        messages.append((game_group(game_id), [(EVENT_GAME, news)]))
    regions = game is not None and mover_id is not _NOT_AN_ACTION
    # Asked in the same trip as who listens: what the news may show each player (themselves as
    # signed in, their menu counts, the opponent's page); what nobody listens for goes unread.
    shown: list[str] = []
    # A roll alone reaches the waiting player's page as its dice (``pushed_roll``): nothing of
    # the page is read for it but the player (their board's orientation) and, for a
    # correspondence game's time left, whether the roller is on vacation.
    rolled = rolled_only and game is not None
    for player_id in players:
        shown.append(signed_in_user_key(player_id))
        if regions and player_id != mover_id and rolled:
            shown += [] if game.is_live or game.actor_id is None else [vacations_end_key(game.actor_id)]
        elif regions and player_id != mover_id:
            shown += keys_of_page(game, player_id)
        elif not same_turn:
            shown += menu_counts_keys(player_id)
    # A player's profile lists their current games: its open pages hear when a turn passes. Not
    # for a private game, which others' pages never show: the event would only tell them that a
    # hidden game moved on.
    profiles = [] if same_turn or private else [player_topic(player_id) for player_id in players]
    shown += [topic_mark(topic) for topic in profiles]
    shown += [key for keys_for in _asked_with_the_news for key in keys_for(players)]
    listening = _listening(players, game_id, also_kept=shown)
    if not same_turn:  # both PLAY counts, which the move forgot, counted together for the news
        games_awaiting_counts_kept([player_id for player_id in players if listening_key(player_id) in listening])
    for player_id in players:
        game_news = dict(news)
        if live_turn is not None and player_id == actor_id:
            game_news["live_turn"] = live_turn
        if regions and player_id != mover_id and listening_key(player_id, game_id) in listening:
            roll = _roll_for(game, player_id) if rolled else None
            if roll is not None:
                game_news["roll"] = roll
            else:
                region = _region_for(game, player_id)
                if region:
                    game_news["html"] = region
        events: list[tuple[str, dict[str, Any]]] = [(EVENT_GAME, game_news)]
        if not same_turn:
            events.append((EVENT_STATUS, _status(player_id, listening)))
        messages.append((user_group(player_id), events))
    pages = {topic: int(listening[topic_mark(topic)]) for topic in profiles if topic_mark(topic) in listening}
    messages += topic_messages(profiles, pages)
    _send(messages)


def _live_turn(game: Game, actor_id: int | None) -> dict[str, str] | None:
    """A live match's decision has come to ``actor_id``, their clock running: what a page of
    theirs other than the match's own says of it (static/js/live.js, showLiveTurn), with a link
    to the match. None by correspondence, or when nobody is to act."""
    if actor_id is None or not game.is_live or not game.is_active:
        return None
    opponent = game.white if actor_id == game.black_id else game.black
    return {"url": kept_reverse("backgammon:game", game.pk), "against": opponent.get_username()}


def live_turn_waiting(user_id: int, shown_game_id: int | None) -> dict[str, Any] | None:
    """The news a page just opened tells at once when a live match of its player waits on their
    decision (their clock running) and the page is not that match's: the ``game`` event with
    ``live_turn`` that the page would have heard had it been open when the turn came (a player
    who leaves the match's page on their own turn, or whose turn came while a page was loading)."""
    waiting = (games_awaiting(user_id).filter(live_reserve_s__isnull=False).exclude(pk=shown_game_id)
               .select_related("black", "white").first())
    turn = None if waiting is None else _live_turn(waiting, user_id)
    return None if turn is None else {"g": waiting.pk, "n": waiting.action_count, "live_turn": turn}


def game_is_private(game_id: int, game: Game | None = None) -> bool:
    """Whether a player made the game private, from ``game`` when the caller read it under the
    game's row lock (an action's), else from the database."""
    if game is not None:
        return game.is_private
    return Game.objects.filter(pk=game_id).filter(Q(private_black=True) | Q(private_white=True)).exists()


def publish_game_made_private(*, game_id: int, player_ids: tuple[int | None, ...] = (), **_: Any) -> None:
    """A player made the game private: its watchers' open pages hear it last (their streams end
    there, and a stream opened again is refused, as the game page is), and from now on its news
    goes to its players' own groups only (``_publish_game_changed``); the players' open profile
    pages ask again, and no longer list it. From a page request, once its answer has gone out."""
    after_answer(partial(_send, [(game_group(game_id), [(EVENT_PRIVATE, {"g": game_id})])], last=True))
    publish_changed(*(player_topic(player_id) for player_id in player_ids if player_id is not None))


def publish_status(user_id: int) -> None:
    """Something on the player's own pages changed (a message, say): their counts and lists."""
    after_answer(partial(_publish_status, user_id))


def _publish_status(user_id: int) -> None:
    listening = _listening([user_id], None, also_kept=[signed_in_user_key(user_id), *menu_counts_keys(user_id)])
    _send([(user_group(user_id), [(EVENT_STATUS, _status(user_id, listening))])])


def publish_challenge_created(*, challenged_id: int, challenger_id: int | None = None, **_: Any) -> None:
    """A challenge appears in the challenged player's status lists, and in the challenger's (their
    other open pages: a rematch offered from one page of the finished match shows on the others)."""
    publish_status(challenged_id)
    if challenger_id is not None:
        publish_status(challenger_id)


def _listening(user_ids: list[int], game_id: int | None, also_kept: list[str] | None = None) -> dict[str, Any]:
    """Which of these players have a page open (and that game's page, with ``game_id``), each
    mark with its count of pages; ``also_kept``: kept answers (gamesite.kept) the news will
    read, asked in the same trip, and the marks of topics (live_topics.topic_mark) among them."""
    keys = [listening_key(user_id) for user_id in user_ids]
    if game_id is not None:
        keys += [listening_key(user_id, game_id) for user_id in user_ids]
    keys += [key for key in also_kept or () if key.startswith(TOPIC_MARK_PREFIX)]
    try:  # a mark counts its player's open pages (backgammon/views/live.py)
        if settings.KEPT_ANSWERS:
            marks = kept_of_these([*keys, *(also_kept or ())])
        else:
            marks = cache.get_many(keys)
        return {key: marks[key] for key in keys if marks.get(key)}
    except Exception:  # the cache out of reach: the events still go, the pages ask for the rest
        log.warning("live: could not read who is listening", exc_info=True)
        return {}


def _signed_in(user_id: int) -> Any:
    from accounts.backends import CaseInsensitiveModelBackend

    return CaseInsensitiveModelBackend().get_user(user_id)


def _region_for(game: Game, user_id: int) -> str:
    """The game region as ``user_id``'s page would fetch it now; "" if it cannot be had (the page
    then fetches it). Their page shows it, so the move's messages in it count as read."""
    try:
        user = _signed_in(user_id)
        if user is None:
            return ""
        region = pushed_region(known_actor(game), user)
        signals.game_viewed.send(sender=Game, game_id=game.pk, user=user)
        return region
    except Exception:
        log.warning("live: game %s's region for user %s not rendered", game.pk, user_id, exc_info=True)
        return ""


def _roll_for(game: Game, user_id: int) -> dict[str, Any] | None:
    """What ``user_id``'s page changes for the opponent's roll (game_region.pushed_roll); None if
    it cannot be had (the region goes instead)."""
    try:
        user = _signed_in(user_id)
        return None if user is None else pushed_roll(known_actor(game), user)
    except Exception:
        log.warning("live: game %s's roll for user %s not drawn", game.pk, user_id, exc_info=True)
        return None


def _status(user_id: int, listening: dict[str, Any]) -> dict[str, Any]:
    """A status event's data: the menu counts as the page's badges show them (``counts``: the
    same markup /menu-counts/ answers), when the player has a page open to show them."""
    if listening_key(user_id) not in listening:
        return {}
    try:
        user = _signed_in(user_id)
        if user is None:
            return {}
        return {"counts": menu_counts_markup(menu_counts_context(user))}
    except Exception:
        log.warning("live: menu counts for user %s not rendered", user_id, exc_info=True)
        return {}


_CLOSED_UNPLAYED = (Challenge.Status.DECLINED, Challenge.Status.WITHDRAWN, Challenge.Status.EXPIRED)


def _challenge_saved(sender: Any, instance: Challenge, created: bool, **_: Any) -> None:
    """An open challenge put in, taken or withdrawn changes the Waiting Room; a named one declined,
    withdrawn or expired (a live one unanswered), both players' lists (a new one tells the
    challenged player by ``challenge_created``; one accepted starts a game, which tells both)."""
    if instance.challenged_id is None:
        publish_changed(LOBBY)
    elif not created and instance.status in _CLOSED_UNPLAYED:
        for player_id in (instance.challenger_id, instance.challenged_id):
            transaction.on_commit(partial(publish_status, player_id))


def connect() -> None:
    signals.game_changed.connect(publish_game_changed, dispatch_uid="live-game-changed")
    signals.game_made_private.connect(publish_game_made_private, dispatch_uid="live-game-made-private")
    signals.challenge_created.connect(publish_challenge_created, dispatch_uid="live-challenge-created")
    post_save.connect(_challenge_saved, sender=Challenge, dispatch_uid="live-challenge-saved")
