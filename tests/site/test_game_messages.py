"""Messages sent with an action are private between the two players (issue 6, item 11).

Alice (Black) and Bob (White) play and write to each other; Charlie watches and must see none of
it: not on the page, not in the poll, not in the .mat file. Dice are scripted (gamebuilder).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.site.gamebuilder import act, scripted_dice, start_game

pytestmark = pytest.mark.django_db

SECRET = "psst, my plan is the 5-point"
ANSWER = "thanks, good luck"


@pytest.fixture
def chatty_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A match where Alice played with a message and Bob doubled with one."""
    dice = scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    dice.then((6, 4))
    game = act(game, alice, Action.play(((8, 5), (6, 5))), message=SECRET)
    return act(game, bob, Action.double(), message=ANSWER)


def body(response: Any) -> str:
    return response.content.decode()


def test_the_players_read_each_others_messages(alice_client: Client, bob_client: Client,
                                               chatty_game: Game) -> None:
    for client in (alice_client, bob_client):
        page = body(client.get(reverse("backgammon:game", args=[chatty_game.pk])))
        assert SECRET in page and ANSWER in page


def test_a_spectator_sees_the_moves_but_no_message(charlie_client: Client, chatty_game: Game) -> None:
    page = body(charlie_client.get(reverse("backgammon:game", args=[chatty_game.pk])))
    assert "8/5 6/5" in page and "doubles to 2" in page
    assert SECRET not in page and ANSWER not in page


def test_the_poll_and_the_htmx_region_keep_the_messages_from_a_spectator(charlie_client: Client,
                                                                         chatty_game: Game) -> None:
    poll = charlie_client.get(reverse("backgammon:game_poll", args=[chatty_game.pk]), {"n": "0"})
    region = charlie_client.get(reverse("backgammon:game", args=[chatty_game.pk]), HTTP_HX_REQUEST="true")
    for response in (poll, region):
        assert response.status_code == 200 and "doubles to 2" in body(response)
        assert SECRET not in body(response) and ANSWER not in body(response)


def test_the_match_file_carries_no_message(charlie_client: Client, alice_client: Client,
                                           chatty_game: Game) -> None:
    for client in (charlie_client, alice_client):
        mat = body(client.get(reverse("backgammon:game_mat", args=[chatty_game.pk])))
        assert "8/5 6/5" in mat and SECRET not in mat and ANSWER not in mat


def test_a_visitor_who_is_not_logged_in_sees_nothing_of_the_game(client: Client, chatty_game: Game) -> None:
    for name in ("game", "game_poll", "game_mat"):
        response = client.get(reverse(f"backgammon:{name}", args=[chatty_game.pk]))
        assert response.status_code == 302 and SECRET not in body(response)
