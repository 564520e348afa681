"""Submit & next game: ItsYourTurn's "submit and go to the next game" (issue 6, item 18).

Alice plays two games, against Bob and against Charlie; both wait for her after the opening roll.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.models import Game
from tests.site.gamebuilder import scripted_dice, start_game, unchanged

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_games(alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Game, Game]:
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    return start_game(alice, bob, variant="BX", match_length=0), start_game(alice, charlie, variant="BX", match_length=0)


def submit(client: Client, game: Game, **fields: Any) -> Any:
    data = {"kind": "play", "expected_number": game.action_count, **fields}
    return client.post(reverse("backgammon:game_act", args=[game.pk]), data)


def test_the_page_offers_submit_and_submit_and_next(alice_client: Client, two_games: tuple[Game, Game]) -> None:
    first, _ = two_games
    page = alice_client.get(reverse("backgammon:game", args=[first.pk]), {"steps": "8-5,6-5"}).content.decode()
    assert ">Submit</button>" in page
    assert '<button type="submit" class="button secondary" name="then" value="next">Submit &amp; next game</button>' in page


def test_submit_and_next_goes_to_the_next_game_waiting(alice_client: Client, two_games: tuple[Game, Game]) -> None:
    first, second = two_games
    response = submit(alice_client, first, steps="8-5,6-5", then="next")
    assert response.status_code == 302 and response["Location"] == reverse("backgammon:game", args=[second.pk])
    assert Game.objects.get(pk=first.pk).action_count == first.action_count + 2  # the play, Bob's roll


def test_plain_submit_stays_on_the_game(alice_client: Client, two_games: tuple[Game, Game]) -> None:
    first, _ = two_games
    response = submit(alice_client, first, steps="8-5,6-5")
    assert response.status_code == 302 and response["Location"] == reverse("backgammon:game", args=[first.pk])


def test_with_no_game_waiting_it_goes_to_game_status_and_says_so(alice_client: Client,
                                                                 two_games: tuple[Game, Game]) -> None:
    first, second = two_games
    submit(alice_client, first, steps="8-5,6-5")
    response = submit(alice_client, second, steps="24-20,13-11", then="next")
    assert response.status_code == 302 and response["Location"] == reverse("backgammon:status")
    assert "No game is waiting for you." in alice_client.get(response["Location"]).content.decode()


def test_htmx_is_told_where_to_go(alice_client: Client, two_games: tuple[Game, Game]) -> None:
    first, second = two_games
    data = {"kind": "play", "expected_number": first.action_count, "steps": "8-5,6-5", "then": "next"}
    response = alice_client.post(reverse("backgammon:game_act", args=[first.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("backgammon:game", args=[second.pk])


def test_a_refused_submission_goes_nowhere_and_changes_nothing(alice_client: Client,
                                                               two_games: tuple[Game, Game]) -> None:
    first, _ = two_games
    with unchanged(first):
        response = submit(alice_client, first, steps="8-5", then="next")
    assert response.status_code == 400
    assert "your move is not finished" in response.content.decode().lower()
