"""Turning what a player sends (a form's ``kind``, an API call's ``action``) into an engine Action.

The game page and the JSON API both come through here, so an action has one name and one
reading whichever way it arrives. Only the shape is checked here; whether the action is allowed
now is the service's and the engine's question.
"""

from __future__ import annotations

from collections.abc import Callable

from backgammon.engine import EngineError
from backgammon.engine.actions import Action
from backgammon.engine.notation import parse_moves
from backgammon.services import ActionRejected

__all__ = ["RESIGN_LEVELS", "SIMPLE_ACTIONS", "resign_action", "typed_play"]

SIMPLE_ACTIONS: dict[str, Callable[[], Action]] = {
    # The server rolls: the service ignores the dice a ROLL action carries.
    "roll": lambda: Action.roll(1, 1),
    "double": Action.double,
    "take": Action.take,
    "drop": Action.drop,
    "beaver": Action.beaver,
    "accept_resign": Action.accept_resign,
    "reject_resign": Action.reject_resign,
}
"""Actions that carry nothing but their name."""

RESIGN_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
_RESIGN_HELP = "Choose what to resign: a single game, a gammon or a backgammon"


def resign_action(level: str | int | None) -> Action:
    """A resignation of ``level``: 1, 2, 3 (the page's form) or single, gammon, backgammon."""
    if isinstance(level, str) and level.strip().lower() in RESIGN_LEVELS:
        level = RESIGN_LEVELS[level.strip().lower()]
    try:
        return Action.resign(int(level if level is not None else ""))
    except (TypeError, ValueError, EngineError):
        raise ActionRejected(_RESIGN_HELP) from None


def typed_play(text: str) -> Action:
    """A play typed in standard notation (``13/9 13/10``); empty text is the pass of a player
    who cannot move."""
    try:
        return Action.play(parse_moves(text.strip()))
    except EngineError as refusal:
        raise ActionRejected(str(refusal)) from None
