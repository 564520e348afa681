"""Legal plays: one concrete position for every rule, checked against hand-counted answers."""

from __future__ import annotations

import pytest
from playhelp import pos, reference_results

from backgammon.engine import IllegalPlayError, Position
from backgammon.engine.notation import format_play
from backgammon.engine.plays import Move, find_play, legal_plays

START = Position.initial()


def texts(position: Position, dice: tuple[int, int]) -> set[str]:
    return {format_play(play) for play in legal_plays(position, dice)}


def test_the_opening_31_has_16_distinct_plays() -> None:
    plays = legal_plays(START, (3, 1))
    assert len(plays) == 16
    assert len({play.result for play in plays}) == 16
    assert "8/5 6/5" in {format_play(play) for play in plays}


def test_plays_reaching_the_same_position_are_one_play() -> None:
    # 24/18 18/13 and 24/19 19/13 and 24/13 all end the same way.
    plays = [p for p in legal_plays(START, (6, 5)) if p.result.mine[23] == 1 and p.result.mine[12] == 6]
    assert len(plays) == 1


@pytest.mark.parametrize(("roll", "count"), [((6, 5), 7), ((1, 1), 42), ((6, 6), 11), ((2, 1), 15)])
def test_opening_counts_match_gnubg(roll: tuple[int, int], count: int) -> None:
    assert len(legal_plays(START, roll)) == count


def test_seed_bar_with_14_and_the_4_point_blocked_enters_with_the_1_only() -> None:
    # ItsYourTurn help: two on the bar, 1-4, White holds Black's 4-point: enter with the 1, turn ends.
    position = pos({25: 2, 13: 5, 6: 5, 8: 3}, {21: 2, 1: 2, 12: 5})
    plays = legal_plays(position, (1, 4))
    assert [format_play(p) for p in plays] == ["bar/24"]
    assert plays[0].result.mine[24] == 1


def test_seed_white_35_cannot_move_onto_a_blocked_point() -> None:
    # White's 19->22 is 6/3 in White's numbering; Black holds it. 17->20 and 19->24 are 8/5 6/1.
    position = pos({8: 1, 6: 1, 13: 13}, {3: 2, 1: 0, 20: 13})
    plays = texts(position, (3, 5))
    assert "8/5 6/1" in plays
    assert not any("6/3" in text for text in plays)
    with pytest.raises(IllegalPlayError, match="Point 3 is blocked"):
        find_play(position, (3, 5), [(6, 3), (8, 3)])


def test_seed_white_hits_on_point_7_with_15() -> None:
    # White moves Black's point 1 to Black's point 7: 24/18* in White's numbering.
    position = pos({24: 1, 13: 14}, {18: 1, 5: 14})
    play = find_play(position, (1, 5), [(24, 18)])
    assert play.moves[-1] == Move(19, 18, True) or play.moves[-1] == Move(23, 18, True)
    assert play.result.theirs[24] == 1 and play.result.mine[17] == 1


def test_when_only_one_die_can_be_played_it_must_be_the_higher() -> None:
    position = pos({13: 1, 1: 14}, {2: 2})
    assert texts(position, (6, 5)) == {"13/7"}
    with pytest.raises(IllegalPlayError, match=r"higher die \(6\)"):
        find_play(position, (6, 5), [(13, 8)])


def test_when_only_the_lower_die_can_be_played_it_is_played() -> None:
    position = pos({13: 1, 1: 14}, {2: 2, 7: 2})
    assert texts(position, (6, 5)) == {"13/8"}


def test_both_dice_must_be_used_when_possible() -> None:
    # 14/8 alone strands the 5 (19 and 3 are blocked), but 14/9 with a 6 plays both.
    position = pos({24: 1, 14: 1, 1: 13}, {19: 2, 3: 2})
    plays = texts(position, (6, 5))
    assert "24/18 14/9" in plays and "14/8" not in plays
    with pytest.raises(IllegalPlayError, match="You must use both dice: after 14/8 the 5 cannot be played, but .* plays both"):
        find_play(position, (6, 5), [(14, 8)])
    with pytest.raises(IllegalPlayError, match="after 24/18 play the 5 too"):
        find_play(position, (6, 5), [(24, 18)])


def test_doubles_partly_blocked_play_as_many_as_possible() -> None:
    position = pos({20: 1, 1: 14}, {11: 2})
    plays = legal_plays(position, (3, 3))
    assert [format_play(p) for p in plays] == ["20/14"]
    assert len(plays[0].moves) == 2


def test_two_on_the_bar_with_one_entry_point_open() -> None:
    position = pos({25: 2, 6: 13}, {20: 2})
    plays = legal_plays(position, (6, 5))
    assert [format_play(p) for p in plays] == ["bar/19"]
    assert plays[0].result.mine[24] == 1


def test_two_on_the_bar_both_enter_before_anything_else() -> None:
    position = pos({25: 2, 6: 13})
    assert all(p.moves[0].origin == 25 and p.moves[1].origin == 25 for p in legal_plays(position, (2, 2)))
    with pytest.raises(IllegalPlayError, match="A checker on the bar must enter first"):
        find_play(position, (6, 5), [(25, 19), (6, 1)])


def test_bar_fully_blocked_means_no_move() -> None:
    position = pos({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    plays = legal_plays(position, (6, 5))
    assert len(plays) == 1 and plays[0].moves == () and plays[0].result == position


def test_bear_off_exact_and_from_the_highest_point() -> None:
    position = pos({5: 2, 3: 1}, {20: 15})
    plays = texts(position, (6, 1))
    assert "5/4 5/off" in plays and "5/off 3/2" in plays
    assert not any("3/off" in text for text in plays)


def test_a_higher_checker_must_move_before_bearing_off_from_below_with_a_larger_die() -> None:
    position = pos({6: 1, 3: 1}, {20: 15})
    for play in legal_plays(position, (5, 1)):
        assert play.result.mine[5] == 0, format_play(play)
    with pytest.raises(IllegalPlayError):
        find_play(position, (5, 1), [(3, 0), (6, 5)])


def test_no_bearing_off_until_all_checkers_are_home() -> None:
    position = pos({7: 1, 2: 14}, {20: 15})
    assert "7/6 2/off" in texts(position, (1, 2))
    with pytest.raises(IllegalPlayError, match="cannot bear off while any of your checkers is outside your home board"):
        find_play(position, (1, 2), [(2, 0), (2, 1)])


def test_a_hit_checker_must_come_home_before_bearing_off_again() -> None:
    # Reachable in play: one checker borne off, then one hit.
    position = pos({25: 1, 1: 13}, {20: 14})
    for play in legal_plays(position, (6, 1)):
        assert play.result.mine[0] == 13, format_play(play)


def test_a_checker_may_hit_and_go_on() -> None:
    position = pos({13: 1, 1: 14}, {10: 1, 20: 14})
    play = find_play(position, (3, 6), [(13, 10), (10, 4)])
    assert format_play(play) == "13/10*/4"
    assert play.result.theirs[24] == 1 and play.result.mine[3] == 1


def test_hitting_two_blots_sends_both_to_the_bar() -> None:
    position = pos({13: 2, 1: 13}, {10: 1, 9: 1, 20: 13})
    play = find_play(position, (3, 4), [(13, 10), (13, 9)])
    assert play.result.theirs[24] == 2


def test_race_waiting_checkers_may_stay_but_a_hit_one_enters_first() -> None:
    waiting_only = pos({25: 2, 13: 13}, waiting=2)
    assert "13/8 13/7" in texts(waiting_only, (6, 5))
    one_hit = pos({25: 3, 13: 12}, waiting=2)
    plays = legal_plays(one_hit, (6, 5))
    assert all(p.moves[0].origin == 25 for p in plays)
    assert "bar/19 13/8" in {format_play(p) for p in plays}
    entered = find_play(one_hit, (6, 5), [(25, 19), (13, 8)])
    assert entered.result.mine_waiting == 2 and entered.result.mine[24] == 2
    both = find_play(waiting_only, (6, 5), [(25, 19), (25, 20)])
    assert both.result.mine_waiting == 0


def test_the_race_start_enters_from_the_bar() -> None:
    race = Position(Position.initial().mine, Position.initial().theirs)
    start = Position((0,) * 24 + (15,), (0,) * 24 + (15,), 15, 15)
    assert texts(start, (6, 5)) == {"bar/20 bar/19", "bar/14"}
    assert race != start


@pytest.mark.parametrize("roll", [(a, b) for a in range(1, 7) for b in range(1, a + 1)])
def test_every_opening_roll_matches_the_reference(roll: tuple[int, int]) -> None:
    assert {p.result for p in legal_plays(START, roll)} == reference_results(START, roll)


def test_find_play_accepts_moves_in_any_order_and_merged_paths() -> None:
    play = find_play(START, (6, 5), [(18, 13), (24, 18)])
    assert format_play(play) == "24/13"
    assert find_play(START, (6, 5), [(24, 13)]) == play


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        ([(13, 7), (13, 9)], "The move 13/9 takes 4 pips"),
        ([(5, 4), (13, 7)], "no checker on point 5"),
        ([(13, 15)], "backwards"),
        ([(6, 0), (8, 3)], "cannot bear off"),
        ([(24, 13), (13, 10)], "take 14 pips"),
        ([], "You must move when you can"),
        ([(13, 18)], "backwards"),
    ],
)
def test_find_play_says_why_a_play_is_refused(moves: list[tuple[int, int]], reason: str) -> None:
    with pytest.raises(IllegalPlayError, match=reason):
        find_play(START, (6, 5), moves)


def test_find_play_refuses_bad_dice() -> None:
    with pytest.raises(IllegalPlayError, match="not a roll"):
        find_play(START, (7, 1), [(13, 6)])


def test_no_move_play_is_found_by_no_moves() -> None:
    position = pos({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    assert find_play(position, (6, 5), []).moves == ()


def test_bearing_off_with_checkers_outside_home_names_the_bear_off_rule() -> None:
    # The start has no checker on point 5: the rule broken first is bearing off, not the count.
    with pytest.raises(IllegalPlayError, match="^You cannot bear off while any of your checkers is outside"):
        find_play(START, (6, 5), [(6, 0), (5, 0)])
    with pytest.raises(IllegalPlayError, match="^You cannot bear off while"):
        find_play(pos({8: 1, 6: 1, 2: 13}, {20: 15}), (6, 2), [(6, 0), (2, 0)])


def test_bearing_off_after_bringing_the_last_checker_home_is_not_refused_for_the_rule() -> None:
    position = pos({8: 1, 2: 14}, {20: 15})
    assert find_play(position, (6, 2), [(8, 2), (2, 0)]).result.mine[:2] == (0, 14)


@pytest.mark.parametrize("dice", [(6, 5), (3, 1), (4, 4), (2, 6)])
@pytest.mark.parametrize(
    "moves",
    [[], [(13, 7)], [(13, 15)], [(5, 4)], [(6, 0), (5, 0)], [(24, 13), (13, 10)], [(30, 1)], [(13, 9), (13, 9)],
     [(13, 1)], [(8, 2), (6, 1)]],
)
def test_every_refusal_reads_as_a_sentence(dice: tuple[int, int], moves: list[tuple[int, int]]) -> None:
    try:
        find_play(START, dice, moves)
    except IllegalPlayError as refusal:
        assert str(refusal)[:1].isupper(), str(refusal)
