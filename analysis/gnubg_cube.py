"""Cube decisions as GNU Backgammon itself rates them: its text analysis of the match's .mat.

The Python binding evaluates checker plays but has no cube analysis, so the actual doubles, takes
and passes are read from gnubg's own ``analyse match`` (0-ply, as the checker plays), exported as
text by ``analysis.gnubg_export`` in a process of its own. Each decision there shows who acted
(``* alice doubles``, ``* bob accepts``, ``* bob rejects``), an ``Alert: wrong take (-0.562)!``
when it lost equity, and gnubg's ``Proper cube action``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["CubeMismatch", "gnubg_cube_verdicts"]

_ACTED = re.compile(r"^\* \S+ (doubles|accepts|rejects)\s*$", re.MULTILINE)
_ALERT = re.compile(r"^Alert: wrong (?:double|take|pass) \((-?[\d.]+)\)", re.MULTILINE)
_PROPER = re.compile(r"^Proper cube action: (.+?)\s*$", re.MULTILINE)
_KIND = {"doubles": "double", "accepts": "take", "rejects": "drop"}
TIMEOUT_SECONDS = 300


class CubeMismatch(ValueError):
    """gnubg's record of the cube actions does not line up with the log's."""


def gnubg_cube_verdicts(mat_text: str) -> list[dict[str, Any]]:
    """Per actual cube action, in order: ``{"kind", "error", "proper"}`` (error as equity lost)."""
    with tempfile.TemporaryDirectory() as folder:
        mat, out = Path(folder) / "match.mat", Path(folder) / "analysis.txt"
        mat.write_text(mat_text)
        subprocess.run([sys.executable, "-m", "analysis.gnubg_export", str(mat), str(out)],
                       capture_output=True, check=True, timeout=TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
        return parse_cube_verdicts(out.read_text(errors="replace"))


def parse_cube_verdicts(text: str) -> list[dict[str, Any]]:
    verdicts = []
    for block in text.split("\nMove number ")[1:]:
        acted = _ACTED.search(block)
        if acted is None:
            continue
        alert, proper = _ALERT.search(block), _PROPER.search(block)
        verdicts.append({
            "kind": _KIND[acted.group(1)],
            "error": abs(float(alert.group(1))) if alert else 0.0,
            "proper": proper.group(1) if proper else "",
        })
    return verdicts
