"""gnubg's cube verdicts: read from its text export (a captured excerpt, written once by
tools/gen_gnubg_analysis.py) and attached to the right actions of the log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis.gnubg_cube import parse_cube_verdicts
from backgammon.engine import Action, ActionKind, MatchRules, find_variant

DATA = Path(__file__).parent / "data"


def excerpt_verdicts() -> list[dict[str, Any]]:
    return parse_cube_verdicts((DATA / "gnubg_export_excerpt.txt").read_text())


def test_an_opening_roll_has_no_cube_decision() -> None:
    opening = excerpt_verdicts()[0]
    assert opening == {"kind": "roll", "player": "White", "dice": [2, 3], "rated": False}


def test_rolling_rightly_loses_nothing_and_missed_doubles_lose_what_gnubg_says() -> None:
    rolls = [verdict for verdict in excerpt_verdicts() if verdict["kind"] == "roll" and verdict["rated"]]
    assert [(roll["player"], roll["dice"], roll["error"], roll["proper"]) for roll in rolls] == [
        ("Black", [1, 1], 0.0, "No double, take (31.1%)"),
        ("Black", [3, 3], 0.0, "No double, take (30.7%)"),
        ("Black", [1, 2], 0.009, "Double, pass"),
        ("Black", [2, 6], 0.114, "Double, take"),
    ]


def test_cube_actions_keep_their_own_verdicts() -> None:
    actions = [(v["kind"], v["error"]) for v in excerpt_verdicts() if v["kind"] != "roll"]
    # A bad checker play's alert in the same block ("Alert: bad move") is not a cube error.
    assert actions == [("double", 0.323), ("take", 0.562), ("double", 0.058), ("drop", 1.725)]


def missed_double_case() -> tuple[MatchRules, list[Action]]:
    cases = json.loads((DATA / "gnubg_analysis.json").read_text())
    case = cases[-1]  # the short one whose two missed doubles the excerpt shows
    assert (case["match_length"], case["seed"], case["gnubg"]["black"]["missed_doubles"]) == (3, 2, 2)
    rules = MatchRules(find_variant(case["variant"]), case["match_length"])
    return rules, [Action.from_dict(data) for data in case["actions"]]


def test_a_missed_double_is_attached_to_the_roll_that_missed_it() -> None:
    pytest.importorskip("gnubg")
    from analysis.analyse import analyse_match

    rules, actions = missed_double_case()
    entries = analyse_match(rules, actions)["actions"]
    missed = [(index, entry) for index, entry in enumerate(entries) if entry.get("cube_error", 0) > 0]
    assert [(entry["kind"], entry["side"], tuple(sorted(actions[index].dice or ())), entry["cube_error"])
            for index, entry in missed] == [("roll", 0, (1, 2), 0.009), ("roll", 0, (2, 6), 0.114)]
    assert all(actions[index].kind is ActionKind.ROLL for index, _ in missed)


def test_a_record_that_does_not_line_up_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gnubg")
    from analysis import analyse, gnubg_cube
    from analysis.analyse import analyse_match

    real = analyse.parse_cube_verdicts

    def one_roll_off(text: str) -> list[dict[str, Any]]:
        verdicts = real(text)
        second_roll = [v for v in verdicts if v["kind"] == "roll"][1]
        second_roll["dice"] = [die % 6 + 1 for die in second_roll["dice"]]
        return verdicts

    monkeypatch.setattr(analyse, "parse_cube_verdicts", one_roll_off)
    with pytest.raises(gnubg_cube.CubeMismatch, match="differs from the game's"):
        analyse_match(*missed_double_case())


def test_a_roll_cut_short_by_a_resignation_is_not_rated() -> None:
    # The .mat writes "52: " and gnubg shows no block for it: nothing to line up, no verdict.
    pytest.importorskip("gnubg")
    from analysis.analyse import analyse_match

    rules = MatchRules(find_variant("MP"), 0)
    actions = [Action.roll(3, 1), Action.play([(8, 5), (6, 5)]), Action.roll(6, 4),
               Action.play([(24, 18), (13, 9)]), Action.roll(5, 2), Action.resign(1), Action.accept_resign()]
    result = analyse_match(rules, actions)
    assert result["cube_rated"] is True
    rated = [(index, entry["side"]) for index, entry in enumerate(result["actions"]) if "cube_error" in entry]
    assert rated == [(2, 1)]  # White's roll of 64, not Black's 52
