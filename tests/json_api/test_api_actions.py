"""POST /api/v1/games/{id}/actions: every action, and every refusal with the state unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.site.gamebuilder import act, scripted_dice, start_game, unchanged

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A match to 3: Alice (Black) to play her opening 3-1; Bob's next roll is 6-4."""
    scripted_dice(monkeypatch).then((3, 1), (6, 4))
    return start_game(alice, bob, "BP", match_length=3)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def refused(client: Any, game: Game, action: str, number: int | None = None, **fields: Any) -> Any:
    with unchanged(game):
        response = client.act(game.pk, action, game.action_count if number is None else number, **fields)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return response


def test_a_play_returns_the_new_game(game: Game, alice_api: Any) -> None:
    response = alice_api.act(game.pk, "play", game.action_count, move="8/5 6/5", message="Hi")
    assert response.status_code == 200
    data = response.json()
    assert data["turn"] == "bob" and data["awaiting"] == "roll_or_double"
    assert data["action_number"] == fresh(game).action_count == game.action_count + 1
    assert fresh(game).actions.get(number=data["action_number"]).message == "Hi"


def test_roll_double_take_and_cube(game: Game, alice: Any, alice_api: Any, bob_api: Any) -> None:
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    rolled = bob_api.act(game.pk, "roll", game.action_count).json()
    assert rolled["awaiting"] == "play" and rolled["dice"] == [6, 4]
    played = bob_api.act(game.pk, "play", rolled["action_number"], move="24/14").json()
    doubled = alice_api.act(game.pk, "double", played["action_number"]).json()
    assert doubled["turn"] == "bob" and doubled["awaiting"] == "take_or_drop"
    assert doubled["beaver_allowed"] is False
    taken = bob_api.act(game.pk, "take", doubled["action_number"]).json()
    assert taken["cube"] == {"value": 2, "owner": "bob"} and taken["turn"] == "alice"
    assert taken["awaiting"] == "play"  # Alice may not double now: the site rolled for her


def test_a_drop_ends_the_game(game: Game, alice: Any, alice_api: Any, bob_api: Any) -> None:
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    bob_api.act(game.pk, "roll", game.action_count)
    played = bob_api.act(game.pk, "play", fresh(game).action_count, move="24/14").json()
    doubled = alice_api.act(game.pk, "double", played["action_number"]).json()
    dropped = bob_api.act(game.pk, "drop", doubled["action_number"]).json()
    assert dropped["score"] == {"alice": 1, "bob": 0} and dropped["game_number"] == 2


def test_a_resignation_can_be_rejected(game: Game, alice_api: Any, bob_api: Any) -> None:
    offered = alice_api.act(game.pk, "resign", game.action_count, level="single").json()
    assert offered["awaiting"] == "resignation" and offered["resignation"] == "single"
    assert offered["turn"] == "bob"
    rejected = bob_api.act(game.pk, "reject", offered["action_number"]).json()
    assert rejected["turn"] == "alice" and rejected["awaiting"] == "play"


def test_no_token_is_401(game: Game, anonymous_api: Any) -> None:
    assert refused(anonymous_api, game, "play", move="8/5 6/5").status_code == 401


def test_not_your_game_is_403(game: Game, charlie_api: Any) -> None:
    response = refused(charlie_api, game, "play", move="8/5 6/5")
    assert response.status_code == 403
    assert response.json() == {"detail": "You are not playing in this game"}


def test_not_your_turn_is_403(game: Game, bob_api: Any) -> None:
    response = refused(bob_api, game, "roll")
    assert response.status_code == 403
    assert response.json() == {"detail": "It is not your turn: waiting for alice"}


def test_a_stale_action_number_is_409(game: Game, alice_api: Any) -> None:
    response = refused(alice_api, game, "play", game.action_count - 1, move="8/5 6/5")
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "This game has moved on since you read it: read it again and send its current "
        "action_number as expected_action_number."
    )


def test_an_unknown_game_is_404(alice_api: Any) -> None:
    response = alice_api.act(999999, "roll", 1)
    assert response.status_code == 404 and response.json() == {"detail": "There is no such game."}


@pytest.mark.parametrize(
    ("action", "fields", "words"),
    [
        ("play", {"move": "8/4 6/5"}, ""),
        ("play", {"move": "13/9 13/10"}, ""),
        ("play", {"move": "8/5"}, ""),
        ("play", {"move": "eight to five"}, ""),
        ("play", {}, 'A play needs its "move"'),
        ("take", {}, "There is no double to take"),
        ("double", {}, "You can double only before you roll"),
        ("accept", {}, "There is no resignation to accept"),
        ("resign", {}, "Choose what to resign"),
        ("roll", {"move": "8/5 6/5"}, 'Only "play" takes a "move".'),
        ("play", {"move": "8/5 6/5", "level": "single"}, 'Only "resign" takes a "level".'),
    ],
)
def test_an_illegal_action_is_422_with_the_reason(
    game: Game, alice_api: Any, action: str, fields: dict[str, Any], words: str
) -> None:
    response = refused(alice_api, game, action, **fields)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail[:1].isupper() and words in detail


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"action": "fly", "expected_action_number": 1}, "The field 'action' is not valid"),
        ({"action": "roll"}, "The field 'expected_action_number' is missing."),
        ({"action": "resign", "expected_action_number": 1, "level": "huge"}, "The field 'level'"),
        ([1, 2], "The field"),
    ],
)
def test_a_malformed_body_is_422_in_words(game: Game, alice_api: Any, body: Any, words: str) -> None:
    with unchanged(game):
        response = alice_api.post(f"/games/{game.pk}/actions", body)
    assert response.status_code == 422 and response.json()["detail"].startswith(words)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("{not json", "The request body is not valid JSON."),
        ('{"action": "play", "expected_action_number": 1, "move": "8/5\\u0000"}', "The request contains a NUL character, which no field here accepts."),
    ],
)
def test_a_body_that_cannot_be_read_is_400(game: Game, alice_api: Any, raw: str, words: str) -> None:
    with unchanged(game):
        response = alice_api.post(f"/games/{game.pk}/actions", raw)
    assert response.status_code == 400 and response.json() == {"detail": words}


def test_the_same_action_twice_is_applied_once(game: Game, alice_api: Any) -> None:
    number = game.action_count
    assert alice_api.act(game.pk, "play", number, move="8/5 6/5").status_code == 200
    again = refused(alice_api, fresh(game), "play", number, move="8/5 6/5")
    assert again.status_code == 409


def test_who_and_when_come_before_what(game: Game, alice_api: Any, charlie_api: Any) -> None:
    assert refused(charlie_api, game, "play", move="nonsense").status_code == 403
    assert refused(alice_api, game, "play", game.action_count + 5, move="nonsense").status_code == 409
