"""Generate GNU Backgammon's cube verdicts on a money game played without the Jacoby rule and
without beavers, judged under those rules and under gnubg's defaults, for the analysis tests.

Run once by hand from the repository root (a few seconds):

    .venv/bin/python tools/gen_gnubg_money_rules.py

The game is a random legal one (a fixed seed), exported by the engine as .mat and analysed by
gnubg's text interface (``analyse match``, 0-ply as the site), each time in a fresh process, once
after ``set jacoby off``, ``set beavers 0`` (the rules it was played under) and once with gnubg's
own defaults (Jacoby on, 3 beavers), which is what the site's analysis used to apply to every
money game. It writes tests/gnubg_analysis/data/gnubg_money_rules.json: the rules, the actions
(Action.to_dict), both lists of gnubg's decisions (parse_cube_verdicts) and gnubg's marks of
the checker plays under the played rules ("doubtful", "bad", "very bad" or null, in order).
"""

from __future__ import annotations

import json
import multiprocessing
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests/engine")]

from random_play import random_record

from analysis.gnubg_cube import parse_cube_verdicts
from analysis.gnubg_export import COMMANDS as ANALYSIS_SETUP
from backgammon.engine import ActionKind, MatchRules, PerSide, export_mat, find_variant

OUT = ROOT / "tests/gnubg_analysis/data/gnubg_money_rules.json"
VARIANT, SEED, DOUBLE_RATE = "MP", 10, 0.03
SETUP = ANALYSIS_SETUP  # gnubg set up as the site's analysis sets it up (analysis/gnubg_export.py)
PLAYED_RULES = ("set jacoby off", "set beavers 0", "set automatic doubles 0")
GNUBG_DEFAULTS = ("set jacoby on", "set beavers 3")


_TO_PLAY = re.compile(r"\A\d+:\s+\S+ to play \d\d\s*$", re.MULTILINE)
_MOVE_ALERT = re.compile(r"^Alert: (doubtful|bad|very bad) move \(\s*(-?[\d.]+)\)", re.MULTILINE)


def move_marks(text: str) -> list[str | None]:
    """gnubg's mark of each checker play, in order (None for an unmarked one)."""
    marks = []
    for block in text.split("\nMove number ")[1:]:
        if _TO_PLAY.search(block):
            alert = _MOVE_ALERT.search(block)
            marks.append(alert.group(1) if alert else None)
    return marks


def gnubg_verdicts(mat_text: str, rules: tuple[str, ...]) -> tuple[list[dict[str, Any]], list[str | None]]:
    """gnubg's decisions on the match under ``rules``, and its marks of the checker plays, in a
    process of its own."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_verdicts_here, (mat_text, rules))


def _verdicts_here(mat_text: str, rules: tuple[str, ...]) -> tuple[list[dict[str, Any]], list[str | None]]:
    from gnubg_text import gnubg_command

    with tempfile.TemporaryDirectory() as folder:
        mat, out = Path(folder) / "match.mat", Path(folder) / "analysis.txt"
        mat.write_text(mat_text)
        for command in (*SETUP, *rules, f"import mat {mat}", "analyse match", f"export match text {out}"):
            gnubg_command(command)
        later = sorted(Path(folder).glob("analysis_*.txt"), key=lambda path: int(path.stem.split("_")[1]))
        text = "".join(path.read_text(errors="replace") for path in [out, *later])
        return parse_cube_verdicts(text), move_marks(text)


def main() -> None:
    rules = MatchRules(find_variant(VARIANT), 0)  # money: no Jacoby rule, no beavers
    actions, _ = random_record(rules, SEED, double_rate=DOUBLE_RATE)
    assert not any(action.kind is ActionKind.BEAVER for action in actions)
    mat_text = export_mat(rules, actions, PerSide("Black", "White"))
    (played, marks), (defaults, _) = gnubg_verdicts(mat_text, PLAYED_RULES), gnubg_verdicts(mat_text, GNUBG_DEFAULTS)
    case = {"variant": VARIANT, "match_length": 0, "jacoby": False, "beavers": False, "seed": SEED,
            "actions": [action.to_dict() for action in actions],
            "gnubg_played_rules": played, "gnubg_defaults": defaults, "gnubg_move_marks": marks}
    OUT.write_text(json.dumps(case, indent=0) + "\n")
    differ = sum(a.get("proper") != b.get("proper") for a, b in zip(played, defaults, strict=True))
    print(f"wrote {OUT}: {len(actions)} actions, {len(played)} decisions, {differ} proper actions differ")


if __name__ == "__main__":
    main()
