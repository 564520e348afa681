"""The FIBS rating formula (tournaments.ratings): the issue's worked examples, and its doctests."""

from __future__ import annotations

import doctest

import pytest

from tournaments import ratings
from tournaments.ratings import k_factor, rating_changes, upset_chance


def test_it_runs_the_modules_doctests() -> None:
    result = doctest.testmod(ratings)
    assert result.attempted >= 5
    assert result.failed == 0


def test_a_one_point_match_between_experienced_equals_moves_each_by_two() -> None:
    gain, loss = rating_changes(winner=1500.0, loser=1500.0, length=1,
                                winner_experience=400, loser_experience=400)
    assert (round(gain, 2), round(loss, 2)) == (2.00, -2.00)


def test_1850_beating_1750_in_a_7_point_match_moves_each_by_4_49() -> None:
    gain, loss = rating_changes(winner=1850.0, loser=1750.0, length=7,
                                winner_experience=700, loser_experience=1000)
    assert (round(gain, 2), round(loss, 2)) == (4.49, -4.49)


def test_the_underdog_winning_gains_the_complement() -> None:
    gain, loss = rating_changes(winner=1750.0, loser=1850.0, length=7,
                                winner_experience=700, loser_experience=1000)
    # 4·√7·(1 − 0.42443) = 6.09: an upset moves more than the expected result.
    assert (round(gain, 2), round(loss, 2)) == (6.09, -6.09)


def test_two_new_players_in_a_3_point_match_move_by_17_32() -> None:
    gain, loss = rating_changes(winner=1500.0, loser=1500.0, length=3,
                                winner_experience=0, loser_experience=0)
    assert (round(gain, 2), round(loss, 2)) == (17.32, -17.32)


def test_each_player_uses_their_own_k() -> None:
    gain, loss = rating_changes(winner=1500.0, loser=1500.0, length=1,
                                winner_experience=0, loser_experience=400)
    assert (round(gain, 2), round(loss, 2)) == (10.00, -2.00)


def test_k_falls_with_experience_down_to_one() -> None:
    assert [k_factor(e) for e in (0, 100, 399, 400, 10_000)] == pytest.approx([5.0, 4.0, 1.01, 1.0, 1.0])


def test_the_upset_chance_is_symmetric_and_falls_with_the_gap_and_the_length() -> None:
    assert upset_chance(100.0, 7) == upset_chance(-100.0, 7)
    assert upset_chance(200.0, 7) < upset_chance(100.0, 7) < 0.5
    assert upset_chance(100.0, 11) < upset_chance(100.0, 1)


def test_a_match_of_no_points_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1 point"):
        rating_changes(winner=1500.0, loser=1500.0, length=0, winner_experience=0, loser_experience=0)
