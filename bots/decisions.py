"""What a bot does in a match state: one action, decided by backgammon.gnubg_bridge."""

from __future__ import annotations

import random

from backgammon.engine import Action, MatchState, Phase
from backgammon.gnubg_bridge import STRENGTHS, Strength, accepts_resignation, best_play
from backgammon.gnubg_cube import CubeAnswer, should_double, take_answer
from backgammon.services import roll_request

__all__ = ["bot_action", "decide_for_level"]

_ANSWERS = {
    CubeAnswer.TAKE: Action.take,
    CubeAnswer.DROP: Action.drop,
    CubeAnswer.BEAVER: Action.beaver,
}


def bot_action(state: MatchState, strength: Strength, rng: random.Random | None = None) -> Action:
    """The action of the bot who must act in ``state`` (``state.actor``)."""
    if state.phase is Phase.ROLL:
        return Action.double() if should_double(state, strength, rng) else roll_request()
    if state.phase is Phase.MOVE:
        play = best_play(state, strength, rng)
        return Action.play([(move.origin, move.destination) for move in play.moves])
    if state.phase is Phase.TAKE_OR_DROP:
        return _ANSWERS[take_answer(state, strength, rng)]()
    if state.phase is Phase.RESIGN_OFFERED:
        accept = accepts_resignation(state, strength.plies)
        return Action.accept_resign() if accept else Action.reject_resign()
    raise ValueError(f"Nobody acts in the {state.phase.value} phase")


def decide_for_level(state: MatchState, level: str, rng: random.Random | None = None) -> Action:
    """``bot_action`` for the level named (bots.decide, the public entry point)."""
    strength = STRENGTHS.get(level)
    if strength is None:
        raise ValueError(f"{level!r} is not a level: easy, medium or strong")
    if state.actor is None:
        raise ValueError(f"Nobody acts in the {state.phase.value} phase")
    return bot_action(state, strength, rng or random.Random())
