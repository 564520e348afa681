"""A whole match through GNU Backgammon: a verdict per action and a summary per player.

Pure: engine values in, plain JSON-ready dicts out (no Django), so the worker's task, the tests
and the gnubg comparison tool call the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from backgammon.engine import Side
from backgammon.engine import match as engine_match
from backgammon.engine.actions import Action, ActionKind
from backgammon.engine.game import MatchRules
from backgammon.engine.match import MatchState, Phase, apply_action
from backgammon.engine.plays import find_play

from .gnubg_analysis import ANALYSIS_PLIES, play_verdict, roll_luck, win_chance
from .marks import player_summary

__all__ = ["analyse_match"]

Progress = Callable[[int, int], None]


def analyse_match(
    rules: MatchRules, actions: Sequence[Action], progress: Progress | None = None
) -> dict[str, Any]:
    """``{"plies", "actions": [one dict per action, in log order], "players": {"black", "white"}}``.

    A play's entry has ``equity_loss``, ``best`` (the best play's text), ``choices`` and
    ``cubeful``; a roll's has ``luck`` (for the side that rolled, cubeless), and ``cube_error``
    and ``proper`` when its player could have doubled instead (gnubg's verdict on that "no
    double"; doubles, takes and passes have them too); every entry that
    leaves a position to roll from has ``win_black``, Black's cubeless chance to win the game.
    """
    state = engine_match.new_match(rules)  # looked up here, as replay does (tests patch it)
    entries: list[dict[str, Any]] = []
    decisions = _GnubgDecisions()
    for done, action in enumerate(actions, start=1):
        after = apply_action(state, action)
        entries.append(_entry(state, action, after))
        decisions.add(state, action, done - 1, after)
        state = after
        if progress is not None:
            progress(done, len(actions))
    rated = _rate_cube_decisions(rules, actions, entries, decisions)
    return {"plies": ANALYSIS_PLIES, "actions": entries, "players": player_summary(entries),
            "cube_rated": rated}


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
            self.expected.append({"kind": "roll", "index": self.roll_index,
                                  "player": before.turn.name.title(), "dice": sorted(before.dice),
                                  "could_double": self.could_double})

    @property
    def any_to_rate(self) -> bool:
        return any(item["kind"] != "roll" or item["could_double"] for item in self.expected)


def _rate_cube_decisions(rules: MatchRules, actions: Sequence[Action], entries: list[dict[str, Any]],
                         decisions: _GnubgDecisions) -> bool:
    """Add gnubg's verdict to each double, take and pass, and to each roll whose player could
    have doubled instead (a "no double": ``cube_error`` is what a missed double lost). False
    when the match has no cube decision, a beaver (which gnubg's .mat reader takes for a
    redouble, so the two records differ) or an automatic double (the .mat cannot record one, so
    gnubg would judge the game with the cube at 1)."""
    from backgammon.engine import PerSide, export_mat

    from .gnubg_cube import CubeMismatch, gnubg_cube_verdicts

    if not decisions.any_to_rate or decisions.automatic_double or any(
            action.kind is ActionKind.BEAVER for action in actions):
        return False
    # The .mat names Black and White, so gnubg's blocks name them too.
    verdicts = gnubg_cube_verdicts(export_mat(rules, actions, PerSide("Black", "White")), rules)
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
    entry: dict[str, Any] = {"kind": action.kind.value, "side": None, "game": before.game_number}
    if action.kind is ActionKind.ROLL and after.phase is Phase.MOVE and after.dice is not None:
        entry["side"] = int(after.turn)
        entry["luck"] = roll_luck(after, after.dice, opening=before.phase is Phase.OPENING_ROLL)
    elif action.kind in _CUBE_KINDS:
        entry["side"] = None if before.actor is None else int(before.actor)
    elif action.kind is ActionKind.PLAY and before.dice is not None:
        played = find_play(before.position, before.dice, action.moves)
        verdict = play_verdict(before, played)
        entry.update(side=int(before.turn), equity_loss=verdict.equity_loss, best=verdict.best_play,
                     choices=verdict.choices, cubeful=verdict.cubeful)
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
