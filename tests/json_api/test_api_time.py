"""POST /api/v1/games/{id}/time: more time for the opponent, answered with the GAME."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from backgammon.engine.actions import Action
from backgammon.models import Game, TimeGift
from tests.site.gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

pytestmark = pytest.mark.django_db

MONDAY = "2026-01-05 12:00:00+00:00"


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice to play 3-1 in a BX game with a 2-day limit, started Monday noon."""
    scripted_dice(monkeypatch).then((3, 1))
    with time_machine.travel(MONDAY, tick=False):
        return start_game(alice, bob, "BX", time_limit=timedelta(days=2))


def test_the_waiting_player_gives_three_days(game: Game, bob_api: Any) -> None:
    with time_machine.travel(MONDAY, tick=False):
        response = bob_api.post(f"/games/{game.pk}/time", {"days": 3})
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == game.pk
    assert body["deadline"] == datetime(2026, 1, 10, 12, 0, tzinfo=UTC).isoformat()
    assert TimeGift.objects.get().words == "bob gave alice 3 more days"


@pytest.mark.parametrize(
    ("who", "days", "status", "detail"),
    [
        ("alice_api", 3, 403, "You can give more time only while your opponent is to act"),
        ("charlie_api", 3, 403, "You are not playing in this game"),
        ("bob_api", 2, 422, "More time is given as 1, 3 or 7 days"),
    ],
)
def test_refusals(
    game: Game, request: Any, who: str, days: int, status: int, detail: str
) -> None:
    response = request.getfixturevalue(who).post(f"/games/{game.pk}/time", {"days": days})
    assert (response.status_code, response.json()) == (status, {"detail": detail})
    assert Game.objects.get(pk=game.pk).deadline == game.deadline
    assert not TimeGift.objects.exists()


def test_a_finished_game_is_409(game: Game, alice: Any, bob: Any, bob_api: Any) -> None:
    with time_machine.travel(MONDAY, tick=False):
        game = act(game, alice, Action.resign(1))
        act(game, bob, Action.accept_resign())
        response = bob_api.post(f"/games/{game.pk}/time", {"days": 1})
    assert response.status_code == 409
    assert response.json()["detail"].startswith("This game is over")


def test_a_missing_game_is_404_and_no_token_401(bob_api: Any) -> None:
    assert bob_api.post("/games/999999/time", {"days": 1}).status_code == 404
    bob_api.token = None
    assert bob_api.post("/games/999999/time", {"days": 1}).status_code == 401


def test_one_move_gets_at_most_seven_more_days(game: Game, alice: Any, bob_api: Any) -> None:
    """Issue 29: six gifts at once moved a deadline by 42 days; now a 409 past 7 in all."""
    with time_machine.travel(MONDAY, tick=False):
        assert bob_api.post(f"/games/{game.pk}/time", {"days": 7}).status_code == 200
        responses = [bob_api.post(f"/games/{game.pk}/time", {"days": 7}) for _ in range(5)]
    assert {response.status_code for response in responses} == {409}
    assert responses[0].json() == {"detail": "alice has already been given 7 days more on this "
                                             "move, the most one move can have"}
    assert TimeGift.objects.count() == 1
    assert Game.objects.get(pk=game.pk).deadline == game.deadline + timedelta(days=7)


def test_the_cap_is_per_move(game: Game, alice: Any, bob: Any, alice_api: Any,
                             bob_api: Any) -> None:
    with time_machine.travel(MONDAY, tick=False):
        assert bob_api.post(f"/games/{game.pk}/time", {"days": 7}).status_code == 200
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
        assert game.actor_id == bob.pk
        assert alice_api.post(f"/games/{game.pk}/time", {"days": 7}).status_code == 200
    assert TimeGift.objects.count() == 2
