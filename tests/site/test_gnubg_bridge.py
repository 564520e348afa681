"""backgammon.gnubg_bridge: GNU Backgammon's judgement on the engine's positions (no database)."""

from __future__ import annotations

import random
import threading
from dataclasses import astuple, replace

import pytest

from backgammon.engine import (
    Action,
    MatchRules,
    Phase,
    Position,
    apply_action,
    find_variant,
    new_match,
)
from backgammon.engine.board import STANDARD_LAYOUT, Side
from backgammon.engine.match import MatchState
from backgammon.engine.notation import format_play
from backgammon.gnubg_bridge import (
    NO_GAMMONS,
    STRENGTHS,
    OutcomeValues,
    accepts_resignation,
    best_play,
    evaluate,
    gnubg_board,
    outcome_values,
)
from backgammon.gnubg_cube import CubeAnswer, should_double, take_answer

MEDIUM = STRENGTHS["medium"]


def layout(points: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


def state_at(
    variant: str, mine: dict[int, int], theirs: dict[int, int], **changes: object
) -> MatchState:
    code, _, length = variant.partition(":")
    rules = MatchRules(
        find_variant(code), int(length or 0), beavers=bool(changes.pop("beavers", False))
    )
    start = new_match(rules)
    fields: dict[str, object] = {
        "phase": Phase.ROLL,
        "position": Position(layout(mine), layout(theirs)),
    }
    fields.update(changes)
    return replace(start, **fields)  # type: ignore[arg-type]


RACE_CRUSHING = ({1: 4, 2: 4, 3: 3}, {6: 5, 5: 5, 4: 5})
RACE_DOUBLE_TAKE = ({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 4, 5: 3, 4: 3, 3: 3, 2: 2})


def test_the_board_is_gnubgs_opponent_first() -> None:
    position = Position(layout({6: 15}), STANDARD_LAYOUT)
    assert gnubg_board(position) == (STANDARD_LAYOUT, layout({6: 15}))


def test_the_opening_is_even_and_a_bear_off_race_is_won() -> None:
    assert 0.45 < evaluate(Position.initial()).win < 0.6
    assert evaluate(Position(layout({1: 2}), layout({6: 15}))).win > 0.99
    assert evaluate(Position(layout({6: 15}), layout({1: 2}))).win < 0.01


def test_look_ahead_off_the_main_thread_is_refused_not_a_crash() -> None:
    # The binding dies with a segmentation fault at 2-ply on any other thread (the worker's tick
    # thread once took a strong bot's turn and killed the worker): refuse, and say why.
    outcome: list[BaseException | float] = []

    def evaluate_on_a_thread(plies: int) -> None:
        try:
            outcome.append(evaluate(Position.initial(), plies).win)
        except RuntimeError as refusal:
            outcome.append(refusal)

    for plies in (0, 2):
        thread = threading.Thread(target=evaluate_on_a_thread, args=(plies,))
        thread.start()
        thread.join()
    win_at_0_ply, refused_at_2_ply = outcome
    assert isinstance(win_at_0_ply, float) and 0.45 < win_at_0_ply < 0.6
    assert isinstance(refused_at_2_ply, RuntimeError)
    assert "main thread" in str(refused_at_2_ply)


def test_the_best_opening_31_makes_the_five_point_at_every_strength_but_easy() -> None:
    state = apply_action(new_match(MatchRules(find_variant("BP"), 5)), Action.roll(3, 1))
    assert format_play(best_play(state, MEDIUM)) == "8/5 6/5"
    assert format_play(best_play(state, STRENGTHS["strong"])) == "8/5 6/5"


def test_easy_varies_its_plays() -> None:
    state = apply_action(new_match(MatchRules(find_variant("BX"), 0)), Action.roll(4, 2))
    seen = {
        format_play(best_play(state, STRENGTHS["easy"], random.Random(seed))) for seed in range(30)
    }
    assert "8/4 6/4" in seen and len(seen) > 1


def test_anti_backgammon_keeps_a_checker_back_where_backgammon_bears_off() -> None:
    mine, theirs = {2: 1, 1: 1}, {20: 5, 19: 5, 18: 5}
    anti = state_at("BA", mine, theirs, phase=Phase.MOVE, dice=(2, 1))
    plain = state_at("BX", mine, theirs, phase=Phase.MOVE, dice=(2, 1))
    assert any(best_play(anti, MEDIUM).result.mine)
    assert not any(best_play(plain, MEDIUM).result.mine)


def test_a_race_checker_waiting_on_the_bar_is_played_sensibly() -> None:
    start = apply_action(new_match(MatchRules(find_variant("BR"), 0)), Action.roll(6, 5))
    play = best_play(start, MEDIUM)
    assert play in start.legal_plays()
    assert sum(play.result.mine) == 15


def test_a_crushing_race_is_doubled_and_dropped() -> None:
    state = state_at("MP", *RACE_CRUSHING)
    assert should_double(state, MEDIUM)
    assert take_answer(replace(state, phase=Phase.TAKE_OR_DROP), MEDIUM) is CubeAnswer.DROP


def test_a_race_of_about_three_to_one_is_doubled_and_taken() -> None:
    state = state_at("MP", *RACE_DOUBLE_TAKE)
    assert should_double(state, MEDIUM)
    assert take_answer(replace(state, phase=Phase.TAKE_OR_DROP), MEDIUM) is CubeAnswer.TAKE


def test_the_opening_is_no_double_and_an_early_double_is_beavered_where_allowed() -> None:
    state = state_at("MP", {24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, beavers=True)
    assert not should_double(state, MEDIUM)
    assert take_answer(replace(state, phase=Phase.TAKE_OR_DROP), MEDIUM) is CubeAnswer.BEAVER


def test_nobody_doubles_where_the_rules_forbid_it() -> None:
    assert not should_double(state_at("BX", *RACE_CRUSHING), MEDIUM)
    assert not should_double(state_at("BP:5", *RACE_CRUSHING, crawford=True), MEDIUM)


def test_a_drop_that_would_lose_the_match_is_a_take() -> None:
    state = state_at(
        "BP:5",
        *RACE_CRUSHING,
        phase=Phase.TAKE_OR_DROP,
        score=replace(new_match(MatchRules(find_variant("BP"), 5)).score, black=4),
    )
    assert take_answer(state, MEDIUM) is CubeAnswer.TAKE


def test_a_lost_player_may_resign_a_single_game_but_not_a_gammon_cheaply() -> None:
    # The resigner (on turn) needs 6-6 to bear off three before the winner's last two: a single
    # game is fair.
    lost = state_at("BP:5", {6: 3}, {1: 2}, phase=Phase.RESIGN_OFFERED, resign_level=1)
    assert accepts_resignation(lost)
    # The resigner has all 15 checkers back and the winner is nearly off: a gammon is likely.
    gammoned = state_at(
        "BP:5", {16: 5, 15: 5, 14: 5}, {1: 2}, phase=Phase.RESIGN_OFFERED, resign_level=1
    )
    assert not accepts_resignation(gammoned)
    assert accepts_resignation(replace(gammoned, resign_level=2))


def test_gammons_are_worth_what_the_variant_and_the_score_make_them() -> None:
    assert outcome_values(state_at("BX", *RACE_CRUSHING), Side.BLACK) == NO_GAMMONS
    assert outcome_values(state_at("MP", *RACE_CRUSHING), Side.BLACK) == OutcomeValues()
    even = outcome_values(state_at("BP:5", *RACE_CRUSHING), Side.BLACK)
    assert even.gammon_win == even.gammon_loss > 0.5
    # Black needs 2 points: a gammon wins the match, so a backgammon adds nothing for Black,
    # while White (needing 5) still gains from one.
    score = new_match(MatchRules(find_variant("BP"), 5)).score.replace(Side.BLACK, 3)
    ahead = outcome_values(state_at("BP:5", *RACE_CRUSHING, score=score), Side.BLACK)
    assert ahead.backgammon_win == 0.0
    assert ahead.backgammon_loss > 0.0
    behind = outcome_values(state_at("BP:5", *RACE_CRUSHING, score=score), Side.WHITE)
    assert astuple(behind) == pytest.approx(astuple(ahead.flipped()), abs=1e-4)


def _beavered(position: Position) -> MatchState:
    """White doubled in a money game with beavers, and Black beavered: White answers."""
    offered = state_at("MP", {}, {}, beavers=True, position=position, turn=Side.WHITE)
    beavered = replace(offered, phase=Phase.TAKE_OR_DROP, cube_owner=Side.BLACK, cube_value=2)
    assert beavered.beavered and beavered.actor is Side.WHITE
    return beavered


def test_after_a_beaver_the_doubler_takes_a_double_that_was_right() -> None:
    # The audit's example: White on roll at lM+YAxCMZzYHAA (cAkAAAAAAAAE) doubles, Black beavers.
    # gnubg 2-ply gives White's double/take +1.088: taking the beaver is worth +2.18 to White,
    # dropping it -2. The bots used to apply the taker's test here, and dropped.
    beavered = _beavered(Position.from_id("lM+YAxCMZzYHAA"))
    for level in ("medium", "strong"):
        assert take_answer(beavered, STRENGTHS[level]) is CubeAnswer.TAKE, level
    answers = {take_answer(beavered, STRENGTHS["easy"], random.Random(seed)) for seed in range(30)}
    assert answers == {CubeAnswer.TAKE}  # never a beaver of the beaver


def test_look_ahead_cube_decisions_off_the_main_thread_are_refused() -> None:
    state = state_at("MP", *RACE_DOUBLE_TAKE)
    outcome: list[BaseException | bool] = []

    def decide() -> None:
        try:
            outcome.append(should_double(state, STRENGTHS["strong"]))
        except RuntimeError as refusal:
            outcome.append(refusal)

    thread = threading.Thread(target=decide)
    thread.start()
    thread.join()
    assert isinstance(outcome[0], RuntimeError) and "main thread" in str(outcome[0])


def test_after_a_beaver_a_doubler_far_behind_drops() -> None:
    crushed_doubler = Position(layout(RACE_CRUSHING[1]), layout(RACE_CRUSHING[0]))
    assert take_answer(_beavered(crushed_doubler), MEDIUM) is CubeAnswer.DROP
