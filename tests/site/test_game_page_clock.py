"""The game page of a live game: both clocks as the server reads them at each render, the running
one marked and its last 10 seconds a warning; a correspondence page shows what it always did."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine import Action, TimeControl
from backgammon.match_clock_view import clock_text
from backgammon.models import Game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


def at(seconds: float) -> Any:
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


@pytest.fixture
def live_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Rapid for 5 points (12 s + 5 min), alice (Black) to play 3-1 from T0."""
    scripted_dice(monkeypatch).then((3, 1))
    with at(0):
        return start_game(alice, bob, "BP", match_length=5, time_control=TimeControl.live(12, 300))


def clocks_of(page: str) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    data = json.loads(re.search(r"data-match-clock='([^']*)'", page).group(1))  # type: ignore[union-attr]
    faces = re.findall(
        r'<p class="match-clock match-clock--(black|white)([^"]*)" data-side="\1">\s*'
        r'<span class="match-clock__name"><svg class="swatch"[^>]*><circle [^>]*/></svg>[^<]*</span>\s*<span class="match-clock__time" role="timer">([^<]*)</span>',
        page,
    )
    return data, faces


def test_the_page_shows_both_clocks_as_the_server_reads_them_now(
    live_game: Game, alice_client: Client, bob_client: Client
) -> None:
    with at(5):
        page = alice_client.get(reverse("backgammon:game", args=[live_game.pk])).content.decode()
    data, faces = clocks_of(page)
    assert data == {"black_ms": 300_000, "white_ms": 300_000, "running": "black", "delay_left_ms": 7000,
                    "at": "2026-11-27T20:00:05+00:00"}
    assert faces == [("black", " match-clock--running", "5:00"), ("white", "", "5:00")]
    assert "delay 7 s" in page
    assert "12 s + 5 min (delay + reserve)" in page and "a move</dd>" not in page
    assert "Give alice more time" not in bob_client.get(reverse("backgammon:game", args=[live_game.pk])).content.decode()
    with at(20.4):  # 8.4 s of the reserve gone
        _, faces = clocks_of(bob_client.get(reverse("backgammon:game", args=[live_game.pk])).content.decode())
    assert faces[0] == ("black", " match-clock--running", "4:52")


def test_the_last_10_seconds_are_a_warning(live_game: Game, alice_client: Client) -> None:
    with at(12 + 300 - 9.45):
        page = alice_client.get(reverse("backgammon:game", args=[live_game.pk])).content.decode()
    _, faces = clocks_of(page)
    assert faces[0] == ("black", " match-clock--running match-clock--warning", "0:09.4")


def test_after_a_move_the_other_clock_runs(live_game: Game, alice: Any, alice_client: Client) -> None:
    with at(30):
        act(live_game, alice, Action.play([(8, 5), (6, 5)]))
    with at(31):
        data, faces = clocks_of(alice_client.get(reverse("backgammon:game", args=[live_game.pk])).content.decode())
    assert (data["black_ms"], data["white_ms"], data["running"]) == (282_000, 300_000, "white")
    assert faces == [("black", "", "4:42"), ("white", " match-clock--running", "5:00")]


def test_a_correspondence_page_has_no_clocks(alice: Any, bob: Any, alice_client: Client) -> None:
    game = start_game(alice, bob, "BP")
    page = alice_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert "match-clock" not in page and "3 days a move" in page


@pytest.mark.parametrize(
    ("ms", "text"),
    [(300_000, "5:00"), (299_001, "5:00"), (60_000, "1:00"), (10_000, "0:10"), (9_999, "0:09.9"), (3_600_000, "1:00:00")],
)
def test_clock_text(ms: int, text: str) -> None:
    assert clock_text(ms) == text


def test_the_modules_examples_run() -> None:
    import doctest

    from backgammon import match_clock_view

    assert doctest.testmod(match_clock_view).failed == 0
