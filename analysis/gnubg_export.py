"""``python -m analysis.gnubg_export MATCH.mat OUT.txt``: GNU Backgammon's own 0-ply analysis of
a match, written as its text export (every decision with its cube analysis and alerts).

A process of its own for each match: gnubg keeps one global match, and an import can leave it
waiting for an answer (see tools/gnubg_import.py), which must not stall the worker.
"""

from __future__ import annotations

import sys

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

COMMANDS = (
    "set threads 1",  # analysis threads wait for a user interface that is not there
    "set display off",
    "set player 0 human",
    "set player 1 human",
    "set analysis chequerplay evaluation plies 0",
    "set analysis cubedecision evaluation plies 0",
)


def main() -> None:
    mat, out = sys.argv[1], sys.argv[2]
    for command in COMMANDS:
        gnubg.command(command)
    gnubg.command(f"import mat {mat}")
    gnubg.command("analyse match")
    gnubg.command(f"export match text {out}")


if __name__ == "__main__":
    main()
