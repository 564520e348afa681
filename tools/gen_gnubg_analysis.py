"""Generate GNU Backgammon's own analysis of two known short matches, for the analysis test.

Run once by hand from the repository root (about ten seconds):

    .venv/bin/python tools/gen_gnubg_analysis.py

Each match is a random legal one (fixed seeds; the third one doubles, takes and passes), exported by the engine as .mat, imported into gnubg's text interface, analysed there with
``analyse match`` at 0-ply (the site's setting) and summarised by ``show statistics match``. It
writes tests/gnubg_analysis/data/gnubg_analysis.json: per match the rules, the actions
(Action.to_dict) and gnubg's per-player numbers (unforced moves, error total and rate, luck total;
the cube actions taken and the equity their wrong doubles, takes and passes lost).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from gnubg_text import gnubg_command

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests/engine")]

from random_play import random_record

from backgammon.engine import MatchRules, PerSide, export_mat, find_variant

OUT = ROOT / "tests/gnubg_analysis/data/gnubg_analysis.json"
# (variant, length), seed, how often a player who may double does: the third has cube actions.
MATCHES = ((("BP", 1), 3, 0.0), (("BP", 3), 11, 0.0), (("BP", 3), 4, 0.2))
NAMES = PerSide("alice", "bob")
SETUP = (
    "set threads 1",  # the analysis otherwise waits on worker threads that never report here
    "set display off",
    "set player 0 human",
    "set player 1 human",
    "set automatic roll off",
    "set automatic move off",
)
ANALYSIS = (
    "set analysis chequerplay evaluation plies 0",
    "set analysis cubedecision evaluation plies 0",
    "set analysis luckanalysis plies 0",
    "analyse match",
)
ROWS = {
    "unforced": r"Unforced moves\s+(\d+)\s+(\d+)",
    "equity_lost": r"Chequerplay statistics.*?Error total EMG \(MWC\)\s+(-?[\d.]+) \([^)]*\)\s+(-?[\d.]+)",
    "error_rate": r"Chequerplay statistics.*?Error rate mEMG \(MWC\)\s+(-?[\d.]+) +\([^)]*\)\s+(-?[\d.]+)",
    "luck": r"Luck total EMG \(MWC\)\s+([-+]?[\d.]+) \([^)]*\)\s+([-+]?[\d.]+)",
}

# The cube actions taken, and the wrong ones among them (a missed double is no action taken).
CUBE_ROWS = ("Doubles", "Takes", "Passes", "Wrong doubles below DP (EMG (MWC))",
             "Wrong doubles above TG (EMG (MWC))", "Wrong takes (EMG (MWC))", "Wrong passes (EMG (MWC))")


def gnubg_statistics(mat_text: str) -> dict[str, dict[str, float]]:
    with tempfile.NamedTemporaryFile("w", suffix=".mat") as mat:
        mat.write(mat_text)
        mat.flush()
        said = gnubg_command(f"import mat {mat.name}")
        assert "invalid" not in said.lower(), said
        for command in ANALYSIS:
            gnubg_command(command)
        table = gnubg_command("show statistics match")
    players: dict[str, dict[str, float]] = {"black": {}, "white": {}}
    for key, pattern in ROWS.items():
        found = re.search(pattern, table, re.DOTALL)
        assert found, (key, table)
        # gnubg's first column is the .mat file's left player: the engine writes Black there.
        # It shows errors as negative numbers; the site counts equity lost as positive.
        black, white = (float(value) for value in found.groups())
        sign = 1 if key in ("luck", "unforced") else -1
        players["black"][key], players["white"][key] = sign * black, sign * white
    for side in players.values():
        side["cube_actions"], side["cube_lost"] = 0, 0.0
    for row in CUBE_ROWS:
        found = re.search(rf"^{re.escape(row)}\s+(.*)$", table, re.MULTILINE)
        assert found, (row, table)
        cells = re.findall(r"(\d+)(?: \((-?[\d.]+) \(\s*-?[\d.]+%\)\))?", found.group(1))
        for side, (count, lost) in zip(("black", "white"), cells, strict=True):
            if row in ("Doubles", "Takes", "Passes"):
                players[side]["cube_actions"] += int(count)
            elif lost:
                players[side]["cube_lost"] = round(players[side]["cube_lost"] - float(lost), 3)
    return players


def main() -> None:
    for command in SETUP:
        gnubg_command(command)
    cases = []
    for (code, length), seed, double_rate in MATCHES:
        rules = MatchRules(find_variant(code), length)
        actions, _ = random_record(rules, seed, double_rate=double_rate)
        stats = gnubg_statistics(export_mat(rules, actions, NAMES))
        cases.append({"variant": code, "match_length": length, "seed": seed,
                      "actions": [action.to_dict() for action in actions], "gnubg": stats})
    OUT.write_text(json.dumps(cases, indent=0) + "\n")
    print(f"wrote {OUT}: {len(cases)} matches")


if __name__ == "__main__":
    main()
