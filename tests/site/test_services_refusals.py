"""game_apply_action refuses with a player's message and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from gamebuilder import (  # noqa: F401 (fast_passwords is an autouse fixture)
    ScriptedDice,
    act,
    fast_passwords,
    scripted_dice,
    start_game,
    unchanged,
)

from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import ActionRejected, game_abort, game_apply_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice (Black) to play 3-1 after the opening roll."""
    scripted_dice(monkeypatch).then((3, 1))
    return start_game(alice, bob, "BP")


def refused(game: Game, user: Any, action: Action, *, expected: int | None = None, **kwargs: Any) -> str:
    with unchanged(game), pytest.raises(ActionRejected) as refusal:
        game_apply_action(
            game_id=game.pk,
            actor=user,
            action=action,
            expected_number=game.action_count if expected is None else expected,
            **kwargs,
        )
    return refusal.value.message


def test_it_refuses_a_player_whose_turn_it_is_not(game: Game, bob: Any) -> None:
    assert refused(game, bob, Action.double()) == "It is not your turn: waiting for alice"


def test_it_refuses_a_page_that_is_out_of_date(game: Game, alice: Any) -> None:
    message = refused(game, alice, Action.play([(8, 5), (6, 5)]), expected=game.action_count - 1)
    assert message.startswith("This game has moved on since your page was loaded")


def test_it_refuses_the_same_submission_twice(game: Game, alice: Any) -> None:
    before = game.action_count
    act(game, alice, Action.play([(8, 5), (6, 5)]))
    message = refused(game, alice, Action.play([(8, 5), (6, 5)]), expected=before)
    assert "moved on" in message


def test_it_refuses_an_outsider(game: Game, charlie: Any) -> None:
    assert refused(game, charlie, Action.resign(1)) == "You are not playing in this game"


def test_it_refuses_moves_in_a_finished_game(game: Game, alice: Any, admin_user: Any) -> None:
    game_abort(game_id=game.pk, staff=admin_user, reason="test")
    game.refresh_from_db()
    assert refused(game, alice, Action.play([(8, 5), (6, 5)])) == "This game is over: no more moves can be made"


def test_it_refuses_an_illegal_play_with_the_engines_reason(game: Game, alice: Any) -> None:
    message = refused(game, alice, Action.play([(8, 5)]))
    assert "both dice" in message or "must" in message


def test_it_refuses_an_action_the_phase_does_not_allow(game: Game, alice: Any) -> None:
    assert refused(game, alice, Action.take()) == "There is no double to take"


def test_it_refuses_a_player_claiming_a_timeout(game: Game, alice: Any) -> None:
    assert refused(game, alice, Action.timeout()) == "Only the site can time a player out"


def test_it_refuses_a_message_that_is_too_long(game: Game, alice: Any) -> None:
    assert "500 characters" in refused(game, alice, Action.play([(8, 5), (6, 5)]), message="x" * 501)


def test_it_refuses_a_game_that_does_not_exist(game: Game, alice: Any) -> None:
    with pytest.raises(ActionRejected, match="no such game"):
        game_apply_action(game_id=game.pk + 1000, actor=alice, action=Action.take(), expected_number=0)


def test_it_refuses_an_anonymous_visitor(game: Game) -> None:
    from django.contrib.auth.models import AnonymousUser

    assert refused(game, AnonymousUser(), Action.resign(1)) == "You are not playing in this game"


@pytest.mark.parametrize(
    "build",
    [
        lambda: Action.double(),
        lambda: Action.take(),
        lambda: Action.drop(),
        lambda: Action.beaver(),
        lambda: Action.accept_resign(),
        lambda: Action.reject_resign(),
        lambda: Action.play([(8, 5)]),
        lambda: Action.play([(6, 0), (5, 0)]),
        lambda: Action.play([(5, 4), (13, 10)]),
    ],
)
def test_the_engines_refusals_reach_the_player_as_sentences(game: Game, alice: Any, build: Any) -> None:
    message = refused(game, alice, build())
    assert message[:1].isupper(), message
