"""The analysis board's answer for one position: gnubg's ranked plays for the roll and its cube
decision, at 0-ply or 2-ply. Pure (engine state in, JSON-ready dict out, no Django); runs in the
task worker (analysis/position_services.py), as web processes never load gnubg.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from backgammon.engine import MatchState, Phase
from backgammon.gnubg_cube import cube_verdict
from backgammon.gnubg_plays import ranked_plays

from .position_input import BOARD_PLIES

__all__ = ["analyse_position"]


def analyse_position(state: MatchState, plies: int) -> dict[str, Any]:
    """``{"plies", "plays": [{"move", "equity", "plies", "chances"}], "cube": {"action",
    "no_double", "double_take", "double_pass"} | None}``: plays for a position with dice (best
    first, [] when none is legal), the cube decision of the player on roll before the roll (or of
    the pending double); None where that player cannot double (the opponent owns the cube, the
    Crawford game, a dead cube). Equities are gnubg's, the player on roll's (EMG in a match)."""
    if plies not in BOARD_PLIES:
        raise ValueError(f"The board analyses at 0 or 2 plies, not {plies}")
    plays = []
    if state.phase is Phase.MOVE:
        plays = [
            {"move": play.move, "equity": play.equity, "plies": play.plies,
             "chances": dict(zip(_CHANCES, play.chances, strict=True))}
            for play in ranked_plays(state, plies)
        ]
    return {"plies": plies, "plays": plays, "cube": _cube(state, plies)}


_CHANCES = ("win", "win_gammon", "win_backgammon", "lose", "lose_gammon", "lose_backgammon")


def _cube(state: MatchState, plies: int) -> dict[str, Any] | None:
    before_the_roll = replace(state, phase=Phase.ROLL, dice=None) if state.phase is Phase.MOVE else state
    if before_the_roll.phase is Phase.ROLL and not before_the_roll.can_double():
        return None
    verdict = cube_verdict(before_the_roll, plies)
    if verdict is None:
        return None
    return {"action": verdict.proper, "no_double": verdict.no_double,
            "double_take": verdict.double_take, "double_pass": verdict.double_pass}
