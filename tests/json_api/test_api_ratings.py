"""GET /api/v1/players/{username}: every rated variant's rating and experience, as the rated
matches left them (rounded to cents)."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon.engine.actions import Action
from backgammon.engine.board import PerSide
from tests.site.gamebuilder import act, scripted_dice, start_game, starting_from
from tournaments.models import Rating

pytestmark = pytest.mark.django_db


def test_1850_beating_1750_in_a_7_point_match_shows_4_49_each_way(
    alice: Any, bob: Any, charlie_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    Rating.objects.create(player=alice, variant="BP", rating=1850.0, experience=700)
    Rating.objects.create(player=bob, variant="BP", rating=1750.0, experience=400)
    scripted_dice(monkeypatch).then((3, 1))  # black (bob) acts first
    starting_from(monkeypatch, score=PerSide(0, 6))  # white (alice) needs one point of 7
    game = start_game(bob, alice, "BP", match_length=7)
    game = act(game, bob, Action.resign(1))
    game = act(game, alice, Action.accept_resign())
    assert game.status == "finished" and game.winner == alice

    alice_data = charlie_api.get("/players/alice").json()["ratings"]
    bob_data = charlie_api.get("/players/bob").json()["ratings"]
    assert alice_data["BP"] == {"rating": 1854.49, "experience": 707}
    assert bob_data["BP"] == {"rating": 1745.51, "experience": 407}
    assert alice_data["BX"] == {"rating": 1500.0, "experience": 0}
    assert set(alice_data) == {"BX", "BP", "BA", "BN", "BR", "BS", "BO", "B9"}


def test_a_single_game_between_new_players_shows_ten_points_and_one_of_experience(
    alice: Any, bob: Any, charlie_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = act(start_game(alice, bob, "BN"), alice, Action.resign(1))
    act(game, bob, Action.accept_resign())
    assert charlie_api.get("/players/bob").json()["ratings"]["BN"] == {"rating": 1510.0, "experience": 1}
    assert charlie_api.get("/players/alice").json()["ratings"]["BN"] == {"rating": 1490.0, "experience": 1}
