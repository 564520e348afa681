"""Live updates of the pages that are not a game: topics, and the ``changed`` event.

A page showing something many people may see (the Waiting Room, the ladders, the tournaments
and each tournament, a player's profile) names its topic on its stream (``/live/?topic=lobby``,
backgammon/views/live.py); a change to it tells the topic's group one ``changed`` event,
``{"topic": "lobby", "spread": 1000}``, and each page showing the topic asks its usual GET view
for the region (static/js/live.js): so a page shows what its own view shows, and the event
carries nothing but the topic's name, which the page already knows. A finished game's analysis
is told the same way (``analysis-12``) to the game's group and its players' own groups, which the
game page's stream hears already.

Many pages may show one topic, so they must not all ask at once: each asks at a random moment
within ``spread`` milliseconds of the event, and at most once per spread however many changes
come meanwhile (a busy Waiting Room). The spread grows with the pages open on the topic (their
streams count them in the cache, as for a game's page), so a topic costs the app servers at most
about ``1000 / SPREAD_MS_PER_PAGE`` requests a second: within 2 s of a change while at most
``MIN_SPREAD_MS / SPREAD_MS_PER_PAGE`` pages show it, later beyond. A topic nobody shows is not
published at all.

Who may listen: the topics are public pages' (the Waiting Room, the ladders, the tournaments, a
profile), each logged-in player may hear them (a topic of something that does not exist is
refused); a game's analysis goes only to those who may watch the game. An event says only that
something changed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db import transaction

from gamesite.after_answer import after_answer

__all__ = [
    "EVENT_CHANGED",
    "LADDERS",
    "LOBBY",
    "TOURNAMENTS",
    "analysis_topic",
    "player_topic",
    "publish_analysis_changed",
    "publish_changed",
    "spread_ms",
    "topic_group",
    "topic_mark",
    "topic_refusal",
    "tournament_topic",
]

log = logging.getLogger(__name__)

EVENT_CHANGED = "changed"
LOBBY = "lobby"  # the Waiting Room's open challenges
LADDERS = "ladders"  # the Ladder area (every ladder's places and matches)
TOURNAMENTS = "tournaments"  # the Tournament area's lists
# A stream names at most this many topics (a page shows one or two).
MOST_TOPICS = 3

MIN_SPREAD_MS = 1000
SPREAD_MS_PER_PAGE = 10
MAX_SPREAD_MS = 20_000
# A game's analysis is followed by the few people on its page, who want to see it move.
ANALYSIS_SPREAD_MS = 300

_NUMBERED = re.compile(r"^(tournament|player|analysis)-([1-9][0-9]{0,17})$")


def tournament_topic(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def player_topic(user_id: int) -> str:
    """A player's profile (its current games)."""
    return f"player-{user_id}"


def analysis_topic(game_id: int) -> str:
    return f"analysis-{game_id}"


def topic_group(topic: str) -> str:
    return f"topic-{topic}"


def topic_mark(topic: str) -> str:
    """The cache key counting the open pages of ``topic`` (their streams hold it)."""
    return f"live:listening:topic:{topic}"


def spread_ms(pages: int, floor: int = MIN_SPREAD_MS) -> int:
    """How long the pages of a topic take to ask, all told: ``floor`` for a few pages, then
    ``SPREAD_MS_PER_PAGE`` a page (at most ``MAX_SPREAD_MS``).

    >>> spread_ms(3), spread_ms(250), spread_ms(10_000)
    (1000, 2500, 20000)
    """
    return max(floor, min(MAX_SPREAD_MS, pages * SPREAD_MS_PER_PAGE))


def topic_refusal(topic: str, user: Any) -> int | None:
    """None if ``user`` may hear ``topic``; else the status of the refusal: 404 (no such thing, no
    such topic, or a game they may not watch, which must not tell that the game exists, as its
    page does not)."""
    if topic in (LOBBY, LADDERS, TOURNAMENTS):
        return None
    numbered = _NUMBERED.match(topic)
    if numbered is None:
        return 404
    kind, number = numbered.group(1), int(numbered.group(2))
    if kind == "tournament":
        from tournaments.models import Tournament

        return None if Tournament.objects.filter(pk=number).exists() else 404
    if kind == "player":
        from django.contrib.auth import get_user_model

        return None if get_user_model()._default_manager.filter(pk=number, is_active=True).exists() else 404
    from backgammon.live import may_watch
    from backgammon.models import Game

    game = Game.objects.filter(pk=number).first()
    if game is None:
        return 404
    return None if may_watch(game, user) else 404


def publish_changed(*topics: str) -> None:
    """Tell the pages showing these topics that they changed: once the transaction commits (a
    rolled-back change tells nobody), and from a page request once its answer has gone out."""
    if topics:
        transaction.on_commit(partial(after_answer, partial(_publish_changed, tuple(dict.fromkeys(topics)))))


def _publish_changed(topics: tuple[str, ...]) -> None:
    from backgammon.live import send_messages

    send_messages(topic_messages(topics, open_pages(topics)))


def open_pages(topics: Iterable[str]) -> dict[str, int] | None:
    """How many pages show each topic (a topic nobody shows is left out); None when the cache
    cannot say (then every topic is told, with the shortest spread)."""
    marks = [topic_mark(topic) for topic in topics]
    try:
        found = cache.get_many(marks)
    except Exception:
        log.warning("live: could not read who shows %s", marks, exc_info=True)
        return None
    return {topic: int(found[topic_mark(topic)]) for topic in topics if found.get(topic_mark(topic))}


def topic_messages(topics: Iterable[str], pages: dict[str, int] | None) -> list[tuple[str, list[tuple[str, dict[str, Any]]]]]:
    """The messages telling each topic's group, for the topics someone shows (all if unknown)."""
    messages = []
    for topic in topics:
        if pages is not None and topic not in pages:
            continue
        spread = spread_ms(pages[topic] if pages is not None else 0)
        messages.append((topic_group(topic), [(EVENT_CHANGED, {"topic": topic, "spread": spread})]))
    return messages


def publish_analysis_changed(*, game_id: int, player_ids: Iterable[int | None]) -> None:
    """A game's analysis moved on (queued, progress, done, failed): its page's panel asks again.
    The game's group (watchers, unless a player made it private) and its players' own groups
    (their page of the game listens there) hear it; nobody else."""
    from backgammon.live import game_group, user_group

    event = (EVENT_CHANGED, {"topic": analysis_topic(game_id), "spread": ANALYSIS_SPREAD_MS})
    groups = [user_group(player) for player in player_ids if player is not None]

    def send() -> None:
        from backgammon.live import game_is_private, send_messages

        watchers = [] if game_is_private(game_id) else [game_group(game_id)]
        send_messages([(group, [event]) for group in [*watchers, *groups]])

    transaction.on_commit(partial(after_answer, send))
