"""The site's stored analysis against GNU Backgammon's own ``analyse match`` of the same games
(0-ply, the games' own rules): every play's error, every roll's luck and every cube verdict
within 0.001 of gnubg's export, each player's error rate and PR within 0.1 of gnubg's table.

gnubg's exports were generated once by tools/gen_gnubg_exports.py (a money game without the
Jacoby rule and beavers, one with both, a three-point match); they are read here with this
test's own patterns, not the site's reader, and the site's analysis runs gnubg afresh.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from analysis.gnubg_cube import parse_cube_verdicts
from backgammon.engine import Action, ActionKind, MatchRules, find_variant, legal_plays
from backgammon.engine.match import MatchState, Phase, apply_action, new_match
from backgammon.engine.notation import parse_play

pytest.importorskip("gnubg")

from analysis.isolated import analyse_isolated

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "gnubg_exports.json").read_text())
TOLERANCE = 0.001
_ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def rules_of(case: dict[str, Any]) -> MatchRules:
    return MatchRules(find_variant(case["variant"]), case["match_length"], jacoby=case["jacoby"],
                      beavers=case["beavers"])


def gnubg_rolls(text: str) -> list[dict[str, Any]]:
    """Per roll block of gnubg's export: who rolled what, its luck, what the play lost, the best."""
    rolls = []
    for block in text.split("\nMove number ")[1:]:
        head = re.match(r"\d+:\s+(\S+) to play (\d)(\d)", block)
        if head is None:
            continue
        luck = re.search(r"^Rolled \d\d \(([-+][\d.]+)\):$", block, re.MULTILINE)
        played = re.search(r"^\*\s+.*?(?:\(([-+][\d.]+)\))?$", block[luck.end():] if luck else "", re.MULTILINE)
        best = re.search(r"^\*?\s+1\.\s+Cubeful 0-ply\s+(.+?)\s+Eq\.", block, re.MULTILINE)
        chances = re.search(r"^\*\s+.*\n\s+([\d.]+) ", block, re.MULTILINE)
        assert luck is not None and played is not None, block
        rolls.append({"player": head[1], "dice": sorted((int(head[2]), int(head[3]))),
                      "luck": float(luck[1]), "error": abs(float(played[1] or 0)),
                      "best": best[1] if best else None,
                      "mover_wins": float(chances[1]) if chances else None})
    return rolls


def gnubg_players(text: str) -> dict[str, dict[str, float]]:
    """gnubg's last statistics table (the match's, or the game's): error rate and luck."""
    table = text[max(text.rfind("Match statistics"), text.rfind("Game statistics for game")):]
    players: dict[str, dict[str, float]] = {"black": {}, "white": {}}
    for key, pattern in (("error_rate", r"Chequerplay statistics.*?^Error rate mEMG \(\w+\)"),
                         ("luck", r"Luck statistics.*?^Luck total EMG \(\w+\)")):
        found = re.search(pattern + r"\s+([-+]?[\d.]+)\s+\([^)]*\)\s+([-+]?[\d.]+)", table,
                          re.MULTILINE | re.DOTALL)
        assert found is not None, key
        players["black"][key], players["white"][key] = float(found[1]), float(found[2])
    return players


def our_rolls(case: dict[str, Any], entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per play of the log (in order): the state before it, its roll's entry and its entry."""
    state = new_match(rules_of(case))
    rolls, roll_entry, opening = [], None, False
    for data, entry in zip(case["actions"], entries, strict=True):
        action = Action.from_dict(data)
        if action.kind is ActionKind.ROLL:
            roll_entry, opening = entry, state.phase is Phase.OPENING_ROLL
        elif action.kind is ActionKind.PLAY:
            rolls.append({"state": state, "action": action, "roll": roll_entry, "play": entry,
                          "opening": opening})
        state = apply_action(state, action)
    return rolls


@pytest.fixture(scope="module", params=[case["name"] for case in CASES])
def analysed(request: pytest.FixtureRequest) -> dict[str, Any]:
    case = next(case for case in CASES if case["name"] == request.param)
    text = (DATA / "gnubg_exports" / f"{case['name']}.txt").read_text()
    result = analyse_isolated(rules_of(case), [Action.from_dict(data) for data in case["actions"]])
    return {"case": case, "text": text, "result": result,
            "pairs": list(zip(our_rolls(case, result["actions"]), gnubg_rolls(text), strict=True))}


def test_every_roll_lines_up_with_gnubgs_blocks(analysed: dict[str, Any]) -> None:
    for ours, gnubg in analysed["pairs"]:
        assert ours["state"].turn.name.title() == gnubg["player"]
        assert sorted(ours["state"].dice) == gnubg["dice"]


def test_every_play_loses_what_gnubg_says(analysed: dict[str, Any]) -> None:
    assert len(analysed["pairs"]) > 20
    for ours, gnubg in analysed["pairs"]:
        assert ours["play"]["equity_loss"] == pytest.approx(gnubg["error"], abs=TOLERANCE)


def test_every_roll_has_gnubgs_luck(analysed: dict[str, Any]) -> None:
    for ours, gnubg in analysed["pairs"]:
        assert ours["roll"]["luck"] == pytest.approx(gnubg["luck"], abs=TOLERANCE)


def test_the_charts_chances_are_gnubgs(analysed: dict[str, Any]) -> None:
    # The one figure the site computes itself (the binding's cubeless 0-ply evaluation): Black's
    # chance to win after each play, against gnubg's chance for the mover under its played line.
    compared = 0
    for ours, gnubg in analysed["pairs"]:
        if gnubg["mover_wins"] is None:
            continue  # a dance: gnubg shows no chances
        mover_is_black = ours["state"].turn.name == "BLACK"
        black = gnubg["mover_wins"] if mover_is_black else 1 - gnubg["mover_wins"]
        assert ours["play"]["win_black"] == pytest.approx(black, abs=0.001)
        compared += 1
    assert compared > 20


def test_every_cube_verdict_is_gnubgs(analysed: dict[str, Any]) -> None:
    result = analysed["result"]
    assert result["cube_rated"] is True
    gnubg = [(v["proper"], v["error"]) for v in parse_cube_verdicts(analysed["text"])
             if v["kind"] != "roll" or v["rated"]]
    ours = [(entry["proper"], entry["cube_error"]) for entry in result["actions"] if "cube_error" in entry]
    assert [proper for proper, _ in ours] == [proper for proper, _ in gnubg]
    assert [error for _, error in ours] == pytest.approx([error for _, error in gnubg], abs=TOLERANCE)
    assert len(ours) > 10


@pytest.mark.parametrize("side", ["black", "white"])
def test_each_players_error_rate_pr_and_luck_are_gnubgs(analysed: dict[str, Any], side: str) -> None:
    ours, gnubg = analysed["result"]["players"][side], gnubg_players(analysed["text"])[side]
    # gnubg prints errors as negative equity; the site counts what was lost. PR is half the
    # error rate in mEMG (500 x EMG lost per unforced play).
    assert ours["error_rate"] == pytest.approx(-gnubg["error_rate"], abs=0.1)
    assert ours["pr"] == pytest.approx(-gnubg["error_rate"] / 2, abs=0.1)
    assert ours["luck"] == pytest.approx(gnubg["luck"], abs=TOLERANCE)


def test_opening_rolls_have_gnubgs_luck(analysed: dict[str, Any]) -> None:
    # gnubg averages an opening roll's luck over both players' openings (not the mover's 30).
    openings = [(ours, gnubg) for ours, gnubg in analysed["pairs"] if ours["opening"]]
    assert len(openings) == len({ours["play"]["game"] for ours, _ in analysed["pairs"]})  # one a game
    assert openings
    for ours, gnubg in openings:
        assert ours["roll"]["luck"] == pytest.approx(gnubg["luck"], abs=TOLERANCE)


def could_another_roll_move(state: MatchState) -> bool:
    return any(legal_plays(state.position, roll) and legal_plays(state.position, roll)[0].moves
               for roll in _ALL_ROLLS)


def dances_where_another_roll_moves(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[Any]:
    return [(ours, gnubg) for ours, gnubg in pairs
            if not ours["action"].moves and could_another_roll_move(ours["state"])]


def test_the_games_have_dances_where_another_roll_could_move() -> None:
    # The case the site used to evaluate cubeless (the position a dance leaves, before rolling).
    count = 0
    for case in CASES:
        state = new_match(rules_of(case))
        for data in case["actions"]:
            action = Action.from_dict(data)
            if action.kind is ActionKind.PLAY and not action.moves and could_another_roll_move(state):
                count += 1
            state = apply_action(state, action)
    assert count >= 3


def test_a_dance_where_another_roll_moves_has_gnubgs_cubeful_luck(analysed: dict[str, Any]) -> None:
    for ours, gnubg in dances_where_another_roll_moves(analysed["pairs"]):
        assert ours["roll"]["luck"] == pytest.approx(gnubg["luck"], abs=TOLERANCE)
        assert ours["play"]["equity_loss"] == 0.0


def gnubg_result(state: MatchState, gnubg_move: str) -> str:
    """The Position ID after gnubg's play (its notation), read by gnubg itself."""
    from analysis.gnubg_analysis import gnubg_board, gnubg_result_id
    from backgammon.gnubg_home import gnubg

    board = gnubg_board(state.position)
    result = gnubg_result_id(board, [number for pair in gnubg.parsemove(gnubg_move) for number in pair])
    assert result is not None
    return result


def test_a_bear_off_with_a_choice_is_judged_cubeful_as_gnubg_judges_it(analysed: dict[str, Any]) -> None:
    bear_offs = [(ours, gnubg) for ours, gnubg in analysed["pairs"]
                 if ours["play"]["choices"] > 1
                 and any(move.destination == 0 for play in ours["state"].legal_plays() for move in play.moves)]
    assert bear_offs
    for ours, gnubg in bear_offs:
        assert ours["play"]["equity_loss"] == pytest.approx(gnubg["error"], abs=TOLERANCE)
        # gnubg's best play, in the site's notation: both lead to the same position.
        state = ours["state"]
        site_best = parse_play(state.position, state.dice, ours["play"]["best"])
        assert site_best.result.id == gnubg_result(state, gnubg["best"])


def test_an_export_that_does_not_line_up_with_the_log_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # gnubg's figures are kept only where its blocks are the game's own rolls, in order.
    from analysis import analyse
    from analysis.gnubg_record import ExportMismatch

    case = next(case for case in CASES if case["name"] == "money-plain")
    text = (DATA / "gnubg_exports" / f"{case['name']}.txt").read_text()
    second = text.index("Move number 2:")
    swapped = text[:second] + re.sub(r"to play (\d)(\d)", lambda m: f"to play {int(m[1]) % 6 + 1}{m[2]}",
                                     text[second:], count=1)
    monkeypatch.setattr(analyse, "gnubg_export_text", lambda mat, rules: swapped)
    with pytest.raises(ExportMismatch, match="record of the rolls differs"):
        analyse.analyse_match(rules_of(case), [Action.from_dict(data) for data in case["actions"]])


def test_an_export_without_its_parts_is_refused() -> None:
    from analysis.gnubg_record import ExportMismatch, parse_roll_verdicts, parse_statistics

    text = (DATA / "gnubg_exports" / "match-3.txt").read_text()
    with pytest.raises(ExportMismatch, match="no statistics table"):
        parse_statistics(text[:text.index("Game statistics for game 1")])
    with pytest.raises(ExportMismatch, match="no 'Rolled' line"):
        parse_roll_verdicts(text.replace("Rolled 32 (+0.033):", "", 1))
    assert parse_statistics(text)["Black"]["unforced"] > 0
