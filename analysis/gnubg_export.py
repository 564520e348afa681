"""``python -m analysis.gnubg_export MATCH.mat OUT.txt [RULE...]``: GNU Backgammon's own 0-ply
analysis of a match, written as its text export (every decision with its cube analysis and alerts,
each play ranked against gnubg's best, the luck of each roll, and each player's statistics).

A process of its own for each match: gnubg keeps one global match, and an import can leave it
waiting for an answer (see tools/gnubg_import.py), which must not stall the worker.

The RULE arguments are ``jacoby=on|off``, ``beavers=N``, ``automatic-doubles=N`` and
``crawford=on|off`` (``analysis.gnubg_cube.rules_arguments`` writes them from the game's rules).
gnubg ignores the Jacoby and beaver tags of a ``.mat`` and gives a new session its own defaults
(Jacoby on, 3 beavers), so a money game played without them was judged under rules nobody
played: they are set here, before the import creates the session.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

COMMANDS = (
    "set threads 1",  # analysis threads wait for a user interface that is not there
    "set display off",
    "set player 0 human",
    "set player 1 human",
    "set analysis chequerplay evaluation plies 0",
    "set analysis cubedecision evaluation plies 0",
    "set analysis luck on",
    "set analysis luckanalysis plies 0",
    "set output mwc off",  # equities in EMG in match play too, as the site stores them
)
_ON_OFF = {"on", "off"}
RULE_COMMANDS = {
    # argument name: (gnubg's command, whether a value is valid)
    "jacoby": ("set jacoby", _ON_OFF.__contains__),
    "beavers": ("set beavers", str.isdigit),
    "automatic-doubles": ("set automatic doubles", str.isdigit),
    "crawford": ("set automatic crawford", _ON_OFF.__contains__),
}


def rule_commands(arguments: Sequence[str]) -> list[str]:
    """gnubg's commands for ``name=value`` rule arguments; a ValueError for any other."""
    commands = []
    for argument in arguments:
        name, _, value = argument.partition("=")
        if name not in RULE_COMMANDS or not RULE_COMMANDS[name][1](value):
            raise ValueError(f"not a rule gnubg_export knows: {argument!r}")
        commands.append(f"{RULE_COMMANDS[name][0]} {value}")
    return commands


def main() -> None:
    mat, out, rules = sys.argv[1], sys.argv[2], rule_commands(sys.argv[3:])
    for command in (*COMMANDS, *rules):  # the rules before the import: it starts the session
        gnubg.command(command)
    gnubg.command(f"import mat {mat}")
    gnubg.command("analyse match")
    gnubg.command(f"export match text {out}")


if __name__ == "__main__":
    main()
