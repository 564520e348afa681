"""Edit ratings (/accounts/ratings/): per variant, shown to others or not and new games rated or
not; the full history with the formula's numbers. What others see on the player page and in the
API, and that a hidden rating still counts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from accounts.models import RatingChoice
from accounts.rating_choices import rating_choices_update
from api.tokens import token_create
from backgammon.engine.actions import Action
from tests.json_api.conftest import ApiClient
from tournaments.models import RatingChange
from tournaments.ratings import RATED_VARIANTS, rating_of

pytestmark = pytest.mark.django_db
EDIT = "/accounts/ratings/"


@pytest.fixture
def two_rated_games(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Alice loses a BX game to bob, then wins one."""
    scripted_dice(monkeypatch).then((3, 1), (3, 1))
    first = act(act(start_game(alice, bob, "BX"), alice, Action.resign(1)), bob, Action.accept_resign())
    second = act(act(start_game(bob, alice, "BX"), bob, Action.resign(1)), alice, Action.accept_resign())
    return [first.pk, second.pk]


def everything_shown_and_rated() -> dict[str, str]:
    return {f"{kind}_{code}": "on" for kind in ("shown", "rated") for code in RATED_VARIANTS}


def test_it_lists_every_rated_variant_and_the_full_history(alice_client: Client, two_rated_games: list[int]) -> None:
    body = alice_client.get(EDIT).content.decode()
    for code in RATED_VARIANTS:
        assert f'name="shown_{code}"' in body and f'name="rated_{code}"' in body
    assert "Money" not in body
    history = body[body.index('id="history-title"'):]
    rows = re.findall(r"<tr>.*?</tr>", history, re.DOTALL)[1:]
    assert len(rows) == 2  # newest first: the win, then the loss
    assert f'href="/games/{two_rated_games[1]}/"' in rows[0] and "won" in rows[0]
    assert "bob" in rows[1] and "lost" in rows[1]
    assert "1500.00" in rows[1] and "1490.00" in rows[1] and "(-10.00)" in rows[1]
    # The formula's numbers: n = 1, experience 0, K = 5, P = 0.5 between equals.
    assert "n=1, exp 0, K=5.00, P=0.5000" in rows[1]
    assert 'class="provisional"' in rows[1]


def test_saving_hides_a_rating_and_makes_new_games_unrated(alice: Any, alice_client: Client) -> None:
    form = everything_shown_and_rated()
    del form["shown_BX"], form["rated_BP"]
    response = alice_client.post(EDIT, form)
    assert response.status_code == 302
    saved = {c.variant: (c.shown, c.rated_by_default) for c in RatingChoice.objects.filter(user=alice)}
    assert saved["BX"] == (False, True) and saved["BP"] == (True, False) and saved["BN"] == (True, True)
    body = alice_client.get(EDIT).content.decode()
    assert re.search(r'name="shown_BX" [^>]*aria-label="[^"]*"(?! checked)>', body)
    assert re.search(r'name="shown_BN" [^>]*checked>', body)


@pytest.mark.parametrize("form", [
    {"shown_BX": "on", "shown_MP": "on"},  # money play has no rating
    {"shown_BX": "maybe"},
    {"colour": "red"},
])
def test_bad_input_is_refused_and_changes_nothing(alice: Any, alice_client: Client, form: dict[str, str]) -> None:
    response = alice_client.post(EDIT, form)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not RatingChoice.objects.exists()


def test_a_visitor_is_sent_to_log_in(client: Client) -> None:
    assert "/accounts/login/" in client.get(EDIT)["Location"]
    assert "/accounts/login/" in client.post(EDIT, everything_shown_and_rated())["Location"]
    assert not RatingChoice.objects.exists()


def test_others_do_not_see_a_hidden_rating_but_the_player_does(
    alice: Any, bob_client: Client, alice_client: Client, client: Client, two_rated_games: list[int]
) -> None:
    rating_choices_update(user=alice, shown={"BX": False}, rated={})
    for viewer in (bob_client, client):
        card = viewer.get("/players/alice/").content.decode()
        card = card[card.index('id="ratings-title"'):]
        assert "Backgammon (BX)" not in card and "Pro Backgammon (BP)" in card
        assert "rating-chart" not in card  # BX's chart is the history of a hidden rating
        assert "keeps some ratings to themselves" in card
    own = alice_client.get("/players/alice/").content.decode()
    assert "Backgammon (BX) <span class=\"muted\">(hidden from others)</span>" in own
    assert "rating-chart" in own
    profile = alice_client.get(reverse("accounts:profile")).content.decode()
    assert "(hidden from others)" in profile and 'href="/accounts/ratings/"' in profile


def test_the_api_shows_others_only_the_shown_ratings(alice: Any, bob: Any) -> None:
    rating_choices_update(user=alice, shown={"BX": False, "B9": False}, rated={})
    bob_api = ApiClient(token_create(user=bob, name="t")[1])
    alice_api = ApiClient(token_create(user=alice, name="t")[1])
    theirs = bob_api.get("/players/alice").json()["ratings"]
    assert "BX" not in theirs and "B9" not in theirs and "BP" in theirs
    assert set(alice_api.get("/players/alice").json()["ratings"]) == set(RATED_VARIANTS)


def test_a_hidden_rating_still_counts(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rating_choices_update(user=alice, shown={"BX": False}, rated={})
    scripted_dice(monkeypatch).then((3, 1))
    act(act(start_game(alice, bob, "BX"), alice, Action.resign(1)), bob, Action.accept_resign())
    assert rating_of(alice, "BX") == pytest.approx(1490.0)  # what seeds tournaments too
    assert RatingChange.objects.filter(player=alice).count() == 1


def test_new_game_and_the_waiting_room_start_rated_as_chosen(alice: Any, alice_client: Client) -> None:
    for url in (reverse("backgammon:new_game"), reverse("backgammon:waiting_room")):
        body = alice_client.get(url).content.decode()
        box = re.search(r'<input type="checkbox" name="rated"[^>]*>', body)
        assert box is not None and "checked" in box.group(0), url  # BP, the first variant, is rated
    rating_choices_update(user=alice, shown={}, rated={"BP": False, "BX": True})
    for url in (reverse("backgammon:new_game"), reverse("backgammon:waiting_room")):
        body = alice_client.get(url).content.decode()
        box = re.search(r'<input type="checkbox" name="rated"[^>]*>', body)
        assert box is not None and "checked" not in box.group(0), url
        assert "data-rated-defaults" in box.group(0) and "js/rated_default.js" in body
