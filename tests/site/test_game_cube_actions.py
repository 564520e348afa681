"""Double, take, pass, beaver and resignations carry a message, and Double asks for confirmation
unless the player's profile says not to (issue 6, item 16).

Alice (Black) and Bob (White) play a match to 5 in which Alice may double; Charlie watches.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.engine import Side
from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.site.gamebuilder import act, scripted_dice, start_game, unchanged

pytestmark = pytest.mark.django_db


@pytest.fixture
def may_double(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice's turn to roll or double, the cube in the middle."""
    dice = scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    game = act(game, alice, Action.play(((8, 5), (6, 5))))
    dice.then((6, 4))
    game = act(game, bob, Action.roll(1, 1))
    return act(game, bob, Action.play(((24, 18), (13, 9))))


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def page_of(client: Client, game: Game, **query: str) -> str:
    response = client.get(reverse("backgammon:game", args=[game.pk]), query)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def post(client: Client, game: Game, kind: str, **fields: Any) -> Any:
    data = {"kind": kind, "expected_number": game.action_count, **fields}
    return client.post(reverse("backgammon:game_act", args=[game.pk]), data)


def forms(page: str) -> list[str]:
    """The game page's action forms, each as its markup."""
    return re.findall(r'<form method="post" action="/games/\d+/act/".*?</form>', page, re.DOTALL)


def form_with(page: str, button_value: str) -> str:
    found = [form for form in forms(page) if f'value="{button_value}"' in form]
    assert len(found) == 1, f"one form should offer {button_value}"
    return found[0]


def test_double_asks_for_confirmation_by_default(alice_client: Client, may_double: Game) -> None:
    page = page_of(alice_client, may_double)
    assert f'href="/games/{may_double.pk}/?confirm=double"' in page
    assert not [form for form in forms(page) if 'value="double"' in form]  # one click cannot double

    confirming = page_of(alice_client, may_double, confirm="double")
    panel = form_with(confirming, "double")
    assert "Double to 2?" in panel and "bob may take and play on for 2, or pass and lose 1." in panel
    assert 'name="message"' in panel and "Confirm: double to 2" in panel
    assert f'href="/games/{may_double.pk}/"' in panel  # Cancel
    assert fresh(may_double).cube_value == 1  # asking changes nothing

    assert post(alice_client, may_double, "double", message="Feeling lucky?").status_code == 302
    doubled = fresh(may_double)
    assert doubled.phase == "take_or_drop" and doubled.actions.get(kind="double").message == "Feeling lucky?"


def test_with_the_preference_off_double_acts_on_one_click(alice_client: Client, alice: Any,
                                                          may_double: Game) -> None:
    response = alice_client.post(reverse("accounts:profile"), {"email": "alice@example.com",
                                                                "checker_colours": "black-white"})
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.confirm_double is False

    page = page_of(alice_client, may_double)
    assert "?confirm=double" not in page
    form = form_with(page, "double")
    assert 'name="message"' in form and "Double to 2" in form
    assert post(alice_client, may_double, "double", message="One click").status_code == 302
    assert fresh(may_double).actions.get(kind="double").message == "One click"


def test_the_profile_offers_the_preference_ticked_for_a_new_player(alice_client: Client) -> None:
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    assert re.search(r'<input type="checkbox" name="confirm_double"[^>]* checked', page)
    assert "Ask before doubling" in page


def test_the_confirmation_is_only_for_the_player_who_may_double(bob_client: Client, charlie_client: Client,
                                                                may_double: Game) -> None:
    for client in (bob_client, charlie_client):
        page = page_of(client, may_double, confirm="double")
        assert "Double to 2?" not in page and not forms(page)


def test_a_refused_double_keeps_the_confirmation_and_the_message(alice_client: Client,
                                                                 may_double: Game) -> None:
    too_long = "x" * 501
    with unchanged(may_double):
        response = post(alice_client, may_double, "double", message=too_long)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "A message can be at most 500 characters" in page or "a message can be at most 500" in page
    assert "Double to 2?" in page and f'value="{too_long}"' in page


def test_take_and_pass_carry_a_message_the_doubler_reads(alice_client: Client, bob_client: Client,
                                                          alice: Any, may_double: Game,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    game = act(may_double, alice, Action.double(), message="Your move, Bob")
    answer = page_of(bob_client, game)
    form = form_with(answer, "take")
    assert 'name="message"' in form and 'value="drop"' in form
    assert "Your move, Bob" in answer
    scripted_dice(monkeypatch).then((5, 2))
    assert post(bob_client, game, "take", message="I'll take that").status_code == 302
    game = fresh(game)
    assert (game.cube_value, game.cube_owner) == (2, Side.WHITE)
    assert "I'll take that" in page_of(alice_client, game)


def test_a_pass_with_a_message(alice: Any, bob_client: Client, may_double: Game) -> None:
    game = act(may_double, alice, Action.double())
    assert post(bob_client, game, "drop", message="Too strong for me").status_code == 302
    assert fresh(game).actions.get(kind="drop").message == "Too strong for me"


def test_a_beaver_offers_a_message_too(alice: Any, bob: Any, bob_client: Client,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    dice = scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="MP", match_length=0, beavers=True)
    game = act(game, alice, Action.play(((8, 5), (6, 5))))
    dice.then((6, 4))
    game = act(game, bob, Action.roll(1, 1))
    game = act(game, bob, Action.play(((24, 18), (13, 9))))
    game = act(game, alice, Action.double())
    form = form_with(page_of(bob_client, game), "beaver")
    assert 'name="message"' in form and 'value="take"' in form


def test_resigning_and_answering_carry_messages(alice_client: Client, bob_client: Client,
                                                may_double: Game) -> None:
    offer = [form for form in forms(page_of(alice_client, may_double)) if 'value="resign"' in form]
    assert len(offer) == 1 and 'name="message"' in offer[0]
    assert post(alice_client, may_double, "resign", level="1", message="You played well").status_code == 302
    game = fresh(may_double)
    answer = form_with(page_of(bob_client, game), "accept_resign")
    assert 'name="message"' in answer and 'value="reject_resign"' in answer
    assert post(bob_client, game, "reject_resign", message="Play on!").status_code == 302
    messages = dict(fresh(game).actions.values_list("kind", "message"))
    assert (messages["resign"], messages["reject_resign"]) == ("You played well", "Play on!")
