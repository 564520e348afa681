"""The game and match flow, one rule at a time."""

from __future__ import annotations

from dataclasses import replace

import pytest

from backgammon.engine import (
    CHECKERS,
    Action,
    GameResult,
    IllegalActionError,
    IllegalPlayError,
    InvalidRulesError,
    MatchRules,
    MatchState,
    PerSide,
    Phase,
    Position,
    Side,
    WinKind,
    apply_action,
    find_variant,
    new_match,
    replay,
)

BLACK, WHITE = Side.BLACK, Side.WHITE


def rules(code: str = "BP", length: int | None = None, **options: object) -> MatchRules:
    variant = find_variant(code)
    return MatchRules(variant, variant.match_length if length is None else length, **options)  # type: ignore[arg-type]


def run(state: MatchState, *actions: Action) -> MatchState:
    for action in actions:
        state = apply_action(state, action)
    return state


def opened(match_rules: MatchRules | None = None) -> MatchState:
    """Black opens with 3-1 (8/5 6/5); White is now in ROLL."""
    state = new_match(match_rules or rules())
    return run(state, Action.roll(3, 1), Action.play([(8, 5), (6, 5)]))


def layout(points: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


def bearing_off(
    state: MatchState, theirs: dict[int, int], cube: int = 1, owner: Side | None = None
) -> MatchState:
    """The player on turn (Black) has one checker left on the 1 point and rolls 2-1."""
    position = Position(layout({1: 1}), layout(theirs))
    return replace(
        state,
        phase=Phase.MOVE,
        turn=BLACK,
        position=position,
        dice=(2, 1),
        cube_value=cube,
        cube_owner=owner,
    )


# -- the opening roll --------------------------------------------------------------------------


def test_a_tied_opening_roll_is_rolled_again() -> None:
    state = run(new_match(rules()), Action.roll(4, 4))
    assert state.phase is Phase.OPENING_ROLL and state.cube_value == 1 and state.actor is None


def test_the_higher_die_moves_first_with_both_numbers() -> None:
    state = run(new_match(rules()), Action.roll(2, 6))
    assert (state.phase, state.turn, state.dice, state.actor) == (Phase.MOVE, WHITE, (6, 2), WHITE)
    state = run(new_match(rules()), Action.roll(5, 1))
    assert (state.turn, state.dice) == (BLACK, (5, 1))


def test_money_ties_turn_the_cube_up_to_the_cap() -> None:
    state = new_match(rules("MP", automatic_doubles=2))
    state = run(state, Action.roll(1, 1), Action.roll(5, 5), Action.roll(6, 6))
    assert state.cube_value == 4 and state.cube_owner is None
    assert run(state, Action.roll(3, 1)).cube_value == 4


def test_ties_do_not_turn_the_cube_without_automatic_doubles() -> None:
    assert run(new_match(rules("MP")), Action.roll(2, 2)).cube_value == 1


# -- roll or double, take, drop, beaver --------------------------------------------------------


def test_a_player_must_roll_or_double_before_moving() -> None:
    state = opened()
    assert state.phase is Phase.ROLL and state.can_double() and not state.roll_is_automatic
    with pytest.raises(IllegalActionError, match="You must roll or double first"):
        apply_action(state, Action.play([(13, 10)]))


def test_without_a_cube_the_roll_is_automatic() -> None:
    state = opened(rules("BX"))
    assert state.roll_is_automatic and not state.can_double()
    with pytest.raises(IllegalActionError, match="without the doubling cube"):
        apply_action(state, Action.double())
    with pytest.raises(IllegalActionError, match="You must roll first"):
        apply_action(state, Action.play([(13, 10)]))


def test_a_take_doubles_the_cube_and_the_doubler_must_roll() -> None:
    state = run(opened(), Action.double())
    assert state.phase is Phase.TAKE_OR_DROP and state.actor is BLACK and state.turn is WHITE
    state = run(state, Action.take())
    assert (state.phase, state.actor, state.cube_value, state.cube_owner) == (
        Phase.ROLL,
        WHITE,
        2,
        BLACK,
    )
    assert state.roll_is_automatic
    with pytest.raises(IllegalActionError, match="Your opponent owns the cube"):
        apply_action(state, Action.double())


def test_the_owner_may_redouble() -> None:
    state = run(
        opened(), Action.double(), Action.take(), Action.roll(3, 1), Action.play([(8, 5), (6, 5)])
    )
    assert state.turn is BLACK and state.can_double()
    state = run(state, Action.double(), Action.take())
    assert (state.cube_value, state.cube_owner) == (4, WHITE)


def test_a_drop_gives_the_doubler_the_cube_value_and_starts_the_next_game() -> None:
    state = run(
        opened(), Action.double(), Action.take(), Action.roll(3, 1), Action.play([(8, 5), (6, 5)])
    )
    state = run(state, Action.double(), Action.drop())
    assert state.last_game_result == GameResult(BLACK, WinKind.DROP, 2, 1)
    assert state.score == PerSide(2, 0) and state.game_number == 2
    assert (state.phase, state.cube_value, state.cube_owner, state.position) == (
        Phase.OPENING_ROLL,
        1,
        None,
        Position.initial(),
    )


def test_doubling_is_only_before_rolling() -> None:
    state = run(opened(), Action.roll(6, 5))
    with pytest.raises(IllegalActionError, match="only before you roll"):
        apply_action(state, Action.double())
    with pytest.raises(IllegalActionError, match="There is no double to take"):
        apply_action(state, Action.take())
    with pytest.raises(IllegalActionError, match="There is no double to drop"):
        apply_action(state, Action.drop())


def test_beavers_only_when_allowed() -> None:
    state = run(opened(rules("MP")), Action.double())
    with pytest.raises(IllegalActionError, match="Beavers are not allowed"):
        apply_action(state, Action.beaver())
    assert not state.can_beaver()
    state = run(opened(rules("MP", beavers=True)), Action.double())
    assert state.can_beaver()


def beavered() -> MatchState:
    """White doubled to 2 and Black beavered: White must take at 4 or drop."""
    state = run(opened(rules("MP", beavers=True)), Action.double(), Action.beaver())
    # gnubg's record of a beaver: the beaverer holds the cube at 2 and offers 4 to the doubler.
    assert (state.phase, state.actor, state.doubled_by, state.cube_value, state.cube_owner) == (
        Phase.TAKE_OR_DROP,
        WHITE,
        BLACK,
        2,
        BLACK,
    )
    assert state.beavered and not state.can_beaver()
    return state


def test_after_a_beaver_the_doubler_may_take_at_four() -> None:
    state = apply_action(beavered(), Action.take(), by=WHITE)
    assert (state.phase, state.actor, state.cube_value, state.cube_owner) == (
        Phase.ROLL,
        WHITE,
        4,
        BLACK,
    )


def test_after_a_beaver_the_doubler_may_drop_and_loses_the_value_before_it() -> None:
    state = apply_action(beavered(), Action.drop(), by=WHITE)
    assert state.phase is Phase.MATCH_OVER
    assert state.last_game_result == GameResult(BLACK, WinKind.DROP, 2, 1)
    assert state.score == PerSide(2, 0)


def test_a_beaver_cannot_be_beavered_back_and_only_the_doubler_answers_it() -> None:
    with pytest.raises(IllegalActionError, match="already been beavered"):
        apply_action(beavered(), Action.beaver())
    with pytest.raises(IllegalActionError, match="not your turn to drop"):
        apply_action(beavered(), Action.drop(), by=BLACK)


def test_it_is_not_your_turn_to_double() -> None:
    with pytest.raises(IllegalActionError, match="It is not your turn to double"):
        apply_action(opened(), Action.double(), by=BLACK)
    assert apply_action(opened(), Action.double(), by=WHITE).phase is Phase.TAKE_OR_DROP


def test_a_refused_action_changes_nothing() -> None:
    state = opened()
    before = replace(state)
    with pytest.raises(IllegalActionError):
        apply_action(state, Action.accept_resign())
    assert state == before


# -- plays -------------------------------------------------------------------------------------


def test_a_play_passes_the_turn_with_the_board_swapped() -> None:
    state = opened()
    assert state.position == state.position_for(WHITE)
    assert state.position_for(BLACK) == state.position.swapped()
    assert state.position_for(BLACK).mine[4] == 2  # Black's 5 point, made with 3-1
    assert state.moves_played == PerSide(1, 0)


def test_an_illegal_play_says_why() -> None:
    state = run(new_match(rules()), Action.roll(3, 1))
    with pytest.raises(IllegalPlayError):
        apply_action(state, Action.play([(8, 5)]))
    with pytest.raises(IllegalPlayError):
        apply_action(state, Action.play(()))


def test_a_forced_pass_is_the_empty_play() -> None:
    # Black on the bar against a closed board cannot move.
    closed = layout({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    position = Position(layout({25: 1, 13: 14}), closed)
    state = replace(new_match(rules()), phase=Phase.MOVE, position=position, dice=(6, 6))
    assert [play.moves for play in state.legal_plays()] == [()]
    after = apply_action(state, Action.play(()))
    assert (after.phase, after.turn, after.position) == (Phase.ROLL, WHITE, position.swapped())


# -- the end of a game -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("theirs", "kind", "points"),
    [
        ({6: 14}, WinKind.SINGLE, 2),
        ({6: 15}, WinKind.GAMMON, 4),
        ({6: 14, 20: 1}, WinKind.BACKGAMMON, 6),
        ({6: 14, 25: 1}, WinKind.BACKGAMMON, 6),
    ],
)
def test_bearing_off_the_last_checker_wins_single_gammon_or_backgammon(
    theirs: dict[int, int], kind: WinKind, points: int
) -> None:
    state = bearing_off(new_match(rules("BP", 9)), theirs, cube=2, owner=WHITE)
    state = apply_action(state, Action.play([(1, 0)]))
    assert state.last_game_result == GameResult(BLACK, kind, points, 1)
    assert state.score == PerSide(points, 0)


def test_a_win_is_a_win_where_gammons_do_not_count() -> None:
    state = bearing_off(new_match(rules("BX")), {6: 15})
    state = apply_action(state, Action.play([(1, 0)]))
    assert state.phase is Phase.MATCH_OVER and state.match_winner is BLACK
    assert state.last_game_result == GameResult(BLACK, WinKind.GAMMON, 1, 1)


def test_jacoby_counts_gammons_only_after_a_double() -> None:
    jacoby = rules("MP", jacoby=True)
    unturned = apply_action(bearing_off(new_match(jacoby), {6: 15}), Action.play([(1, 0)]))
    assert unturned.last_game_result is not None and unturned.last_game_result.points == 1
    turned = apply_action(
        bearing_off(new_match(jacoby), {6: 15}, cube=2, owner=BLACK), Action.play([(1, 0)])
    )
    assert turned.last_game_result is not None and turned.last_game_result.points == 4


def test_in_anti_backgammon_the_first_off_loses() -> None:
    state = apply_action(bearing_off(new_match(rules("BA")), {6: 15}), Action.play([(1, 0)]))
    assert state.match_winner is WHITE
    assert state.last_game_result == GameResult(WHITE, WinKind.SINGLE, 1, 1)


def test_anti_backgammon_is_a_draw_after_500_moves_a_side() -> None:
    state = run(new_match(rules("BA")), Action.roll(3, 1))
    state = replace(state, moves_played=PerSide(499, 500))
    state = apply_action(state, Action.play([(8, 5), (6, 5)]))
    assert (state.phase, state.match_winner) == (Phase.MATCH_OVER, None)
    assert state.last_game_result == GameResult(None, WinKind.DRAW, 0, 1)


# -- resignation and timeout -------------------------------------------------------------------


def test_an_accepted_resignation_scores_level_times_cube() -> None:
    state = run(opened(), Action.double(), Action.take(), Action.resign(2))
    assert state.phase is Phase.RESIGN_OFFERED and state.actor is BLACK
    state = run(state, Action.accept_resign())
    assert state.last_game_result == GameResult(BLACK, WinKind.RESIGN, 4, 1)


def test_a_resignation_counts_one_point_where_gammons_do_not() -> None:
    state = run(opened(rules("BX")), Action.resign(3), Action.accept_resign())
    assert state.last_game_result == GameResult(BLACK, WinKind.RESIGN, 1, 1)


def test_a_rejected_resignation_returns_to_the_same_phase_and_dice() -> None:
    rolled = run(opened(), Action.roll(6, 4))
    assert run(rolled, Action.resign(1), Action.reject_resign()) == rolled
    assert run(opened(), Action.resign(1), Action.reject_resign()) == opened()
    with pytest.raises(IllegalActionError, match="no resignation to reject"):
        apply_action(rolled, Action.reject_resign())


def test_a_timeout_forfeits_the_match() -> None:
    state = run(opened(), Action.timeout())
    assert (state.phase, state.match_winner, state.score) == (
        Phase.MATCH_OVER,
        BLACK,
        PerSide(5, 0),
    )
    assert state.last_game_result == GameResult(BLACK, WinKind.TIMEOUT, 5, 1)
    with pytest.raises(IllegalActionError, match="The match is over"):
        apply_action(state, Action.roll(3, 1))
    single = run(opened(rules("BX")), Action.timeout())
    assert (single.match_winner, single.score) == (BLACK, PerSide(1, 0))


def test_the_doubled_player_times_out() -> None:
    state = run(opened(), Action.double(), Action.timeout())
    assert state.match_winner is WHITE


def test_no_timeout_during_the_opening_roll() -> None:
    with pytest.raises(IllegalActionError, match="opening roll"):
        apply_action(new_match(rules()), Action.timeout())


# -- the match ---------------------------------------------------------------------------------


def win_game_by_drop(state: MatchState, winner: Side) -> MatchState:
    """The next game: the winner doubles at its first chance and the other side drops."""
    state = run(state, Action.roll(3, 1) if winner is WHITE else Action.roll(1, 3))
    state = run(state, Action.play([(8, 5), (6, 5)]), Action.double(), Action.drop())
    return state


def resign_game(state: MatchState, loser: Side) -> MatchState:
    state = run(state, Action.roll(3, 1) if loser is BLACK else Action.roll(1, 3))
    return run(state, Action.resign(1), Action.accept_resign())


def test_crawford_then_post_crawford() -> None:
    state = new_match(rules("BP", 5))
    for _ in range(4):
        state = win_game_by_drop(state, WHITE)
    assert state.score == PerSide(0, 4) and state.crawford and state.game_number == 5
    state = run(state, Action.roll(3, 1), Action.play([(8, 5), (6, 5)]))
    assert not state.can_double() and state.roll_is_automatic
    with pytest.raises(IllegalActionError, match="You cannot double in the Crawford game"):
        apply_action(state, Action.double())
    state = run(state, Action.resign(1), Action.accept_resign())
    assert state.score == PerSide(1, 4) and not state.crawford
    state = win_game_by_drop(state, BLACK)
    assert state.score == PerSide(2, 4) and not state.crawford


def test_the_match_ends_exactly_at_its_length() -> None:
    state = new_match(rules("BP", 3))
    state = win_game_by_drop(state, BLACK)
    state = win_game_by_drop(state, BLACK)
    assert state.crawford and state.phase is Phase.OPENING_ROLL
    state = resign_game(state, WHITE)
    assert (state.phase, state.match_winner, state.score) == (
        Phase.MATCH_OVER,
        BLACK,
        PerSide(3, 0),
    )


def test_a_single_game_match_is_over_after_one_game() -> None:
    state = run(opened(rules("MP")), Action.double(), Action.drop())
    assert (state.phase, state.match_winner, state.score) == (
        Phase.MATCH_OVER,
        WHITE,
        PerSide(0, 1),
    )


def test_replay_reproduces_and_names_the_refused_action() -> None:
    actions = [Action.roll(3, 1), Action.play([(8, 5), (6, 5)]), Action.double(), Action.take()]
    assert replay(rules(), actions) == run(new_match(rules()), *actions)
    with pytest.raises(
        IllegalActionError, match=r"Action 2 \(Action.double\(\)\): You can double only before"
    ):
        replay(rules(), [Action.roll(3, 1), Action.double()])
    with pytest.raises(IllegalActionError, match="You must play your roll of 3-1 first"):
        replay(rules(), [Action.roll(3, 1), Action.roll(2, 2)])


def test_race_variants_start_on_the_bar_waiting() -> None:
    state = new_match(rules("BR"))
    assert state.position.bar() == (CHECKERS, CHECKERS)
    assert (state.position.mine_waiting, state.position.theirs_waiting) == (CHECKERS, CHECKERS)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"code": "BP", "length": 26}, "1 to 25 points"),
        ({"code": "BX", "length": 0, "jacoby": True}, "money play"),
        ({"code": "MP", "length": 3, "beavers": True}, "money play"),
        ({"code": "MP", "length": 0, "automatic_doubles": 9}, "capped"),
    ],
)
def test_impossible_rules_are_refused(options: dict[str, object], reason: str) -> None:
    code = str(options.pop("code"))
    with pytest.raises(InvalidRulesError, match=reason):
        rules(code, **options)  # type: ignore[arg-type]
