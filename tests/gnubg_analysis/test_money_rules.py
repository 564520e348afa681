"""Each game analysed under its own rules: a money game played without the Jacoby rule and
without beavers gets gnubg's cube verdicts under those rules, not under gnubg's defaults (Jacoby
on, 3 beavers), which gnubg applies to an imported .mat whatever its tags say. gnubg's answers
under both come from tools/gen_gnubg_money_rules.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis.gnubg_cube import rules_arguments
from analysis.gnubg_export import rule_commands
from analysis.marks import mark
from backgammon.engine import Action, MatchRules, find_variant

CASE = json.loads((Path(__file__).parent / "data/gnubg_money_rules.json").read_text())


def rated(verdicts: list[dict[str, Any]]) -> list[tuple[str, float]]:
    """gnubg's proper action and error of each decision it rated, in order."""
    return [(v["proper"], v["error"]) for v in verdicts if v["kind"] != "roll" or v["rated"]]


def test_the_reference_game_is_one_where_the_rules_change_the_verdicts() -> None:
    played, defaults = rated(CASE["gnubg_played_rules"]), rated(CASE["gnubg_defaults"])
    assert len(played) == len(defaults) > 50
    assert sum(a != b for a, b in zip(played, defaults, strict=True)) > 20
    assert not any("beaver" in proper for proper, _ in played)
    assert any("beaver" in proper for proper, _ in defaults)


@pytest.fixture(scope="module")
def analysed() -> dict[str, Any]:
    pytest.importorskip("gnubg")
    from analysis.isolated import analyse_isolated

    rules = MatchRules(find_variant(CASE["variant"]), 0, jacoby=CASE["jacoby"], beavers=CASE["beavers"])
    return analyse_isolated(rules, [Action.from_dict(data) for data in CASE["actions"]])


def test_every_cube_verdict_is_gnubgs_under_the_rules_the_game_was_played_by(analysed: dict[str, Any]) -> None:
    result = analysed
    assert result["cube_rated"] is True
    ours = [(entry["proper"], entry["cube_error"]) for entry in result["actions"] if "cube_error" in entry]
    assert ours == rated(CASE["gnubg_played_rules"])


def test_every_play_bears_gnubgs_own_mark(analysed: dict[str, Any]) -> None:
    # gnubg's words and default thresholds (0.03, 0.06, 0.12), as its own export marks each play.
    plays = [entry for entry in analysed["actions"] if entry["kind"] == "play"]
    assert [mark(entry["equity_loss"]) for entry in plays] == CASE["gnubg_move_marks"]
    assert {"doubtful", "bad", "very bad"} <= set(CASE["gnubg_move_marks"])


def test_marks_are_strictly_beyond_gnubgs_thresholds() -> None:
    assert [mark(loss) for loss in (None, 0.0, 0.03, 0.0301, 0.06, 0.0601, 0.12, 0.1201)] == [
        None, None, None, "doubtful", "doubtful", "bad", "bad", "very bad"]


def test_the_rules_reach_gnubg_as_its_own_commands() -> None:
    money = MatchRules(find_variant("MP"), 0, jacoby=True, beavers=True, automatic_doubles=2)
    assert rule_commands(rules_arguments(money)) == ["set jacoby on", "set beavers 1", "set automatic doubles 2"]
    plain = MatchRules(find_variant("MP"), 0)
    assert rule_commands(rules_arguments(plain)) == ["set jacoby off", "set beavers 0", "set automatic doubles 0"]
    match = MatchRules(find_variant("BP"), 5)
    assert rule_commands(rules_arguments(match)) == ["set automatic crawford on"]
    with pytest.raises(ValueError, match="not a rule"):
        rule_commands(["jacoby=on; quit"])


def test_a_game_whose_cube_an_automatic_double_turned_is_not_cube_rated() -> None:
    # A .mat has no line for an automatic double, so gnubg would judge every cube decision of
    # that game with the cube at 1: no verdicts rather than wrong ones (its plays are rated).
    pytest.importorskip("gnubg")
    from analysis.analyse import analyse_match

    opening = [Action.roll(3, 1), Action.play([(8, 5), (6, 5)]), Action.roll(6, 4),
               Action.play([(24, 18), (13, 9)]), Action.roll(5, 2), Action.play([(13, 8), (13, 11)]),
               Action.double(), Action.take()]
    plain = analyse_match(MatchRules(find_variant("MP"), 0), opening)
    assert plain["cube_rated"] is True
    doubled = analyse_match(MatchRules(find_variant("MP"), 0, automatic_doubles=1), [Action.roll(3, 3), *opening])
    assert doubled["cube_rated"] is False
    assert not any("cube_error" in entry for entry in doubled["actions"])
    assert next(entry["equity_loss"] for entry in doubled["actions"] if entry["kind"] == "play") == 0.0


def test_an_automatic_double_leaves_gnubgs_play_and_luck_figures_as_they_are() -> None:
    # The .mat cannot carry an automatic double, so gnubg analyses such a game with the cube at 1
    # where it stood at 2 (centred). The site keeps gnubg's errors and luck all the same: in money
    # play gnubg's equities are per unit of the cube, and a centred cube's value changes neither
    # who may double nor the Jacoby rule (gammons count once the cube is owned, in gnubg as in
    # the engine), so they are those of the game as played. Checked here through the binding:
    # every legal play of every position of a money game, Jacoby on and off, at both values.
    pytest.importorskip("gnubg")
    from dataclasses import replace

    from analysis.analyse import analyse_match
    from analysis.gnubg_analysis import gnubg_board, gnubg_cube
    from backgammon.engine.match import Phase, apply_action, new_match
    from backgammon.gnubg_home import gnubg

    opening = [Action.roll(3, 1), Action.play([(8, 5), (6, 5)]), Action.roll(6, 4),
               Action.play([(24, 18), (13, 9)]), Action.roll(5, 2), Action.play([(13, 8), (13, 11)])]
    plain = analyse_match(MatchRules(find_variant("MP"), 0), opening)
    doubled = analyse_match(MatchRules(find_variant("MP"), 0, automatic_doubles=1), [Action.roll(3, 3), *opening])
    figures = [(entry.get("luck"), entry.get("equity_loss")) for entry in plain["actions"]]
    assert [(entry.get("luck"), entry.get("equity_loss")) for entry in doubled["actions"][1:]] == figures
    assert any(luck for luck, _ in figures) and any(loss for _, loss in figures)

    context = gnubg.evalcontext(1, 0, 0, 1, 0)
    compared = 0
    for jacoby in (False, True):
        rules = MatchRules(find_variant("MP"), 0, jacoby=jacoby)
        state = new_match(rules)
        for data in CASE["actions"]:
            if state.phase is Phase.MOVE and state.cube_owner is None and len(state.legal_plays()) > 1:
                scores = [[round(entry["score"], 6) for entry in
                           gnubg.findbestmoves(gnubg_board(state.position), gnubg_cube(replace(state, cube_value=value)),
                                               context, state.dice)]
                          for value in (1, 2)]
                assert scores[0] == scores[1]
                compared += 1
            state = apply_action(state, Action.from_dict(data))
    assert compared > 40
