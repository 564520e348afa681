"""gnubg's marks of a decision and the per-player summary: pure, and free of gnubg itself, so the
web processes (the replay page, the API) compute them from a stored analysis without loading it.

gnubg marks a decision by the equity it lost (EMG) against its default thresholds, in its own
words (gnubg's ``Skill()``: strictly more than the threshold): more than 0.03 "doubtful", more
than 0.06 "bad", more than 0.12 "very bad". They are computed when read, so a stored analysis is
shown with the same marks as a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backgammon.engine import Side

__all__ = ["BAD", "DOUBTFUL", "FIGURES_SOURCE", "VERY_BAD", "mark", "play_mark", "player_summary"]

DOUBTFUL, BAD, VERY_BAD = 0.03, 0.06, 0.12
"""gnubg's default thresholds (``set analysis threshold doubtful|bad|verybad``)."""

FIGURES_SOURCE = "gnubg export"
"""``results["figures"]`` of an analysis whose figures were read from gnubg's own export, with
its statistics of each player; an older analysis computed its own and has no such key, so its
summary is recomputed from its entries (with today's marks)."""


def mark(error: float | None) -> str | None:
    """gnubg's word for a decision that lost ``error`` (positive EMG); None for no mark."""
    if error is None:
        return None
    if error > VERY_BAD:
        return "very bad"
    if error > BAD:
        return "bad"
    if error > DOUBTFUL:
        return "doubtful"
    return None


def play_mark(entry: dict[str, Any]) -> str | None:
    """The mark of a stored play: gnubg's own word when the analysis read it from gnubg's
    export (it marks the unrounded error), else the mark of the stored error."""
    return entry["mark"] if "mark" in entry else mark(entry.get("equity_loss"))


def player_summary(entries: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per side: unforced plays, equity lost, error rate in mEMG per unforced play (as gnubg
    reports it), luck, a performance rating in eXtreme Gammon's scale (PR = 500 x equity lost
    per unforced decision: half the mEMG rate), and the plays gnubg marks: ``doubtful``,
    ``errors`` (marked bad) and ``blunders`` (marked very bad).
    The error rate and PR count checker plays; cube decisions (doubles, takes, passes, and
    rolling where a double was possible: a "no double") are counted and summed apart as
    ``cube_decisions`` and ``cube_lost`` (gnubg's verdicts), with ``missed_doubles``."""
    summary = {}
    for side in Side:
        plays = [e for e in entries if e["kind"] == "play" and e["side"] == side and e["choices"] > 1]
        lost = sum(e["equity_loss"] for e in plays)
        per_move = lost / len(plays) if plays else 0.0
        marks = [play_mark(e) for e in plays]
        summary[side.name.lower()] = {
            "unforced": len(plays),
            "equity_lost": round(lost, 4),
            "error_rate": round(1000 * per_move, 1),
            "pr": round(500 * per_move, 1),
            "doubtful": marks.count("doubtful"),
            "errors": marks.count("bad"),
            "blunders": marks.count("very bad"),
            "cube_decisions": sum(1 for e in entries if "cube_error" in e and e["side"] == side),
            "cube_lost": round(sum(e.get("cube_error", 0.0) for e in entries if e["side"] == side), 4),
            "missed_doubles": sum(1 for e in entries if e["kind"] == "roll" and e["side"] == side
                                  and e.get("cube_error", 0.0) > 0),
            "luck": round(sum(e.get("luck", 0.0) for e in entries if e["kind"] == "roll" and e["side"] == side), 3),
        }
    return summary
