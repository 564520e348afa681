"""Start new game offers the clocks: correspondence as before, the live presets scaled to the
match, and a custom live clock; bad clocks re-render the form and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords  # noqa: F401

from backgammon.engine import TimeControl
from backgammon.models import Challenge

pytestmark = pytest.mark.django_db

NEW_GAME = "backgammon:new_game"


def form_data(**changes: Any) -> dict[str, Any]:
    data = {"opponent": "bob", "variant": "BP", "match_length": "", "time_limit": str(3 * 86400)}
    data.update(changes)
    return data


def test_the_form_offers_correspondence_first_then_the_live_clocks(alice_client: Client) -> None:
    page = alice_client.get(reverse(NEW_GAME)).content.decode()
    assert '<input type="radio" name="clock" value="correspondence" id="id_clock_0" checked>' in page
    for words in ("Live, Blitz: 8 s delay + 30 s a point", "Live, Rapid: 12 s delay + 1 min a point",
                  "Live, Standard: 12 s delay + 2 min a point", "Live, custom clock"):
        assert words in page


@pytest.mark.parametrize(
    ("changes", "control"),
    [
        ({"clock": "correspondence"}, None),
        ({}, None),  # a form without the choice, as before
        ({"clock": "blitz"}, TimeControl.live(8, 150)),  # BP's usual 5 points
        ({"clock": "rapid", "match_length": "7"}, TimeControl.live(12, 420)),
        ({"clock": "standard", "variant": "BX"}, TimeControl.live(12, 120)),  # a single game: one point
        ({"clock": "custom", "live_delay_s": "5", "live_reserve_min": "20"}, TimeControl.live(5, 1200)),
    ],
)
def test_new_game_sends_the_chosen_clock(
    alice_client: Client, bob: Any, changes: dict[str, str], control: TimeControl | None
) -> None:
    response = alice_client.post(reverse(NEW_GAME), form_data(**changes))
    assert response.status_code == 302
    made = Challenge.objects.get()
    if control is None:
        assert not made.is_live and made.time_limit.total_seconds() == 3 * 86400
    else:
        assert made.is_live and made.time_control() == control


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"clock": "custom", "live_reserve_min": "20"}, "A custom clock needs its delay and its reserve."),
        ({"clock": "custom", "live_delay_s": "5"}, "A custom clock needs its delay and its reserve."),
        ({"clock": "custom", "live_delay_s": "61", "live_reserve_min": "20"}, "less than or equal to 60"),
        ({"clock": "custom", "live_delay_s": "5", "live_reserve_min": "181"}, "less than or equal to 180"),
        ({"clock": "custom", "live_delay_s": "5", "live_reserve_min": "0"}, "greater than or equal to 1"),
        ({"clock": "bullet"}, "Select a valid choice"),
    ],
)
def test_a_bad_clock_re_renders_the_form_and_changes_nothing(
    alice_client: Client, bob: Any, changes: dict[str, str], message: str
) -> None:
    response = alice_client.post(reverse(NEW_GAME), form_data(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Challenge.objects.exists()


def test_an_open_live_challenge_goes_to_the_waiting_room(alice_client: Client) -> None:
    response = alice_client.post(reverse(NEW_GAME), form_data(opponent="anyone", clock="blitz"))
    assert response.status_code == 302
    made = Challenge.objects.get()
    assert made.challenged is None and made.time_control() == TimeControl.live(8, 150)
