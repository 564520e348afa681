"""Racing challenge requests on real PostgreSQL: one pending challenge per pair and variant, and
one game per challenge, however many requests arrive at the same moment."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection
from gamebuilder import fast_passwords  # noqa: F401

from backgammon.models import Challenge, Game
from backgammon.services import ChallengeRejected, challenge_accept, challenge_create
from tests.site.racing import race

pytestmark = pytest.mark.django_db(transaction=True)


def _outcome(attempt: Callable[[], object]) -> Callable[[], str]:
    """``attempt`` as a race entrant: "done", or the refusal's message."""

    def run() -> str:
        try:
            attempt()
        except ChallengeRejected as refusal:
            return refusal.message
        return "done"

    return run


def test_twenty_racing_new_game_requests_make_one_challenge(alice: Any, bob: Any) -> None:
    assert connection.vendor == "postgresql"

    def create() -> object:
        return challenge_create(
            challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=3)
        )

    outcomes = race(20, _outcome(create))
    assert outcomes.count("done") == 1
    refusal = "You already have a Pro Backgammon challenge waiting for bob."
    assert outcomes.count(refusal) == 19, outcomes
    assert Challenge.objects.filter(status="pending").count() == 1


def test_the_database_refuses_a_second_pending_challenge_between_the_same_players(
    alice: Any, bob: Any
) -> None:
    terms = {"challenger": alice, "challenged": bob, "variant": "BX", "time_limit": timedelta(days=1)}
    first = Challenge.objects.create(**terms)
    with pytest.raises(IntegrityError):
        Challenge.objects.create(**terms)
    # Once answered, the same challenge may be made again.
    Challenge.objects.filter(pk=first.pk).update(status="declined")
    Challenge.objects.create(**terms)
    assert Challenge.objects.count() == 2


def test_accepting_one_challenge_twice_at_once_starts_one_game(alice: Any, bob: Any) -> None:
    challenge = challenge_create(
        challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=3)
    )

    def accept() -> object:
        return challenge_accept(challenge_id=challenge.pk, actor=bob)

    outcomes = race(5, _outcome(accept))
    assert outcomes == ["done"] + ["This challenge was already accepted"] * 4
    assert Game.objects.count() == 1
