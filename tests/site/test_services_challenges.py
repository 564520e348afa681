"""Challenges: create with the variant's rules, accept (the game starts), decline, withdraw."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from gamebuilder import fast_passwords  # noqa: F401 (an autouse fixture)

from accounts.relations import relation_remove, relation_set
from backgammon.models import Challenge, Game
from backgammon.services import (
    ChallengeRejected,
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenge_withdraw,
    game_create,
)

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


def create(challenger: Any, opponent: str = "bob", **options: Any) -> Challenge:
    options.setdefault("variant", "BP")
    options.setdefault("time_limit", DAY)
    return challenge_create(challenger=challenger, opponent=opponent, **options)


def refused_create(challenger: Any, **options: Any) -> str:
    with pytest.raises(ChallengeRejected) as refusal:
        create(challenger, **options)
    assert not Challenge.objects.exists()
    return refusal.value.message


@pytest.mark.parametrize(("variant", "length"), [("BP", 5), ("BS", 5), ("BO", 5), ("B9", 9), ("BX", 0), ("MP", 0)])
def test_it_defaults_the_match_length_as_itsyourturn(alice: Any, bob: Any, variant: str, length: int) -> None:
    assert create(alice, variant=variant).match_length == length


def test_it_accepts_any_length_for_match_variants(alice: Any, bob: Any) -> None:
    challenge = create(alice, opponent="BOB", variant="b9", match_length=25, message="  hi  ")
    assert (challenge.variant, challenge.match_length, challenge.message, challenge.challenged) == (
        "B9", 25, "hi", bob
    )


def test_money_play_keeps_its_options(alice: Any, bob: Any) -> None:
    challenge = create(alice, variant="MP", jacoby=True, beavers=True, automatic_doubles=2, stake=10)
    assert (challenge.jacoby, challenge.beavers, challenge.automatic_doubles, challenge.stake) == (True, True, 2, 10)
    assert create(alice, variant="BX").stake == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"opponent": "alice"}, "You cannot challenge yourself"),
        ({"opponent": "nobody"}, "There is no player called 'nobody'"),
        ({"opponent": "  "}, "Name the player you want to challenge"),
        ({"variant": "XX"}, "There is no variant 'XX'"),
        ({"variant": "BX", "match_length": 5}, "Backgammon is a single game: it has no match length"),
        ({"match_length": 26}, "A match is played to 1 to 25 points, not 26"),
        ({"match_length": 0}, "A match is played to 1 to 25 points, not 0"),
        ({"time_limit": timedelta(hours=3)}, "Choose a time limit per move from the list"),
        ({"message": "x" * 501}, "A message can be at most 500 characters"),
        ({"jacoby": True}, "belong to the money game (MP)"),
        ({"variant": "MP", "stake": 0}, "The stake is 1 to 1000 points per point"),
        ({"variant": "MP", "automatic_doubles": 9}, "Automatic doubles can be limited to 0 to 3"),
    ],
)
def test_it_refuses_bad_challenges_clearly(alice: Any, bob: Any, options: dict[str, Any], message: str) -> None:
    assert message in refused_create(alice, **options)


def test_it_refuses_an_inactive_opponent(alice: Any, bob: Any) -> None:
    bob.is_active = False
    bob.save()
    assert refused_create(alice) == "The player bob no longer plays here"


@pytest.mark.parametrize("ignorer", ["alice", "bob"])
def test_the_ignore_list_refuses_a_challenge_either_way_in_the_same_words(
    alice: Any, bob: Any, ignorer: str
) -> None:
    owner, other = (alice, "bob") if ignorer == "alice" else (bob, "alice")
    relation_set(owner=owner, username=other, kind="ignore")
    assert refused_create(alice, message="hello anyway") == "That player cannot receive your challenges."
    relation_remove(owner=owner, username=other, kind="ignore")
    assert create(alice).challenged == bob


def test_a_ladder_challenge_is_not_refused_for_the_ignore_list(alice: Any, bob: Any) -> None:
    relation_set(owner=bob, username="alice", kind="ignore")
    assert create(alice, counts_toward_limit=False).challenged == bob


def test_it_refuses_a_second_identical_pending_challenge(alice: Any, bob: Any) -> None:
    create(alice)
    with pytest.raises(ChallengeRejected, match="already have a Pro Backgammon challenge waiting for bob"):
        create(alice)
    assert Challenge.objects.count() == 1


def test_accepting_starts_the_game_with_the_challenger_as_black(alice: Any, bob: Any) -> None:
    challenge = create(alice, variant="BO", match_length=3, time_limit=timedelta(minutes=5), rated=False)
    game = challenge_accept(challenge_id=challenge.pk, actor=bob)
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game, challenge.responded_at is not None) == ("accepted", game, True)
    assert (game.black, game.white, game.variant, game.match_length, game.rated) == (alice, bob, "BO", 3, False)
    assert game.time_limit == timedelta(minutes=5)
    assert game.phase == "move" and game.actor in (alice, bob) and game.action_count >= 1


@pytest.mark.parametrize("respond", [challenge_accept, challenge_decline])
def test_only_the_challenged_player_may_answer(alice: Any, bob: Any, charlie: Any, respond: Any) -> None:
    challenge = create(alice)
    for intruder in (alice, charlie):
        with pytest.raises(ChallengeRejected, match="Only the challenged player"):
            respond(challenge_id=challenge.pk, actor=intruder)
    challenge.refresh_from_db()
    assert challenge.status == "pending" and not Game.objects.exists()


def test_only_the_challenger_may_withdraw(alice: Any, bob: Any) -> None:
    challenge = create(alice)
    with pytest.raises(ChallengeRejected, match="Only the challenger"):
        challenge_withdraw(challenge_id=challenge.pk, actor=bob)
    challenge_withdraw(challenge_id=challenge.pk, actor=alice)
    challenge.refresh_from_db()
    assert challenge.status == "withdrawn"


def test_a_challenge_is_answered_once(alice: Any, bob: Any) -> None:
    challenge = create(alice)
    challenge_decline(challenge_id=challenge.pk, actor=bob)
    with pytest.raises(ChallengeRejected, match="This challenge was already declined"):
        challenge_accept(challenge_id=challenge.pk, actor=bob)
    with pytest.raises(ChallengeRejected, match="already declined"):
        challenge_withdraw(challenge_id=challenge.pk, actor=alice)
    assert not Game.objects.exists()


def test_accepting_twice_starts_one_game(alice: Any, bob: Any) -> None:
    challenge = create(alice)
    challenge_accept(challenge_id=challenge.pk, actor=bob)
    with pytest.raises(ChallengeRejected, match="already accepted"):
        challenge_accept(challenge_id=challenge.pk, actor=bob)
    assert Game.objects.count() == 1


def test_a_challenger_who_left_cannot_be_accepted(alice: Any, bob: Any) -> None:
    challenge = create(alice)
    alice.is_active = False
    alice.save()
    with pytest.raises(ChallengeRejected, match="The player alice no longer plays here"):
        challenge_accept(challenge_id=challenge.pk, actor=bob)
    assert not Game.objects.exists()


def test_a_game_started_in_a_callers_transaction_adds_no_savepoint_and_goes_back_with_it(
    alice: Any, bob: Any, charlie: Any
) -> None:
    """game_create is atomic alone, but inside a caller's transaction (an auto-match pairing, an
    accepted challenge: the players' locks and limit checks) it asks for no savepoint of its own,
    two round trips fewer while a player waits; what fails after it in that transaction takes its
    game away with everything else."""
    with CaptureQueriesContext(connection) as asked, transaction.atomic():
        game = game_create(black=alice, white=bob, variant="BP", match_length=5, time_limit=DAY, rated=True)
    savepoints = [query["sql"] for query in asked.captured_queries if query["sql"].startswith("SAVEPOINT")]
    assert len(savepoints) == 1, savepoints  # the caller's own (the test's transaction holds the block)
    assert game.actions.exists() and game.dice  # its opening rolled in the same block (a double rolls again)
    with pytest.raises(ChallengeRejected), transaction.atomic():
        game_create(black=alice, white=charlie, variant="BP", match_length=5, time_limit=DAY, rated=True)
        raise ChallengeRejected("refused after the game was made")
    assert list(Game.objects.values_list("pk", flat=True)) == [game.pk]
