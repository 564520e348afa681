"""Click-to-move: the Turn builder offers only steps that can finish as a legal play."""

from __future__ import annotations

import pytest
from playhelp import pos

from backgammon.engine import IllegalPlayError, Position
from backgammon.engine.notation import format_play
from backgammon.engine.plays import Move, legal_plays
from backgammon.engine.turn import Turn, notation_of

START = Position.initial()


def test_a_click_moves_by_the_first_die_and_swap_reverses_the_order() -> None:
    turn = Turn(START, (6, 1))
    assert turn.movable()[24] == (6, 18)
    assert turn.swap_dice().movable()[24] == (1, 23)
    assert turn.swap_dice().movable()[13] == (6, 7)  # 13/12 is blocked: the other die
    after = turn.step(13)
    assert after.steps == (Move(13, 7, False),) and after.remaining_dice() == (1,)
    assert after.movable()[8] == (1, 7)


def test_doubles_start_with_four_dice() -> None:
    turn = Turn(START, (3, 3))
    assert turn.remaining_dice() == (3, 3, 3, 3)
    turn = turn.step(8).step(8).step(6).step(6)
    assert turn.is_complete() and notation_of(turn) == "8/5(2) 6/3(2)"
    assert turn.movable() == {}


def test_a_click_that_would_strand_the_other_die_takes_the_other_die() -> None:
    # 14/8 strands the 5 (19 and 3 blocked): a click on 14 plays the 5 instead.
    position = pos({24: 1, 14: 1, 1: 13}, {19: 2, 3: 2})
    turn = Turn(position, (6, 5))
    assert turn.movable()[14] == (5, 9)
    with pytest.raises(IllegalPlayError):
        turn.step_to(14, 8)


def test_only_the_higher_die_is_offered_when_one_die_can_be_played() -> None:
    position = pos({13: 1, 1: 14}, {2: 2})
    turn = Turn(position, (5, 6))
    assert turn.movable() == {13: (6, 7)}
    done = turn.step(13)
    assert done.is_complete() and done.remaining_dice() == (5,)
    assert format_play(done.play()) == "13/7"


def test_bar_checker_must_enter_first() -> None:
    position = pos({25: 1, 6: 14})
    turn = Turn(position, (6, 5))
    assert set(turn.movable()) == {25}
    with pytest.raises(IllegalPlayError, match="A checker on the bar must enter first"):
        turn.step(6)


def test_step_to_moves_one_checker_by_both_dice() -> None:
    turn = Turn(START, (6, 5)).step_to(24, 13)
    assert turn.is_complete() and notation_of(turn) == "24/13"
    assert turn.play().result == next(
        p.result for p in legal_plays(START, (6, 5)) if format_play(p) == "24/13")


def test_step_to_names_a_blocked_point() -> None:
    with pytest.raises(IllegalPlayError, match="Point 1 is blocked"):
        Turn(START, (5, 6)).step_to(6, 1)


def test_undo_is_free_and_play_needs_a_complete_turn() -> None:
    turn = Turn(START, (4, 2)).step(8)
    assert turn.undo() == Turn(START, (4, 2))
    with pytest.raises(IllegalPlayError, match="not finished"):
        turn.play()
    with pytest.raises(IllegalPlayError, match="no move to undo"):
        Turn(START, (4, 2)).undo()


def test_a_click_on_an_empty_point_says_so() -> None:
    with pytest.raises(IllegalPlayError, match="no checker on point 3"):
        Turn(START, (4, 2)).step(3)


def test_a_bear_off_over_the_die_keeps_the_larger_die_when_it_can() -> None:
    position = pos({3: 1, 1: 1}, {20: 15})
    turn = Turn(position, (6, 5)).step(3)
    assert turn.remaining_dice() in {(5,), (6,)}
    assert turn.step(1).is_complete()


def test_forced_pass_reasons() -> None:
    closed = pos({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    assert Turn(closed, (6, 5)).forced_pass_reason() == "No legal move: every entry point is blocked"
    assert Turn(closed, (6, 5)).is_complete() and Turn(closed, (6, 5)).play().moves == ()
    stuck = pos({13: 1, 1: 14}, {7: 2, 8: 2})
    assert Turn(stuck, (6, 5)).forced_pass_reason() == "No legal move: every checker is blocked"
    assert Turn(START, (6, 5)).forced_pass_reason() is None


def test_a_turn_with_illegal_steps_cannot_be_built() -> None:
    with pytest.raises(IllegalPlayError):
        Turn(START, (6, 5), (Move(6, 1, False),))
    with pytest.raises(IllegalPlayError, match="not a roll"):
        Turn(START, (0, 5))


@pytest.mark.parametrize("roll", [(a, b) for a in range(1, 7) for b in range(1, 7)])
def test_every_legal_play_can_be_clicked_out(roll: tuple[int, int]) -> None:
    # Each legal play's moves, replayed with step_to, complete the turn to the same position.
    for play in legal_plays(START, roll):
        turn = Turn(START, roll)
        for move in play.moves:
            turn = turn.step_to(move.origin, move.destination)
        assert turn.is_complete() and turn.play().result == play.result


def _positions_of_random_play(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    import random

    rng = random.Random(seed)
    found, position = [], START
    while len(found) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        found.append((position, dice))
        position = rng.choice(legal_plays(position, dice)).result.swapped()
        if 15 in position.borne_off():
            position = START
    return found


def test_the_click_map_is_what_turn_offers_at_every_partial_turn() -> None:
    from backgammon.engine.turn import click_map

    for position, dice in _positions_of_random_play(300, seed=20261125):
        clicks = click_map(position, dice)
        for root, shown in ((clicks.roots[0], dice), (clicks.roots[1], (dice[1], dice[0]))):
            waiting = [(root, Turn(position, shown))]
            seen = set()
            while waiting:
                index, turn = waiting.pop()
                if (index, turn.steps) in seen or len(seen) > 200:
                    continue
                seen.add((index, turn.steps))
                node = clicks.nodes[index]
                assert {origin: lead[:2] for origin, lead in node.clicks.items()} == turn.movable(), (position, dice)
                assert node.complete == turn.is_complete() and node.remaining == turn.remaining_dice()
                waiting += [(lead[2], turn.step(origin)) for origin, lead in node.clicks.items()]
        if dice[0] == dice[1]:
            assert clicks.roots[0] == clicks.roots[1]


def test_the_click_map_of_a_forced_pass_is_one_complete_node() -> None:
    from backgammon.engine.turn import click_map

    closed = pos({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    clicks = click_map(closed, (6, 5))
    assert [node.clicks for node in clicks.nodes] == [{}, {}] and all(node.complete for node in clicks.nodes)
