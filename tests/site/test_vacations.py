"""Vacations: booked ahead in whole days within a yearly allowance; they pause the clock."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from accounts.models import Vacation
from accounts.vacations import VacationRefused, clock_end, vacation_book, vacation_cancel
from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import clocks
from backgammon.services.games import overdue_games
from backgammon.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db

MONDAY = "2026-01-05 12:00:00+00:00"


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice to play 3-1 in a BP match with a 2-day limit, started Monday noon."""
    scripted_dice(monkeypatch).then((3, 1), (5, 2))
    with time_machine.travel(MONDAY, tick=False):
        return start_game(alice, bob, "BP", time_limit=timedelta(days=2))


def _book(user: Any, start: date, days: int, when: str = MONDAY) -> Vacation:
    with time_machine.travel(when, tick=False):
        return vacation_book(user=user, start=start, days=days)


def test_the_clock_stands_still_while_paused() -> None:
    start = _at("2026-01-05 12:00")
    pause = (_at("2026-01-06 00:00"), _at("2026-01-09 00:00"))
    assert clock_end(start, timedelta(days=2), [pause]) == _at("2026-01-10 12:00")
    assert clock_end(start, timedelta(hours=6), [pause]) == _at("2026-01-05 18:00")
    # A clock that starts inside a pause starts running when it ends.
    assert clock_end(_at("2026-01-07 00:00"), timedelta(days=1), [pause]) == _at("2026-01-10 00:00")


def test_a_vacation_booked_while_the_deadline_runs_pushes_it_past_the_vacation(
    game: Game, alice: Any
) -> None:
    assert game.deadline == _at("2026-01-07 12:00")
    _book(alice, date(2026, 1, 6), 3)  # all of 6, 7 and 8 January
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-10 12:00")


def test_a_new_move_counts_the_vacation_of_the_player_to_act(
    game: Game, alice: Any, bob: Any
) -> None:
    _book(bob, date(2026, 1, 6), 2)
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-07 12:00")  # bob's vacation does not pause alice
    with time_machine.travel("2026-01-05 18:00:00+00:00", tick=False):
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    # Bob's clock: 6 hours on Monday, stopped Tuesday and Wednesday, the rest from Thursday.
    assert game.deadline == _at("2026-01-09 18:00")


def test_the_sweep_does_not_time_out_a_player_on_vacation(game: Game, alice: Any) -> None:
    _book(alice, date(2026, 1, 6), 3)
    with time_machine.travel("2026-01-08 12:00:00+00:00", tick=False):
        assert not overdue_games().exists()
        assert sweep_deadlines() == 0
    game.refresh_from_db()
    assert game.status == "active"
    with time_machine.travel("2026-01-10 12:00:01+00:00", tick=False):
        assert sweep_deadlines() == 1
    game.refresh_from_db()
    assert game.result == "bob won: alice ran out of time"


def test_a_move_after_the_vacation_is_not_late(game: Game, alice: Any) -> None:
    _book(alice, date(2026, 1, 6), 3)
    with time_machine.travel("2026-01-09 12:00:00+00:00", tick=False):  # past the 2 days
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert game.status == "active" and game.actor.get_username() == "bob"


def test_cancelling_a_vacation_gives_back_the_days_and_the_deadline(
    game: Game, alice: Any
) -> None:
    vacation = _book(alice, date(2026, 1, 6), 3)
    with time_machine.travel(MONDAY, tick=False):
        vacation_cancel(user=alice, vacation_id=vacation.pk)
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-07 12:00")
    assert not Vacation.objects.exists()


def test_a_game_whose_policy_forbids_vacations_keeps_its_clock(
    game: Game, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clocks, "_vacation_policies", [])
    clocks.register_vacation_policy(lambda g: g.pk != game.pk)
    assert clocks.game_vacation_allowed(game) is False
    _book(alice, date(2026, 1, 6), 3)
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-07 12:00")


def test_the_yearly_allowance(alice: Any, settings: Any) -> None:
    settings.VACATION_DAYS_PER_YEAR = 14
    _book(alice, date(2026, 2, 1), 10)
    with pytest.raises(VacationRefused, match="You have 4 vacation days left in 2026: 5 is too many"):
        _book(alice, date(2026, 3, 1), 5)
    _book(alice, date(2026, 3, 1), 4)
    _book(alice, date(2027, 3, 1), 14)  # a new year, a new allowance
    assert Vacation.objects.count() == 3


@pytest.mark.parametrize(
    ("start", "days", "reason"),
    [
        (date(2026, 1, 5), 2, "must start tomorrow or later"),
        (date(2025, 12, 1), 2, "must start tomorrow or later"),
        (date(2026, 2, 3), 0, "at least one day"),
        (date(2026, 2, 3), 2, "overlaps another"),
        (date(2026, 1, 30), 3, "overlaps another"),
    ],
)
def test_refusals_change_nothing(alice: Any, start: date, days: int, reason: str) -> None:
    _book(alice, date(2026, 2, 1), 3)
    with pytest.raises(VacationRefused, match=reason):
        _book(alice, start, days)
    assert list(Vacation.objects.values_list("start", "days")) == [(date(2026, 2, 1), 3)]


def test_a_started_vacation_cannot_be_cancelled_nor_anothers(alice: Any, bob: Any) -> None:
    vacation = _book(alice, date(2026, 1, 6), 3)
    with time_machine.travel("2026-01-06 01:00:00+00:00", tick=False):
        with pytest.raises(VacationRefused, match="already started"):
            vacation_cancel(user=alice, vacation_id=vacation.pk)
        with pytest.raises(VacationRefused, match="no such vacation"):
            vacation_cancel(user=bob, vacation_id=vacation.pk)
    assert Vacation.objects.count() == 1
