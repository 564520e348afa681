"""Play the computer now (bots/play_now.py): the main screen offers it, with the tutorial, to a
player with no game and no challenge; one POST starts exactly one game against a computer
opponent and opens it; a second click, racing or late, starts no other; bad input changes
nothing. Alice is the newcomer; Bob, busy with a game against her, is offered nothing."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from racing import race

from accounts.models import Profile
from backgammon.models import Challenge, Game
from backgammon.services import challenge_create
from bots.accounts import create_bot_accounts
from bots.models import Bot

pytestmark = pytest.mark.django_db

PLAY_NOW = "/games/computer/"


def offer_fields(html: str) -> dict[str, str]:
    """The offer form's fields as the page fills them in (hidden inputs and selected options)."""
    form = html.split('action="/games/computer/"', 1)[1].split("</form>", 1)[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    for name, options in re.findall(r'<select name="(\w+)"[^>]*>(.*?)</select>', form, re.DOTALL):
        fields[name] = re.search(r'<option value="([^"]*)"[^>]*selected', options).group(1)
    return fields


def posted(client: Client, **changes: str | None) -> Any:
    """POST the offer's own page's form (the main screen's, when it shows one, is the same)."""
    data = offer_fields(client.get(PLAY_NOW).content.decode())
    data.update(changes)
    return client.post(PLAY_NOW, {key: value for key, value in data.items() if value is not None})


def test_a_newcomer_is_offered_the_tutorial_and_the_computer_with_the_terms_in_words(alice_client: Client) -> None:
    html = alice_client.get("/").content.decode()
    offer = html.split('id="newcomer-offer"', 1)[1].split("</section>", 1)[0]
    assert 'href="/help/tutorial/"' in offer and "Play the computer now" in offer
    assert 'name="csrfmiddlewaretoken"' in offer
    # The defaults, said in words: gnubg-medium, a 3-point match of BP, unrated, 3 days a move.
    fields = offer_fields(html)
    assert fields.pop("csrfmiddlewaretoken")
    assert fields == {
        "variant": "BP", "time_limit": str(3 * 24 * 3600), "rated": "False", "expected_games": "0",
        "bot": "gnubg-medium", "match_length": "3",
    }
    assert "Pro Backgammon (BP), unrated, 3 days a move for you" in offer
    for bot in ("gnubg-easy", "gnubg-medium", "gnubg-strong"):
        assert f'<option value="{bot}"' in offer


def test_a_player_with_a_game_or_a_challenge_is_not_offered_it(
    alice: Any, bob: Any, charlie: Any, client_for: Any
) -> None:
    challenge_create(challenger=alice, opponent="bob", variant="BX", time_limit=timedelta(days=1))
    assert 'id="newcomer-offer"' not in client_for(alice).get("/").content.decode()  # challenged bob
    assert 'id="newcomer-offer"' not in client_for(bob).get("/").content.decode()  # challenged by alice
    assert 'id="newcomer-offer"' in client_for(charlie).get("/").content.decode()
    Game.objects.create(variant="BX", black=charlie, white=bob, time_limit=timedelta(days=1))
    assert 'id="newcomer-offer"' not in client_for(charlie).get("/").content.decode()


def test_the_button_starts_one_game_against_the_computer_and_opens_it(alice: Any, alice_client: Client) -> None:
    response = posted(alice_client)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.black == alice and game.white.username == "gnubg-medium"
    assert (game.variant, game.match_length, game.rated, game.time_limit) == ("BP", 3, False, timedelta(days=3))
    assert game.status == Game.Status.ACTIVE and not game.counts_toward_limit
    assert Challenge.objects.get().status == Challenge.Status.ACCEPTED
    page = alice_client.get(response["Location"])
    assert page.status_code == 200 and "Your game against gnubg-medium has started." in page.content.decode()
    # With a game, no offer; and the next offer (its own page) remembers the choice.
    assert 'id="newcomer-offer"' not in alice_client.get("/").content.decode()


def test_the_last_choice_is_offered_again(alice: Any, alice_client: Client) -> None:
    posted(alice_client, bot="gnubg-strong", match_length="7")
    Game.objects.update(status=Game.Status.FINISHED)
    fields = offer_fields(alice_client.get("/").content.decode())
    assert (fields["bot"], fields["match_length"], fields["expected_games"]) == ("gnubg-strong", "7", "0")
    posted(alice_client, match_length="11")  # longer than the list offers: offered next time
    Game.objects.update(status=Game.Status.FINISHED)
    html = alice_client.get("/").content.decode()
    assert offer_fields(html)["match_length"] == "11"
    assert [html.count(f'<option value="{n}"') for n in (1, 3, 5, 7, 11)] == [1, 1, 1, 1, 1]


def test_a_second_click_starts_no_second_game_and_lands_on_the_first(alice: Any, alice_client: Client) -> None:
    data = offer_fields(alice_client.get("/").content.decode())
    first = alice_client.post(PLAY_NOW, data)
    second = alice_client.post(PLAY_NOW, data)  # the same page's form, clicked again
    game = Game.objects.get()
    assert first["Location"] == second["Location"] == f"/games/{game.pk}/"
    page = alice_client.get(second["Location"]).content.decode()
    assert "You have just started a game against the computer" in page
    # A fresh page counts the game, so a deliberate second game is allowed.
    assert posted(alice_client, bot="gnubg-easy").status_code == 302
    assert Game.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_clicks_racing_start_one_game(make_user: Any, client_for: Any) -> None:
    create_bot_accounts(get_user_model(), Profile, Bot)  # the flush took the migration's bots
    dora = make_user("dora")
    data = offer_fields(client_for(dora).get("/").content.decode())

    def click() -> str:
        response = client_for(dora).post(PLAY_NOW, data)
        return f"{response.status_code} {response['Location']}"

    outcomes = race(2, click)
    game = Game.objects.get()
    assert outcomes == [f"302 /games/{game.pk}/"] * 2
    assert Challenge.objects.count() == 1
    connection.close()


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"bot": "bob"}, "Select a valid choice"),  # a person is not a computer opponent
        ({"bot": "gnubg-impossible"}, "Select a valid choice"),
        ({"variant": "XX"}, "Select a valid choice"),
        ({"match_length": "0"}, "greater than or equal to 1"),
        ({"match_length": "99"}, "less than or equal to"),
        ({"match_length": "three"}, "Enter a whole number"),
        ({"time_limit": "17"}, "Select a valid choice"),
        ({"expected_games": None}, "This field is required"),
        ({"expected_games": "-1"}, "greater than or equal to 0"),
        ({"variant": "BX", "match_length": "3"}, "is a single game: it has no match length"),
        ({"bot": "gnubg-medium\x00"}, ""),  # a NUL byte: refused at the door
        ({"expected_games": "9" * 400}, "less than or equal to"),  # a number no count can be
        ({"match_length": "1" * 10_000}, "Enter a whole number"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    bob: Any, alice_client: Client, changes: dict[str, Any], words: str
) -> None:
    response = posted(alice_client, **changes)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Game.objects.exists() and not Challenge.objects.exists()


def test_a_stale_count_without_a_game_to_land_on_is_refused(alice_client: Client) -> None:
    response = posted(alice_client, expected_games="2")
    assert response.status_code == 409 and "second click" in response.content.decode()
    assert not Game.objects.exists()


def test_it_needs_a_log_in_a_post_and_the_csrf_token(alice: Any, client: Client, client_for: Any) -> None:
    response = client.post(PLAY_NOW, {"bot": "gnubg-medium"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(alice)
    data = offer_fields(guarded.get("/").content.decode())
    del data["csrfmiddlewaretoken"]
    assert guarded.post(PLAY_NOW, data).status_code == 403
    assert not Game.objects.exists()
    assert client_for(alice).put(PLAY_NOW).status_code == 405


def test_the_offer_has_a_page_of_its_own(alice_client: Client) -> None:
    page = alice_client.get(PLAY_NOW)
    assert page.status_code == 200 and offer_fields(page.content.decode())["bot"] == "gnubg-medium"
    assert reverse("bots:play_now") == PLAY_NOW


def test_a_refused_challenge_is_said_and_changes_nothing(alice: Any, alice_client: Client) -> None:
    # A challenge to gnubg-medium of the same variant still waits for the worker: the service's
    # own refusal is shown with the form.
    challenge_create(challenger=alice, opponent="gnubg-medium", variant="BP", time_limit=timedelta(days=1))
    response = alice_client.post(PLAY_NOW, {
        "bot": "gnubg-medium", "variant": "BP", "match_length": "3", "time_limit": str(3 * 24 * 3600),
        "rated": "False", "expected_games": "0",
    })
    assert response.status_code == 400 and "challenge waiting for gnubg-medium" in response.content.decode()
    assert not Game.objects.exists() and Challenge.objects.count() == 1
