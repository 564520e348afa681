"""Generate GNU Backgammon's own analysis of four known short matches, for the analysis tests.

Run once by hand from the repository root (about ten seconds):

    .venv/bin/python tools/gen_gnubg_analysis.py

Each match is a random legal one (fixed seeds; the third one doubles, takes and passes, the
fourth misses doubles), exported by the engine as .mat, imported into gnubg's text interface, analysed there with
``analyse match`` at 0-ply (the site's setting) and summarised by ``show statistics match``. It
writes tests/gnubg_analysis/data/gnubg_analysis.json: per match the rules, the actions
(Action.to_dict) and gnubg's per-player numbers (unforced moves, error total and rate, luck total;
the cube actions taken, the cube decisions rated, the missed doubles and the cube error total).

It also writes tests/gnubg_analysis/data/gnubg_export_excerpt.txt: a few blocks of the site's own
text export (analysis.gnubg_export) of the third and fourth matches, for the parser's unit test.
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

from analysis.gnubg_cube import gnubg_export_text
from backgammon.engine import MatchRules, PerSide, export_mat, find_variant

OUT = ROOT / "tests/gnubg_analysis/data/gnubg_analysis.json"
EXCERPT = ROOT / "tests/gnubg_analysis/data/gnubg_export_excerpt.txt"
# (variant, length), seed, how often a player who may double does: the third has cube actions,
# the fourth two missed doubles (a player rolls where gnubg doubles).
MATCHES = ((("BP", 1), 3, 0.0), (("BP", 3), 11, 0.0), (("BP", 3), 4, 0.2), (("BP", 3), 2, 0.0))
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

# The cube actions taken, and the rolls where gnubg would have doubled (no action taken).
CUBE_ROWS = ("Doubles", "Takes", "Passes", "Missed doubles below CP (EMG (MWC))",
             "Missed doubles above CP (EMG (MWC))")
# Every decision gnubg rated (actions and rolls alike), and what the wrong ones lost in all.
CUBE_TOTALS = {"cube_decisions": r"^Total cube decisions\s+(\d+)\s+(\d+)",
               "cube_lost": r"Cube statistics.*?Error total EMG \(MWC\)\s+(-?[\d.]+) \([^)]*\)\s+(-?[\d.]+)"}


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
        side["cube_actions"], side["missed_doubles"] = 0, 0
    for row in CUBE_ROWS:
        found = re.search(rf"^{re.escape(row)}\s+(.*)$", table, re.MULTILINE)
        assert found, (row, table)
        cells = re.findall(r"(\d+)(?: \((-?[\d.]+) \(\s*-?[\d.]+%\)\))?", found.group(1))
        for side, (count, _) in zip(("black", "white"), cells, strict=True):
            players[side]["missed_doubles" if row.startswith("Missed") else "cube_actions"] += int(count)
    for key, pattern in CUBE_TOTALS.items():
        found = re.search(pattern, table, re.MULTILINE | re.DOTALL)
        assert found, (key, table)
        black, white = (float(value) for value in found.groups())
        players["black"][key], players["white"][key] = (
            (int(black), int(white)) if key == "cube_decisions" else (-black, -white))
    return players


def excerpt(text: str) -> str:
    """The opening block, the first no-double roll, and every cube action and missed double."""
    blocks = text.split("\nMove number ")[1:]
    first_no_double = next(b for b in blocks if "Cube analysis" in b and "Alert: missed" not in b)
    keep = [b for b in blocks if b is blocks[0] or b is first_no_double or "Alert: missed" in b
            or re.search(r"^\* \S+ (doubles|accepts|rejects)", b, re.MULTILINE)]
    return "".join(f"\nMove number {block}" for block in keep)


def main() -> None:
    for command in SETUP:
        gnubg_command(command)
    cases, excerpts = [], []
    for number, ((code, length), seed, double_rate) in enumerate(MATCHES, start=1):
        rules = MatchRules(find_variant(code), length)
        actions, _ = random_record(rules, seed, double_rate=double_rate)
        stats = gnubg_statistics(export_mat(rules, actions, NAMES))
        if number >= 3:
            excerpts.append(excerpt(gnubg_export_text(export_mat(rules, actions, PerSide("Black", "White")), rules)))
        cases.append({"variant": code, "match_length": length, "seed": seed,
                      "actions": [action.to_dict() for action in actions], "gnubg": stats})
    OUT.write_text(json.dumps(cases, indent=0) + "\n")
    EXCERPT.write_text("".join(excerpts))
    print(f"wrote {OUT}: {len(cases)} matches, and {EXCERPT}")


if __name__ == "__main__":
    main()
