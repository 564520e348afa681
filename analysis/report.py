"""A stored analysis as the API and the replay page read it: one place, so both say the same.

The figures are the worker's stored result (``analyse.analyse_match``); the marks and the
per-player summary are computed from it on reading (``marks``), the IDs of each decision from
replaying the log through the engine (milliseconds). No gnubg here: web processes never load it.
"""

from __future__ import annotations

import re
from typing import Any

from backgammon.engine import Side, encode_xgid
from backgammon.engine import match as engine_match
from backgammon.engine.actions import Action
from backgammon.engine.match import MatchState, apply_action
from backgammon.models import Game

from .marks import FIGURES_SOURCE, mark, play_mark, player_summary
from .models import GameAnalysis

__all__ = ["analysis_report", "cube_best", "decision_ids", "stored_summary"]

PLAYER_FIGURES = ("error_rate", "pr", "luck", "errors", "blunders")
_PROPER = re.compile(r"^\s*(?P<double>[^,]+?)\s*(?:,\s*(?P<answer>[a-z]+))?\s*(?:\(.*\))?\s*$")
_ANSWERS = {"take": "take", "pass": "drop", "beaver": "beaver"}


def decision_ids(state: MatchState) -> dict[str, str]:
    """The Position ID, Match ID and XGID of ``state``, paired as gnubg pairs them (the Position
    ID from gnubg's player on roll: the doubler's or resigner's side while an answer waits)."""
    return {"position_id": state.position_id(), "match_id": state.match_id(), "xgid": encode_xgid(state)}


def cube_best(kind: str, proper: str) -> str | None:
    """gnubg's proper cube action (``"No double, beaver (23.0%)"``, ``"Too good to redouble,
    pass"``) as the site's action for this decision: for a double or a roll where one was
    possible, ``double`` or ``roll``; for an answer, ``take``, ``drop`` or ``beaver``."""
    found = _PROPER.match(proper.lower())
    if found is None:
        return None
    if kind in ("double", "roll"):
        return "double" if found["double"] in ("double", "redouble") else "roll"
    return _ANSWERS.get(found["answer"] or "")


def stored_summary(analysis: GameAnalysis | None) -> dict[str, dict[str, Any]]:
    """Per side (``black``, ``white``), the summary of a finished analysis (else empty): as
    stored when its figures are gnubg's own statistics, else recomputed from its entries."""
    if analysis is None or analysis.status != GameAnalysis.Status.DONE:
        return {}
    entries = analysis.results.get("actions", [])
    if analysis.results.get("figures") == FIGURES_SOURCE or not entries:
        return dict(analysis.results.get("players", {}))
    return player_summary(entries)


def analysis_report(game: Game, analysis: GameAnalysis | None) -> dict[str, Any]:
    """The API's ANALYSIS: status, progress, and when done the players' figures and a verdict
    per logged action (``error``, ``mark``, ``best`` and ``luck`` null where gnubg rates nothing)."""
    status = "none" if analysis is None else str(analysis.status)
    if analysis is None:
        progress = 0.0
    elif analysis.status == GameAnalysis.Status.DONE:
        progress = 1.0
    else:
        progress = round(min(1.0, analysis.done / analysis.total), 3) if analysis.total else 0.0
    report: dict[str, Any] = {"status": status, "progress": progress, "players": {}, "actions": []}
    if analysis is None or analysis.status != GameAnalysis.Status.DONE:
        return report
    names = {Side.BLACK: game.black.get_username(), Side.WHITE: game.white.get_username()}
    summary = stored_summary(analysis)
    report["players"] = {names[side]: {key: summary.get(side.name.lower(), {}).get(key) for key in PLAYER_FIGURES}
                         for side in Side}
    report["actions"] = list(_action_rows(game, analysis.results.get("actions", [])))
    return report


def _action_rows(game: Game, entries: list[dict[str, Any]]) -> Any:
    state = engine_match.new_match(game.rules())
    logged = game.actions.order_by("number").values_list("number", "data")
    for (number, data), entry in zip(logged, entries, strict=False):
        action = Action.from_dict(data)
        yield {"number": number, "kind": action.kind.value, **_verdict(entry), **decision_ids(state)}
        state = apply_action(state, action)


def _verdict(entry: dict[str, Any]) -> dict[str, Any]:
    error: float | None = None
    best: str | None = None
    marked: str | None = None
    if entry.get("kind") == "play":
        error, best, marked = entry.get("equity_loss", 0.0), entry.get("best"), play_mark(entry)
    elif "cube_error" in entry:
        error, best = entry["cube_error"], cube_best(entry["kind"], entry.get("proper", ""))
        marked = mark(error)
    return {"error": error, "mark": marked, "best": best, "luck": entry.get("luck")}
