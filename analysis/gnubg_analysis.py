"""GNU Backgammon's verdicts on single decisions: a checker play, the luck of a roll, the chances.

Everything is evaluated at gnubg's 0-ply (its neural net without look-ahead): a few microseconds
a call, so a whole match takes seconds in the worker. Checker plays are judged by cubeful equity,
as gnubg's own ``analyse match`` does, and so is the luck of a roll; the winning chances are
cubeless (the Python binding's ``evaluate`` gives cubeless numbers only), which is how the page
labels them.

Boards reach gnubg through the bots' bridge (``backgammon.gnubg_bridge.gnubg_board``); the cube
here is gnubg's match-absolute one (Black is gnubg's player 0), as its ``analyse match`` sees it. gnubg's
conventions are in shared/notes/gnubg.md: a board is ``(opponent, player on roll)``, each side 25
counts in its own numbering with the bar last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from backgammon.engine import Play, Position, Side, format_play, legal_plays
from backgammon.engine.match import MatchState
from backgammon.gnubg_bridge import gnubg_board
from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

from .variants import UNSUPPORTED_VARIANTS

__all__ = [
    "ANALYSIS_PLIES",
    "UNSUPPORTED_VARIANTS",
    "PlayVerdict",
    "gnubg_board",
    "gnubg_cube",
    "play_verdict",
    "roll_luck",
    "win_chance",
]

ANALYSIS_PLIES = 0

NACKGAMMON_VARIANTS = {"BN", "BO"}
_ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
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
    """The Position ID (mover's side) after gnubg's flat move tuple, or None for a tuple the
    binding cut at its first bear-off (odd length: shared/notes/gnubg.md)."""
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


@dataclass(frozen=True, slots=True)
class PlayVerdict:
    """gnubg's view of one checker play: the equities (mover's side) and the best play's text."""

    played_equity: float
    best_equity: float
    best_play: str
    choices: int
    cubeful: bool

    @property
    def equity_loss(self) -> float:
        return max(0.0, self.best_equity - self.played_equity)


def play_verdict(state: MatchState, played: Play) -> PlayVerdict:
    """Rate ``played`` (from ``state``, in its MOVE phase) against every legal play."""
    assert state.dice is not None
    plays = legal_plays(state.position, state.dice)
    if len(plays) <= 1:
        return PlayVerdict(0.0, 0.0, format_play(played), len(plays), cubeful=True)
    by_result = {play.result.id: play for play in plays}
    board = gnubg_board(state.position)
    scored = gnubg.findbestmoves(board, gnubg_cube(state), _context(cubeful=True), state.dice)
    equities: dict[str, float] = {}
    for entry in scored:
        result_id = gnubg_result_id(board, entry["move"])
        if result_id is None or result_id not in by_result:
            return _cubeless_verdict(state, plays, played)
        equities[result_id] = float(entry["score"])
    if set(equities) != set(by_result):
        return _cubeless_verdict(state, plays, played)
    best_id = max(equities, key=equities.__getitem__)
    return PlayVerdict(
        equities[played.result.id], equities[best_id], format_play(by_result[best_id]),
        len(plays), cubeful=True,
    )


def _cubeless_verdict(state: MatchState, plays: list[Play], played: Play) -> PlayVerdict:
    # A play with a bear-off comes back cut from the binding: score every play's result ourselves
    # (cubeless: the binding's evaluate has no cubeful equity), the opponent on roll after it.
    equities = {play.result.id: -_cubeless_equity(state, play.result.swapped(), state.turn.other)
                for play in plays}
    best = max(plays, key=lambda play: equities[play.result.id])
    return PlayVerdict(equities[played.result.id], equities[best.result.id], format_play(best),
                       len(plays), cubeful=False)


def _cubeless_equity(state: MatchState, position: Position, on_roll: Side) -> float:
    if not any(position.theirs):
        return -_win_value(position)  # the opponent has borne off: the player on roll lost
    cube = gnubg_cube(state)
    cube["move"] = int(on_roll)
    return float(gnubg.evaluate(gnubg_board(position), cube, _context(cubeful=False))[5])


def _win_value(position: Position) -> float:
    # The loser of a finished game lost 1, 2 or 3 (cubeless, money-equivalent).
    from backgammon.engine.game import WinKind, bear_off_win

    return {WinKind.GAMMON: 2.0, WinKind.BACKGAMMON: 3.0}.get(bear_off_win(position.swapped()), 1.0)


def _best_equity(state: MatchState, dice: tuple[int, int]) -> float:
    """The best play's cubeful equity with ``dice`` (the cut tuples of the binding do not matter:
    only the score of the best is read). With no legal play, the position passes to the opponent
    as it is, which the binding evaluates cubeless only."""
    scored = gnubg.findbestmoves(gnubg_board(state.position), gnubg_cube(state), _context(cubeful=True), dice)
    if not scored:
        return -_cubeless_equity(state, state.position.swapped(), state.turn.other)
    return max(float(entry["score"]) for entry in scored)


def roll_luck(state: MatchState, dice: tuple[int, int], *, opening: bool = False) -> float:
    """How much ``dice`` gained the player on turn over an average roll, as gnubg defines luck:
    the best play's equity with this roll minus the mean over all 36 rolls (over the 30 rolls
    without a double for the opening roll, which cannot be one)."""
    total, weight = 0.0, 0
    rolled = 0.0
    for roll in _ALL_ROLLS:
        if opening and roll[0] == roll[1]:
            continue
        value = _best_equity(state, roll)
        times = 1 if roll[0] == roll[1] else 2
        total += value * times
        weight += times
        if sorted(roll) == sorted(dice):
            rolled = value
    return rolled - total / weight


def win_chance(position: Position, on_roll: Side, state: MatchState) -> float:
    """The cubeless chance that ``on_roll`` wins the game, before rolling in ``position``."""
    if not any(position.mine):
        return 1.0
    if not any(position.theirs):
        return 0.0
    cube = gnubg_cube(state)
    cube["move"] = int(on_roll)
    return float(gnubg.evaluate(gnubg_board(position), cube, _context(cubeful=False))[0])
