"""The computer opponents. ``decide`` is the one public entry point for a bot's decision: the
worker's bot moves use it, and so can anyone checking the bots (``from bots import decide``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from backgammon.engine import Action, MatchState

__all__ = ["decide"]


def decide(state: MatchState, level: str) -> Action:
    """The engine's action for the player to act in ``state`` (``state.actor``), as the computer
    player of ``level`` ("easy", "medium" or "strong") decides it: roll (its dice placeholders,
    the site rolls them), double, take, drop, beaver, play, resign, accept or reject.

    GNU Backgammon is loaded at the first call, on the calling thread, which must be the main one
    (backgammon/gnubg_bridge.py says why): a web process never loads it. Raises ValueError for
    an unknown level or a state where nobody acts."""
    from bots.decisions import decide_for_level  # gnubg only when a decision is asked for

    return decide_for_level(state, level)
