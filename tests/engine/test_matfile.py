"""The .mat export, read back by GNU Backgammon itself: same moves, cube actions and score."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from gnubg_text import gnubg_command
from random_play import random_record

from backgammon.engine import (
    Action,
    ActionKind,
    MatchRules,
    MatchState,
    PerSide,
    Phase,
    Side,
    export_mat,
    find_variant,
)

gnubg = pytest.importorskip("gnubg")

PLAYER = {Side.BLACK: "X", Side.WHITE: "O"}  # gnubg's player 0 is the left column
NAMES = PerSide("alice", "bob")


def gnubg_reads(text: str, tmp_path: Path, *, jacoby: bool = False) -> dict[str, Any]:
    path = tmp_path / "record.mat"
    path.write_text(text)
    gnubg_command("set display off")
    gnubg_command(f"set jacoby {'on' if jacoby else 'off'}")
    said = gnubg_command(f"import mat {path}")
    assert "invalid" not in said.lower() and "unrecognised" not in said.lower(), said
    match: dict[str, Any] = gnubg.match()
    return match


def expected_games(actions: list[Action], states: list[MatchState]) -> list[dict[str, Any]]:
    """Per game: the records gnubg should hold, the score before it, and who won how much."""
    games: list[dict[str, Any]] = []
    for action, before, after in zip(actions, states, states[1:], strict=False):
        if not games or games[-1]["number"] != before.game_number:
            games.append(
                {"number": before.game_number, "score": before.score, "records": [], "result": None}
            )
        records = games[-1]["records"]
        actor = before.actor
        if action.kind is ActionKind.PLAY:
            assert before.dice is not None
            records.append(
                ("move", PLAYER[before.turn], before.dice, net(action.moves), before.position.id)
            )
        elif action.kind is ActionKind.DOUBLE:
            records.append(("double", PLAYER[before.turn]))
        elif action.kind in (ActionKind.TAKE, ActionKind.DROP) and actor is not None:
            records.append((action.kind.value, PLAYER[actor]))
        elif action.kind is ActionKind.BEAVER and actor is not None:
            records += [("double", PLAYER[actor]), ("take", PLAYER[before.turn])]
        elif action.kind is ActionKind.ACCEPT_RESIGN:
            records.append(("resign", PLAYER[before.turn]))
        if after.last_game_result is not before.last_game_result:
            games[-1]["result"] = after.last_game_result
    return games


def net(moves: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Checkers leaving and reaching each point: equal for 11/9/4 and 11/6/4, which reach one position."""
    change: Counter[int] = Counter()
    for origin, destination in moves:
        change[origin] -= 1
        change[destination] += 1
    return tuple(sorted((point, count) for point, count in change.items() if count))


def gnubg_records(game: dict[str, Any]) -> list[tuple[Any, ...]]:
    records: list[tuple[Any, ...]] = []
    for record in game["game"]:
        if record["action"] == "move":
            moves = [(int(a), int(b)) for a, b in record["move"]]
            records.append(
                ("move", record["player"], tuple(record["dice"]), net(moves), record["board"])
            )
        elif record["action"] in ("double", "take", "drop", "resign"):
            records.append((record["action"], record["player"]))
    return records


def assert_gnubg_agrees(
    rules: MatchRules, seed: int, tmp_path: Path, double_rate: float = 0.2
) -> list[Action]:
    actions, states = random_record(rules, seed, double_rate=double_rate)
    text = export_mat(rules, actions, NAMES, event="test", date=datetime.date(2024, 5, 1))
    match = gnubg_reads(text, tmp_path, jacoby=rules.jacoby)
    assert match["match-info"]["match-length"] == rules.match_length
    assert (match["match-info"]["X"]["name"], match["match-info"]["O"]["name"]) == ("alice", "bob")
    expected = expected_games(actions, states)
    assert len(match["games"]) == len(expected)
    for ours, theirs in zip(expected, match["games"], strict=True):
        info = theirs["info"]
        assert (info["score-X"], info["score-O"]) == tuple(ours["score"])
        assert gnubg_records(theirs) == ours["records"], f"game {ours['number']}"
        result = ours["result"]
        assert result is not None and result.winner is not None
        assert (info["winner"], info["points-won"]) == (PLAYER[result.winner], result.points)
    final = states[-1]
    assert final.phase is Phase.MATCH_OVER and final.match_winner is not None
    return actions


def kinds(actions: list[Action]) -> set[ActionKind]:
    return {action.kind for action in actions}


@pytest.mark.parametrize("seed", [3, 11])
def test_gnubg_reads_back_a_five_point_match(seed: int, tmp_path: Path) -> None:
    actions = assert_gnubg_agrees(MatchRules(find_variant("BP"), 5), seed, tmp_path)
    assert {ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP} <= kinds(actions)


def test_gnubg_reads_back_a_match_with_a_crawford_game(tmp_path: Path) -> None:
    rules = MatchRules(find_variant("BP"), 5)
    _, states = random_record(rules, 1, double_rate=0.02)
    assert any(state.crawford for state in states)
    assert_gnubg_agrees(rules, 1, tmp_path, double_rate=0.02)


def test_gnubg_reads_back_a_nackgammon_match(tmp_path: Path) -> None:
    assert_gnubg_agrees(MatchRules(find_variant("BO"), 5), 2, tmp_path)


@pytest.mark.parametrize("seed", [1, 2])
def test_gnubg_reads_back_a_single_game(seed: int, tmp_path: Path) -> None:
    assert_gnubg_agrees(MatchRules(find_variant("BX"), 0), seed, tmp_path)


def test_gnubg_reads_back_a_money_game_with_a_beaver(tmp_path: Path) -> None:
    rules = MatchRules(find_variant("MP"), 0, beavers=True)
    actions = assert_gnubg_agrees(rules, 8, tmp_path, double_rate=0.4)
    assert ActionKind.BEAVER in kinds(actions)


def test_the_header_and_layout_follow_gnubg() -> None:
    rules = MatchRules(find_variant("BP"), 5)
    actions = [Action.roll(1, 5), Action.play([(13, 8), (6, 5)]), Action.double(), Action.take()]
    text = export_mat(
        rules,
        actions,
        PerSide("Ann Lee", 'b:"o]b'),
        event="Spring cup",
        date=datetime.date(2024, 5, 1),
    )
    assert text.splitlines() == [
        '; [Event "Spring cup"]',
        '; [Player 1 "Ann_Lee"]',
        '; [Player 2 "b_o_b"]',
        '; [EventDate "2024.05.01"]',
        '; [Variation "Backgammon"]',
        '; [Crawford "On"]',
        "",
        " 5 point match",
        "",
        " Game 1",
        " Ann_Lee : 0                    b_o_b : 0",
        "  1)                             51: 13/8 6/5",
        "  2)  Doubles => 2                Takes",
        "",
    ]
