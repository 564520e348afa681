"""What the analysis asks the gnubg binding itself: the chances, and gnubg's best play as the site writes it.

The errors, the luck and the cube verdicts are read from gnubg's own ``analyse match``
(``analysis.analyse``); its text export gives neither Black's winning chances after a play that
was forced or a dance, nor the best play in the site's notation. The chances are gnubg's 0-ply
cubeless ones (the Python binding's ``evaluate`` gives cubeless numbers only), which is how the
page labels them.

Boards reach gnubg through the bots' bridge (``backgammon.gnubg_bridge.gnubg_board``); the cube
here is gnubg's match-absolute one (Black is gnubg's player 0), as its ``analyse match`` sees it. gnubg's
conventions are in shared/notes/gnubg.md: a board is ``(opponent, player on roll)``, each side 25
counts in its own numbering with the bar last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backgammon.engine import Position, Side, format_play, legal_plays
from backgammon.engine.match import MatchState
from backgammon.gnubg_bridge import gnubg_board
from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

from .variants import UNSUPPORTED_VARIANTS

__all__ = [
    "ANALYSIS_PLIES",
    "UNSUPPORTED_VARIANTS",
    "gnubg_best_play",
    "gnubg_board",
    "gnubg_cube",
    "gnubg_result_id",
    "win_chance",
]

ANALYSIS_PLIES = 0

NACKGAMMON_VARIANTS = {"BN", "BO"}
_BAR = 25


def _context(*, cubeful: bool) -> Any:
    return gnubg.evalcontext(1 if cubeful else 0, ANALYSIS_PLIES, 0, 1, 0)


def gnubg_cube(state: MatchState) -> dict[str, Any]:
    """gnubg's cubeinfo for the player on turn in ``state``: Black is gnubg's player 0."""
    owner = -1 if state.cube_owner is None else int(state.cube_owner)
    rules = state.rules
    info: dict[str, Any] = gnubg.cubeinfo(
        state.cube_value, owner, int(state.turn), rules.match_length,
        (state.score.black, state.score.white), 1 if state.crawford else 0,
        1 if rules.variant.code in NACKGAMMON_VARIANTS else 0,
    )
    info = dict(info)
    info["jacoby"] = 1 if rules.money and rules.jacoby else 0
    info["beavers"] = 1 if rules.money and rules.beavers else 0
    return info


def gnubg_result_id(board: Any, move: Sequence[int]) -> str | None:
    """The Position ID (mover's side) after gnubg's flat move tuple (off is 0 or less), or None
    for a tuple the binding cut at its first bear-off (odd length: shared/notes/gnubg.md)."""
    if len(move) % 2:
        return None
    opponent, mover = list(board[0]), list(board[1])
    for source, target in zip(move[::2], move[1::2], strict=True):
        mover[source - 1] -= 1
        if target <= 0:
            continue
        mover[target - 1] += 1
        if opponent[24 - target] == 1:  # my point p is the opponent's 25 - p
            opponent[24 - target] = 0
            opponent[_BAR - 1] += 1
    return str(gnubg.positionid((opponent, mover)))


def gnubg_best_play(state: MatchState, gnubg_move: str) -> str:
    """gnubg's play ``gnubg_move`` (its notation: ``24/21*/20``, ``6/4*(2)``, ``3/off 2/off``)
    from ``state`` (in its MOVE phase), in the site's notation; a ValueError if no legal play
    leads where it does."""
    assert state.dice is not None
    board = gnubg_board(state.position)
    pairs = [number for pair in gnubg.parsemove(gnubg_move) for number in pair]
    result_id = gnubg_result_id(board, pairs)
    for play in legal_plays(state.position, state.dice):
        if play.result.id == result_id:
            return format_play(play)
    raise ValueError(f"gnubg's play {gnubg_move!r} is not a legal play of the position")


def win_chance(position: Position, on_roll: Side, state: MatchState) -> float:
    """The cubeless chance that ``on_roll`` wins the game, before rolling in ``position``."""
    if not any(position.mine):
        return 1.0
    if not any(position.theirs):
        return 0.0
    cube = gnubg_cube(state)
    cube["move"] = int(on_roll)
    return float(gnubg.evaluate(gnubg_board(position), cube, _context(cubeful=False))[0])
