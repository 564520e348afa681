"""The bots' cube: gnubg's own cubeful cube decisions, asked through its text commands.

The binding evaluates cubeless only (``gnubg.evaluate`` returns the same equity whatever its
cubeinfo and evalcontext say), and ``gnubg.hint()`` returns a corrupted structure. gnubg's text
commands reach the cubeful evaluator itself, with its match equity table, Crawford and
post-Crawford, the Jacoby rule and beavers: the state is set with ``set matchid`` (cube, owner,
score, length, Crawford, Jacoby) and ``set board``, beavers with ``set beavers``, the look-ahead
with ``set evaluation cubedecision eval plies N``; then ``hint`` prints the cube analysis (no
double, double/take and double/pass equities and gnubg's proper action) and ``eval`` the cubeful
equity of a position. That is one evaluation, the same gnubg's analysis uses, for about 11 ms at
0-ply and 12 ms (150 ms at most) at 2-ply a decision (measured on 150 positions of
tests/gnubg_analysis/test_gnubg_cube_agreement.py), where the analysis path (``import mat``,
``analyse match``) needs a process of its own per match.

A decision reads gnubg's proper action; easy adds its noise to the equities and compares them.
Equities are the doubler's, per current cube (EMG in match play), as gnubg prints them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from enum import StrEnum

from backgammon.engine import MatchState, Phase
from backgammon.gnubg_bridge import Strength  # loads on the main thread only
from backgammon.gnubg_state import ask_gnubg

__all__ = [
    "CubeAnswer",
    "CubeVerdict",
    "cube_verdict",
    "cubeful_equity",
    "should_double",
    "take_answer",
]

_EQUITY_LINE = re.compile(r"^\s*\d\.\s+(\S.*?)\s+([+-]\d+\.\d+)", re.MULTILINE)
_PROPER = re.compile(r"^Proper cube action:\s*(.+?)(?:\s+\([\d.]+%\))?\s*$", re.MULTILINE)
_EVAL_ROW = re.compile(r"^\s*(?:static|\d+ ply):((?:\s+[+-]?\d+\.\d+){7})\s*$", re.MULTILINE)


class CubeAnswer(StrEnum):
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class CubeVerdict:
    """gnubg's cube analysis for the player about to double: equities and its proper action,
    e.g. "No double, take", "Redouble, pass", "Too good to double, pass", "Double, beaver"."""

    no_double: float
    double_take: float
    double_pass: float
    proper: str

    @property
    def doubles(self) -> bool:
        """gnubg doubles here (an optional double is taken as a double)."""
        return self.proper.startswith(("Double", "Redouble", "Optional"))

    @property
    def answer(self) -> CubeAnswer:
        """gnubg's answer to the double: the word after the comma (take, pass, beaver)."""
        word = self.proper.rpartition(",")[2].strip().lower()
        if word.startswith("beaver"):
            return CubeAnswer.BEAVER
        return CubeAnswer.DROP if word.startswith("pass") else CubeAnswer.TAKE


def _before_the_roll(state: MatchState) -> MatchState:
    """The state as the doubler saw it before doubling (a pending double taken back)."""
    if state.phase is Phase.TAKE_OR_DROP:
        if state.beavered:
            raise ValueError("After a beaver there is no double to judge: see take_answer")
        return replace(state, phase=Phase.ROLL, dice=None)
    if state.phase is not Phase.ROLL:
        raise ValueError(f"No cube decision in the {state.phase.value} phase")
    return state


def cube_verdict(state: MatchState, plies: int) -> CubeVerdict | None:
    """gnubg's cube analysis of the pending or possible double of the player on turn; None
    where gnubg holds the cube dead (in a match, a single win already gives the doubler the
    match: doubling only gives the opponent a chance that dropping would throw away)."""
    text = ask_gnubg(_before_the_roll(state), plies, "hint")
    if not text.strip():
        return None  # gnubg said "You cannot double." (on stderr)
    equities: dict[str, float] = {}
    for label, value in _EQUITY_LINE.findall(text):
        key = (
            "no_double" if label.startswith("No") else "pass" if label.endswith("pass") else "take"
        )
        equities[key] = float(value)
    proper = _PROPER.search(text)
    if proper is None or len(equities) != 3:
        raise RuntimeError(
            f"gnubg gave no cube analysis for {state.position.id} {state.match_id()}"
        )
    return CubeVerdict(equities["no_double"], equities["take"], equities["pass"], proper.group(1))


def cubeful_equity(state: MatchState, plies: int) -> float:
    """gnubg's cubeful equity of the player on turn, about to roll (per current cube)."""
    text = ask_gnubg(state, plies, "eval")
    rows = _EVAL_ROW.findall(text)
    if not rows:
        raise RuntimeError(f"gnubg gave no evaluation for {state.position.id} {state.match_id()}")
    return float(rows[-1].split()[-1])  # the deepest ply's last column, "Cubeful"


def should_double(state: MatchState, strength: Strength, rng: random.Random | None = None) -> bool:
    """Whether the player on turn doubles now (False wherever doubling is not allowed)."""
    if state.phase is not Phase.ROLL or not state.can_double():
        return False
    verdict = cube_verdict(state, strength.plies)
    if verdict is None:
        return False
    if not strength.noise:
        return verdict.doubles
    noisy = _Noisy(strength, rng)
    return min(noisy(verdict.double_take), verdict.double_pass) > noisy(verdict.no_double)


def take_answer(
    state: MatchState, strength: Strength, rng: random.Random | None = None
) -> CubeAnswer:
    """The answer of the doubled player (``state.actor``) to the double on the table.

    After a beaver the doubler answers: taking plays on for twice the beavered cube, which the
    beaverer holds; dropping loses the beavered cube. So the doubler takes unless gnubg's cubeful
    equity of that game is below -1/2 of the doubled cube; a beaver is never answered with another.
    """
    if state.phase is not Phase.TAKE_OR_DROP:
        raise ValueError("There is no double to answer")
    noisy = _Noisy(strength, rng)
    if state.beavered:
        played_on = replace(
            state, phase=Phase.ROLL, cube_value=state.cube_value * 2, cube_owner=state.turn.other
        )
        equity = noisy(cubeful_equity(played_on, strength.plies))
        return CubeAnswer.TAKE if 2.0 * equity > -1.0 else CubeAnswer.DROP
    verdict = cube_verdict(state, strength.plies)
    if verdict is None:
        return CubeAnswer.TAKE  # a dead cube: dropping gives the doubler the match at once
    if strength.noise:
        double_take = noisy(verdict.double_take)
        if double_take > verdict.double_pass:
            return CubeAnswer.DROP
        # gnubg beavers where the doubler's double/take equity is between -2 and 0 (measured on
        # the reference positions: below -2 it says take, the doubler too far behind to matter).
        answer = CubeAnswer.BEAVER if -2.0 <= double_take < 0.0 else CubeAnswer.TAKE
    else:
        answer = verdict.answer
    if answer is CubeAnswer.BEAVER and not state.can_beaver():
        return CubeAnswer.TAKE
    return answer


class _Noisy:
    """An equity with the strength's noise added (none for medium and strong)."""

    def __init__(self, strength: Strength, rng: random.Random | None) -> None:
        self.noise = strength.noise
        self.rng = rng or random.Random()

    def __call__(self, equity: float) -> float:
        return equity + self.rng.gauss(0.0, self.noise) if self.noise else equity
