"""Two programs play to the end through the API alone; two identical posts at once apply once."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection

from backgammon.models import Game, GameAction
from tests.site.gamebuilder import scripted_dice, start_game
from tests.site.racing import race

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def next_move(data: dict[str, Any], chooser: random.Random) -> dict[str, Any]:
    """A simple client's choice: roll, take, play any legal play, never double."""
    awaiting = data["awaiting"]
    if awaiting in ("roll", "roll_or_double"):
        return {"action": "roll"}
    if awaiting == "take_or_drop":
        return {"action": "take"}
    if awaiting == "play":
        return {"action": "play", "move": chooser.choice(data["legal_plays"])}
    raise AssertionError(f"Unexpected wait: {awaiting}")


@pytest.mark.django_db
@pytest.mark.slow
def test_two_api_clients_play_a_match_to_the_end(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    clients = {"alice": alice_api, "bob": bob_api}
    chooser = random.Random(7)
    with time_machine.travel(START, tick=False) as clock:
        made = alice_api.post("/challenges", {"opponent": "bob", "variant": "BP", "match_length": 1})
        game_id = bob_api.post(f"/challenges/{made.json()['id']}/accept").json()["game_id"]
        data = alice_api.get(f"/games/{game_id}").json()
        for _ in range(2000):
            if data["status"] == "finished":
                break
            client = clients[data["turn"]]
            body = {**next_move(data, chooser), "expected_action_number": data["action_number"]}
            response = client.post(f"/games/{game_id}/actions", body)
            assert response.status_code == 200, response.json()
            data = response.json()
            clock.shift(timedelta(milliseconds=200))  # a polite client: 5 requests a second
    assert data["status"] == "finished" and data["winner"] in ("alice", "bob")
    assert data["result"]["kind"] in ("single", "gammon", "backgammon")
    assert data["score"][data["winner"]] >= 1 and data["turn"] is None
    game = Game.objects.get(pk=game_id)
    assert game.replayed_state() == game.state()  # the log and the snapshot agree
    mat = alice_api.client.get(data["mat_url"], HTTP_AUTHORIZATION=f"Bearer {alice_api.token}")
    assert "1 point match" in mat.content.decode() and "Wins" in mat.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_same_post_twice_at_once_gives_one_200_and_one_409(
    alice: Any, bob: Any, alice_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert connection.vendor == "postgresql"
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BP")
    expected = game.action_count
    def submit() -> str:
        own_client = type(alice_api)(alice_api.token)  # one test client per thread
        return str(own_client.act(game.pk, "play", expected, move="8/5 6/5").status_code)

    codes = race(2, submit)
    assert codes == ["200", "409"]
    assert GameAction.objects.filter(game=game).count() == expected + 1
