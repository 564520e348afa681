"""The ratings on the profile (with a history chart), on the public player page, and the help
page that publishes the formula."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine.actions import Action
from tournaments.models import RatingChange
from tournaments.rating_chart import HEIGHT, rating_chart

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rated_games(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Alice loses a BX game to bob, then wins one: 1490, then back up."""
    scripted_dice(monkeypatch).then((3, 1), (3, 1))
    first = act(act(start_game(alice, bob, "BX"), alice, Action.resign(1)), bob, Action.accept_resign())
    second = act(act(start_game(bob, alice, "BX"), bob, Action.resign(1)), alice, Action.accept_resign())
    return [first.pk, second.pk]


def test_the_profile_shows_every_rating_and_a_chart_of_the_history(
    alice: Any, client_for: Any, two_rated_games: list[int]
) -> None:
    body = client_for(alice).get(reverse("accounts:profile")).content.decode()
    card = body[body.index('id="ratings-title"'):]
    assert "Backgammon (BX)" in card and "Pro Backgammon-9 (B9)" in card
    assert "Money game" not in card
    after = RatingChange.objects.filter(player=alice).order_by("pk").last()
    assert after is not None
    assert f"{after.rating_after:.2f}" in card
    # One chart (only BX was played), with the start and one point per match, each linking its game.
    assert card.count("<svg") == 1
    polyline = re.search(r'<polyline class="rating-chart__line" points="([^"]+)"', card)
    assert polyline is not None and len(polyline.group(1).split()) == 3
    for game_id in two_rated_games:
        assert f'href="/games/{game_id}/"' in card
    assert "1490.00 (-10.00)" in card
    assert "css/ratings.css" in body


def test_a_player_page_shows_anyones_ratings_to_visitors(
    alice: Any, client: Client, two_rated_games: list[int]
) -> None:
    response = client.get("/players/ALICE/")
    assert response.status_code == 200
    assert '<h1 id="player-name">alice' in response.content.decode()
    assert response.content.decode().count("<svg class=\"rating-chart\"") == 1
    missing = client.get("/players/nobody/")
    assert missing.status_code == 404


def test_a_player_without_rated_matches_has_starting_ratings_and_no_chart(
    charlie: Any, client_for: Any
) -> None:
    body = client_for(charlie).get(reverse("accounts:profile")).content.decode()
    assert body.count("1500.00") == 8
    assert "rating-chart" not in body.replace("css/ratings.css", "")


def test_the_chart_fits_the_players_range_and_keeps_the_rising_rating_up(
    alice: Any, two_rated_games: list[int]
) -> None:
    chart = rating_chart(list(RatingChange.objects.filter(player=alice).order_by("pk")))
    assert chart is not None
    start, low, back_up = ((int(x), int(y)) for x, y in (p.split(",") for p in chart.line.split()))
    assert start[0] < low[0] < back_up[0]
    assert low[1] > start[1] and low[1] > back_up[1]  # a lower rating is drawn lower (larger y)
    assert all(0 <= y <= HEIGHT for _, y in (start, low, back_up))
    assert rating_chart([]) is None


def test_the_help_page_publishes_the_formula(client: Client) -> None:
    response = client.get(reverse("tournaments:help_ratings"))
    body = response.content.decode()
    assert response.status_code == 200
    assert "<h1>How ratings are computed</h1>" in body
    assert "max(1, 5 − experience/100)" in body
    for example in ("2.00", "+4.49", "−4.49", "17.32"):
        assert example in body
    assert 'aria-current="page"' in body


def test_the_game_page_shows_what_the_rated_match_did_to_the_ratings(
    alice: Any, bob: Any, client_for: Any, two_rated_games: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    body = client_for(bob).get(reverse("backgammon:game", args=[two_rated_games[0]])).content.decode()
    assert '<p class="result__ratings">Rating changes: bob +10.00, alice -10.00.</p>' in body
    scripted_dice(monkeypatch).then((3, 1))
    unrated = act(start_game(alice, bob, "BX", rated=False), alice, Action.resign(1))
    unrated = act(unrated, bob, Action.accept_resign())
    body = client_for(bob).get(reverse("backgammon:game", args=[unrated.pk])).content.decode()
    assert unrated.status == "finished" and "Rating changes" not in body
