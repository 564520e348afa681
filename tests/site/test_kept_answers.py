"""Answers kept in the cache (gamesite/kept.py) are forgotten by everything that changes them.

The suite's cache is this process's memory, so these run as with Redis in production: a kept
answer costs no query, and each write below must make the next answer fresh.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends import cached_db
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.move_records import logged_actions
from backgammon.services.notes import game_note_save, game_note_text
from gamesite.after_answer import answering_pages
from gamesite.kept import answers_once_per_request, ask_together, forget, kept
from membership.periods import membership_extend
from messaging.models import Message
from messaging.services import (
    game_messages_mark_read,
    message_delete,
    message_open,
    message_send,
    messages_mark_all_read,
    unread_count,
)
from tests.site.gamebuilder import act, scripted_dice, start_game

pytestmark = pytest.mark.django_db


def queries_on(table: str, call: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len([query for query in queries.captured_queries if table in query["sql"]])


def test_an_answer_read_inside_a_transaction_is_kept_only_once_it_commits(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as waiting, transaction.atomic():
        assert kept("test:answer", lambda: 1, 60) == 1
    assert kept("test:answer", lambda: 2, 60) == 2  # rolled back, as far as the cache knows
    for callback in waiting:
        callback()  # the commit
    assert kept("test:answer", lambda: 3, 60) == 1
    forget("test:answer")
    assert kept("test:answer", lambda: 4, 60) == 4


def test_the_unread_count_is_kept_and_every_way_of_reading_or_deleting_forgets_it(alice: Any, bob: Any) -> None:
    assert unread_count(bob) == 0
    assert queries_on("messaging_message", lambda: unread_count(bob)) == 0
    first = message_send(sender=alice, to="bob", body="one")
    second = message_send(sender=alice, to="bob", body="two")
    third = message_send(sender=alice, to="bob", body="three")
    assert unread_count(bob) == 3  # each new message forgot the count
    message_open(user=bob, message_id=first.pk)
    assert unread_count(bob) == 2
    message_delete(user=bob, message_id=second.pk)
    assert unread_count(bob) == 1
    Message.objects.filter(pk=third.pk).update(read_at=None)  # (an UPDATE no code of ours makes)
    messages_mark_all_read(user=bob)
    assert unread_count(bob) == 0


def test_a_game_view_with_nothing_unread_asks_the_database_nothing(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    unread_count(bob)
    assert queries_on("messaging_message", lambda: game_messages_mark_read(user=bob, game_id=game.pk)) == 0
    Message.objects.create(sender=alice, recipient=bob, kind=Message.Kind.MOVE, body="gl", game=game)
    assert game_messages_mark_read(user=bob, game_id=game.pk) == 1
    assert unread_count(bob) == 0


def test_a_note_is_kept_and_a_save_or_removal_forgets_it(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    assert game_note_text(game=game, author=alice) == ""
    assert queries_on("backgammon_gamenote", lambda: game_note_text(game=game, author=alice)) == 0
    game_note_save(game_id=game.pk, author=alice, text="prime early")
    assert game_note_text(game=game, author=alice) == "prime early"
    assert game_note_text(game=game, author=bob) == ""  # never anyone else's
    game_note_save(game_id=game.pk, author=alice, text="")
    assert game_note_text(game=game, author=alice) == ""


def test_the_kept_signed_in_user_is_forgotten_when_deactivated_or_the_password_changes(
    alice: Any, bob: Any, client_for: Any
) -> None:
    status = reverse("backgammon:status")
    alice_client: Client = client_for(alice)
    assert alice_client.get(status).status_code == 200
    count = reverse("menu_counts")
    assert queries_on("auth_user", lambda: alice_client.get(count, {"play": "0", "talk": "0"})) == 0  # kept
    alice.is_active = False
    alice.save()
    assert alice_client.get(status).status_code == 302  # to the log-in page, at once

    bob_client: Client = client_for(bob)
    assert bob_client.get(status).status_code == 200
    bob.set_password("a-new-password-4321")
    bob.save()
    assert bob_client.get(status).status_code == 302  # the old session no longer matches


def test_a_profile_change_shows_at_once(alice: Any, client_for: Any) -> None:
    alice_client: Client = client_for(alice)
    alice_client.get(reverse("accounts:profile"))
    membership_extend(user=alice, staff=None, days=30, reason="a test")  # saves the profile
    page = " ".join(alice_client.get(reverse("accounts:profile")).content.decode().split())
    assert "<dt>Membership</dt><dd>Member until" in page


def test_with_redis_down_every_answer_is_asked_of_the_database(alice: Any, client_for: Any, settings: Any) -> None:
    from tests.e2e.asgi_server import free_port

    settings.CACHES = {"default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
    }}
    alice_client: Client = client_for(alice)
    assert kept("test:answer", lambda: 7, 60) == 7
    answer = alice_client.get(reverse("menu_counts"), {"play": "-1"})
    assert answer.status_code == 200  # still signed in: a visitor is answered 286
    assert unread_count(alice) == 0


def test_a_games_log_is_read_once_per_version_and_never_past_the_version_asked_for(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    seen = start_game(alice, bob, "BX", match_length=0)  # alice won the opening roll: her turn
    first = logged_actions(seen)
    assert queries_on("backgammon_gameaction", lambda: logged_actions(seen)) == 0  # kept
    # A move lands after this page read the game: its version's log stays as it was.
    moved = act(seen, alice, Action.play(((8, 5), (6, 5))))
    assert queries_on("backgammon_gameaction", lambda: logged_actions(seen)) == 0
    assert logged_actions(seen) == first
    forget(f"backgammon:logged:{seen.pk}:{seen.action_count}:1")
    again = Game.objects.get(pk=seen.pk)
    again.action_count = seen.action_count  # the page's version, read from the table again
    assert queries_on("backgammon_gameaction", lambda: logged_actions(again)) == 1
    assert logged_actions(again) == first  # still only the rows up to its count
    # The new version is read afresh, with the move.
    fresh = logged_actions(moved)
    assert fresh[:len(first)] == first and "8/5 6/5" in [row.notation for row in fresh[len(first):]]
    assert [row.number for row in fresh][-1] == moved.action_count > seen.action_count


def test_right_after_an_action_its_log_is_the_kept_version_before_and_the_rows_appended(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random

    from backgammon.move_records import _read_logged
    from tests.engine.random_play import random_action

    rng = random.Random(1)
    game = start_game(alice, bob, "BP", match_length=11)
    for _ in range(400):
        if not game.is_active or game.game_number > 2:
            break
        logged_actions(game, from_game=game.game_number)  # the version the player's page showed
        number = game.game_number
        game = act(game, game.player(game.state().actor), random_action(game.state(), rng, double_rate=0.02))
        with CaptureQueriesContext(connection) as queries:
            built = logged_actions(game, from_game=game.game_number)
        # The same log as read from the table, and no query for it, unless a new game began
        # (its version before was never asked for): then it is read.
        assert built == _read_logged(Game.objects.get(pk=game.pk), game.game_number)
        read = [query for query in queries.captured_queries if "backgammon_gameaction" in query["sql"]]
        assert len(read) == (0 if game.game_number == number else 1)
        # The opponent's region and the mover's answer read it once between them.
        with CaptureQueriesContext(connection) as again:
            logged_actions(game, from_game=game.game_number)
        assert again.captured_queries == []
    assert game.game_number > 1  # the match went past a game's end


def _in_one_page_request(body: Any) -> Any:
    """Runs ``body`` (which returns a list) as the app servers' WSGI door runs a page request
    (gamesite/kept.py), to the server's closing of the answer."""
    from gamesite.kept import answers_once_per_request

    def wsgi_app(environ: Any, start_response: Any) -> Any:
        return body()

    answer = answers_once_per_request(wsgi_app)({}, None)
    try:
        return list(answer)
    finally:
        answer.close()


def test_a_page_request_asks_the_cache_once_per_answer_and_forgets_what_it_changes() -> None:
    from django.core.cache import cache

    def body() -> list[int]:
        seen = [kept("test:answer", lambda: 1, 60)]
        cache.set("test:answer", 2, 60)  # another server's write: this request keeps its answer
        seen.append(kept("test:answer", lambda: 3, 60))
        forget("test:answer")  # this request's own change
        cache.set("test:answer", 9, 60)  # not asked: this request has just emptied it
        seen.append(kept("test:answer", lambda: 4, 60))
        seen.append(kept("test:answer", lambda: 8, 60))
        return seen

    assert _in_one_page_request(body) == [1, 1, 4, 4]
    cache.set("test:answer", 5, 60)
    assert kept("test:answer", lambda: 6, 60) == 5  # outside a page request: the cache, each time
    assert _in_one_page_request(lambda: [kept("test:answer", lambda: 7, 60)]) == [5]  # a new request reads again


def test_a_page_request_does_not_remember_an_answer_computed_inside_a_transaction(
    django_capture_on_commit_callbacks: Any,
) -> None:
    def body() -> list[int]:
        with django_capture_on_commit_callbacks(execute=False), transaction.atomic():
            first = kept("test:answer", lambda: 1, 60)
        # Rolled back, as far as the cache knows: the answer is computed again.
        return [first, kept("test:answer", lambda: 2, 60)]

    assert _in_one_page_request(body) == [1, 2]


def test_a_page_request_asks_for_answers_it_will_need_in_one_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    cache.set("test:kept", 1, 60)
    cache.set("test:none", None, 60)  # an answer that is None is an answer
    trips = _trips_to_the_cache(monkeypatch)

    def body() -> list[Any]:
        ask_together(["test:kept", "test:none", "test:missing", "test:kept"])
        return [kept("test:kept", lambda: 9, 60), kept("test:none", lambda: 9, 60),
                kept("test:missing", lambda: 3, 60)]  # not in the cache: computed, not asked again

    assert _in_one_page_request(body) == [1, None, 3]
    assert trips == ["get_many"]
    ask_together(["test:kept"])  # outside a page request: nothing
    assert trips == ["get_many"]
    assert cache.get("test:missing") == 3  # and kept


def _trips_to_the_cache(monkeypatch: pytest.MonkeyPatch, keys: list[Any] | None = None,
                        writes: tuple[str, ...] = ()) -> list[str]:
    """The names of the cache's read calls from now on (each a round trip with Redis), and of the
    ``writes`` named; with ``keys``, what each asked for too."""
    from django.core.cache import caches

    backend = caches["default"]
    trips: list[str] = []
    inside: list[str] = []

    def counting(name: str, call: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            if not inside:  # the in-memory cache's get_many calls its own get for each key
                trips.append(name)
                if keys is not None:
                    keys.append(args[0])
            inside.append(name)
            try:
                return call(*args, **kwargs)
            finally:
                inside.pop()

        return counted

    for name in ("get", "get_many", "has_key", *writes):
        monkeypatch.setattr(backend, name, counting(name, getattr(backend, name)))
    return trips


def _answered_through_the_door(monkeypatch: pytest.MonkeyPatch, environ: dict[str, Any]) -> tuple[str, list[str], list[str]]:
    """A page as the app server answers it: its body, its SQL and its trips to the cache."""
    from tests.site.page_door import through_the_door

    with CaptureQueriesContext(connection) as queries:
        trips = _trips_to_the_cache(monkeypatch)
        body = through_the_door(environ).body
    return body, [query["sql"] for query in queries.captured_queries], trips


@pytest.mark.django_db(transaction=True)
def test_a_game_page_reads_its_row_alone_and_asks_the_cache_for_the_rest_in_one_trip(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, client_for: Any
) -> None:
    from tests.site.page_door import get_environ
    from tests.site.test_live_push import in_own_thread

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    environ = get_environ(reverse("backgammon:game", args=[game.pk]), client_for(bob).cookies["sessionid"].value)

    in_own_thread(lambda: _answered_through_the_door(monkeypatch, environ))  # the first view keeps what it computed
    body, queries, trips = in_own_thread(lambda: _answered_through_the_door(monkeypatch, environ))
    assert "alice" in body and "bob" in body
    game_reads = [sql for sql in queries if 'FROM "backgammon_game"' in sql]
    assert len(game_reads) == 1 and "auth_user" not in game_reads[0]  # the players are kept users
    # The signed-in user, then the players, the log, the clock, the menu counts and the note at once.
    assert trips == ["get_many", "get_many"]


@pytest.mark.django_db(transaction=True)
def test_a_session_and_its_signed_in_user_come_in_one_trip_and_a_stale_guess_changes_nobody(
    monkeypatch: pytest.MonkeyPatch, settings: Any, alice: Any, bob: Any, client_for: Any
) -> None:
    """With sessions in the cache (gamesite.sessions, as with Redis), a process that has answered a
    session knows whom it signed in: the next request asks for the session and that user's kept
    answers together. The user is still the one the session names."""
    from gamesite import sessions
    from tests.site.page_door import get_environ, through_the_door
    from tests.site.test_live_push import in_own_thread

    settings.SESSION_ENGINE = "gamesite.sessions"
    # The door as an app server with Redis builds it: its session middleware takes the engine then.
    monkeypatch.setattr("gamesite.asgi.page_door", answering_pages(answers_once_per_request(WSGIHandler())))
    session = client_for(alice).cookies["sessionid"].value
    environ = get_environ(reverse("accounts:profile"), session)
    sessions._session_users.pop(session, None)

    def answered() -> tuple[str, list[str], list[Any]]:  # each in a thread, with a cache of its own
        asked: list[Any] = []
        trips = _trips_to_the_cache(monkeypatch, asked)
        return through_the_door(environ).body, trips, asked

    _, first_trips, first_asked = in_own_thread(answered)
    body, trips, asked = in_own_thread(answered)
    assert "alice" in body
    assert first_asked[0] == f"{cached_db.KEY_PREFIX}{session}"  # alone: whose it is was not known
    assert len(trips) == len(first_trips) - 1  # then asked with its user's answers
    assert f"{cached_db.KEY_PREFIX}{session}" in asked[0] and f"accounts:user:{alice.pk}" in asked[0]

    # A guess that no longer holds asks for another's answers, and the page is still alice's.
    sessions._session_users[session] = str(bob.pk)
    body, trips, asked = in_own_thread(answered)
    assert f"accounts:user:{bob.pk}" in asked[0] and f"accounts:user:{alice.pk}" in asked[1]
    assert "alice" in body and "bob" not in body
    assert sessions._session_users[session] == str(alice.pk)

    # A session ended is ended, whoever the process thought it was.
    alice_client = Client()
    alice_client.cookies["sessionid"] = session
    alice_client.post(reverse("accounts:logout"))
    status = in_own_thread(lambda: through_the_door(environ).status)
    assert status.startswith("302")


@pytest.mark.django_db(transaction=True)
def test_a_move_asks_the_cache_nothing_while_its_game_row_is_locked(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, client_for: Any
) -> None:
    """The clock of the player to act next asks whether they are a bot: the bot list comes with
    the signed-in user, before the move's transaction locks the game's row."""
    from tests.site.page_door import post_environ, through_the_door
    from tests.site.test_live_push import in_own_thread

    scripted_dice(monkeypatch).then((3, 1), (6, 5))
    game = start_game(alice, bob, "BX")
    environ = post_environ(reverse("backgammon:game_act", args=[game.pk]), client_for(alice).cookies["sessionid"].value,
                           {"kind": "play", "moves_text": "8/5 6/5", "expected_number": game.action_count},
                           HTTP_HX_REQUEST="true")
    locked: list[bool] = []  # for each read of the cache: whether a transaction was open

    def move() -> str:
        from django.core.cache import caches

        def noting(read: Any) -> Any:
            def noted(*args: Any, **kwargs: Any) -> Any:
                locked.append(connection.in_atomic_block)
                return read(*args, **kwargs)

            return noted

        backend = caches["default"]  # the request thread's own
        for name in ("get", "get_many"):
            monkeypatch.setattr(backend, name, noting(getattr(backend, name)))
        return through_the_door(environ).status

    assert in_own_thread(move).startswith("200")
    assert Game.objects.get(pk=game.pk).action_count > game.action_count
    assert locked and not any(locked)


@pytest.mark.django_db(transaction=True)
def test_a_matchs_earlier_moves_lists_come_in_the_pages_one_trip(alice: Any, bob: Any, client_for: Any,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.site.page_door import get_environ
    from tests.site.test_live_push import in_own_thread
    from tests.site.test_request_costs import _match_of_many_games

    game = _match_of_many_games(alice, bob, games=1, turns=2)
    assert game.game_number == 2
    environ = get_environ(reverse("backgammon:game", args=[game.pk]), client_for(bob).cookies["sessionid"].value)
    in_own_thread(lambda: _answered_through_the_door(monkeypatch, environ))  # the first view keeps them
    body, _, trips = in_own_thread(lambda: _answered_through_the_door(monkeypatch, environ))
    assert "<h3>Game 1</h3>" in body and "<h3>Game 2</h3>" in body
    assert trips == ["get_many", "get_many"]  # the signed-in user, then everything the page shows


@pytest.mark.django_db(transaction=True)
def test_a_moves_answer_reads_the_log_it_builds_on_in_the_pages_one_trip(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, client_for: Any
) -> None:
    from backgammon.move_records import logged_key
    from tests.site.page_door import post_environ, through_the_door
    from tests.site.test_live_push import in_own_thread

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    logged_actions(game, from_game=1)  # the version the move builds on is kept
    environ = post_environ(reverse("backgammon:game_act", args=[game.pk]), client_for(alice).cookies["sessionid"].value,
                           {"kind": "play", "moves_text": "8/5 6/5", "expected_number": game.action_count},
                           HTTP_HX_REQUEST="true")
    asked: list[Any] = []

    def move() -> str:  # the answer, and the push drawn for nobody listening after it
        _trips_to_the_cache(monkeypatch, asked)
        return through_the_door(environ).status

    assert in_own_thread(move).startswith("200")
    before = logged_key(game.pk, game.action_count, 1)
    logs_asked = [(one if isinstance(one, str) else tuple(one)) for one in asked
                  if "backgammon:logged" in str(one)]
    assert len(logs_asked) == 1 and isinstance(logs_asked[0], tuple) and before in logs_asked[0]


@pytest.mark.django_db(transaction=True)
def test_the_status_page_reads_its_games_alone_and_their_players_in_one_trip(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, charlie: Any, client_for: Any
) -> None:
    from backgammon.services import challenge_create
    from tests.site.page_door import get_environ
    from tests.site.test_live_push import in_own_thread

    scripted_dice(monkeypatch).then((3, 1), (1, 3))
    start_game(alice, bob, "BX")
    start_game(charlie, alice, "BX")
    challenge_create(challenger=charlie, opponent="alice", variant="BX", time_limit=timedelta(days=3))
    environ = get_environ(reverse("backgammon:status"), client_for(alice).cookies["sessionid"].value)

    cache_cold = in_own_thread(lambda: _answered_through_the_door(monkeypatch, environ))
    body, queries, trips = in_own_thread(lambda: _answered_through_the_door(monkeypatch, environ))
    for page in (cache_cold[0], body):  # a game each, and the challenge
        assert page.count(">bob<") == 1 and page.count(">charlie<") == 2
    assert not [sql for sql in queries if "auth_user" in sql]  # the players are kept users
    assert len([sql for sql in queries if 'FROM "backgammon_game"' in sql]) == 2  # active, finished
    assert trips == ["get_many", "get_many"]  # the signed-in user, then the players, clocks and counts at once
    users_read = [sql for sql in cache_cold[1] if 'FROM "auth_user"' in sql]
    assert len(users_read) <= 2  # the signed-in user, then all the players not kept, at once


@pytest.mark.django_db(transaction=True)
def test_a_moves_news_asks_the_cache_once_for_who_listens_and_all_it_shows(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, client_for: Any
) -> None:
    """What a move tells its players after its answer (backgammon/live.py): who has a page open,
    and the opponent's pushed region and both menu counts, read in one trip to the cache."""
    from django.core.cache import cache

    from backgammon import live
    from tests.site.page_door import post_environ, through_the_door
    from tests.site.test_live_push import in_own_thread

    scripted_dice(monkeypatch).then((3, 1), (6, 5))
    game = start_game(alice, bob, "BX")
    bobs_browser = client_for(bob)
    bobs_browser.get(reverse("backgammon:game", args=[game.pk]))  # bob signed in, his page open
    for mark in (live.listening_key(bob.pk), live.listening_key(bob.pk, game.pk), live.listening_key(alice.pk)):
        cache.set(mark, 1)
    sent: list[Any] = []
    monkeypatch.setattr(live, "_send", sent.extend)
    trips: list[list[str]] = []  # the cache's connections are the request thread's own
    news_trips: list[str] = []
    counted: list[str] = []  # the PLAY counts' queries the news made
    publish = live._publish_game_changed

    def told(**change: Any) -> None:
        before = len(trips[0])
        with CaptureQueriesContext(connection) as queries:
            publish(**change)
        news_trips.extend(trips[0][before:])
        counted.extend(query["sql"] for query in queries.captured_queries if "COUNT(*)" in query["sql"])

    monkeypatch.setattr(live, "_publish_game_changed", told)
    environ = post_environ(reverse("backgammon:game_act", args=[game.pk]), client_for(alice).cookies["sessionid"].value,
                           {"kind": "play", "moves_text": "8/5 6/5", "expected_number": game.action_count},
                           HTTP_HX_REQUEST="true")

    def move() -> str:
        trips.append(_trips_to_the_cache(monkeypatch))
        return through_the_door(environ).status

    assert in_own_thread(move).startswith("200")
    assert news_trips == ["get_many"]
    assert len(counted) == 1  # both players' PLAY counts (the move forgot them) in one query
    told_bob = dict(sent)[live.user_group(bob.pk)]
    assert [name for name, _ in told_bob] == ["game", "status"]
    assert 'class="game game--move"' in told_bob[0][1]["html"]  # his turn (rolled for him), as he would fetch it
    assert "/menu-counts/?play=1&amp;talk=0" in told_bob[1][1]["counts"]  # his turn
    assert "/menu-counts/?play=0&amp;talk=0" in dict(sent)[live.user_group(alice.pk)][1][1]["counts"]


@pytest.mark.django_db(transaction=True)
def test_a_move_through_the_door_forgets_once_and_asks_once_after_its_action(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, client_for: Any
) -> None:
    """The move's answer: the players' PLAY counts forgotten in one trip, when the move commits
    (the request's own reads know already), and everything its region shows asked in one."""
    from backgammon.services.queries import awaiting_count_key
    from tests.site.page_door import post_environ, through_the_door
    from tests.site.test_live_push import in_own_thread

    scripted_dice(monkeypatch).then((3, 1), (6, 5))
    game = start_game(alice, bob, "BX")
    client_for(alice).get(reverse("backgammon:game", args=[game.pk]))  # alice's answers kept
    environ = post_environ(reverse("backgammon:game_act", args=[game.pk]), client_for(alice).cookies["sessionid"].value,
                           {"kind": "play", "moves_text": "8/5 6/5", "expected_number": game.action_count},
                           HTTP_HX_REQUEST="true")
    asked: list[Any] = []

    def move() -> tuple[str, list[str]]:
        trips = _trips_to_the_cache(monkeypatch, asked, writes=("delete", "delete_many"))
        return through_the_door(environ).status, trips

    status, trips = in_own_thread(move)
    assert status.startswith("200")
    forgotten = [keys for name, keys in zip(trips, asked, strict=True) if name.startswith("delete")]
    assert [set(keys) for keys in forgotten] == [{awaiting_count_key(alice.pk), awaiting_count_key(bob.pk)}]
    after_the_action = trips[trips.index("delete_many"):]
    # Then the region's reads in one trip (the log it builds on, the clock, the counts, the note),
    # and the news's (backgammon/live.py) in another.
    assert after_the_action == ["delete_many", "get_many", "get_many"]


def test_a_roll_leaves_the_play_counts_kept_and_the_move_after_it_forgets_them(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any
) -> None:
    from django.core.cache import cache

    from backgammon.services import roll_request
    from backgammon.services.queries import awaiting_count_key, games_awaiting_count

    scripted_dice(monkeypatch).then((3, 1), (6, 5), (4, 2))
    game = start_game(alice, bob, "BP")  # the cube in play: bob's turn starts with his roll
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert (games_awaiting_count(alice), games_awaiting_count(bob)) == (0, 1)  # kept
    game = act(game, bob, roll_request())
    assert cache.get(awaiting_count_key(alice.pk)) == 0 and cache.get(awaiting_count_key(bob.pk)) == 1
    act(game, bob, Action.play([(24, 18), (13, 8)]))
    assert cache.get(awaiting_count_key(alice.pk)) is None and cache.get(awaiting_count_key(bob.pk)) is None
    assert (games_awaiting_count(alice), games_awaiting_count(bob)) == (1, 0)
    Game.objects.get().delete()  # a deletion always forgets them
    assert cache.get(awaiting_count_key(alice.pk)) is None
