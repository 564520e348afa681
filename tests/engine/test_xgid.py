"""XGID: GNU Backgammon reads the engine's XGID back to the engine's own Position and Match IDs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from gnubg_text import gnubg_command
from random_play import random_record

from backgammon.engine import (
    Action,
    MatchIdInfo,
    MatchRules,
    MatchState,
    PerSide,
    Phase,
    Side,
    decode_match_id,
    encode_xgid,
    find_variant,
    replay,
)

pytest.importorskip("gnubg")

_IDS = re.compile(r"Position ID: (\S+)\s+Match ID\s*: (\S+)")
_STEPPED_BACK = "Stepping back to the offering of the cube"


def gnubg_reads(xgid: str) -> tuple[str, str, str]:
    """gnubg's Position ID and Match ID after ``set xgid``, and what it said."""
    said = gnubg_command(f"set xgid {xgid}")
    found = _IDS.search(said)
    assert found, said
    return found.group(1), found.group(2), said


def gnubg_ids(xgid: str) -> tuple[str, str]:
    position_id, match_id, _ = gnubg_reads(xgid)
    return position_id, match_id


@pytest.fixture(scope="module", autouse=True)
def _gnubg_quiet() -> Iterator[None]:
    for command in ("set display off", "set player 0 human", "set player 1 human",
                    "set automatic roll off", "set automatic move off", "new game"):
        gnubg_command(command)
    yield
    gnubg_command("set beavers 3")  # a money XGID sets gnubg's beavers: give back its default


MONEY_RULES = (MatchRules(find_variant("MP"), 0), MatchRules(find_variant("MP"), 0, jacoby=True),
               MatchRules(find_variant("MP"), 0, beavers=True),
               MatchRules(find_variant("MP"), 0, jacoby=True, beavers=True))


def sample_states() -> list[MatchState]:
    """States where a player acts (roll, move, answer a double) from random matches and money games.

    gnubg reads no beavered double from an XGID (XG's ``B``): those are checked apart.
    """
    picked: list[MatchState] = []
    for rules, seed in ((MatchRules(find_variant("BP"), 5), 7), (MatchRules(find_variant("B9"), 9), 8),
                        (MatchRules(find_variant("BO"), 3), 9)):
        _, states = random_record(rules, seed, double_rate=0.3)
        picked += [state for state in states if state.phase in (Phase.ROLL, Phase.MOVE, Phase.TAKE_OR_DROP)]
    picked = picked[::7]
    for number, rules in enumerate(MONEY_RULES * 3):
        _, states = random_record(rules, 20 + number, double_rate=0.3)
        acting = [state for state in states if state.phase in (Phase.ROLL, Phase.MOVE, Phase.TAKE_OR_DROP)]
        picked += [state for state in acting[::5] + [s for s in acting if s.phase is Phase.TAKE_OR_DROP]
                   if not state.beavered]
    return picked


def test_gnubg_reads_the_xgid_as_the_engines_position_and_match_ids() -> None:
    states = sample_states()
    assert sum(state.phase is Phase.TAKE_OR_DROP for state in states) >= 10
    assert any(state.turn is Side.WHITE and state.phase is Phase.MOVE for state in states)
    assert any(state.rules.money and state.phase is Phase.TAKE_OR_DROP for state in states)
    for state in states:
        xgid = encode_xgid(state)
        position_id, match_id, said = gnubg_reads(xgid)
        # The Position ID gnubg pairs with the Match ID: the doubler's side while a double waits.
        assert position_id == state.position_id(), xgid
        ours, theirs = decode_match_id(state.match_id()), decode_match_id(match_id)
        if state.on_roll is Side.BLACK:
            theirs = swap_players(theirs)
        if state.phase is Phase.TAKE_OR_DROP:
            # gnubg keeps no offer from an XGID: it reads XG's "D" as the doubler about to
            # double, the same player on roll, the cube not yet turned.
            assert _STEPPED_BACK in said, said
            ours = replace(ours, double_offered=False, turn=ours.player_on_roll)
        assert theirs == ours, xgid


def test_a_pending_double_names_the_doubler_as_xg_writes_it() -> None:
    # BP 5: Black opens 31 8/5 6/5, White doubles. The taker on roll would read as Black about
    # to double from Black's side (4HPwATCwZ/ABMA), as the XGID said before.
    state = replay(MatchRules(find_variant("BP"), 5), [
        Action.roll(3, 1), Action.play([(8, 5), (6, 5)]), Action.double()])
    xgid = encode_xgid(state)
    assert xgid == "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:D:0:0:0:5:10"
    position_id, match_id, said = gnubg_reads(xgid)
    assert _STEPPED_BACK in said
    assert position_id == "sGfwATDgc/ABMA" == state.position_id()
    assert decode_match_id(match_id).cube_value == 1


def test_money_xgids_carry_the_jacoby_and_beaver_rules_as_gnubg_reads_them() -> None:
    opening = [Action.roll(3, 1), Action.play([(8, 5), (6, 5)])]
    for rules, flag in zip(MONEY_RULES, "0123", strict=True):
        xgid = encode_xgid(replay(rules, opening))
        assert xgid == f"XGID=-b---BD-B---eE---c-e----B-:0:0:-1:00:0:0:{flag}:0:10"
        _, match_id, _ = gnubg_reads(xgid)
        assert decode_match_id(match_id).jacoby is rules.jacoby
        beavers = gnubg_command("show beavers")
        assert ("No beavers allowed" in beavers) is not rules.beavers, beavers
    # In a match the flag stays the Crawford game's.
    assert encode_xgid(replay(MatchRules(find_variant("BP"), 5), opening)).endswith(":0:0:0:5:10")


def test_a_beavered_double_is_xgs_b_on_the_cube_before_the_double() -> None:
    rules = MatchRules(find_variant("MP"), 0, beavers=True)
    opening = [Action.roll(3, 1), Action.play([(8, 5), (6, 5)])]
    beavered = replay(rules, [*opening, Action.double(), Action.beaver()])
    assert encode_xgid(beavered) == "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:B:0:0:2:0:10"
    # A redouble beavered: the doubler held the cube at 2 before doubling to 4.
    redoubled = replay(rules, [*opening, Action.double(), Action.take(), Action.roll(2, 1),
                               Action.play([(13, 11), (6, 5)]), Action.double(), Action.beaver()])
    assert encode_xgid(redoubled).split(":")[1:5] == ["1", "1", "1", "B"]


def swap_players(info: MatchIdInfo) -> MatchIdInfo:
    """gnubg makes the player on roll its player 1; the engine makes Black player 0."""
    return replace(
        info,
        player_on_roll=info.player_on_roll.other,
        turn=info.turn.other,
        cube_owner=None if info.cube_owner is None else info.cube_owner.other,
        score=PerSide(info.score.white, info.score.black),
    )


def test_the_starting_position_reads_as_xg_writes_it() -> None:
    from backgammon.engine import apply_action, new_match

    state = apply_action(new_match(MatchRules(find_variant("BP"), 5)), Action.roll(3, 1))
    assert encode_xgid(state) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10"
    white_first = apply_action(new_match(MatchRules(find_variant("MP"), 0, jacoby=True)), Action.roll(1, 3))
    assert encode_xgid(white_first).endswith(":-1:31:0:0:1:0:10")
