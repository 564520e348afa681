"""The match state as JSON: every state of random matches comes back equal; bad input is refused."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest
from random_play import EVERY_VARIANT, random_record

from backgammon.engine import (
    EngineError,
    GameResult,
    InvalidStateError,
    MatchRules,
    PerSide,
    Phase,
    Position,
    Side,
    WinKind,
    find_variant,
    new_match,
    result_from_dict,
    result_to_dict,
    state_from_dict,
    state_to_dict,
)

RULES = EVERY_VARIANT


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.variant.code)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_it_round_trips_every_state_of_random_matches_through_json(rules: MatchRules, seed: int) -> None:
    _, states = random_record(rules, seed, double_rate=0.3)
    for state in states:
        text = json.dumps(state_to_dict(state))
        assert state_from_dict(rules, json.loads(text)) == state


def test_random_matches_reach_the_states_the_round_trip_must_cover() -> None:
    """The round trip above is only as good as the states it meets: check they include the rare ones."""
    seen: set[str] = set()
    for rules in RULES:
        for seed in (1, 2, 3):
            for state in random_record(rules, seed, double_rate=0.3)[1]:
                seen.add(state.phase.value)
                if state.position.mine_waiting or state.position.theirs_waiting:
                    seen.add("waiting")
                if state.cube_owner is not None:
                    seen.add("cube owned")
                if state.last_game_result is not None and state.phase is not Phase.MATCH_OVER:
                    seen.add("between games")
                if state.crawford:
                    seen.add("crawford")
    assert {phase.value for phase in Phase} | {"waiting", "cube owned", "between games", "crawford"} <= seen


def test_it_keeps_what_the_ids_leave_out() -> None:
    rules = MatchRules(find_variant("BR"), 0)
    state = replace(
        new_match(rules),
        phase=Phase.RESIGN_OFFERED,
        dice=(6, 5),
        resign_level=2,
        moves_played=PerSide(17, 16),
        position=Position.initial(rules.variant.layout),
        last_game_result=GameResult(None, WinKind.DRAW, 0, 1),
    )
    data = json.loads(json.dumps(state_to_dict(state)))
    assert data["position"]["mine_waiting"] == data["position"]["theirs_waiting"] == 15
    assert data["moves_played"] == [17, 16]
    assert data["last_game_result"] == {"winner": None, "kind": "draw", "points": 0, "game_number": 1}
    assert state_from_dict(rules, data) == state


def test_a_result_round_trips_on_its_own() -> None:
    result = GameResult(Side.WHITE, WinKind.GAMMON, 4, 3)
    assert result_from_dict(json.loads(json.dumps(result_to_dict(result)))) == result


def _good() -> dict[str, Any]:
    rules = RULES[0]
    _, states = random_record(rules, 5)
    in_move = next(state for state in states if state.phase is Phase.MOVE and state.game_number > 1)
    return state_to_dict(in_move)


def _set(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    *parents, last = path.split(".")
    target = changed
    for key in parents:
        target = target[key]
    if value is _DELETE:
        del target[last]
    else:
        target[last] = value
    return changed


class _Deleted:
    """The value that removes a key; its name is the same in every process (pytest-xdist's
    workers must collect the same test ids)."""

    def __repr__(self) -> str:
        return "<deleted>"


_DELETE = _Deleted()

BAD = [
    ("version", 2, "version 2 is not 1"),
    ("version", _DELETE, "missing keys ['version']"),
    ("extra", 1, "unknown keys ['extra']"),
    ("rules.match_length", 7, "written for rules"),
    ("score", [1], "score [1] is not a pair"),
    ("score", [1, -1], "score -1 is not a whole number"),
    ("score", [True, 0], "score True is not a whole number"),
    ("game_number", 0, "game_number 0 is not a whole number from 1"),
    ("crawford", 0, "crawford 0 is not true or false"),
    ("phase", "dancing", "phase 'dancing' is not one of the known values"),
    ("phase", ["move"], "phase ['move'] is not one of the known values"),
    ("turn", 2, "turn 2 is not a whole number from 0 to 1"),
    ("position", [], "position: expected a dict, not list"),
    ("position.mine", [0] * 24, "position.mine is not 25 checker counts"),
    ("position.mine", [1] * 25, "has 25 checkers; a side has 15"),
    ("position.mine_waiting", 3, "cannot wait on a bar of"),
    ("position.theirs_waiting", "0", "position.theirs_waiting '0' is not a whole number"),
    ("dice", None, "dice None do not fit the move phase"),
    ("dice", [0, 3], "dice 0 is not a whole number from 1 to 6"),
    ("dice", "31", "dice '31' is not a pair"),
    ("cube_value", 3, "cube_value 3 is not a cube value"),
    ("cube_value", 8192, "cube_value 8192 is not a cube value"),
    ("cube_owner", 2, "cube_owner 2 is not a whole number"),
    ("resign_level", 2, "resign_level 2 does not fit the move phase"),
    ("moves_played", None, "moves_played None is not a pair"),
    ("last_game_result", "won", "last_game_result: expected a dict"),
    ("last_game_result.kind", "walkover", "last_game_result.kind 'walkover' is not one of the known values"),
    ("last_game_result.points", -1, "last_game_result.points -1 is not a whole number"),
    ("match_winner", 0, "a match winner before the match is over"),
]


@pytest.mark.parametrize(("path", "value", "words"), BAD, ids=[f"{path}={value!r}" for path, value, _ in BAD])
def test_it_refuses_a_malformed_dict_saying_what_is_wrong(path: str, value: Any, words: str) -> None:
    data = _good()
    assert state_from_dict(RULES[0], data)  # the unchanged dict is fine: the change is the fault
    with pytest.raises(InvalidStateError, match="^(Match state|position|last_game_result)") as refused:
        state_from_dict(RULES[0], _set(data, path, value))
    assert words in str(refused.value)
    assert isinstance(refused.value, EngineError)


@pytest.mark.parametrize("data", [None, [], "state", 1])
def test_it_refuses_what_is_not_a_dict(data: Any) -> None:
    with pytest.raises(InvalidStateError, match="expected a dict"):
        state_from_dict(RULES[0], data)


def test_it_refuses_dice_outside_the_phases_that_have_them() -> None:
    data = state_to_dict(new_match(RULES[0]))
    with pytest.raises(InvalidStateError, match="do not fit the opening_roll phase"):
        state_from_dict(RULES[0], {**data, "dice": [3, 1]})
