"""Cube decisions as GNU Backgammon itself rates them: its text analysis of the match's .mat.

The Python binding evaluates checker plays but has no cube analysis, so the cube decisions are
read from gnubg's own ``analyse match`` (0-ply, as the checker plays), exported as text by
``analysis.gnubg_export`` in a process of its own. Its export has one block per decision
(``Move number 7:  alice to play 31``, ``... on roll, cube decision?``, ``... doubles to 2``):

- an actual cube action shows who acted (``* alice doubles``, ``* bob accepts``,
  ``* bob rejects``) and an ``Alert: wrong take (-0.562)!`` when it lost equity;
- a roll whose player could have doubled carries a ``Cube analysis`` of that choice (rolling:
  a "no double"), with ``Alert: missed double (-0.154)!`` when rolling lost equity.

Both show gnubg's ``Proper cube action``. The same export gives the checker plays' verdicts, the
luck and the players' statistics, which ``analysis.gnubg_record`` reads.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from backgammon.engine.game import MatchRules

__all__ = ["CubeMismatch", "gnubg_export_text", "parse_cube_verdicts", "rules_arguments"]

_ACTED = re.compile(r"^\* \S+ (doubles|accepts|rejects)\s*$", re.MULTILINE)
_TO_PLAY = re.compile(r"\A\d+:\s+(\S+) to play (\d)(\d)\s*$", re.MULTILINE)
_WRONG = re.compile(r"^Alert: wrong (?:double|take|pass) \((-?[\d.]+)\)", re.MULTILINE)
_MISSED = re.compile(r"^Alert: missed double \((-?[\d.]+)\)", re.MULTILINE)
_PROPER = re.compile(r"^Proper cube action: (.+?)\s*$", re.MULTILINE)
_CUBE_ANALYSIS = re.compile(r"^Cube analysis$", re.MULTILINE)
_KIND = {"doubles": "double", "accepts": "take", "rejects": "drop"}
TIMEOUT_SECONDS = 300


class CubeMismatch(ValueError):
    """gnubg's record of the decisions does not line up with the log's."""


def rules_arguments(rules: MatchRules) -> list[str]:
    """The game's rules as ``analysis.gnubg_export`` takes them: gnubg judges every cube decision
    by them (a beaver is a proper answer only where beavers were allowed, gammons count before a
    double only without the Jacoby rule). A single game (length 0) is a money session to gnubg,
    with the options it was played with (none for a variant without them). The site allows one
    beaver and no raccoon, and plays the Crawford rule in every match with a cube."""
    if rules.match_length == 0:
        return [f"jacoby={'on' if rules.jacoby else 'off'}", f"beavers={1 if rules.beavers else 0}",
                f"automatic-doubles={rules.automatic_doubles}"]
    return [f"crawford={'on' if rules.variant.uses_cube else 'off'}"]


def gnubg_export_text(mat_text: str, rules: MatchRules) -> str:
    """gnubg's analysis of the match as text, every game of it (``analysis.gnubg_export``),
    under the game's own rules."""
    with tempfile.TemporaryDirectory() as folder:
        mat, out = Path(folder) / "match.mat", Path(folder) / "analysis.txt"
        mat.write_text(mat_text)
        subprocess.run([sys.executable, "-m", "analysis.gnubg_export", str(mat), str(out),
                        *rules_arguments(rules)],
                       capture_output=True, check=True, timeout=TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
        # gnubg writes one file per game: analysis.txt, then analysis_002.txt, analysis_003.txt...
        later = sorted(Path(folder).glob("analysis_*.txt"), key=lambda path: int(path.stem.split("_")[1]))
        return "".join(path.read_text(errors="replace") for path in [out, *later])


def parse_cube_verdicts(text: str) -> list[dict[str, Any]]:
    """One dict per double, take, pass and roll, in order (errors as equity lost, positive).

    A cube action: ``{"kind", "error", "proper"}``. A roll: ``{"kind": "roll", "player",
    "dice"}``, plus ``error`` and ``proper`` when gnubg rated the choice to roll rather than
    double (the player could double), else ``rated`` False. Other blocks are left out.
    """
    verdicts: list[dict[str, Any]] = []
    for block in text.split("\nMove number ")[1:]:
        acted, rolled = _ACTED.search(block), _TO_PLAY.search(block)
        if acted is not None:
            verdicts.append({"kind": _KIND[acted.group(1)], **_verdict(block, _WRONG)})
        elif rolled is not None:
            player, first, second = rolled.groups()
            roll: dict[str, Any] = {"kind": "roll", "player": player,
                                    "dice": sorted((int(first), int(second))),
                                    "rated": _CUBE_ANALYSIS.search(block) is not None}
            if roll["rated"]:
                roll.update(_verdict(block, _MISSED))
            verdicts.append(roll)
    return verdicts


def _verdict(block: str, alert_pattern: re.Pattern[str]) -> dict[str, Any]:
    alert, proper = alert_pattern.search(block), _PROPER.search(block)
    return {"error": abs(float(alert.group(1))) if alert else 0.0,
            "proper": proper.group(1) if proper else ""}
