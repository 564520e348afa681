"""Auto-Match: requests, pairing (compatible terms, closest ratings first, never across the
ignore wall, never at the game limit), games-at-most, cancel, the worker tick, bad input, and
two requests racing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from gamebuilder import fast_passwords  # noqa: F401

from accounts.relations import relation_set
from backgammon.engine import VARIANTS
from backgammon.models import AutoMatchRequest, Game
from backgammon.services import (
    ChallengeRejected,
    auto_match_cancel,
    auto_match_pair,
    auto_match_set,
)
from backgammon.signals import worker_tick
from tournaments.models import Rating

pytestmark = pytest.mark.django_db

PAGE = reverse("backgammon:auto_match")
DAY = timedelta(days=1)
THREE_DAYS = timedelta(days=3)


def ask(player: Any, variants: tuple[str, ...] = ("BP",), limits: tuple[timedelta, ...] = (DAY,),
        rated: str = "either", max_games: int = 1) -> AutoMatchRequest:
    return auto_match_set(player=player, variants=list(variants), time_limits=list(limits),
                          rated=rated, max_games=max_games)


def test_the_page_needs_a_login_and_is_in_the_play_menu(client: Client, alice_client: Client) -> None:
    response = client.get(PAGE)
    assert response.status_code == 302 and "login" in response["Location"]
    assert client.post(PAGE, {"variants": ["BP"]}).status_code == 302
    assert not AutoMatchRequest.objects.exists()
    assert f'<li><a href="{PAGE}">Auto-Match</a></li>' in alice_client.get(PAGE).content.decode()


def test_two_compatible_requests_start_a_game_at_once(alice: Any, bob: Any) -> None:
    first = ask(alice, ("BP", "BX"), (DAY, THREE_DAYS))
    assert first.status == "open" and not Game.objects.exists()
    second = ask(bob, ("BX", "BN"), (THREE_DAYS,), rated="unrated")
    game = Game.objects.get()
    # The older request's player is Black; the first shared variant; the longest shared limit.
    assert (game.black, game.white, game.variant, game.time_limit, game.rated) == (alice, bob, "BX", THREE_DAYS, False)
    assert game.counts_toward_limit
    for request in (first, second):
        request.refresh_from_db()
        assert request.status == "filled" and list(request.games.all()) == [game]


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ({"variants": ("BP",)}, {"variants": ("BX",)}),
        ({"limits": (DAY,)}, {"limits": (THREE_DAYS,)}),
        ({"rated": "rated"}, {"rated": "unrated"}),
        ({"variants": ("MP",), "rated": "unrated"}, {"variants": ("MP", "BX"), "rated": "rated"}),
    ],
)
def test_incompatible_requests_wait(alice: Any, bob: Any, mine: dict[str, Any], theirs: dict[str, Any]) -> None:
    ask(alice, **mine)
    ask(bob, **theirs)
    assert not Game.objects.exists()
    assert AutoMatchRequest.objects.filter(status="open").count() == 2


def test_money_play_pairs_unrated(alice: Any, bob: Any) -> None:
    ask(alice, ("MP",))
    ask(bob, ("MP",), rated="unrated")
    game = Game.objects.get()
    assert (game.variant, game.rated, game.stake, game.match_length) == ("MP", False, 1, 0)


def test_closest_ratings_are_paired_first(alice: Any, bob: Any, charlie: Any, make_user: Any) -> None:
    dora = make_user("dora")
    Rating.objects.create(player=alice, variant="BP", rating=1500.0, experience=0)
    Rating.objects.create(player=bob, variant="BP", rating=1900.0, experience=0)
    Rating.objects.create(player=charlie, variant="BP", rating=1880.0, experience=0)
    Rating.objects.create(player=dora, variant="BP", rating=1520.0, experience=0)
    requests = [
        AutoMatchRequest.objects.create(player=p, variants=["BP"], time_limits=[86400], rated="either")
        for p in (alice, bob, charlie, dora)
    ]
    started = auto_match_pair()
    pairs = {frozenset((g.black_id, g.white_id)) for g in started}
    assert pairs == {frozenset((bob.pk, charlie.pk)), frozenset((alice.pk, dora.pk))}
    assert all(r.games.count() == 1 for r in requests)


def test_players_who_ignore_each_other_are_never_paired(alice: Any, bob: Any, charlie: Any) -> None:
    relation_set(owner=bob, username="alice", kind="ignore")
    ask(alice)
    ask(bob)
    assert not Game.objects.exists()
    ask(charlie)
    game = Game.objects.get()
    assert {game.black, game.white} == {alice, charlie}
    assert AutoMatchRequest.objects.get(player=bob).status == "open"


def test_games_at_most_keeps_the_request_until_that_many_started(
    alice: Any, bob: Any, charlie: Any, make_user: Any
) -> None:
    mine = ask(alice, max_games=2)
    ask(bob)
    mine.refresh_from_db()
    assert mine.status == "open" and mine.games.count() == 1
    # The same two players are not paired twice by one request.
    ask(bob)
    assert Game.objects.count() == 1
    ask(charlie)
    mine.refresh_from_db()
    assert mine.status == "filled" and mine.games.count() == 2
    # Alice's request is filled: dora is paired with bob's second request, not with alice.
    dora = make_user("dora")
    ask(dora)
    assert Game.objects.count() == 3
    assert Game.objects.filter(black=bob, white=dora).exists()
    assert mine.games.count() == 2


def test_pairing_twice_changes_nothing(alice: Any, bob: Any, charlie: Any) -> None:
    ask(alice)
    ask(bob)
    ask(charlie)
    assert Game.objects.count() == 1
    assert auto_match_pair() == [] and auto_match_pair() == []
    assert Game.objects.count() == 1


def test_pairing_asks_the_database_as_often_for_many_waiting_requests_as_for_two(make_user: Any) -> None:
    # The worker tick pairs every open request at once: their games so far, ignore walls and
    # game limits are read for all of them together, never request by request.
    def queries_to_pair(variants: list[str]) -> int:
        AutoMatchRequest.objects.all().delete()
        for index, variant in enumerate(variants):  # one variant each: nothing pairs
            player = make_user(f"waiting{len(variants)}x{index}")
            AutoMatchRequest.objects.create(player=player, variants=[variant], time_limits=[86400], rated="unrated")
        with CaptureQueriesContext(connection) as asked:
            assert auto_match_pair() == []
        return len(asked.captured_queries)

    assert queries_to_pair(list(VARIANTS)[:2]) == queries_to_pair(list(VARIANTS)[:6])


def test_a_pass_links_each_game_in_one_insert_and_fills_its_requests_in_one_update(make_user: Any) -> None:
    # Four requests, two games: one INSERT of both links per game, one UPDATE for all four filled.
    for index in range(4):
        player = make_user(f"filling{index}")
        AutoMatchRequest.objects.create(player=player, variants=["BX"], time_limits=[86400], rated="unrated")
    with CaptureQueriesContext(connection) as asked:
        assert len(auto_match_pair()) == 2
    table = AutoMatchRequest.games.through._meta.db_table
    statements = [query["sql"] for query in asked.captured_queries]
    assert sum(sql.startswith(f'INSERT INTO "{table}"') for sql in statements) == 2
    assert sum(sql.startswith(f'UPDATE "{AutoMatchRequest._meta.db_table}"') for sql in statements) == 1
    assert set(AutoMatchRequest.objects.values_list("status", flat=True)) == {"filled"}
    assert AutoMatchRequest.games.through.objects.count() == 4


def test_the_worker_tick_pairs_what_was_missed(alice: Any, bob: Any) -> None:
    for player in (alice, bob):  # written without the request's own pairing, as a lost run would
        AutoMatchRequest.objects.create(player=player, variants=["BX"], time_limits=[86400])
    worker_tick.send(sender=None)
    assert Game.objects.count() == 1
    assert set(AutoMatchRequest.objects.values_list("status", flat=True)) == {"filled"}


def test_a_change_replaces_the_open_request_and_cancel_ends_it(alice: Any) -> None:
    first = ask(alice, ("BP",))
    second = ask(alice, ("BX", "BN"), (DAY, THREE_DAYS), rated="rated", max_games=3)
    assert first.pk == second.pk and AutoMatchRequest.objects.count() == 1
    assert (second.variants, second.time_limits, second.rated, second.max_games) == (
        ["BX", "BN"], [86400, 259200], "rated", 3,
    )
    assert auto_match_cancel(player=alice).status == "cancelled"
    with pytest.raises(ChallengeRejected, match="no auto-match request waiting"):
        auto_match_cancel(player=alice)


def test_a_cancelled_request_is_not_paired(alice: Any, bob: Any) -> None:
    ask(alice)
    auto_match_cancel(player=alice)
    ask(bob)
    assert not Game.objects.exists()


def test_the_page_makes_changes_and_shows_the_games(
    alice_client: Client, bob_client: Client, alice: Any, bob: Any
) -> None:
    data = {"variants": ["BP", "BX"], "time_limits": ["86400"], "rated": "either", "max_games": "2"}
    response = alice_client.post(PAGE, data)
    assert response.status_code == 302 and response["Location"] == PAGE
    page = alice_client.get(PAGE).content.decode()
    assert "Backgammon (BX), Pro Backgammon (BP)" in page and "0 of 2 started" in page and "Cancel request" in page
    bob_client.post(PAGE, {"variants": ["BX"], "time_limits": ["86400"], "rated": "either", "max_games": "1"})
    game = Game.objects.get()
    page = alice_client.get(PAGE).content.decode()
    assert "1 of 2 started" in page and reverse("backgammon:game", args=[game.pk]) in page
    assert f'href="{reverse("people:profile", args=["bob"])}">bob</a>' in page
    response = alice_client.post(reverse("backgammon:auto_match_cancel"))
    assert response.status_code == 302
    assert AutoMatchRequest.objects.get(player=alice).status == "cancelled"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"variants": [], "time_limits": ["86400"]}, "Choose at least one variant"),
        ({"variants": ["ZZ"], "time_limits": ["86400"]}, "Select a valid choice"),
        ({"variants": ["BP"], "time_limits": []}, "Choose at least one time limit"),
        ({"variants": ["BP"], "time_limits": ["77"]}, "Select a valid choice"),
        ({"variants": ["BP"], "time_limits": ["86400"], "rated": "maybe"}, "Select a valid choice"),
        ({"variants": ["BP"], "time_limits": ["86400"], "max_games": "0"}, "greater than or equal to 1"),
        ({"variants": ["BP"], "time_limits": ["86400"], "max_games": "11"}, "less than or equal to 10"),
        ({"variants": ["MP"], "time_limits": ["86400"], "rated": "rated"}, "Money play is never rated"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(alice_client: Client, data: dict[str, Any], message: str) -> None:
    data = {"rated": "either", "max_games": "1", **data}
    response = alice_client.post(PAGE, data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not AutoMatchRequest.objects.exists()


def test_cancelling_nothing_says_so(alice_client: Client) -> None:
    alice_client.post(reverse("backgammon:auto_match_cancel"))
    assert "no auto-match request waiting" in alice_client.get(PAGE).content.decode()
    assert alice_client.get(reverse("backgammon:auto_match_cancel")).status_code == 405
