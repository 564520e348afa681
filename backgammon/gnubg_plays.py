"""GNU Backgammon's ranked checker plays for a roll, from its own ``hint`` (cubeful, at any ply).

The binding's ``findbestmoves`` cuts a move at its first bear-off and scores cubeless in part
(shared/notes/gnubg.md); the text command ranks every legal play with the cubeful evaluator, so
the analysis board reads plays from there. gnubg prints a block per play::

    1. Cubeful 2-ply    24/18 13/10                  Eq.: +0.013
       0.506 0.132 0.006 - 0.494 0.136 0.006

(equity for the player on roll, EMG in a match, then the chances to win, win a gammon, win a
backgammon, lose, lose a gammon, lose a backgammon). At 2-ply gnubg looks deeper only at the
plays its 0-ply filter keeps, so later lines may say ``0-ply``: each play keeps its own depth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from backgammon.engine import MatchState, Phase, format_play, legal_plays, parse_play
from backgammon.gnubg_state import ask_gnubg

__all__ = ["RankedPlay", "ranked_plays"]

_PLAY_BLOCK = re.compile(
    r"^\s*\d+\.\s+Cube(?:ful|less)\s+(\d+)-ply\s+(\S.*?)\s+Eq\.:\s*([+-]?\d+\.\d+)[^\n]*\n"
    r"\s*((?:\d\.\d+\s+){3}-(?:\s+\d\.\d+){3})",
    re.MULTILINE,
)


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One legal play as gnubg ranks it: the site's notation, its equity, its chances."""

    move: str
    equity: float
    plies: int
    chances: tuple[float, float, float, float, float, float]
    """win, win a gammon, win a backgammon, lose, lose a gammon, lose a backgammon."""


def ranked_plays(state: MatchState, plies: int) -> list[RankedPlay]:
    """Every legal play of ``state`` (in its MOVE phase), best first; [] when none is legal."""
    if state.phase is not Phase.MOVE or state.dice is None:
        raise ValueError("Plays are ranked for a position with dice rolled")
    count = sum(1 for play in legal_plays(state.position, state.dice) if play.moves)
    if count == 0:  # the engine's one empty play: no checker can move
        return []
    printed = ask_gnubg(state, plies, f"hint {count}")
    ranked = []
    for depth, move_text, equity, chances in _PLAY_BLOCK.findall(printed):
        play = parse_play(state.position, state.dice, move_text)
        numbers = tuple(float(part) for part in chances.replace("-", " ").split())
        ranked.append(RankedPlay(format_play(play), float(equity), int(depth), numbers))  # type: ignore[arg-type]
    if len(ranked) != count:
        raise RuntimeError(
            f"gnubg ranked {len(ranked)} plays of {count} for {state.position.id} {state.match_id()}"
        )
    return ranked
