"""GNU Backgammon judges the engine's positions: chances, plays, the cube and resignations.

Pure functions of the engine's values (no Django). gnubg judges positions; the engine stays the
judge of what is legal: a play is chosen among the engine's own legal plays by evaluating each
resulting position, so gnubg's move tuples (cut at a bear-off by the binding's bug, see
shared/notes/gnubg.md) are never trusted.

Conventions: a gnubg board is ``(opponent, player_on_roll)``, each side 25 counts in its own
numbering with the bar last, which is exactly the engine's ``Position.theirs`` and ``.mine``.
Equities are in units of the current cube, from the point of view of the player they are asked for.

The binding exposes gnubg's cubeless evaluation only (its ``evaluate`` ignores the cube): the cube
decisions are gnubg's own cubeful ones, asked through its text commands (backgammon/gnubg_cube.py).

Variants gnubg does not model:

* BA (the first to bear off loses): the mover wants what gnubg calls losing, so a play is rated by
  the opponent's gnubg equity after it (the play gnubg rates worst for the mover); a finished
  bear-off is the worst result. Without a cube, only the plays need judging.
* BR and BS (the checkers start on the bar): gnubg sees the waiting checkers as checkers on the
  bar. That overstates their hurry a little (a waiting checker may wait while others move) but
  values what matters in a race, the pips and the entering, so the evaluation stays sensible.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

if threading.current_thread() is not threading.main_thread():
    # Loaded (its neural nets set up) on any other thread, gnubg's look-ahead evaluations later
    # crash the whole process with a segmentation fault, even on the main thread. A process that
    # uses it imports this module on its main thread first (manage.py db_worker does).
    raise ImportError("backgammon.gnubg_bridge must first be imported on the main thread")

from backgammon.engine import MatchState, Phase, Play, Position, Side
from backgammon.engine.board import CHECKERS
from backgammon.gnubg_home import gnubg  # only once the thread is known to be the main one

__all__ = [
    "GNUBG_LOCK",
    "STRENGTHS",
    "Probabilities",
    "Strength",
    "accepts_resignation",
    "best_play",
    "evaluate",
    "gnubg_board",
    "gnubg_cubeinfo",
]

Board = tuple[tuple[int, ...], tuple[int, ...]]

# gnubg keeps global state in C: one caller at a time (the worker runs a sweep thread beside it).
GNUBG_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class Strength:
    """How hard a bot thinks.

    ``plies``: gnubg's look-ahead for the candidates that survive the 0-ply filter (the best
    ``candidates`` plays at 0-ply) and for the cube. ``noise``: the standard deviation of random
    equity added to each candidate and cube equity, so a weak bot makes human-sized mistakes.
    """

    name: str
    plies: int
    noise: float = 0.0
    candidates: int = 8


STRENGTHS = {
    "easy": Strength("easy", plies=0, noise=0.06),
    "medium": Strength("medium", plies=0),
    # 2-ply: 0.07 s a play on average on this machine (0.14 s at most over a match); 3-ply
    # costs about 0.4 s a position, some 3 s for 8 candidates: too slow for "a couple of seconds".
    "strong": Strength("strong", plies=2),
}


@dataclass(frozen=True, slots=True)
class Probabilities:
    """The chances of the player on roll (cubeless): wins, then the part of them that are gammons
    and backgammons, and the gammons and backgammons among the losses."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    def flipped(self) -> Probabilities:
        """The same chances seen by the opponent."""
        return Probabilities(
            self.lose, self.lose_gammon, self.lose_backgammon, self.win_gammon, self.win_backgammon
        )

    def equity(self, values: OutcomeValues) -> float:
        """Cubeless expected points per cube."""
        return (
            self.win
            - self.lose
            + values.gammon_win * self.win_gammon
            + values.backgammon_win * self.win_backgammon
            - values.gammon_loss * self.lose_gammon
            - values.backgammon_loss * self.lose_backgammon
        )


@dataclass(frozen=True, slots=True)
class OutcomeValues:
    """What a gammon adds to a single win, and a backgammon to a gammon (per cube), for and
    against the mover. gnubg's gammon chances include its backgammons, so a backgammon is worth
    1 + gammon + backgammon."""

    gammon_win: float = 1.0
    backgammon_win: float = 1.0
    gammon_loss: float = 1.0
    backgammon_loss: float = 1.0

    def flipped(self) -> OutcomeValues:
        return OutcomeValues(
            self.gammon_loss, self.backgammon_loss, self.gammon_win, self.backgammon_win
        )


NO_GAMMONS = OutcomeValues(0.0, 0.0, 0.0, 0.0)


def gnubg_board(position: Position) -> Board:
    """The gnubg board of ``position``, its player on roll as gnubg's player on roll."""
    return (position.theirs, position.mine)


def gnubg_cubeinfo(state: MatchState, side: Side) -> dict[str, object]:
    """gnubg's cubeinfo for ``side`` on move (as gnubg's player 0): cube, owner, match score."""
    if state.cube_owner is None:
        owner = -1
    else:
        owner = 0 if state.cube_owner is side else 1
    length = state.rules.match_length
    score = (state.score[side], state.score[side.other]) if length else (0, 0)
    with GNUBG_LOCK:
        return dict(
            gnubg.cubeinfo(state.cube_value, owner, 0, length, score, int(state.crawford), 0)
        )


def evaluate(position: Position, plies: int = 0) -> Probabilities:
    """gnubg's cubeless chances for the player on roll of ``position`` (about to roll).

    Beyond 0-ply only on the main thread: there the gnubg binding crashes the whole process (a
    segmentation fault, not an exception), so this refuses instead.
    """
    if plies and threading.current_thread() is not threading.main_thread():
        raise RuntimeError(
            f"gnubg evaluates at {plies}-ply only on the main thread (it crashes elsewhere)"
        )
    context = gnubg.evalcontext(0, plies, 1, 1, 0.0)
    with GNUBG_LOCK:
        result = gnubg.evaluate(gnubg_board(position), gnubg.cubeinfo(), context)
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = result[:5]
    return Probabilities(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)


def outcome_values(state: MatchState, side: Side) -> OutcomeValues:
    """What gammons and backgammons are worth to ``side`` here: nothing where they do not count
    (BX BN BR BA, money play under Jacoby with the cube in the middle), gnubg's gammon prices at
    a match score, their face value in money play."""
    rules = state.rules
    if not rules.variant.counts_gammons or (rules.jacoby and state.cube_owner is None):
        return NO_GAMMONS
    if not rules.match_length:
        return OutcomeValues()
    prices: tuple[tuple[float, float], tuple[float, float]]
    prices = gnubg_cubeinfo(state, side)["gammonprice"]  # type: ignore[assignment]
    # ((gammon, backgammon) of gnubg's player 0, the same of player 1): each the extra points
    # (per cube, in match-winning terms) over a single win, and of a backgammon over a gammon.
    (gammon_mine, backgammon_mine), (gammon_theirs, backgammon_theirs) = prices
    return OutcomeValues(gammon_mine, backgammon_mine, gammon_theirs, backgammon_theirs)


def _finished_value(result: Position, values: OutcomeValues, *, last_off_loses: bool) -> float:
    """The mover's equity when ``result`` (mover's view) has all the mover's checkers off."""
    if last_off_loses:
        return -2.0  # worse than any loss still in play
    # A win in hand beats one gnubg calls certain: the bonus breaks the tie in its favour.
    certain = 1e-6
    loser = result.theirs
    if sum(loser) < CHECKERS:
        return 1.0 + certain
    extra = values.gammon_win + certain
    if loser[24] or any(loser[18:24]):
        extra += values.backgammon_win
    return 1.0 + extra


def _play_equity(play: Play, values: OutcomeValues, plies: int, *, last_off_loses: bool) -> float:
    """The mover's equity after ``play`` (cubeless, per cube)."""
    if not any(play.result.mine):
        return _finished_value(play.result, values, last_off_loses=last_off_loses)
    theirs = evaluate(play.result.swapped(), plies)
    mover = theirs.flipped()
    if last_off_loses:
        # Anti-backgammon: gnubg's "win" is bearing off first, which loses here.
        return 1.0 - 2.0 * mover.win
    return mover.equity(values)


def best_play(state: MatchState, strength: Strength, rng: random.Random | None = None) -> Play:
    """The play ``strength`` chooses among the engine's legal plays of the state's dice."""
    plays = state.legal_plays()
    if not plays:
        raise ValueError("There is no play to choose: the state is not waiting for a play")
    if len(plays) == 1:
        return plays[0]
    rng = rng or random.Random()
    values = outcome_values(state, state.turn)
    last_off_loses = state.rules.variant.last_off_loses

    def noisy(equity: float) -> float:
        return equity + rng.gauss(0.0, strength.noise) if strength.noise else equity

    scored = [
        (noisy(_play_equity(play, values, 0, last_off_loses=last_off_loses)), index)
        for index, play in enumerate(plays)
    ]
    scored.sort(reverse=True)
    if strength.plies:
        scored = [
            (
                _play_equity(plays[index], values, strength.plies, last_off_loses=last_off_loses),
                index,
            )
            for _, index in scored[: strength.candidates]
        ]
        scored.sort(reverse=True)
    return plays[scored[0][1]]


def accepts_resignation(state: MatchState, plies: int = 0) -> bool:
    """Whether the player offered a resignation (``state.actor``) accepts it.

    Accepted when the points offered are at least what gnubg expects the winner to make by
    playing on (cubeless, with what gammons are worth here), so a player who is lost can resign
    a single game and a player with gammon chances is held to the gammon.
    """
    if state.phase is not Phase.RESIGN_OFFERED:
        raise ValueError("There is no resignation to answer")
    resigner = state.turn
    winner = resigner.other
    values = outcome_values(state, winner)
    if state.rules.variant.last_off_loses:
        return True  # Anti-backgammon has no gammons: a resignation concedes the whole game
    chances = evaluate(state.position, plies).flipped()
    expected = chances.equity(values)
    offered = 1.0
    if state.resign_level >= 2:
        offered += values.gammon_win
    if state.resign_level >= 3:
        offered += values.backgammon_win
    return offered >= expected - 1e-6
