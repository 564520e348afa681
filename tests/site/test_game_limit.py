"""The non-members' limit of simultaneous games: challenges, waiting room and auto-match are
refused at the limit with a sentence saying the limit and that members have none; members,
bot, ladder and tournament games are never refused for it and do not count; the profile says it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from gamebuilder import fast_passwords, start_game  # noqa: F401

from accounts.models import Profile
from backgammon.models import AutoMatchRequest, Challenge, Game
from backgammon.services import (
    ChallengeRejected,
    auto_match_set,
    challenge_accept,
    challenge_create,
    counted_games,
    game_abort,
    game_create,
    open_challenge_create,
    open_challenge_join,
)
from backgammon.services.game_limit import players_at_limit
from bots.accounts import create_bot_accounts
from bots.models import Bot
from membership.periods import membership_extend
from tournaments.ladders import ladder_challenge, ladder_create, ladder_join

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
LIMIT_WORDS = "Players who are not members may have 2 games at a time; members have no limit."


@pytest.fixture(autouse=True)
def small_limit(settings: Any) -> None:
    settings.NON_MEMBER_GAME_LIMIT = 2


def make_member(user: Any) -> None:
    # As an operator does in the admin (a staff period): the profile's save is heard by the kept copy.
    membership_extend(user=user, staff=None, days=30, reason="a test's member")
    user.refresh_from_db()


def fill(user: Any, make_user: Any, count: int = 2) -> list[Game]:
    return [start_game(user, make_user(f"rival{user.pk}x{n}"), "BX", time_limit=DAY) for n in range(count)]


def test_a_new_challenge_at_the_limit_is_refused_and_changes_nothing(alice: Any, bob: Any, make_user: Any) -> None:
    fill(alice, make_user)
    assert counted_games(alice) == 2
    before = Challenge.objects.count()
    with pytest.raises(ChallengeRejected) as refused:
        challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=DAY)
    assert refused.value.message == f"You already play 2 games. {LIMIT_WORDS}"
    assert Challenge.objects.count() == before


def test_accepting_at_the_limit_is_refused(alice: Any, bob: Any, make_user: Any) -> None:
    waiting = challenge_create(challenger=bob, opponent="alice", variant="BP", time_limit=DAY)
    fill(alice, make_user)
    with pytest.raises(ChallengeRejected, match="You already play 2 games"):
        challenge_accept(challenge_id=waiting.pk, actor=alice)
    assert Challenge.objects.get(pk=waiting.pk).status == "pending"
    assert counted_games(alice) == 2 and counted_games(bob) == 0


def test_accepting_a_challenge_from_a_player_at_the_limit_names_them(
    alice: Any, bob: Any, make_user: Any
) -> None:
    waiting = challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=DAY)
    fill(alice, make_user)
    with pytest.raises(ChallengeRejected) as refused:
        challenge_accept(challenge_id=waiting.pk, actor=bob)
    assert refused.value.message == f"alice already plays 2 games and cannot start another now. {LIMIT_WORDS}"
    assert Challenge.objects.get(pk=waiting.pk).status == "pending"


def test_the_waiting_room_refuses_at_the_limit(alice: Any, bob: Any, make_user: Any) -> None:
    theirs = open_challenge_create(challenger=bob, variant="BP", time_limit=DAY)
    fill(alice, make_user)
    with pytest.raises(ChallengeRejected, match="You already play 2 games"):
        open_challenge_create(challenger=alice, variant="BP", time_limit=DAY)
    with pytest.raises(ChallengeRejected, match="You already play 2 games"):
        open_challenge_join(challenge_id=theirs.pk, actor=alice)
    assert Challenge.objects.get(pk=theirs.pk).status == "pending"


def test_the_page_shows_the_refusal(alice_client: Client, alice: Any, make_user: Any) -> None:
    fill(alice, make_user)
    data = {"opponent": "anyone", "variant": "BP", "match_length": "", "time_limit": "86400"}
    response = alice_client.post(reverse("backgammon:new_game"), data)
    assert response.status_code == 400
    assert "members have no limit" in response.content.decode()


def test_auto_match_does_not_pair_a_player_at_the_limit(alice: Any, bob: Any, charlie: Any, make_user: Any) -> None:
    fill(alice, make_user)
    auto_match_set(player=alice, variants=["BP"], time_limits=[DAY], rated="either", max_games=1)
    auto_match_set(player=bob, variants=["BP"], time_limits=[DAY], rated="either", max_games=1)
    assert not Game.objects.filter(variant="BP").exists()
    auto_match_set(player=charlie, variants=["BP"], time_limits=[DAY], rated="either", max_games=1)
    game = Game.objects.get(variant="BP")
    assert {game.black, game.white} == {bob, charlie}
    assert AutoMatchRequest.objects.get(player=alice).status == "open"


def test_counting_who_is_at_the_limit_asks_for_members_only_when_someone_is(
    alice: Any, bob: Any, make_user: Any
) -> None:
    with CaptureQueriesContext(connection) as asked:
        assert players_at_limit([alice.pk, bob.pk]) == set()
    assert len(asked.captured_queries) == 1  # their games: nobody is near the limit
    fill(alice, make_user)
    fill(bob, make_user)
    make_member(bob)
    with CaptureQueriesContext(connection) as asked:
        assert players_at_limit([alice.pk, bob.pk]) == {alice.pk}  # the member is spared
    assert len(asked.captured_queries) == 2


def test_members_have_no_limit(alice: Any, bob: Any, make_user: Any) -> None:
    make_member(alice)
    fill(alice, make_user, 3)
    challenge = challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=DAY)
    assert challenge_accept(challenge_id=challenge.pk, actor=bob).black == alice
    assert counted_games(alice) == 4


def test_a_game_that_ends_frees_a_place(alice: Any, bob: Any, make_user: Any) -> None:
    games = fill(alice, make_user)
    steward = get_user_model().objects.create_user("steward", is_staff=True)
    game_abort(game_id=games[0].pk, staff=steward, reason="a test of the limit")
    assert counted_games(alice) == 1
    assert challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=DAY).counts_toward_limit


def test_bot_ladder_and_tournament_games_neither_count_nor_are_refused(
    alice: Any, bob: Any, make_user: Any
) -> None:
    create_bot_accounts(get_user_model(), Profile, Bot)
    fill(alice, make_user)
    bot = get_user_model().objects.get(username="gnubg-easy")
    to_bot = challenge_create(challenger=alice, opponent=bot.get_username(), variant="BP", time_limit=DAY)
    assert not to_bot.counts_toward_limit
    assert not challenge_accept(challenge_id=to_bot.pk, actor=bot).counts_toward_limit

    steward = get_user_model().objects.create_user("steward", is_staff=True)
    ladder = ladder_create(staff=steward, name="BX ladder", variant="BX", match_length=None, time_limit=DAY)
    ladder_join(ladder_id=ladder.pk, player=bob)
    ladder_join(ladder_id=ladder.pk, player=alice)
    made = ladder_challenge(ladder_id=ladder.pk, challenger=alice, opponent="bob")
    assert not challenge_accept(challenge_id=made.pk, actor=bob).counts_toward_limit

    tournament_like = game_create(black=alice, white=bob, variant="BX", match_length=0, time_limit=DAY, rated=True)
    assert not tournament_like.counts_toward_limit
    assert counted_games(alice) == 2


def test_the_profile_says_how_many_of_the_limit_are_used(
    alice_client: Client, alice: Any, bob: Any, make_user: Any
) -> None:
    start_game(bob, alice, "BX", time_limit=DAY)
    page = alice_client.get(reverse("people:profile", args=["alice"])).content.decode()
    assert "1 of 2 (members have no limit)" in page
    make_member(alice)
    page = alice_client.get(reverse("people:profile", args=["alice"])).content.decode()
    assert "No limit (member)" in page
