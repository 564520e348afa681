"""gnubg's own figures for the checker plays, the luck and the players, read from its text export.

``analysis.gnubg_export`` runs gnubg's ``analyse match`` (0-ply) and writes its text export; this
reads back what it says of each roll and of each player, so the site stores gnubg's numbers
rather than numbers of its own that would have to agree with them. A roll's block reads::

    Move number 2:  Black to play 11
    ...
    * Black moves 24/21* 24/23
    ...
    Rolled 11 (+0.167):
         1. Cubeful 0-ply    6/4*(2)                      Eq.: +0.237
    ...
    *    5. Cubeful 0-ply    24/21* 24/23                 Eq.: +0.119 (-0.118)

(the luck of the roll in brackets, gnubg's best plays ranked, the one played starred with what it
lost; ``*    Cannot move`` for a roll without a legal play). The end of each game, and of a
match of several games, has its statistics table, one column per player. Equities are EMG, as ``set output mwc off`` makes gnubg print them in match play too.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ExportMismatch", "parse_roll_verdicts", "parse_statistics"]

_TO_PLAY = re.compile(r"\A\d+:\s+(\S+) to play (\d)(\d)\s*$", re.MULTILINE)
_ROLLED = re.compile(r"^Rolled (\d)(\d)(?: \(([-+]?[\d.]+)\))?:\s*$", re.MULTILINE)
_RANKED = re.compile(
    r"^(?P<played>\*)?\s+(?:(?:\d+\.|\?\?)\s+\S+ \S+\s+(?P<move>\S.*?)\s+Eq\.:\s*[-+]?[\d.]+"
    r"(?:\s*\((?P<lost>[-+]?[\d.]+)\))?|(?P<none>Cannot move))\s*$",
    re.MULTILINE,
)
_PLAYERS = re.compile(r"^Player\s+(\S+)\s+(\S+)\s*$", re.MULTILINE)
_MOVE_ALERT = re.compile(r"^Alert: (doubtful|bad|very bad) move", re.MULTILINE)
_SECTIONS = ("Chequerplay statistics", "Luck statistics", "Cube statistics", "Overall statistics")
_NUMBER = r"([-+]?[\d.]+)"
# (section, row label, our name): the figures the site keeps from gnubg's table. The second
# figure's unit is "(MWC)" in match play, "(Points)" in money play; the site keeps EMG.
_ROWS = (
    ("Chequerplay statistics", r"Unforced moves", "unforced"),
    ("Chequerplay statistics", r"Moves marked doubtful", "doubtful"),
    ("Chequerplay statistics", r"Moves marked bad", "errors"),
    ("Chequerplay statistics", r"Moves marked very bad", "blunders"),
    ("Chequerplay statistics", r"Error total EMG \(\w+\)", "equity_lost"),
    ("Chequerplay statistics", r"Error rate mEMG \(\w+\)", "error_rate"),
    ("Luck statistics", r"Luck total EMG \(\w+\)", "luck"),
)


class ExportMismatch(ValueError):
    """gnubg's export cannot be read as expected, or does not line up with the game's log."""


def parse_roll_verdicts(text: str) -> list[dict[str, Any]]:
    """One dict per roll block of the export (a roll a play or a dance followed), in order:
    ``player``, ``dice`` (sorted), ``luck`` (gnubg's luck of the roll for its player, EMG; None
    when gnubg gave none), ``error`` (EMG the play lost against gnubg's best, positive),
    ``best`` (gnubg's best play in its notation; None for a dance) and ``mark`` (gnubg's alert
    word for the play, or None)."""
    verdicts = []
    for block in text.split("\nMove number ")[1:]:
        to_play = _TO_PLAY.search(block)
        if to_play is None:
            continue  # a cube action or a resignation
        player, first, second = to_play.groups()
        rolled = _ROLLED.search(block)
        if rolled is None:
            raise ExportMismatch(f"no 'Rolled' line in gnubg's block of {player} to play {first}{second}")
        ranked = list(_RANKED.finditer(block, rolled.end()))
        played = [line for line in ranked if line["played"]]
        if not ranked or len(played) != 1:
            raise ExportMismatch(f"gnubg's ranked plays of {player} to play {first}{second} are unreadable")
        alert = _MOVE_ALERT.search(block)
        verdicts.append({
            "player": player,
            "dice": sorted((int(first), int(second))),
            "luck": None if rolled.group(3) is None else float(rolled.group(3)),
            "error": abs(float(played[0]["lost"] or 0.0)),
            "best": ranked[0]["move"],
            "mark": alert.group(1) if alert else None,
        })
    return verdicts


def parse_statistics(text: str) -> dict[str, dict[str, float]]:
    """The players' figures of the match from its last statistics table (the match's, or the
    only game's), by the players' names as gnubg's table heads its columns: ``unforced``,
    ``doubtful``, ``errors``, ``blunders`` (gnubg's marks of checker plays), ``equity_lost``
    and ``error_rate`` (checker plays, EMG and mEMG lost, positive) and ``luck`` (EMG); an
    ExportMismatch when the table is missing or unreadable."""
    start = max(text.rfind("\nMatch statistics"), text.rfind("\nGame statistics for game"))
    heading = _PLAYERS.search(text, start) if start >= 0 else None
    if heading is None:
        raise ExportMismatch("gnubg's export has no statistics table")
    names = heading.groups()
    sections = _split_sections(text[heading.end():])
    players: dict[str, dict[str, float]] = {name: {} for name in names}
    for section, label, key in _ROWS:
        found = re.search(rf"^{label}\s+{_NUMBER}(?:\s*\([^)]*\))?\s+{_NUMBER}",
                          sections.get(section, ""), re.MULTILINE)
        if found is None:
            raise ExportMismatch(f"no '{label}' row in gnubg's {section}")
        for name, value in zip(names, found.groups(), strict=True):
            number = float(value)
            # gnubg prints errors as negative equity; the site counts what was lost, positive.
            players[name][key] = -number if key in ("equity_lost", "error_rate") else number
    return players


def _split_sections(table: str) -> dict[str, str]:
    starts = sorted((table.find(f"\n{name}\n"), name) for name in _SECTIONS if f"\n{name}\n" in table)
    return {name: table[begin:(starts[i + 1][0] if i + 1 < len(starts) else len(table))]
            for i, (begin, name) in enumerate(starts)}
