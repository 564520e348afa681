"""The ignore list holds for the messages that come with moves and challenges (issue 29, item 1).

Alice (Black) and Bob (White) play a match; one of them ignores the other on the Edit ignore
list page. A move, double, take or resignation carrying a message is then refused with neutral
words and changes nothing, so nothing reaches the other side's inbox, game page, notices or API;
the same move without a message is made. A ladder challenge still crosses the wall (the ladder
asks for it) but its message does not, however often it is withdrawn and made again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.models import Game
from messaging.models import Message
from tests.site.gamebuilder import scripted_dice, unchanged
from tests.site.test_game_cube_actions import may_double  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

REFUSED = "That player cannot receive your messages"


@pytest.fixture
def game(request: pytest.FixtureRequest) -> Game:
    """Alice's turn to roll or double, the cube in the middle (tests/site/test_game_cube_actions.py)."""
    found: Game = request.getfixturevalue("may_double")
    return found


def _ignore(client: Client, username: str) -> None:
    response = client.post(reverse("accounts:ignored"), {"username": username})
    assert response.status_code == 302


def _inbox(api: Any) -> dict[str, Any]:
    response = api.get("/messages")
    assert response.status_code == 200
    return dict(response.json())


@pytest.mark.parametrize("ignorer", ["bob", "alice"])
def test_a_move_with_a_message_is_refused_across_an_ignore(
    game: Game, ignorer: str, client_for: Callable[[Any], Client], alice: Any, bob: Any,
    alice_api: Any, bob_api: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    _ignore(client_for(bob if ignorer == "bob" else alice), "alice" if ignorer == "bob" else "bob")
    for action, fields in (("double", {}), ("resign", {"level": "single"}), ("roll", {})):
        with unchanged(game):
            response = alice_api.act(game.pk, action, game.action_count, message="read me", **fields)
        assert response.status_code == 422, response.content
        assert response.json()["detail"].startswith(REFUSED)
    page = client_for(alice).post(
        reverse("backgammon:game_act", args=[game.pk]),
        {"kind": "double", "expected_number": game.action_count, "message": "read me"},
    )
    assert page.status_code == 400 and REFUSED in page.content.decode()
    # Without a message the game goes on; the answer to the double carries none either.
    doubled = alice_api.act(game.pk, "double", game.action_count)
    assert doubled.status_code == 200, doubled.content
    scripted_dice(monkeypatch).then((5, 2))
    with unchanged(game):
        taken = bob_api.act(game.pk, "take", doubled.json()["action_number"], message="ok")
    assert taken.status_code == 422
    assert bob_api.act(game.pk, "take", doubled.json()["action_number"]).status_code == 200
    assert not Message.objects.exists()
    assert _inbox(bob_api)["unread_count"] == 0 and _inbox(alice_api)["messages"] == []
    for client in (client_for(bob), client_for(alice)):
        assert "read me" not in client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert all(not row["message"] for row in Game.objects.get(pk=game.pk).actions.values("message"))


def test_messages_with_moves_still_reach_a_player_who_ignores_nobody(
    game: Game, alice_api: Any, bob_api: Any
) -> None:
    assert alice_api.act(game.pk, "double", game.action_count, message="Your move").status_code == 200
    inbox = _inbox(bob_api)
    assert inbox["unread_count"] == 1 and inbox["messages"][0]["text"] == "Your move"


@pytest.mark.parametrize("text", ["ring \x07", "esc \x1b[2J", "back\x08space", "\u202eevil", "c1 \x9b"])
def test_a_move_message_gets_the_text_check_every_message_gets(game: Game, alice_api: Any, text: str) -> None:
    with unchanged(game):
        response = alice_api.act(game.pk, "double", game.action_count, message=text)
    assert response.status_code == 422
    assert "contains characters that cannot be sent" in response.json()["detail"]
    assert not Message.objects.exists()


@pytest.fixture
def ladder_id(make_user: Any, api_for: Callable[[Any], Any], alice_api: Any, bob_api: Any) -> int:
    steward = make_user("steward")
    steward.is_staff = True
    steward.save()
    made = api_for(steward).post("/ladders", {"name": "BP 48 hours", "variant": "BP", "match_length": 3,
                                              "time_limit_hours": 48})
    assert made.status_code == 201
    ladder_id = int(made.json()["id"])
    for client in (bob_api, alice_api):  # Bob above Alice
        assert client.post(f"/ladders/{ladder_id}/join").status_code == 200
    return ladder_id


def test_a_ladder_challenge_crosses_the_wall_without_its_message(
    ladder_id: int, alice_api: Any, bob_api: Any, bob_client: Client, django_capture_on_commit_callbacks: Any,
) -> None:
    _ignore(bob_client, "alice")
    for _round in range(3):  # withdrawing and challenging again changes nothing
        with django_capture_on_commit_callbacks(execute=True):  # the inbox copy is made after commit
            made = alice_api.post(f"/ladders/{ladder_id}/challenge", {"opponent": "bob"})
        assert made.status_code == 201, made.content
        incoming = bob_api.get("/challenges").json()["incoming"]
        assert [challenge["message"] for challenge in incoming] == [""]
        assert alice_api.post(f"/challenges/{incoming[0]['id']}/withdraw").status_code == 200
    assert not Message.objects.exists()
    assert _inbox(bob_api)["unread_count"] == 0


def test_a_ladder_challenge_between_players_who_ignore_nobody_keeps_its_message(
    ladder_id: int, alice_api: Any, bob_api: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert alice_api.post(f"/ladders/{ladder_id}/challenge", {"opponent": "bob"}).status_code == 201
    assert _inbox(bob_api)["messages"][0]["text"].startswith("A challenge on the ladder")


@pytest.mark.parametrize("ignorer", ["bob", "alice"])
def test_messages_from_before_an_ignore_are_hidden_from_then_on(
    game: Game, ignorer: str, client_for: Callable[[Any], Client], alice: Any, bob: Any,
    alice_api: Any, bob_api: Any,
) -> None:
    assert alice_api.act(game.pk, "double", game.action_count, message="with the double").status_code == 200
    assert alice_api.post("/messages", {"to": "bob", "text": "a plain message"}).status_code == 201
    assert _inbox(bob_api)["unread_count"] == 2  # kept (cached): the ignore must forget it
    game_page = reverse("backgammon:game", args=[game.pk])
    assert "with the double" in client_for(bob).get(game_page).content.decode()
    _ignore(client_for(bob if ignorer == "bob" else alice), "alice" if ignorer == "bob" else "bob")
    inbox = _inbox(bob_api)
    assert inbox["unread_count"] == 0 and inbox["messages"] == []
    assert bob_api.get(f"/messages/{Message.objects.first().pk}").status_code == 404
    for user, api in ((bob, bob_api), (alice, alice_api)):
        assert "with the double" not in client_for(user).get(game_page).content.decode()
        assert "with the double" not in api.get(f"/games/{game.pk}").content.decode()
    # Taking the player off the list shows them again (nothing was deleted).
    owner = client_for(bob if ignorer == "bob" else alice)
    owner.post(reverse("accounts:ignore_remove"), {"username": "alice" if ignorer == "bob" else "bob"})
    inbox = _inbox(bob_api)  # the plain message unread (reading the game page read the other)
    assert len(inbox["messages"]) == 2 and inbox["unread_count"] == 1
    assert "with the double" in client_for(bob).get(game_page).content.decode()
