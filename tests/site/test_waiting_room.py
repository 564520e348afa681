"""The Waiting Room: open challenges anyone may join, filters, withdraw, the ignore wall both
ways, rating ranges, bad input that changes nothing, and a bounded number of queries."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords  # noqa: F401

from accounts.relations import relation_set
from backgammon.models import Challenge, Game
from backgammon.services import (
    ChallengeRejected,
    OpenChallengeFilters,
    Refusal,
    challenge_create,
    open_challenge_create,
    open_challenge_join,
    open_challenges_for,
)
from tournaments.models import Rating

pytestmark = pytest.mark.django_db

ROOM = reverse("backgammon:waiting_room")
DAY = timedelta(days=1)


def open_challenge(challenger: Any, variant: str = "BP", **options: Any) -> Challenge:
    options.setdefault("time_limit", DAY)
    return open_challenge_create(challenger=challenger, variant=variant, **options)


def form_data(**changes: Any) -> dict[str, Any]:
    data = {"variant": "BP", "match_length": "", "time_limit": str(86400), "rated": "on"}
    data.update(changes)
    return data


def join_url(challenge: Challenge) -> str:
    return reverse("backgammon:waiting_room_join", args=[challenge.pk])


def test_a_visitor_sees_the_room_but_joining_or_adding_needs_a_login(client: Client, alice: Any) -> None:
    made = open_challenge(alice)
    page = client.get(ROOM)
    assert page.status_code == 200
    html = page.content.decode()
    assert f"open-challenge-{made.pk}" in html and ">alice</a>" in html
    # No form to join or to add: links to sign up (or log in) that come back here.
    assert join_url(made) not in html and '<form method="post" action="/games/waiting-room/"' not in html
    assert f'href="/accounts/signup/?next={ROOM}"' in html
    assert f'href="/accounts/login/?next={ROOM}"' in html
    assert "alice@example.com" not in html and 'href="#new-open-challenge"' not in html
    for response in (client.post(ROOM, form_data()), client.post(join_url(made))):
        # Back to the room after logging in (the join address answers POST only).
        assert response.status_code == 302 and response["Location"] == f"/accounts/login/?next={ROOM}"
    assert Challenge.objects.get().status == "pending" and not Game.objects.exists()


def test_it_is_in_the_play_menu(alice_client: Client) -> None:
    page = alice_client.get(reverse("help_rules")).content.decode()
    assert f'<li><a href="{ROOM}">Waiting Room</a></li>' in page


def test_the_lead_links_a_player_to_the_form_below_the_list(alice_client: Client, charlie: Any) -> None:
    """On a phone the list fills the first screens: the lead's link goes to the form."""
    open_challenge(charlie)  # a list, so no "Put yours in" in its place
    for room in (ROOM, reverse("backgammon:waiting_room_live")):
        html = alice_client.get(room).content.decode()
        lead = re.search(r'<p class="lead">(.*?)</p>', html, re.DOTALL)
        assert lead and 'href="#new-open-challenge"' in lead.group(1) and 'id="new-open-challenge"' in html


def test_a_player_puts_an_open_challenge_in_the_room_and_another_joins_it(
    alice_client: Client, bob_client: Client, alice: Any, bob: Any
) -> None:
    response = alice_client.post(ROOM, form_data(variant="BN", message="<b>anyone?</b>"))
    assert response.status_code == 302 and response["Location"] == ROOM
    made = Challenge.objects.get()
    assert made.challenged is None and made.variant == "BN" and made.counts_toward_limit

    page = bob_client.get(ROOM).content.decode()
    assert f'id="open-challenge-{made.pk}"' in page
    assert f'<a class="player-link" href="{reverse("people:profile", args=["alice"])}">alice</a>' in page
    assert "&lt;b&gt;anyone?&lt;/b&gt;" in page and "<b>anyone?" not in page
    assert f'action="{join_url(made)}"' in page

    response = bob_client.post(join_url(made))
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("backgammon:game", args=[game.pk])
    assert (game.black, game.white, game.variant, game.counts_toward_limit) == (alice, bob, "BN", True)
    made.refresh_from_db()
    assert (made.status, made.challenged, made.game) == ("accepted", None, game)
    # Gone from the room for everyone; not among alice's named challenges on Game status.
    assert f"open-challenge-{made.pk}" not in bob_client.get(ROOM).content.decode()


def test_the_new_game_page_takes_anyone_as_opponent(alice_client: Client) -> None:
    data = {"opponent": "Anyone", "variant": "BX", "match_length": "", "time_limit": str(86400)}
    response = alice_client.post(reverse("backgammon:new_game"), data)
    assert response.status_code == 302 and response["Location"] == ROOM
    made = Challenge.objects.get()
    assert made.challenged is None and made.variant == "BX"
    # Game status lists only named challenges; the open one waits in the room.
    assert f"challenge-{made.pk}" not in alice_client.get(reverse("backgammon:status")).content.decode()


def test_the_creator_withdraws_and_nobody_else_can(
    alice_client: Client, bob_client: Client, alice: Any
) -> None:
    made = open_challenge(alice)
    url = reverse("backgammon:waiting_room_withdraw", args=[made.pk])
    bob_client.post(url)
    assert Challenge.objects.get().status == "pending"
    assert "Only its creator" in bob_client.get(ROOM).content.decode()
    response = alice_client.post(url)
    assert response.status_code == 302
    assert Challenge.objects.get().status == "withdrawn"
    bob_client.post(join_url(made))
    assert not Game.objects.exists()
    assert "no longer in the waiting room" in bob_client.get(ROOM).content.decode()


def test_nobody_joins_their_own_open_challenge(alice_client: Client, alice: Any) -> None:
    made = open_challenge(alice)
    page = alice_client.get(ROOM).content.decode()
    assert f'action="{join_url(made)}"' not in page and "Withdraw" in page
    alice_client.post(join_url(made))
    assert not Game.objects.exists() and Challenge.objects.get().status == "pending"


@pytest.mark.parametrize("who_ignores", ["creator", "visitor"])
def test_the_ignore_wall_hides_challenges_both_ways(
    who_ignores: str, alice: Any, bob: Any, charlie: Any, bob_client: Client
) -> None:
    made = open_challenge(alice)
    if who_ignores == "creator":
        relation_set(owner=alice, username="bob", kind="ignore")
    else:
        relation_set(owner=bob, username="alice", kind="ignore")
    assert f"open-challenge-{made.pk}" not in bob_client.get(ROOM).content.decode()
    assert [row.challenge for row in open_challenges_for(charlie)] == [made]
    with pytest.raises(ChallengeRejected) as refused:
        open_challenge_join(challenge_id=made.pk, actor=bob)
    assert refused.value.kind == Refusal.NOT_FOUND and refused.value.message == "There is no such open challenge"
    bob_client.post(join_url(made))
    assert not Game.objects.exists()
    # Alice, in turn, does not see bob's challenge either.
    mine = open_challenge(bob, "BX")
    assert mine not in [row.challenge for row in open_challenges_for(alice)]


def test_a_rating_range_admits_only_players_inside_it(alice: Any, bob: Any, charlie: Any) -> None:
    Rating.objects.create(player=bob, variant="BP", rating=1620.0, experience=100)
    made = open_challenge(alice, min_rating=1600, max_rating=1700)
    charlie_rows = open_challenges_for(charlie)  # charlie has the starting 1500
    assert [(row.joinable, row.why_not) for row in charlie_rows] == [(False, "For ratings 1600 to 1700")]
    with pytest.raises(ChallengeRejected, match="rated 1600 to 1700 in Pro Backgammon"):
        open_challenge_join(challenge_id=made.pk, actor=charlie)
    assert open_challenges_for(charlie, OpenChallengeFilters(joinable_only=True)) == []
    assert open_challenge_join(challenge_id=made.pk, actor=bob).white == bob


def test_filters_narrow_the_list(alice: Any, bob: Any, charlie_client: Client) -> None:
    bp = open_challenge(alice, "BP", match_length=7)
    bx = open_challenge(bob, "BX", time_limit=timedelta(days=3), rated=False)
    ranged = open_challenge(alice, "BN", min_rating=1800)

    def listed(**params: str) -> set[int]:
        page = charlie_client.get(ROOM, params).content.decode()
        return {c.pk for c in (bp, bx, ranged) if f'id="open-challenge-{c.pk}"' in page}

    assert listed() == {bp.pk, bx.pk, ranged.pk}
    assert listed(variant="BX") == {bx.pk}
    assert listed(match_length="7") == {bp.pk}
    assert listed(time_limit=str(3 * 86400)) == {bx.pk}
    assert listed(rated="no") == {bx.pk}
    assert listed(rated="yes") == {bp.pk, ranged.pk}
    assert listed(joinable="on") == {bp.pk, bx.pk}
    # Filters that make no sense are ignored, with a word, not a 500.
    response = charlie_client.get(ROOM, {"variant": "ZZ", "time_limit": "9"})
    assert response.status_code == 200 and "not understood" in response.content.decode()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"variant": "ZZ"}, "Select a valid choice"),
        ({"time_limit": "12345"}, "Select a valid choice"),
        ({"match_length": "0"}, "greater than or equal to 1"),
        ({"variant": "BX", "match_length": "5"}, "a single game"),
        ({"min_rating": "1900", "max_rating": "1500"}, "must not be above"),
        ({"min_rating": "-3"}, "greater than or equal to 1"),
        ({"min_rating": "99999"}, "less than or equal to 5000"),
        ({"variant": "MP", "min_rating": "1500"}, "Money play is not rated"),
        ({"variant": "BX", "stake": "5"}, "belong to the money game"),
        ({"message": "x" * 501}, "at most 500"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    alice_client: Client, changes: dict[str, str], message: str
) -> None:
    response = alice_client.post(ROOM, form_data(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Challenge.objects.exists()


def test_unknown_ids_and_wrong_methods(alice_client: Client) -> None:
    assert alice_client.get(reverse("backgammon:waiting_room_join", args=[1])).status_code == 405
    response = alice_client.post(reverse("backgammon:waiting_room_join", args=[999999]))
    assert response.status_code == 302
    assert "There is no such open challenge" in alice_client.get(ROOM).content.decode()
    assert alice_client.post(reverse("backgammon:waiting_room_withdraw", args=[999999])).status_code == 302
    assert not Challenge.objects.exists() and not Game.objects.exists()


def test_a_named_challenge_is_not_joinable(alice: Any, bob: Any, charlie: Any) -> None:
    named = challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=DAY)
    with pytest.raises(ChallengeRejected) as refused:
        open_challenge_join(challenge_id=named.pk, actor=charlie)
    assert refused.value.kind == Refusal.NOT_FOUND
    assert Challenge.objects.get().status == "pending" and not Game.objects.exists()


def test_open_challenges_per_player_are_capped(alice: Any) -> None:
    from backgammon.services.waiting_room import MAX_OPEN_CHALLENGES

    for _ in range(MAX_OPEN_CHALLENGES):
        open_challenge(alice)
    with pytest.raises(ChallengeRejected, match="withdraw one first"):
        open_challenge(alice)
    assert Challenge.objects.count() == MAX_OPEN_CHALLENGES


def test_the_room_page_makes_a_bounded_number_of_queries(
    alice_client: Client, make_user: Any, django_assert_max_num_queries: Any
) -> None:
    players = [make_user(f"player{n}") for n in range(8)]
    for n in range(60):
        variant = ("BP", "BX", "BN", "MP")[n % 4]
        ranged = {"min_rating": 1400} if n % 5 == 0 and variant != "MP" else {}
        open_challenge(players[n % 8], variant, **ranged)
    with django_assert_max_num_queries(20):
        response = alice_client.get(ROOM)
    assert response.content.decode().count('id="open-challenge-') == 60


def test_the_room_form_is_rate_limited(alice_client: Client, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.LOBBY_WRITE_RATE = "1/m"
    assert alice_client.post(ROOM, form_data()).status_code == 302
    refused = alice_client.post(ROOM, form_data(variant="BX"))
    assert refused.status_code == 429 and "wait a minute" in refused.content.decode()
    assert Challenge.objects.count() == 1
    cache.clear()
