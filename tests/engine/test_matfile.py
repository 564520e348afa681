"""The .mat export, read back by GNU Backgammon itself: same moves, cube actions and score."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from gnubg_replay import gnubg_replay, parse_token
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
    apply_action,
    export_mat,
    find_variant,
    new_match,
)

gnubg = pytest.importorskip("gnubg")

TOOLS = Path(__file__).resolve().parents[2] / "tools"
PLAYER = {Side.BLACK: "X", Side.WHITE: "O"}  # gnubg's player 0 is the left column
NAMES = PerSide("alice", "bob")


def gnubg_reads(text: str, tmp_path: Path, *, jacoby: bool = False) -> dict[str, Any]:
    """What a fresh gnubg reads from the file (tools/gnubg_import.py, in its own process)."""
    path = tmp_path / "record.mat"
    path.write_text(text)
    command = [sys.executable, str(TOOLS / "gnubg_import.py"), str(path)]
    answer = subprocess.run(
        command + (["--jacoby"] if jacoby else []), capture_output=True, check=True, text=True
    )
    read = json.loads(answer.stdout.splitlines()[-1])
    said = read["said"]
    assert "invalid" not in said.lower() and "unrecognised" not in said.lower(), said
    match: dict[str, Any] = read["match"]
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
            dice = tuple(sorted(before.dice, reverse=True))
            records.append(("move", PLAYER[before.turn], dice, net(action.moves), before.position.id))
        elif action.kind is ActionKind.DOUBLE:
            records.append(("double", PLAYER[before.turn]))
        elif action.kind in (ActionKind.TAKE, ActionKind.DROP) and actor is not None:
            records.append((action.kind.value, PLAYER[actor]))
        elif action.kind is ActionKind.BEAVER and actor is not None:
            records.append(("double", PLAYER[actor]))  # gnubg's beaver: a redouble, then take or drop
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
            dice = tuple(sorted(record["dice"], reverse=True))  # the order rolled is no fact of the game
            records.append(("move", record["player"], dice, net(moves), record["board"]))
        elif record["action"] in ("double", "take", "drop", "resign"):
            records.append((record["action"], record["player"]))
    return records


def gnubg_plays(rules: MatchRules, actions: list[Action]) -> dict[str, Any]:
    """gnubg's own record of the same match, played in it command by command."""
    gnubg_replay(rules, actions)
    match: dict[str, Any] = gnubg.match()
    return match


def summary(match: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Per game: the score before it, every record, the winner and the points won."""
    return [
        (
            (game["info"]["score-X"], game["info"]["score-O"]),
            gnubg_records(game),
            game["info"]["winner"],
            game["info"].get("points-won"),
        )
        for game in match["games"]
    ]


def assert_gnubg_reads_what_it_played(rules: MatchRules, actions: list[Action], tmp_path: Path) -> str:
    text = export_mat(rules, actions, NAMES, event="test", date=datetime.date(2024, 5, 1))
    played = summary(gnubg_plays(rules, actions))
    assert summary(gnubg_reads(text, tmp_path, jacoby=rules.jacoby)) == played
    return text


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
        "  1)                             51: 13/8 6/5 ",
        "  2)  Doubles => 2                Takes",
        "",
    ]


def tokens(text: str) -> list[Action]:
    return [parse_token(token) for token in text.split()]


OPENING = "31 8/5,6/5"  # Black (gnubg's X, the left column) opens; White is on roll
MONEY_BEAVERS = MatchRules(find_variant("MP"), 0, beavers=True)


def gnubg_export(rules: MatchRules, actions: list[Action], tmp_path: Path) -> list[str]:
    """The game lines gnubg itself writes for the same match (``export match mat``)."""
    gnubg_plays(rules, actions)
    gnubg_command(f"set player 0 name {NAMES.black}")
    gnubg_command(f"set player 1 name {NAMES.white}")
    path = tmp_path / "gnubg.mat"
    gnubg_command(f"export match mat {path}")
    return game_lines(path.read_text())


def game_lines(text: str) -> list[str]:
    lines = text.rstrip("\n").splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith(" Game 1")) :]


@pytest.mark.parametrize(
    "record",
    [f"{OPENING} D B P", f"{OPENING} D B T 21 13/11,6/5 R1 A", f"{OPENING} D T", f"{OPENING} D B"],
    ids=["beaver-dropped", "beaver-taken", "take-ends-the-line", "beaver-pending"],
)
def test_cube_lines_are_written_as_gnubg_writes_them(record: str, tmp_path: Path) -> None:
    # A beaver taken leaves no Takes; a line with only a left cell keeps its padding (gnubg reads
    # a bare "  2)  Takes" as a take and a double).
    actions = tokens(record)
    text = export_mat(MONEY_BEAVERS, actions, NAMES)
    assert game_lines(text) == gnubg_export(MONEY_BEAVERS, actions, tmp_path)
    assert summary(gnubg_reads(text, tmp_path)) == summary(gnubg_plays(MONEY_BEAVERS, actions))


def test_a_beaver_dropped_scores_the_cube_before_the_beaver(tmp_path: Path) -> None:
    text = assert_gnubg_reads_what_it_played(MONEY_BEAVERS, tokens(f"{OPENING} D B P"), tmp_path)
    assert " Beavers => 4" in text and " Drops" in text and "Wins 2 points" in text


def test_a_resignation_before_the_first_play_keeps_its_roll(tmp_path: Path) -> None:
    rules = MatchRules(find_variant("BP"), 3)
    actions = tokens("31 R1 A 21 13/11,6/5 64 24/18,18/14")
    text = assert_gnubg_reads_what_it_played(rules, actions, tmp_path)
    assert "  1) 31:" in text and "Wins 1 point" in text
    match = gnubg_reads(text, tmp_path)
    assert len(match["games"]) == 2 and match["games"][0]["info"]["winner"] == "O"


def test_a_beaver_taken_then_a_resignation_before_the_roll_scores_the_beavered_cube(tmp_path: Path) -> None:
    # White doubles to 2, Black beavers to 4, White takes and resigns a gammon before rolling:
    # 8 points. Without the Takes gnubg's reader scores the resignation on the cube of 2 (6 points).
    actions = tokens(f"{OPENING} D B T R2 A")
    text = assert_gnubg_reads_what_it_played(MONEY_BEAVERS, actions, tmp_path)
    assert game_lines(text)[-2:] == ["  2)  Beavers => 4                Takes", "      Wins 8 points"]
    [game] = gnubg_reads(text, tmp_path)["games"]
    assert (game["info"]["winner"], game["info"]["points-won"]) == ("X", 8)


def resigned_after_a_roll(rules: MatchRules, *, forced: bool) -> list[Action]:
    """A random record cut at a roll with one legal play (``forced``) or none, then resigned."""
    for seed in range(200):
        actions, states = random_record(rules, seed)
        for number, state in enumerate(states):
            plays = state.legal_plays()
            if state.phase is Phase.MOVE and len(plays) == 1 and bool(plays[0].moves) is forced:
                return [*actions[:number], Action.resign(1), Action.accept_resign()]
    raise AssertionError("no such roll in 200 random records")


@pytest.mark.parametrize("forced", [True, False], ids=["one-legal-play", "no-legal-play"])
def test_a_resignation_after_a_roll_with_one_play_or_none_adds_no_play(forced: bool, tmp_path: Path) -> None:
    # gnubg's reader plays a bare roll ("43:") that has one legal play or none: such a roll is left
    # out, so gnubg reads the record's plays and nothing more.
    rules = MatchRules(find_variant("MP"), 0)
    actions = resigned_after_a_roll(rules, forced=forced)
    text = export_mat(rules, actions, NAMES)
    rolled = actions[-3].dice
    assert rolled is not None and f"{rolled[0]}{rolled[1]}: \n" not in game_lines(text)[-2] + "\n"
    states = [new_match(rules)]
    for action in actions:
        states.append(apply_action(states[-1], action))
    [expected] = expected_games(actions, states)
    [read] = gnubg_reads(text, tmp_path)["games"]
    assert gnubg_records(read) == expected["records"]
    result = expected["result"]
    assert (read["info"]["winner"], read["info"]["points-won"]) == (PLAYER[result.winner], result.points)
    if forced:  # gnubg passes a roll with no legal play at once: it can play only the forced one
        assert summary(gnubg_reads(text, tmp_path)) == summary(gnubg_plays(rules, actions))


def test_a_game_in_progress_ends_without_its_unplayed_roll(tmp_path: Path) -> None:
    rules = MatchRules(find_variant("BP"), 3)
    actions = tokens(f"{OPENING} D T 66")
    text = export_mat(rules, actions, NAMES)
    assert game_lines(text)[-1] == "  2)  Takes                      "
    records = gnubg_records(gnubg_reads(text, tmp_path)["games"][0])
    assert [record[0] for record in records] == ["move", "double", "take"]


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (MatchRules(find_variant("BA"), 0), "the first to bear off all checkers loses"),
        (MatchRules(find_variant("BR"), 0), "all checkers start on the bar"),
        (MatchRules(find_variant("BS"), 5), "all checkers start on the bar"),
        (MatchRules(find_variant("BX"), 0), "count as a single game in Backgammon (BX)"),
        (MatchRules(find_variant("MP"), 0, automatic_doubles=2), "Automatic doubles (up to 2)"),
    ],
)
def test_the_header_says_what_gnubg_cannot_read(rules: MatchRules, words: str) -> None:
    header = [line for line in export_mat(rules, [], NAMES).splitlines() if line.startswith(";")]
    assert any(words in line for line in header if not line.startswith("; ["))


def test_plain_rules_need_no_warning() -> None:
    for code in ("BP", "B9", "BO"):
        text = export_mat(MatchRules(find_variant(code), 5), [], NAMES)
        assert all(line.startswith("; [") for line in text.splitlines() if line.startswith(";"))


READABLE = [
    MatchRules(find_variant("BP"), 5),
    MatchRules(find_variant("B9"), 9),
    MatchRules(find_variant("BO"), 3),
    MatchRules(find_variant("BN"), 0),
    MatchRules(find_variant("BX"), 0),
    MatchRules(find_variant("MP"), 0, jacoby=True, beavers=True),
    MatchRules(find_variant("MP"), 0),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", READABLE, ids=[f"{r.variant.code}{r.match_length}" for r in READABLE])
def test_random_matches_read_back_as_gnubg_played_them(rules: MatchRules, tmp_path: Path) -> None:
    checked = 0
    for seed in range(12):
        actions, states = random_record(rules, seed, double_rate=(0.05, 0.2, 0.4)[seed % 3])
        try:
            played = summary(gnubg_plays(rules, actions))
        except AssertionError:
            continue  # gnubg refuses a double of a dead cube, which the site allows
        text = export_mat(rules, actions, NAMES)
        # BX and BN count gammons single: a reader gets that with gnubg's Jacoby rule (their
        # cube never turns), as the file's header says.
        jacoby = rules.jacoby or not rules.variant.counts_gammons
        read = summary(gnubg_reads(text, tmp_path, jacoby=jacoby))
        if jacoby:
            # gnubg plays BX and BN with gammons, and under the Jacoby rule scores a resigned
            # gammon double; the file is read with the engine's points.
            final = states[-1].last_game_result
            assert final is not None and [game[3] for game in read] == [final.points]
            read, played = [game[:3] for game in read], [game[:3] for game in played]
        assert read == played, seed
        checked += 1
    assert checked >= 5
