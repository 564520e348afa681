"""The dice statistics pages: counts from the game logs, fair-dice expectations, the chi-square
tests, the site-wide cache, a bounded number of queries, and 404 for unknown players."""

from __future__ import annotations

import math
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from gamebuilder import act, scripted_dice, start_game

from backgammon.chi_square import chi_square, chi_square_p_value, chi_square_test
from backgammon.dice_statistics import (
    DISTINCT_ROLLS,
    SITE_CACHE_KEY,
    player_report,
    player_tally,
    report_from,
    site_report,
    site_tally,
)
from backgammon.engine.actions import Action
from backgammon.models import Game, GameAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_turn_each(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Opening roll 3 (alice, Black) against 1 (bob): alice plays 3-1, then bob rolls 6-6."""
    scripted_dice(monkeypatch).then((3, 1), (6, 6))
    game = start_game(alice, bob, "BX")
    return act(game, alice, Action.play([(8, 5), (6, 5)]))


def _add_rolls(game: Game, rolls: list[tuple[int | None, tuple[int, int]]]) -> None:
    """Logged rolls straight into the table: these read-only pages only count them."""
    start = game.action_count
    GameAction.objects.bulk_create(
        GameAction(game=game, number=start + index, side=side, kind="roll",
                   data={"kind": "roll", "dice": list(dice)})
        for index, (side, dice) in enumerate(rolls, start=1)
    )


# The chi-square arithmetic against published critical values (5% and 1%) and closed forms.

@pytest.mark.parametrize(("statistic", "degrees", "p_value"), [
    (3.841458820694124, 1, 0.05), (6.6348966010212145, 1, 0.01),
    (11.070497693516351, 5, 0.05), (15.08627246938899, 5, 0.01),
    (31.410432844230918, 20, 0.05), (37.56623478662507, 20, 0.01),
])
def test_the_p_value_matches_the_chi_square_tables(statistic: float, degrees: int, p_value: float) -> None:
    assert chi_square_p_value(statistic, degrees) == pytest.approx(p_value, rel=1e-9)


def test_the_p_value_matches_closed_forms() -> None:
    assert chi_square_p_value(5.0, 2) == pytest.approx(math.exp(-2.5))
    assert chi_square_p_value(5.0, 1) == pytest.approx(math.erfc(math.sqrt(2.5)))
    assert chi_square_p_value(0.0, 20) == 1.0


def test_the_statistic_on_known_numbers() -> None:
    assert chi_square([5, 15], [10, 10]) == pytest.approx(5.0)
    test = chi_square_test([8, 12, 10, 10, 10, 10], [10] * 6)
    assert (test.statistic, test.degrees) == (pytest.approx(0.8), 5)
    assert test.p_value == pytest.approx(0.977, abs=0.001)
    with pytest.raises(ValueError):
        chi_square([1], [0])


# Counting.

def test_rolls_are_counted_and_attributed_to_who_rolled_them(
    one_turn_each: Game, alice: Any, bob: Any
) -> None:
    site = site_tally()
    assert {roll: n for roll, n in site.rolls.items() if n} == {(3, 1): 1, (6, 6): 1}
    assert site.faces == {1: 1, 2: 0, 3: 1, 4: 0, 5: 0, 6: 2}
    # alice rolled nothing herself: her die of the opening roll counts among the faces only.
    mine = player_tally(alice)
    assert sum(mine.rolls.values()) == 0
    assert mine.faces == {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0}
    his = player_tally(bob)
    assert {roll: n for roll, n in his.rolls.items() if n} == {(6, 6): 1}
    assert his.faces == {1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 2}


def test_the_report_compares_with_fair_dice(one_turn_each: Game, alice: Any, bob: Any) -> None:
    # 36 more rolls by bob, each of the 36 ways once: with his 6-6, 37 rolls.
    _add_rolls(one_turn_each, [(1, (a, b)) for a in range(1, 7) for b in range(1, 7)])
    report = player_report(bob)
    assert report.rolls_total == 37
    rows = {row.label: row for row in report.rolls.rows}
    assert len(rows) == len(DISTINCT_ROLLS) == 21
    assert (rows["6-6"].observed, rows["6-6"].expected) == (2, pytest.approx(37 / 36))
    assert (rows["5-2"].observed, rows["5-2"].expected) == (2, pytest.approx(2 * 37 / 36))
    doubles = {row.label: row.observed for row in report.doubles.rows}
    assert doubles == {"Doubles": 7, "Other rolls": 30}
    assert report.faces_total == 2 * 37 + 1  # his opening die too
    assert report.rolls.test is not None and report.rolls.test.degrees == 20
    assert report.faces.test is not None and report.faces.test.degrees == 5
    assert report.doubles.test is not None and report.doubles.test.degrees == 1


def test_no_rolls_means_no_test(alice: Any) -> None:
    report = report_from(player_tally(alice))
    assert report.rolls_total == 0 and report.rolls.test is None


# The pages.

def test_the_site_page_shows_the_counts_to_anyone(one_turn_each: Game, client: Client) -> None:
    response = client.get(reverse("backgammon:dice_statistics"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "2 rolls, 4 single dice" in body
    assert '<th scope="row">6-6</th><td>1</td>' in body
    assert body.count('<svg class="dice-chart') == 3
    assert "Chi-square" in body and "p = " in body
    assert 'href="/dice/"' in body  # the SPY menu item


def test_the_site_figures_are_cached(one_turn_each: Game) -> None:
    assert site_report().rolls_total == 2
    _add_rolls(one_turn_each, [(0, (2, 2))])
    assert site_report().rolls_total == 2  # still the cached tally
    cache.delete(SITE_CACHE_KEY)
    assert site_report().rolls_total == 3


def test_a_player_page_by_userid_in_any_case(one_turn_each: Game, client: Client) -> None:
    response = client.get("/dice/BOB/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'href="/players/bob/"' in body  # the name links to the profile
    assert "1 roll, 3 single dice" in body


def test_an_unknown_or_inactive_player_is_404(client: Client, charlie: Any) -> None:
    assert client.get("/dice/nobody/").status_code == 404
    charlie.is_active = False
    charlie.save(update_fields=["is_active"])
    assert client.get("/dice/charlie/").status_code == 404


def test_the_pages_take_get_only(client: Client, alice: Any) -> None:
    assert client.post("/dice/").status_code == 405
    assert client.post("/dice/alice/").status_code == 405


@pytest.mark.parametrize("rolls", [10, 400])
def test_the_pages_make_a_bounded_number_of_queries(
    one_turn_each: Game, client: Client, django_assert_max_num_queries: Any, rolls: int
) -> None:
    _add_rolls(one_turn_each, [(index % 2, (index % 6 + 1, index // 6 % 6 + 1)) for index in range(rolls)])
    cache.delete(SITE_CACHE_KEY)
    # The database cache costs five of them on a miss (read, count, savepoint, insert, release).
    with django_assert_max_num_queries(8):
        assert client.get("/dice/").status_code == 200
    with django_assert_max_num_queries(8):
        assert client.get("/dice/bob/").status_code == 200


def test_a_nul_in_the_userid_is_a_400_or_404(client: Client) -> None:
    assert client.get("/dice/ali%00ce/").status_code in (400, 404)
