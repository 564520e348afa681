"""The new forms refuse huge, negative and wrong-typed numbers and long texts with a 4xx,
changing nothing (NUL bytes are refused site-wide: tests/site/test_bad_requests.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords, start_game  # noqa: F401

from accounts.models import Vacation
from backgammon.models import Game

pytestmark = pytest.mark.django_db

WILD = [str(10**30), "-5", "0", "2.5", "seven", ""]


@pytest.mark.parametrize("days", WILD)
def test_giving_more_time_refuses_wild_days(
    alice: Any, bob: Any, alice_client: Client, bob_client: Client, days: str
) -> None:
    game = start_game(alice, bob, "BX")
    waiting = bob_client if game.actor_id == alice.pk else alice_client
    response = waiting.post(reverse("backgammon:game_give_time", args=[game.pk]), {"days": days})
    assert 400 <= response.status_code < 500
    assert Game.objects.get(pk=game.pk).deadline == game.deadline


@pytest.mark.parametrize("days", WILD)
@pytest.mark.parametrize("start", ["2999-01-01", "not a date", "9999-12-31", ""])
def test_booking_a_vacation_refuses_wild_days_and_dates(alice_client: Client, days: str, start: str) -> None:
    response = alice_client.post(reverse("accounts:vacation_book"), {"start": start, "days": days})
    assert 400 <= response.status_code < 500, response.status_code
    assert not Vacation.objects.exists()
