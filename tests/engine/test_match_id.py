"""Match IDs against GNU Backgammon: a fixture of IDs gnubg computed (tools/gen_gnubg_match_ids.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from gnubg_replay import parse_token

from backgammon.engine import (
    Action,
    GameState,
    InvalidIdError,
    MatchIdInfo,
    MatchRules,
    PerSide,
    Phase,
    Side,
    apply_action,
    decode_match_id,
    encode_match_id,
    find_variant,
    new_match,
    replay,
)

FIXTURE = Path(__file__).parent / "data" / "gnubg_match_ids.txt"


def _cases() -> list[tuple[MatchIdInfo, str]]:
    cases = []
    for line in FIXTURE.read_text().splitlines():
        if line.startswith("#"):
            continue
        *numbers, match_id = line.split()
        (
            cube,
            owner,
            on_roll,
            crawford,
            state,
            turn,
            doubled,
            resigned,
            d0,
            d1,
            length,
            s0,
            s1,
            jacoby,
        ) = map(int, numbers)
        info = MatchIdInfo(
            cube_value=cube,
            cube_owner=None if owner < 0 else Side(owner),
            player_on_roll=Side(on_roll),
            crawford=bool(crawford),
            game_state=GameState(state),
            turn=Side(turn),
            double_offered=bool(doubled),
            resign_level=resigned,
            dice=(d0, d1),
            match_length=length,
            score=PerSide(s0, s1),
            jacoby=bool(jacoby),
        )
        cases.append((info, match_id))
    return cases


CASES = _cases()


def test_the_fixture_covers_a_spread_of_states() -> None:
    infos = [info for info, _ in CASES]
    assert len(infos) > 300
    assert {info.cube_owner for info in infos} == {None, Side.BLACK, Side.WHITE}
    assert {info.resign_level for info in infos} == {0, 1, 2, 3}
    assert set(GameState) == {info.game_state for info in infos}
    assert any(info.crawford for info in infos) and any(info.double_offered for info in infos)
    assert len({info.cube_value for info in infos}) >= 10
    assert len({info.match_length for info in infos}) >= 10


@pytest.mark.parametrize(("info", "match_id"), CASES, ids=[match_id for _, match_id in CASES])
def test_it_encodes_and_decodes_like_gnubg(info: MatchIdInfo, match_id: str) -> None:
    assert encode_match_id(info) == match_id
    # gnubg writes the higher die first, so the order of the dice does not survive.
    assert decode_match_id(match_id) == replace(info, dice=(max(info.dice), min(info.dice)))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("cAgAAAAAAAA", "12 characters"),
        ("cAgAAAAAAA!A", "not base64"),
        ("cAgAAAAAAAAAA", "12 characters"),
        ("4AgAAAAAAAAE", "out of range"),  # cube owner bits 10: no such owner
    ],
)
def test_it_refuses_malformed_ids(text: str, reason: str) -> None:
    with pytest.raises(InvalidIdError, match=reason):
        decode_match_id(text)


def test_a_match_state_gives_gnubgs_id_after_the_opening_roll() -> None:
    # gnubg's `new match 3` with an opening 4-3 won by player 1 shows cAluAAAAAAAE.
    state = new_match(MatchRules(find_variant("BP"), 3))
    state = apply_action(state, Action.roll(3, 4))
    assert state.turn is Side.WHITE and state.dice == (4, 3)
    assert state.match_id() == "cAluAAAAAAAE"


def test_a_money_state_with_jacoby_gives_gnubgs_id() -> None:
    # gnubg's money session with the Jacoby rule, player 0 on roll before rolling: MAEAAAAAAAAA.
    rules = MatchRules(find_variant("MP"), 0, jacoby=True)
    state = apply_action(new_match(rules), Action.roll(6, 1))
    state = apply_action(state, Action.play([(13, 7), (8, 7)]))
    state = apply_action(state, Action.roll(2, 1))
    state = apply_action(state, Action.play([(13, 11), (6, 5)]))
    assert state.turn is Side.BLACK and state.dice is None
    assert state.match_id() == "MAEAAAAAAAAA"


def test_pending_double_and_resignation_show_in_the_id() -> None:
    state = apply_action(new_match(MatchRules(find_variant("BP"), 5)), Action.roll(6, 1))
    state = apply_action(state, Action.play([(13, 7), (8, 7)]))
    doubled = decode_match_id(apply_action(state, Action.double()).match_id())
    assert (
        doubled.double_offered
        and doubled.turn is Side.BLACK
        and doubled.player_on_roll is Side.WHITE
    )
    resigned = decode_match_id(apply_action(state, Action.resign(2)).match_id())
    assert resigned.resign_level == 2 and resigned.turn is Side.BLACK


FINISHED = Path(__file__).parent / "data" / "gnubg_finished_matches.txt"


def _finished() -> list[tuple[MatchRules, list[Action], str, str, str]]:
    """Whole matches played in gnubg (tools/gen_gnubg_finished_matches.py) and its final IDs."""
    cases = []
    for line in FINISHED.read_text().splitlines():
        if line.startswith("#"):
            continue
        flags, tokens, position_id, match_id, ending = (part.strip() for part in line.split("|"))
        code, length, jacoby, beavers = flags.split()
        rules = MatchRules(
            find_variant(code), int(length), jacoby=jacoby == "1", beavers=beavers == "1"
        )
        actions = [parse_token(token) for token in tokens.split()]
        cases.append((rules, actions, position_id, match_id, ending))
    return cases


FINISHED_CASES = _finished()


def test_the_finished_matches_cover_every_ending() -> None:
    endings = {ending for *_, ending in FINISHED_CASES}
    for kind in ("drop money", "single money", "resign1 money", "resign2 money", "resign3 money"):
        assert kind in endings
    assert "backgammon money" in endings and "backgammon crawford match" in endings
    for kind in ("single", "gammon", "resign1", "resign2", "resign3"):
        assert f"{kind} match" in endings or f"{kind} crawford match" in endings
    assert sum("crawford" in ending for ending in endings) >= 3
    beavered = [actions for _, actions, *_ in FINISHED_CASES if Action.beaver() in actions]
    assert len(beavered) >= 2


@pytest.mark.parametrize(
    ("rules", "actions", "position_id", "match_id", "ending"),
    FINISHED_CASES,
    ids=[f"{number}-{case[4]}" for number, case in enumerate(FINISHED_CASES)],
)
def test_a_finished_match_gives_gnubgs_ids(
    rules: MatchRules, actions: list[Action], position_id: str, match_id: str, ending: str
) -> None:
    state = replay(rules, actions)
    assert state.phase is Phase.MATCH_OVER
    assert state.match_id() == match_id
    # Beside it, the board from gnubg's player on roll: the loser after a last bear-off.
    assert state.position_id() == position_id
