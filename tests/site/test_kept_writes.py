"""A page request's writes to the cache go with its next trip (gamesite/kept.py), against a real
Redis of the test's own (tests/site/private_redis.py) configured as in production: a move asks
Redis three times, what it forgot is gone before its answer goes, a version of its log kept
while drawing its answer goes with its news's read, and a Redis that does not answer loses no
forget."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.core.cache import cache, caches
from django.urls import reverse

from backgammon.engine import TimeControl
from backgammon.models import Game
from backgammon.move_records import logged_key
from backgammon.services.queries import awaiting_count_key
from gamesite.kept import answers_once_per_request, forget, keep_unchanging, kept
from gamesite.redis_cache import forgets_waiting, redis_caches
from gamesite.redis_guard import redis_breaker
from tests.site.gamebuilder import scripted_dice, start_game
from tests.site.page_door import Answered, post_environ, through_the_door
from tests.site.private_redis import PrivateRedis
from tests.site.test_live_push import in_own_thread

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def private_redis(settings: Any) -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    settings.REDIS_URL = server.url
    settings.CACHES = redis_caches(server.url, 0.5)
    settings.RATELIMIT_USE_CACHE = "throttles"
    settings.SESSION_ENGINE = "gamesite.sessions"
    settings.KEPT_ANSWERS = True
    settings.REDIS_PAUSE_SECONDS = 1.0
    redis_breaker.reset()
    try:
        yield server
    finally:
        server.stop()
        for alias in ("default", "throttles"):
            caches[alias].close()
        redis_breaker.reset()


def _counting_trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each command or pipeline sent to Redis from now on: one round trip each."""
    trips: list[int] = []
    send = redis.connection.AbstractConnection.send_packed_command

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(1)
        return send(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)
    return trips


def _in_redis(key: str) -> bool:
    """Whether Redis itself holds ``key`` (asked past the request's own answers)."""
    return bool(caches["default"].has_key(key))


def _live_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, client_for: Any) -> Game:
    scripted_dice(monkeypatch).then((3, 1), (6, 5), (4, 2), (5, 3))
    game = start_game(alice, bob, "BP", match_length=5, time_control=TimeControl.live(8, 150))
    for player in (alice, bob):
        client_for(player).get(reverse("backgammon:game", args=[game.pk]))  # their answers kept
    return Game.objects.get(pk=game.pk)


def _act(game: Game, client: Any, form: dict[str, Any], before_close: Any = lambda: None) -> Answered:
    environ = post_environ(reverse("backgammon:game_act", args=[game.pk]), client.cookies["sessionid"].value,
                           {**form, "expected_number": game.action_count}, HTTP_HX_REQUEST="true")
    return in_own_thread(lambda: through_the_door(environ, before_close))


def _mover(game: Game, alice: Any, bob: Any) -> Any:
    return alice if game.actor_id == alice.pk else bob


def test_a_live_roll_and_a_move_each_ask_redis_three_times(
    private_redis: PrivateRedis, monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, client_for: Any
) -> None:
    """The session with the signed-in user; what the answer shows (with the move's forgets);
    who listens for the news (with the log's new version): not one trip per write."""
    game = _live_game(alice, bob, monkeypatch, client_for)
    first = client_for(_mover(game, alice, bob))
    # A turn each first: each app-server process learns a session's player on its first request.
    assert _act(game, first, {"kind": "play", "moves_text": "8/5 6/5"}).status.startswith("200")
    second = client_for(_mover(Game.objects.get(pk=game.pk), alice, bob))
    for form in ({"kind": "roll"}, {"kind": "play", "moves_text": "24/18 13/8"}):
        assert _act(Game.objects.get(pk=game.pk), second, form).status.startswith("200")
    trips = _counting_trips(monkeypatch)
    assert _act(Game.objects.get(pk=game.pk), first, {"kind": "roll"}).status.startswith("200")
    assert len(trips) == 3
    trips.clear()
    assert _act(Game.objects.get(pk=game.pk), first, {"kind": "play", "moves_text": "8/4 6/4"}).status.startswith("200")
    assert len(trips) == 3


def test_what_a_move_forgets_is_gone_from_redis_before_its_answer_goes(
    private_redis: PrivateRedis, monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, client_for: Any
) -> None:
    """A forget may not wait for the request's end: the next page (another server's) must not
    read what the move changed. A roll forgets nothing, and the log's new version, which never
    changes, goes with its news's read, after the answer."""
    game = _live_game(alice, bob, monkeypatch, client_for)
    counts = [awaiting_count_key(player.pk) for player in (alice, bob)]
    assert all(_in_redis(key) for key in counts)

    def before_the_answer_is_closed() -> list[bool]:
        return [_in_redis(key) for key in counts]

    answered = _act(game, client_for(_mover(game, alice, bob)), {"kind": "play", "moves_text": "8/5 6/5"},
                    before_the_answer_is_closed)
    assert answered.before_close == [False, False]
    game = Game.objects.get(pk=game.pk)
    new_log = logged_key(game.pk, game.action_count + 1, 1)
    answered = _act(game, client_for(_mover(game, alice, bob)), {"kind": "roll"}, lambda: _in_redis(new_log))
    assert answered.status.startswith("200")
    assert answered.before_close is False
    assert _in_redis(new_log)


def test_writes_keep_their_order_within_a_request(private_redis: PrivateRedis) -> None:
    """A forget that waits, then a keep of the same key: the keep is what stays."""

    def request(environ: Any, start_response: Any) -> list[bytes]:
        forget("test:order")
        keep_unchanging("test:unchanging", 7, 60)
        assert kept("test:order", lambda: "fresh", 60) == "fresh"  # computed, then kept after the forget
        start_response("200 OK", [])
        return [b""]

    cache.set("test:order", "stale", 60)
    answer = in_own_thread(lambda: answers_once_per_request(request)({}, lambda *args: None))
    answer.close()
    assert cache.get("test:order") == "fresh" and cache.get("test:unchanging") == 7


def test_a_forget_sent_while_redis_does_not_answer_is_done_once_it_does(private_redis: PrivateRedis) -> None:
    cache.set("test:note", "old", 60)
    private_redis.pause()
    try:
        def request(environ: Any, start_response: Any) -> list[bytes]:
            forget("test:note")
            assert kept("test:other", lambda: "computed", 60) == "computed"  # a miss, not an error
            start_response("200 OK", [])
            return [b""]

        answer = in_own_thread(lambda: answers_once_per_request(request)({}, lambda *args: None))
        answer.close()
        assert forgets_waiting(private_redis.url) == 1
    finally:
        private_redis.resume()
    redis_breaker.reset()
    assert cache.get("test:note") is None
    assert forgets_waiting(private_redis.url) == 0
