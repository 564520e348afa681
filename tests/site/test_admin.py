"""The admin: game lists and pages with the read-only log; abort and adjudicate with a reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords, start_game  # noqa: F401

from backgammon.models import Game, StaffAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    return start_game(alice, bob, "BP")


def changelist() -> str:
    return reverse("admin:backgammon_game_changelist")


def test_it_lists_and_searches_games_by_player(admin_client: Client, game: Game, charlie: Any, bob: Any) -> None:
    other = start_game(charlie, bob, "BX")
    page = admin_client.get(changelist(), {"q": "alice"}).content.decode()
    assert f"<a href=\"/admin/backgammon/game/{game.pk}/change/" in page
    assert f"/admin/backgammon/game/{other.pk}/change/" not in page
    assert admin_client.get(changelist(), {"status__exact": "active", "variant__exact": "BX"}).status_code == 200


def test_the_game_page_shows_the_log_read_only(admin_client: Client, game: Game) -> None:
    page = admin_client.get(reverse("admin:backgammon_game_change", args=[game.pk])).content.decode()
    assert "Game actions" in page
    assert 'name="actions-0-kind"' not in page  # nothing of the log is editable
    assert "roll" in page


def test_abort_asks_for_a_reason_then_logs_it(admin_client: Client, game: Game, admin_user: Any) -> None:
    data = {"action": "abort_games", "_selected_action": [game.pk]}
    page = admin_client.post(changelist(), data)
    assert page.status_code == 200 and "Reason" in page.content.decode()
    game.refresh_from_db()
    assert game.status == "active"
    response = admin_client.post(changelist(), {**data, "confirm": "yes", "reason": "duplicate accounts"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.result) == ("aborted", "Aborted by staff: duplicate accounts")
    logged = StaffAction.objects.get()
    assert (logged.staff, logged.reason) == (admin_user, "duplicate accounts")
    page = admin_client.get(reverse("admin:backgammon_game_change", args=[game.pk])).content.decode()
    assert "duplicate accounts" in page


def test_adjudicate_needs_a_winner_and_a_reason(admin_client: Client, game: Game, bob: Any) -> None:
    data = {"action": "adjudicate_games", "_selected_action": [game.pk], "confirm": "yes"}
    page = admin_client.post(changelist(), {**data, "reason": "alice vanished"})
    assert page.status_code == 200 and "Choose the winner." in page.content.decode()
    page = admin_client.post(changelist(), {**data, "winner": "white", "reason": ""})
    assert page.status_code == 200
    game.refresh_from_db()
    assert game.status == "active" and not StaffAction.objects.exists()
    admin_client.post(changelist(), {**data, "winner": "white", "reason": "alice vanished"})
    game.refresh_from_db()
    assert (game.status, game.winner) == ("finished", bob)
    assert StaffAction.objects.get().kind == "adjudicate"


def test_a_game_already_over_is_reported_not_changed(admin_client: Client, game: Game) -> None:
    data = {"action": "abort_games", "_selected_action": [game.pk], "confirm": "yes", "reason": "once"}
    admin_client.post(changelist(), data)
    response = admin_client.post(changelist(), {**data, "reason": "twice"}, follow=True)
    assert f"Game #{game.pk}: This game is already aborted" in response.content.decode()
    assert StaffAction.objects.count() == 1


def test_challenges_are_listed(admin_client: Client, alice: Any, bob: Any) -> None:
    from datetime import timedelta

    from backgammon.services import challenge_create

    challenge_create(challenger=alice, opponent="bob", variant="BX", time_limit=timedelta(days=1))
    page = admin_client.get(reverse("admin:backgammon_challenge_changelist"), {"q": "bob"}).content.decode()
    assert "BX" in page and "pending" in page.lower()


def test_players_cannot_open_the_admin(client_for: Any, alice: Any) -> None:
    response = client_for(alice).get(changelist())
    assert response.status_code == 302 and "/login/" in response["Location"]
