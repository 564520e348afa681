"""Staff decisions: abort or adjudicate an active game, with a logged reason."""

from __future__ import annotations

from typing import Any

import pytest
from gamebuilder import fast_passwords, start_game, unchanged  # noqa: F401

from backgammon.models import Game, StaffAction
from backgammon.services import ActionRejected, game_abort, game_adjudicate

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    return start_game(alice, bob, "BP")


def test_staff_can_abort_with_a_reason(game: Game, admin_user: Any) -> None:
    game = game_abort(game_id=game.pk, staff=admin_user, reason="  players asked  ")
    game.refresh_from_db()
    assert (game.status, game.winner, game.actor, game.deadline) == ("aborted", None, None, None)
    assert game.result == "Aborted by staff: players asked"
    logged = StaffAction.objects.get()
    assert (logged.game, logged.staff, logged.kind, logged.reason) == (game, admin_user, "abort", "players asked")


def test_staff_can_adjudicate_to_a_player(game: Game, admin_user: Any, bob: Any) -> None:
    game_adjudicate(game_id=game.pk, staff=admin_user, winner=bob, reason="alice left the site")
    game.refresh_from_db()
    assert (game.status, game.winner, game.actor) == ("finished", bob, None)
    assert game.result == "Adjudicated to bob by staff: alice left the site"
    assert StaffAction.objects.get().winner == bob


@pytest.mark.parametrize(
    ("who", "reason", "message"),
    [
        ("alice", "I want to win", "Only staff can abort or adjudicate a game"),
        ("admin", "   ", "Give a reason"),
        ("admin", "x" * 501, "at most 500 characters"),
    ],
)
def test_it_refuses_without_staff_or_reason(game: Game, alice: Any, admin_user: Any, who: str, reason: str, message: str) -> None:
    staff = admin_user if who == "admin" else alice
    with unchanged(game), pytest.raises(ActionRejected, match=message):
        game_abort(game_id=game.pk, staff=staff, reason=reason)
    assert not StaffAction.objects.exists()


def test_it_refuses_a_winner_who_does_not_play(game: Game, admin_user: Any, charlie: Any) -> None:
    with unchanged(game), pytest.raises(ActionRejected, match="charlie does not play in game"):
        game_adjudicate(game_id=game.pk, staff=admin_user, winner=charlie, reason="why not")


def test_it_refuses_a_game_already_over(game: Game, admin_user: Any, bob: Any) -> None:
    game_abort(game_id=game.pk, staff=admin_user, reason="first")
    with pytest.raises(ActionRejected, match="is already aborted"):
        game_adjudicate(game_id=game.pk, staff=admin_user, winner=bob, reason="second")
    assert StaffAction.objects.count() == 1
