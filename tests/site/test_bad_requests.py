"""Malformed requests (a NUL character, a form body that is not UTF-8, an admin selection that
is not ids) get a 400 page that says what was wrong, and change nothing."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine.actions import Action
from backgammon.models import Challenge, Game

pytestmark = pytest.mark.django_db

LAYOUT = 'class="site-header"'


def refused(response: Any, words: str) -> bool:
    body = html.unescape(response.content.decode())
    return response.status_code == 400 and LAYOUT in body and words in body and "Nothing was changed" in body


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice (Black) to play 3-1 in a BP match."""
    scripted_dice(monkeypatch).then((3, 1))
    return start_game(alice, bob, "BP")


def test_a_nul_in_a_move_message_is_a_400(game: Game, alice_client: Client) -> None:
    form = {"expected_number": game.action_count, "kind": "play", "moves_text": "8/5 6/5", "message": "gg\x00"}
    response = alice_client.post(f"/games/{game.pk}/act/", form)
    assert refused(response, "The form data contains a NUL character")
    assert Game.objects.get(pk=game.pk).action_count == game.action_count


@pytest.mark.parametrize("fields", [{"kind": "roll"}, {"kind": "double"}, {"kind": "resign", "level": "1"}])
def test_a_nul_in_a_roll_double_or_resign_message_is_a_400(
    game: Game, alice: Any, bob_client: Client, fields: dict[str, str]
) -> None:
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))  # Bob may now roll, double or resign
    form = {"expected_number": game.action_count, "message": "\x00", **fields}
    response = bob_client.post(f"/games/{game.pk}/act/", form)
    assert refused(response, "The form data contains a NUL character")
    assert Game.objects.get(pk=game.pk).action_count == game.action_count


def test_a_nul_in_a_new_game_form_is_a_400(alice_client: Client, bob: Any) -> None:
    response = alice_client.post("/games/new/", {"opponent": "bob", "variant": "BP", "message": "hi\x00"})
    assert refused(response, "The form data contains a NUL character")
    assert not Challenge.objects.exists()


@pytest.mark.parametrize("address", ["/games/%00/", "/games/?page=%00", "/help/?q=a%00b"])
def test_a_nul_in_the_address_is_a_400(alice_client: Client, address: str) -> None:
    assert refused(alice_client.get(address), "The address contains a NUL character")


@pytest.mark.parametrize("charset", ["utf-16", "bogus"])
def test_a_login_form_in_another_charset_is_a_400_before_log_in(db: None, charset: str) -> None:
    body = "username=alice&password=x".encode("utf-16" if charset == "utf-16" else "ascii")
    response = Client().generic(
        "POST", "/accounts/login/", body,
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
    )
    assert refused(response, f"Form data must be sent as UTF-8: this request declared the character set '{charset}'.")
    assert "Log in" in response.content.decode()  # the visitor's header


def test_a_utf8_form_still_works(client: Client, db: None) -> None:
    response = client.post("/accounts/login/", {"username": "nobody", "password": "x"})
    assert response.status_code == 200


@pytest.fixture
def staff_client(admin_user: Any) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


@pytest.mark.parametrize(
    "address",
    [
        "/admin/backgammon/game/?status=%00",
        "/admin/backgammon/challenge/?variant=%00",
        "/admin/backgammon/game/?q=%00",
        "/admin/auth/user/?username=%00",
        "/admin/backgammon/game/%00/change/",
    ],
)
def test_admin_lists_with_a_nul_are_a_400(staff_client: Client, address: str) -> None:
    assert refused(staff_client.get(address), "The address contains a NUL character")


@pytest.mark.parametrize("address", ["/admin/backgammon/game/?id__exact=abc", "/admin/backgammon/game/?black__id__exact=x"])
def test_admin_filters_with_a_non_numeric_id_are_not_a_500(staff_client: Client, address: str) -> None:
    # Django's admin answers a filter it cannot apply by sending back to the unfiltered list.
    assert staff_client.get(address).status_code == 302


@pytest.mark.parametrize("selected", ["abc", "1 OR 1=1", "\x00"])
@pytest.mark.parametrize(
    ("address", "action"),
    [("/admin/backgammon/game/", "abort_games"), ("/admin/backgammon/challenge/", "delete_selected"),
     ("/admin/auth/user/", "delete_selected")],
)
def test_admin_actions_on_a_selection_that_is_not_ids_are_a_400(
    staff_client: Client, game: Game, address: str, action: str, selected: str
) -> None:
    response = staff_client.post(address, {"action": action, "_selected_action": [str(game.pk), selected]})
    words = "The form data contains a NUL character" if selected == "\x00" else f"{selected!r} is not an id"
    assert refused(response, words)
    assert Game.objects.get(pk=game.pk).status == "active"


def test_an_admin_action_on_ids_still_asks_for_a_reason(staff_client: Client, game: Game) -> None:
    response = staff_client.post("/admin/backgammon/game/", {"action": "abort_games", "_selected_action": [game.pk]})
    assert response.status_code == 200 and "reason" in response.content.decode().lower()


def test_the_admin_still_redirects_a_visitor_to_log_in(client: Client, db: None) -> None:
    response = client.post("/admin/backgammon/game/", {"action": "abort_games", "_selected_action": "abc"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
