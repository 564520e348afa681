"""A whole match through GNU Backgammon: a verdict per action and a summary per player.

The verdicts are gnubg's own: its ``analyse match`` (0-ply) of the game's .mat, run in a process
of its own under the game's rules (``gnubg_cube.gnubg_export_text``), gives each play's error and
gnubg's best play, each roll's luck, each cube decision's verdict and the players' statistics,
all read back from its text export (``gnubg_record``, ``gnubg_cube``), so they are gnubg's to the
last digit it prints. Only what its export does not give is computed here through the binding
(``gnubg_analysis``): Black's cubeless winning chances after each play, for the chart, and the
site's notation of gnubg's best play.

Pure: engine values in, plain JSON-ready dicts out (no Django), so the worker's task, the tests
and the gnubg comparison tools call the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from backgammon.engine import PerSide, Side, export_mat, format_play, legal_plays
from backgammon.engine import match as engine_match
from backgammon.engine.actions import Action, ActionKind
from backgammon.engine.game import MatchRules
from backgammon.engine.match import MatchState, Phase, apply_action
from backgammon.engine.plays import find_play

from .gnubg_analysis import ANALYSIS_PLIES, gnubg_best_play, win_chance
from .gnubg_cube import CubeMismatch, gnubg_export_text, parse_cube_verdicts
from .gnubg_record import ExportMismatch, parse_roll_verdicts, parse_statistics
from .marks import FIGURES_SOURCE, player_summary

__all__ = ["MAT_NAMES", "analyse_match"]

Progress = Callable[[int, int], None]
MAT_NAMES = PerSide("Black", "White")
"""The players' names in the .mat gnubg reads, so its blocks and tables name the sides."""


def analyse_match(
    rules: MatchRules, actions: Sequence[Action], progress: Progress | None = None
) -> dict[str, Any]:
    """``{"plies", "figures", "actions": [one dict per action, in log order], "players":
    {"black", "white"}, "cube_rated"}``.

    A play's entry has ``equity_loss`` (gnubg's error, EMG), ``best`` (gnubg's best play in the
    site's notation), ``mark`` (gnubg's word for it, or None) and ``choices`` (legal plays); a
    roll's has ``luck`` (gnubg's, for the side that rolled; none for a roll gnubg shows no block
    for: one a resignation or a timeout cut short), and ``cube_error`` and ``proper`` when its
    player could have doubled instead (gnubg's verdict on that "no double"; doubles, takes and
    passes have them too); every play's entry has ``win_black``, Black's cubeless chance to win
    the game after it. ``players`` carries gnubg's own statistics of each player (unforced plays,
    checker errors, error rate, marks, luck) with the site's PR and the cube figures.
    """
    state = engine_match.new_match(rules)  # looked up here, as replay does (tests patch it)
    entries: list[dict[str, Any]] = []
    decisions = _GnubgDecisions()
    for done, action in enumerate(actions, start=1):
        after = apply_action(state, action)
        entries.append(_entry(state, action, after))
        decisions.add(state, action, done - 1, after)
        state = after
        if progress is not None and done < len(actions):  # the last once gnubg's verdicts are in
            progress(done, len(actions))
    export = gnubg_export_text(export_mat(rules, actions, MAT_NAMES), rules)
    _read_plays_and_luck(entries, decisions, export)
    rated = _rate_cube_decisions(actions, entries, decisions, export)
    if progress is not None:
        progress(len(actions), len(actions))
    return {"plies": ANALYSIS_PLIES, "figures": FIGURES_SOURCE, "actions": entries,
            "players": _players(entries, export, decisions), "cube_rated": rated}


def _read_plays_and_luck(entries: list[dict[str, Any]], decisions: _GnubgDecisions, export: str) -> None:
    """gnubg's error and best play of each play and the luck of its roll, from its blocks."""
    ours = [item for item in decisions.expected if item["kind"] == "roll"]
    theirs = parse_roll_verdicts(export)
    if [_decision_key(item) for item in ours] != [("roll", v["player"], tuple(v["dice"])) for v in theirs]:
        raise ExportMismatch("GNU Backgammon's record of the rolls differs from the game's")
    for item, verdict in zip(ours, theirs, strict=True):
        if verdict["luck"] is not None:
            entries[item["index"]]["luck"] = verdict["luck"]
        play = entries[item["play_index"]]
        play.update(equity_loss=verdict["error"], mark=verdict["mark"])
        if play["choices"] > 1:
            play["best"] = gnubg_best_play(item["state"], verdict["best"])


def _players(entries: list[dict[str, Any]], export: str, decisions: _GnubgDecisions) -> dict[str, Any]:
    """The site's summary (cube figures, counted from the verdicts) with gnubg's own statistics
    of the checker plays and the luck in place of the sums of its rounded per-play figures."""
    summary = player_summary(entries)
    if not any(item["kind"] == "roll" for item in decisions.expected):
        return summary  # nothing was played: gnubg's table is all zeros, or absent
    statistics = parse_statistics(export)
    for side in Side:
        gnubg = statistics[MAT_NAMES[side]]
        row = summary[side.name.lower()]
        row.update(unforced=int(gnubg["unforced"]), equity_lost=gnubg["equity_lost"],
                   error_rate=gnubg["error_rate"], pr=round(gnubg["error_rate"] / 2, 1),
                   doubtful=int(gnubg["doubtful"]), errors=int(gnubg["errors"]),
                   blunders=int(gnubg["blunders"]), luck=gnubg["luck"])
    return summary


_CUBE_KINDS = {ActionKind.DOUBLE: "double", ActionKind.TAKE: "take", ActionKind.DROP: "drop"}


class _GnubgDecisions:
    """The decisions gnubg's text export shows for our log, in its order: each double, take and
    pass, and each roll a play followed (gnubg shows no block for a roll that a resignation or a
    timeout cut short), with the index of our roll action and whether its player could have
    doubled instead."""

    def __init__(self) -> None:
        self.expected: list[dict[str, Any]] = []
        self.roll_index: int | None = None
        self.could_double = False
        self.automatic_double = False
        """A tied opening roll turned the cube (money play): the .mat has no line for it."""

    def add(self, before: MatchState, action: Action, index: int, after: MatchState) -> None:
        if action.kind is ActionKind.ROLL and after.cube_value > before.cube_value:
            self.automatic_double = True
        if action.kind is ActionKind.ROLL:
            self.roll_index, self.could_double = index, before.can_double()
        elif action.kind in _CUBE_KINDS:
            self.expected.append({"kind": _CUBE_KINDS[action.kind], "index": index})
        elif action.kind is ActionKind.PLAY and before.dice is not None:
            self.expected.append({"kind": "roll", "index": self.roll_index, "play_index": index,
                                  "state": before, "player": MAT_NAMES[before.turn],
                                  "dice": sorted(before.dice), "could_double": self.could_double})

    @property
    def any_to_rate(self) -> bool:
        return any(item["kind"] != "roll" or item["could_double"] for item in self.expected)


def _rate_cube_decisions(actions: Sequence[Action], entries: list[dict[str, Any]],
                         decisions: _GnubgDecisions, export: str) -> bool:
    """Add gnubg's verdict to each double, take and pass, and to each roll whose player could
    have doubled instead (a "no double": ``cube_error`` is what a missed double lost). False
    when the match has no cube decision, a beaver (which gnubg's .mat reader takes for a
    redouble, so the two records differ) or an automatic double (the .mat cannot record one, so
    gnubg's cube decisions would name the cube at 1 where it stood at 2)."""
    if not decisions.any_to_rate or decisions.automatic_double or any(
            action.kind is ActionKind.BEAVER for action in actions):
        return False
    verdicts = parse_cube_verdicts(export)
    ours = decisions.expected
    if [_decision_key(item) for item in ours] != [_decision_key(verdict) for verdict in verdicts]:
        raise CubeMismatch("GNU Backgammon's record of the decisions differs from the game's")
    for item, verdict in zip(ours, verdicts, strict=True):
        if item["kind"] == "roll" and not (verdict["rated"] and item["could_double"]):
            # Not rated by gnubg (a dead cube) or not a choice the site gave the player.
            continue
        entries[item["index"]].update(cube_error=verdict["error"], proper=verdict["proper"])
    return True


def _decision_key(decision: dict[str, Any]) -> tuple[Any, ...]:
    if decision["kind"] == "roll":
        return ("roll", decision["player"], tuple(decision["dice"]))
    return (decision["kind"],)


def _entry(before: MatchState, action: Action, after: MatchState) -> dict[str, Any]:
    """What the log itself says of an action (gnubg's verdicts are added from its export)."""
    entry: dict[str, Any] = {"kind": action.kind.value, "side": None, "game": before.game_number}
    if action.kind is ActionKind.ROLL and after.phase is Phase.MOVE and after.dice is not None:
        entry["side"] = int(after.turn)
    elif action.kind in _CUBE_KINDS:
        entry["side"] = None if before.actor is None else int(before.actor)
    elif action.kind is ActionKind.PLAY and before.dice is not None:
        played = find_play(before.position, before.dice, action.moves)
        choices = len(legal_plays(before.position, before.dice))
        entry.update(side=int(before.turn), equity_loss=0.0, best=format_play(played), choices=choices)
        entry["win_black"] = _black_chance(before, after, played.result)
    return entry


def _black_chance(before: MatchState, after: MatchState, mover_view: Any) -> float:
    """Black's chance to win the game just played on, after a play (1 or 0 once it is over)."""
    mover = before.turn
    if after.game_number != before.game_number or after.phase is Phase.MATCH_OVER:
        result = after.last_game_result
        winner = None if result is None else result.winner
        return 0.5 if winner is None else (1.0 if winner is Side.BLACK else 0.0)
    opponent_chance = win_chance(mover_view.swapped(), mover.other, after)
    black = opponent_chance if mover.other is Side.BLACK else 1.0 - opponent_chance
    return round(black, 4)
