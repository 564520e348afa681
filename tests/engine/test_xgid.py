"""XGID: GNU Backgammon reads the engine's XGID back to the engine's own Position and Match IDs."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from gnubg_text import gnubg_command
from random_play import random_record

from backgammon.engine import (
    MatchIdInfo,
    MatchRules,
    MatchState,
    PerSide,
    Phase,
    Side,
    decode_match_id,
    encode_xgid,
    find_variant,
)

pytest.importorskip("gnubg")

_IDS = re.compile(r"Position ID: (\S+)\s+Match ID\s*: (\S+)")


def gnubg_ids(xgid: str) -> tuple[str, str]:
    said = gnubg_command(f"set xgid {xgid}")
    found = _IDS.search(said)
    assert found, said
    return found.group(1), found.group(2)


@pytest.fixture(scope="module", autouse=True)
def _gnubg_quiet() -> None:
    for command in ("set display off", "set player 0 human", "set player 1 human",
                    "set automatic roll off", "set automatic move off", "new game"):
        gnubg_command(command)


def sample_states() -> list[MatchState]:
    """States where a player acts (roll, move, answer a double) from random matches."""
    picked: list[MatchState] = []
    for rules, seed in ((MatchRules(find_variant("BP"), 5), 7), (MatchRules(find_variant("B9"), 9), 8),
                        (MatchRules(find_variant("BO"), 3), 9)):
        _, states = random_record(rules, seed, double_rate=0.3)
        picked += [state for state in states if state.phase in (Phase.ROLL, Phase.MOVE, Phase.TAKE_OR_DROP)]
    return picked[::7]


def test_gnubg_reads_the_xgid_as_the_engines_position_and_match_ids() -> None:
    states = sample_states()
    assert any(state.phase is Phase.TAKE_OR_DROP for state in states)
    assert any(state.turn is Side.WHITE and state.phase is Phase.MOVE for state in states)
    for state in states:
        xgid = encode_xgid(state)
        acting = state.turn.other if state.phase is Phase.TAKE_OR_DROP else state.turn
        position_id, match_id = gnubg_ids(xgid)
        assert position_id == state.position_for(acting).id, xgid
        ours, theirs = decode_match_id(state.match_id()), decode_match_id(match_id)
        if acting is Side.BLACK:
            theirs = swap_players(theirs)
        if state.phase is Phase.TAKE_OR_DROP:
            # gnubg's reader drops XG's "D" (a double waiting for its answer) and puts the taker
            # on roll: compare what it keeps.
            ours = replace(ours, double_offered=False, player_on_roll=ours.turn)
        assert theirs == ours, xgid


def swap_players(info: MatchIdInfo) -> MatchIdInfo:
    """gnubg makes the player who acts its player 1; the engine makes Black player 0."""
    return replace(
        info,
        player_on_roll=info.player_on_roll.other,
        turn=info.turn.other,
        cube_owner=None if info.cube_owner is None else info.cube_owner.other,
        score=PerSide(info.score.white, info.score.black),
    )


def test_the_starting_position_reads_as_xg_writes_it() -> None:
    from backgammon.engine import Action, apply_action, new_match

    state = apply_action(new_match(MatchRules(find_variant("BP"), 5)), Action.roll(3, 1))
    assert encode_xgid(state) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10"
    white_first = apply_action(new_match(MatchRules(find_variant("MP"), 0, jacoby=True)), Action.roll(1, 3))
    assert encode_xgid(white_first).endswith(":-1:31:0:0:1:0:10")
