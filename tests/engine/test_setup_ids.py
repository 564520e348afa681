"""The analysis board's readers: an XGID, or a Position ID with a Match ID, back to the state."""

from __future__ import annotations

import random

import pytest

from backgammon.engine import (
    InvalidIdError,
    MatchRules,
    PerSide,
    Phase,
    Side,
    apply_action,
    encode_xgid,
    find_variant,
    new_match,
    state_for_analysis,
    state_from_ids,
    state_from_xgid,
)
from tests.engine.random_play import random_action

RULES = [
    MatchRules(find_variant("BP"), 5),
    MatchRules(find_variant("B9"), 9),
    MatchRules(find_variant("BP"), 1),
    MatchRules(find_variant("MP"), 0),
    MatchRules(find_variant("MP"), 0, jacoby=True, beavers=True),
]


def _states_to_analyse(rules: MatchRules, seed: int):
    rng = random.Random(seed)
    state = new_match(rules)
    for _ in range(3000):
        if state.phase is Phase.MATCH_OVER:
            return
        if state.phase in (Phase.ROLL, Phase.MOVE) or (state.phase is Phase.TAKE_OR_DROP and not state.beavered):
            yield state
        state = apply_action(state, random_action(state, rng, double_rate=0.3))


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{rules.variant.code}{rules.match_length}")
def test_every_state_of_random_matches_comes_back_from_its_ids(rules):
    seen = set()
    for seed in range(4):
        for state in _states_to_analyse(rules, seed):
            expected = state_for_analysis(state)
            assert state_from_xgid(encode_xgid(state)) == expected, encode_xgid(state)
            assert state_from_ids(state.position_id(), state.match_id(), beavers=rules.beavers) == expected
            seen.add(state.phase)
    assert seen == {Phase.ROLL, Phase.MOVE, Phase.TAKE_OR_DROP}


def test_the_xgid_of_a_pending_double_is_the_doublers_offer():
    # White doubles at 2-4 in a match to 7, the cube at 1: XG writes the cube before the offer and D.
    state = state_from_xgid("XGID=-a-B--E-B-a-dDB--b-bcb----:0:0:-1:D:2:4:0:7:10")
    assert state.phase is Phase.TAKE_OR_DROP
    assert state.turn is Side.WHITE and state.actor is Side.BLACK
    assert (state.cube_value, state.cube_owner) == (1, None)
    assert state.score == PerSide(2, 4)
    assert state.rules.match_length == 7


def test_money_xgid_flags_are_jacoby_and_beavers():
    start = "-b----E-C---eE---c-e----B-"
    for flags, jacoby, beavers in (("0", False, False), ("1", True, False), ("2", False, True), ("3", True, True)):
        rules = state_from_xgid(f"XGID={start}:0:0:1:00:0:0:{flags}:0:10").rules
        assert (rules.money, rules.jacoby, rules.beavers) == (True, jacoby, beavers)


def test_the_xgid_dice_and_prefix_are_optional_words():
    state = state_from_xgid(" -b----E-C---eE---c-e----B-:1:1:1:63:0:0:0:0:10 ")
    assert state.phase is Phase.MOVE and state.dice == (6, 3)
    assert state_from_xgid("-b----E-C---eE---c-e----B-:1:1:1:36:0:0:0:0:10") == state
    assert (state.cube_value, state.cube_owner) == (2, Side.BLACK)


@pytest.mark.parametrize(("xgid", "words"), [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0", "ten fields"),
    ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:5:10", "26 characters"),
    ("XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:5:10", "not a checker count"),
    ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10", "O's bar"),
    ("XGID=-b----E-C---eE---c-e----Bb:0:0:1:00:0:0:0:5:10", "X's bar"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:5:10", "turn field"),
    ("XGID=-b----E-C---eE---c-e----B-:0:5:1:00:0:0:0:5:10", "cube owner"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:5:10", "not a roll"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10", "beavered"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:5:0:0:5:10", "ends a match"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:1:1:5:10", "Crawford game is played only"),
    ("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:4:1:1:5:10", "stays at 1"),
    ("XGID=-b----E-C---eE---c-e----B-:0:1:1:00:0:0:0:5:10", "in the middle"),
    ("XGID=-b----E-C---eE---c-e----B-:13:0:1:00:0:0:0:0:10", "largest cube"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "0 to 3"),
    ("XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:0:0:0:5:10", "could not have offered"),
    ("XGID=-b----E-C---eE---c-eo---B-:0:0:1:00:0:0:0:5:10", "a side has 15"),
    ("XGID=-b----------e----c-e------:0:0:1:00:0:0:0:5:10", "borne off every checker"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:99:10", "longer than"),
    ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:5:10", "whole number"),
])
def test_bad_xgids_are_refused_saying_why(xgid, words):
    with pytest.raises(InvalidIdError, match=words):
        state_from_xgid(xgid)


@pytest.mark.parametrize(("position_id", "match_id", "words"), [
    ("4HPwATDgc/ABMA", "cAgAAAAAAAA", "12 characters"),
    ("not an id", "cAkAAAAAAAAA", "not a Position ID"),
    ("4HPwATDgc/ABMA", "cAgAAAAAAAAA", "not in play"),
])
def test_bad_ids_are_refused_saying_why(position_id, match_id, words):
    with pytest.raises(InvalidIdError, match=words):
        state_from_ids(position_id, match_id)
