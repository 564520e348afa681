"""Two submissions of the same turn at the same moment, on real PostgreSQL: exactly one applies."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from gamebuilder import fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine.actions import Action
from backgammon.models import Game, GameAction
from backgammon.services import ActionRejected, game_apply_action
from tests.site.racing import race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("action", [Action.play([(8, 5), (6, 5)]), Action.resign(1)], ids=["play", "resign"])
def test_the_same_turn_sent_twice_at_once_applies_once(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, action: Action
) -> None:
    assert connection.vendor == "postgresql"
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BP")
    expected = game.action_count
    def submit() -> str:
        try:
            game_apply_action(game_id=game.pk, actor=alice, action=action, expected_number=expected)
        except ActionRejected as refusal:
            return refusal.message
        return "applied"

    outcomes = race(2, submit)
    assert outcomes == [
        "applied",
        "This game has moved on since your page was loaded: reload to see the new position",
    ]
    game.refresh_from_db()
    assert game.action_count == expected + 1
    assert GameAction.objects.filter(game=game).count() == expected + 1
    assert GameAction.objects.filter(game=game, number__gt=expected).get().kind == action.kind.value
    assert Game.objects.get(pk=game.pk).state().phase.value == game.phase
