"""Playing tournament games to a chosen end quickly, through the services: the loser resigns
when on turn; the winner on turn plays its first legal play until then."""

from __future__ import annotations

from typing import Any

from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import game_apply_action


def win(game: Game, winner: Any) -> Game:
    """Play ``game`` until ``winner`` has won it (a single game: one resignation ends it)."""
    for _ in range(200):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            assert game.winner_id == winner.pk
            return game
        state = game.state()
        actor = game.actor
        if state.phase.value == "resign_offered":
            action = Action.accept_resign()
        elif actor.pk != winner.pk:
            action = Action.resign(3)
        elif state.phase.value == "roll":
            action = Action.roll(1, 1)  # the server rolls; the dice it carries are ignored
        elif state.phase.value == "take_or_drop":
            action = Action.take()
        else:
            plays = state.legal_plays()
            action = Action.play([(m.origin, m.destination) for m in plays[0].moves] if plays else [])
        game_apply_action(game_id=game.pk, actor=actor, action=action,
                          expected_number=game.action_count)
    raise AssertionError("the game did not end")
