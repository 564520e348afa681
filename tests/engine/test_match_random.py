"""Properties of whole matches played by random legal actions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import EVERY_VARIANT, random_record

from backgammon.engine import (
    ActionKind,
    MatchRules,
    Phase,
    Side,
    WinKind,
    decode_match_id,
    find_variant,
    replay,
)

RULES = EVERY_VARIANT


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULES), st.integers(0, 2**32), st.sampled_from([0.1, 0.4]))
def test_random_matches_replay_score_and_end_by_the_rules(
    rules: MatchRules, seed: int, rate: float
) -> None:
    actions, states = random_record(rules, seed, double_rate=rate)
    final = states[-1]
    assert final.phase is Phase.MATCH_OVER
    assert replay(rules, actions) == final
    for action, before, after in zip(actions, states, states[1:], strict=False):
        assert all(a >= b for a, b in zip(after.score, before.score, strict=True))
        resigning = after.phase is Phase.RESIGN_OFFERED or (
            after.phase is Phase.MATCH_OVER and action.kind is ActionKind.ACCEPT_RESIGN
        )
        assert (after.dice is not None) == (
            after.phase is Phase.MOVE or before.dice is not None and resigning
        )
        info = decode_match_id(after.match_id())
        assert (info.score, info.cube_value, info.crawford) == (
            after.score,
            after.cube_value,
            after.crawford and after.phase is not Phase.MATCH_OVER,  # gnubg clears it at the end
        )
        if after.crawford:
            assert not after.can_double()
        if after.game_number == before.game_number and after.phase is not Phase.OPENING_ROLL:
            # Race variants: a checker once entered (or hit) never waits on the bar again.
            for side in Side:
                assert after.position_for(side).mine_waiting <= before.position_for(side).mine_waiting
    result = final.last_game_result
    assert result is not None
    if rules.match_length:
        assert final.match_winner is not None
        assert final.score[final.match_winner] >= rules.match_length
        assert final.score[final.match_winner.other] < rules.match_length
        if result.kind is not WinKind.TIMEOUT:
            for state in states[:-1]:
                assert max(state.score) < rules.match_length
    else:
        assert final.match_winner is result.winner
        assert final.game_number == 1


@pytest.mark.parametrize("seed", range(3))
def test_the_crawford_game_comes_once_when_a_side_reaches_match_point(seed: int) -> None:
    # Doubles are rarely offered, so the match mostly moves a point at a time.
    _, states = random_record(MatchRules(find_variant("BP"), 5), seed, double_rate=0.02)
    crawford_games = {state.game_number for state in states if state.crawford}
    assert len(crawford_games) <= 1
    reached_match_point = any(max(state.score) == 4 for state in states[:-1])
    assert bool(crawford_games) == reached_match_point
