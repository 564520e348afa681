"""Generate gnubg's cube decisions on a few hundred positions, the bots' cube reference.

Run once by hand (about 15 seconds) from the repository root:

    .venv/bin/python tools/gen_gnubg_cube_reference.py

It writes tests/gnubg_analysis/data/gnubg_cube_reference.json: for each case the engine's state (the
player on turn about to roll, free to double) and gnubg's cube analysis at 0-ply (what medium
must match) and 2-ply (strong): the equities of no double, double/take and double/pass and the
proper action; in money play with beavers, also the cubeful equity of the doubler after taking a
beaver (the answer to a beaver). tests/gnubg_analysis/test_gnubg_cube_agreement.py measures the bots on it.

Positions come from games gnubg plays against itself at 0-ply (one play in four random, for
variety) from the standard layout; each gets a cube setting drawn at random: money play with and
without the Jacoby rule and beavers (cube centred, or owned by the roller), or a match of 2 to 25
points at any score, post-Crawford included (the Crawford game itself has no cube decision).
Positions where the cube is live (the roller's cubeless chances 55% or more) are favoured.

gnubg is set up here afresh for every case (``new session`` or ``new match N``, its own Jacoby
and beaver settings, then the Match ID and Position ID), not as the bots' long-lived session
(backgammon/gnubg_cube.py) does it, so the test also checks that path. Deterministic (fixed seed).
"""

from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import replace
from pathlib import Path

from gnubg_text import gnubg_command

from backgammon.engine import (
    Action,
    MatchRules,
    PerSide,
    Phase,
    apply_action,
    find_variant,
    new_match,
)
from backgammon.engine.game import MAX_CUBE
from backgammon.engine.match import MatchState
from backgammon.engine.match_json import state_to_dict
from backgammon.gnubg_bridge import STRENGTHS, best_play, evaluate

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/gnubg_analysis/data/gnubg_cube_reference.json"
SEED = 20261127
CASES = 400
LENGTHS = (2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 21, 25)
EQUITY = re.compile(r"^\s*\d\.\s+(\S.*?)\s+([+-]\d+\.\d+)", re.MULTILINE)
PROPER = re.compile(r"^Proper cube action:\s*(.+?)(?:\s+\([\d.]+%\))?\s*$", re.MULTILINE)
EVAL_ROW = re.compile(r"^\s*(?:static|\d+ ply):((?:\s+[+-]?\d+\.\d+){7})\s*$", re.MULTILINE)
SETUP = ("set threads 1", "set display off", "set sound enable off", "set player 0 human",
         "set player 1 human", "set automatic roll off", "set automatic move off",
         "set automatic bearoff off")


def self_play_positions(rng: random.Random, wanted: int) -> list[MatchState]:
    """Money states before a roll, from gnubg's 0-ply games against itself."""
    medium = STRENGTHS["medium"]
    found: list[MatchState] = []
    while len(found) < wanted:
        state = new_match(MatchRules(find_variant("MP"), 0))
        state = apply_action(state, Action.roll(rng.randint(1, 6), rng.randint(1, 6)))
        turns = 0
        while state.phase is not Phase.MATCH_OVER and state.game_number == 1:
            if state.phase is Phase.OPENING_ROLL:
                break
            if state.phase is Phase.ROLL:
                turns += 1
                if turns > 2:
                    found.append(state)
                state = apply_action(state, Action.roll(rng.randint(1, 6), rng.randint(1, 6)))
            elif state.phase is Phase.MOVE:
                plays = state.legal_plays()
                play = rng.choice(plays) if rng.random() < 0.25 else best_play(state, medium)
                state = apply_action(state, Action.play([(m.origin, m.destination) for m in play.moves]))
            else:
                break
    return found


def with_cube_setting(state: MatchState, rng: random.Random) -> MatchState:
    """The position under random rules, score and cube."""
    roller = state.turn
    if rng.random() < 0.45:
        jacoby, beavers = rng.random() < 0.5, rng.random() < 0.5
        rules = MatchRules(find_variant("MP"), 0, jacoby=jacoby, beavers=beavers)
        value, owner = rng.choice(((1, None), (1, None), (2, roller), (4, roller), (2, None)))
        return replace(state, rules=rules, cube_value=value, cube_owner=owner)
    length = rng.choice(LENGTHS)
    rules = MatchRules(find_variant("BP"), length)
    scores = [rng.randrange(length), rng.randrange(length)]
    if rng.random() < 0.2:  # post-Crawford: one side a point from the match
        scores[rng.randrange(2)] = length - 1
    if scores[0] == scores[1] == length - 1:
        scores[1] -= 1
    value, owner = 1, None
    if rng.random() < 0.35:
        value, owner = 2, roller
    return replace(state, rules=rules, score=PerSide(*scores), crawford=False,
                   cube_value=value, cube_owner=owner)


def gnubg_session(state: MatchState, plies: int) -> None:
    rules = state.rules
    for command in SETUP:
        gnubg_command(command)
    if rules.money:
        gnubg_command(f"set jacoby {'on' if rules.jacoby else 'off'}")
        gnubg_command("new session")
    else:
        gnubg_command(f"new match {rules.match_length}")
    gnubg_command(f"set beavers {1 if rules.beavers else 0}")
    gnubg_command(f"set evaluation cubedecision eval plies {plies}")
    gnubg_command(f"set evaluation chequerplay eval plies {plies}")
    gnubg_command(f"set matchid {state.match_id()}")
    gnubg_command(f"set board {state.position.id}")


def analysis(state: MatchState, plies: int) -> dict[str, object] | None:
    """gnubg's cube analysis; None where it holds the cube dead ("You cannot double": a single
    win already gives the roller the match), which the bots' own tests cover."""
    gnubg_session(state, plies)
    text = gnubg_command("hint")
    if not text.strip() or "cannot double" in text:
        return None
    equities = {}
    for label, value in EQUITY.findall(text):
        key = "no_double" if label.startswith("No") else "double_pass" if label.endswith("pass") else "double_take"
        equities[key] = float(value)
    proper = PROPER.search(text)
    assert proper is not None and len(equities) == 3, (text, state.match_id(), state.rules, state.score, state.cube_value, state.cube_owner, state.turn)
    answer: dict[str, object] = {**equities, "proper": proper.group(1)}
    if state.rules.beavers and state.cube_value * 4 <= MAX_CUBE:
        played_on = replace(state, cube_value=state.cube_value * 4, cube_owner=state.turn.other)
        gnubg_session(played_on, plies)
        rows = EVAL_ROW.findall(gnubg_command("eval"))
        answer["after_beaver"] = float(rows[-1].split()[-1])
    return answer


def main() -> None:
    rng = random.Random(SEED)
    positions = self_play_positions(rng, CASES * 4)
    rng.shuffle(positions)
    cases = []
    dead = 0
    for position in positions:
        if len(cases) == CASES:
            break
        state = with_cube_setting(position, rng)
        if not state.can_double():
            continue
        if evaluate(state.position).win < 0.55 and rng.random() < 0.8:
            continue
        answers = {str(plies): analysis(state, plies) for plies in (0, 2)}
        if None in answers.values():
            dead += 1
            continue
        cases.append({"state": state_to_dict(state), "gnubg": answers})
        print(len(cases), end="\r", file=sys.stderr)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(cases, indent=None, separators=(",", ":")).replace('},{"state"', '},\n{"state"') + "\n")
    print(f"{len(cases)} cases written to {OUT.relative_to(ROOT)} ({dead} dead cubes left out)")


if __name__ == "__main__":
    main()
