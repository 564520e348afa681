"""Generate GNU Backgammon's own analysis of a few known games, as its text export, for the tests
that hold the site's stored figures to it (tests/gnubg_analysis/test_gnubg_export_figures.py).

Run once by hand from the repository root (under a minute):

    .venv/bin/python tools/gen_gnubg_exports.py

Each game is a random legal one (a fixed seed, the first from it that fits the case), exported by
the engine as .mat and analysed by gnubg's ``analyse match`` at 0-ply under the game's rules, in a
process of its own (``analysis.gnubg_cube.gnubg_export_text``, as the worker runs it): a money
game without the Jacoby rule and beavers, one with both (no beaver taken, so every cube decision
is rated), and a three-point match (cube actions, the Crawford game); each with a cube action
and a bear-off with a choice. It writes
tests/gnubg_analysis/data/gnubg_exports.json (per game its rules, seed and actions) and gnubg's
export of each game as tests/gnubg_analysis/data/gnubg_exports/NAME.txt, without the board
diagrams (each block keeps its Position ID and Match ID).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests/engine")]

from random_play import random_record

from analysis.gnubg_cube import gnubg_export_text
from backgammon.engine import (
    Action,
    ActionKind,
    MatchRules,
    PerSide,
    apply_action,
    export_mat,
    find_variant,
    new_match,
)

DATA = ROOT / "tests/gnubg_analysis/data"
OUT = DATA / "gnubg_exports.json"
EXPORTS = DATA / "gnubg_exports"
# name: (variant, length, Jacoby, beavers, first seed, how often a player who may double does)
CASES = {
    "money-plain": ("MP", 0, False, False, 10, 0.03),
    "money-jacoby-beavers": ("MP", 0, True, True, 10, 0.03),
    "match-3": ("BP", 3, False, False, 4, 0.2),
}
_DIAGRAM = re.compile(r"^(?: [|+]|[v^]\|).*\n", re.MULTILINE)


def fits(rules: MatchRules, actions: list[Action]) -> bool:
    """A case worth keeping: some cube action, a bear-off with a choice, and no beaver (gnubg's
    .mat reader records a beaver as a redouble, so the site leaves the cube of such a game
    unrated)."""
    kinds = {action.kind for action in actions}
    if ActionKind.DOUBLE not in kinds or ActionKind.BEAVER in kinds:
        return False
    state = new_match(rules)
    for action in actions:
        plays = state.legal_plays() if action.kind is ActionKind.PLAY else []
        if len(plays) > 1 and any(move.destination == 0 for play in plays for move in play.moves):
            return True
        state = apply_action(state, action)
    return False


def main() -> None:
    EXPORTS.mkdir(exist_ok=True)
    cases: list[dict[str, Any]] = []
    for name, (code, length, jacoby, beavers, seed, double_rate) in CASES.items():
        rules = MatchRules(find_variant(code), length, jacoby=jacoby, beavers=beavers)
        while not fits(rules, actions := random_record(rules, seed, double_rate=double_rate)[0]):
            seed += 1
        text = gnubg_export_text(export_mat(rules, actions, PerSide("Black", "White")), rules)
        (EXPORTS / f"{name}.txt").write_text(_DIAGRAM.sub("", text))
        cases.append({"name": name, "variant": code, "match_length": length, "jacoby": jacoby,
                      "beavers": beavers, "seed": seed, "actions": [action.to_dict() for action in actions]})
        print(f"{name}: seed {seed}, {len(actions)} actions", flush=True)
    OUT.write_text(json.dumps(cases, indent=0) + "\n")
    print(f"wrote {OUT} and {len(cases)} exports in {EXPORTS}")


if __name__ == "__main__":
    main()
