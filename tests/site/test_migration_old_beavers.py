"""Migration 0003: logs from before issue 6 get the take their beavers implied, and replay again."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.db.models import F
from gamebuilder import act, scripted_dice, start_game

from backgammon.engine.actions import Action
from backgammon.engine.errors import EngineError
from backgammon.models import Game, GameAction
from backgammon.services.consistency import game_check_state

pytestmark = pytest.mark.django_db

migration = importlib.import_module("backgammon.migrations.0004_take_after_old_beavers")


def rows(game: Game) -> list[tuple[Any, ...]]:
    fields = ("number", "side", "kind", "data", "game_number", "dice", "cube_value", "position_id")
    return list(GameAction.objects.filter(game=game).order_by("number").values_list(*fields))


def test_an_old_beaver_gets_its_take_and_the_log_replays(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    dice = scripted_dice(monkeypatch)
    dice.then((3, 1))
    game = start_game(alice, bob, "MP", stake=1, beavers=True)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    game = act(game, bob, Action.double())
    game = act(game, alice, Action.beaver())
    dice.then((6, 4))
    game = act(game, bob, Action.take())  # Bob cannot redouble: his roll comes at once
    game = act(game, bob, Action.play([(24, 18), (18, 14)]))
    today = rows(game), Game.objects.filter(pk=game.pk).values().get()
    # The same game as the old engine logged it: no take after the beaver.
    take = GameAction.objects.get(game=game, kind="take")
    take.delete()
    GameAction.objects.filter(game=game, number__gt=take.number).update(number=F("number") - 1)
    Game.objects.filter(pk=game.pk).update(action_count=F("action_count") - 1)
    with pytest.raises(EngineError):
        Game.objects.get(pk=game.pk).replayed_state()

    migration.add_takes(apps, None)

    assert (rows(game), Game.objects.filter(pk=game.pk).values().get()) == today
    assert game_check_state(game_id=game.pk).ok
