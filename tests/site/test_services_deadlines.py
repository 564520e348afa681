"""Move deadlines: a task scheduled at a near deadline, or the worker's sweep for a later one,
times out the player who did not act."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
import time_machine
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import ActionRejected, game_enforce_deadline
from backgammon.tasks import enforce_deadline

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice (Black) to play 3-1 in a BP match with a 2-hour limit, started at a known instant."""
    scripted_dice(monkeypatch).then((3, 1))
    with time_machine.travel("2026-01-05 12:00:00+00:00", tick=False):
        return start_game(alice, bob, "BP", time_limit=timedelta(hours=2))


def test_the_deadline_is_the_time_limit_after_the_last_action(game: Game) -> None:
    assert game.deadline == datetime(2026, 1, 5, 14, 0, tzinfo=UTC)


def test_each_action_schedules_a_task_at_its_deadline(
    game: Game, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with (
        time_machine.travel("2026-01-05 13:00:00+00:00", tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    # (other apps queue their own tasks for a move too: the e-mail notices)
    task = DBTaskResult.objects.get(task_path="backgammon.tasks.enforce_deadline")
    assert task.run_after == game.deadline
    assert task.args_kwargs == {"args": [game.pk, game.action_count], "kwargs": {}}


def test_a_deadline_days_away_gets_no_task_and_the_sweep_enforces_it(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    with (
        time_machine.travel("2026-01-05 12:00:00+00:00", tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game = start_game(alice, bob, "BP", time_limit=timedelta(days=3))
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    # A task per move days ahead would pile up rows the worker reads through at every poll.
    assert not DBTaskResult.objects.filter(task_path="backgammon.tasks.enforce_deadline").exists()
    out = StringIO()
    with time_machine.travel(game.deadline + timedelta(seconds=1), tick=False):
        call_command("enforce_deadlines", stdout=out)
    assert out.getvalue().strip() == "1 game(s) timed out"
    game.refresh_from_db()
    assert game.status == "finished"


def test_nothing_happens_before_the_deadline(game: Game) -> None:
    with time_machine.travel("2026-01-05 13:59:59+00:00", tick=False):
        assert enforce_deadline.call(game.pk, game.action_count) is False
    game.refresh_from_db()
    assert (game.status, game.actor.get_username()) == ("active", "alice")


def test_after_the_deadline_the_player_to_act_loses(game: Game, alice: Any, bob: Any) -> None:
    with time_machine.travel("2026-01-05 14:00:01+00:00", tick=False):
        assert enforce_deadline.call(game.pk, game.action_count) is True
    game.refresh_from_db()
    assert (game.status, game.winner, game.actor, game.deadline) == ("finished", bob, None, None)
    assert game.result == "bob won: alice ran out of time"
    assert game.score_white == 5
    last = game.actions.get(number=game.action_count)
    assert (last.kind, last.side) == ("timeout", None)
    # The same task again, or a late one, finds nothing to do.
    with time_machine.travel("2026-01-06 00:00:00+00:00", tick=False):
        assert enforce_deadline.call(game.pk, game.action_count - 1) is False
        assert enforce_deadline.call(game.pk, game.action_count) is False


def test_a_task_for_an_earlier_action_does_nothing(game: Game, alice: Any) -> None:
    stale_number = game.action_count
    with time_machine.travel("2026-01-05 13:00:00+00:00", tick=False):
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    with time_machine.travel("2026-01-05 14:30:00+00:00", tick=False):
        assert game_enforce_deadline(game_id=game.pk, action_number=stale_number) is False
    game.refresh_from_db()
    assert game.status == "active" and game.deadline == datetime(2026, 1, 5, 15, 0, tzinfo=UTC)


def test_the_sweep_command_times_out_every_overdue_game(game: Game, alice: Any, bob: Any, charlie: Any) -> None:
    with time_machine.travel("2026-01-05 12:00:00+00:00", tick=False):
        other = start_game(charlie, bob, "BX", time_limit=timedelta(days=1))
    out = StringIO()
    with time_machine.travel("2026-01-05 15:00:00+00:00", tick=False):
        call_command("enforce_deadlines", stdout=out)
    assert out.getvalue().strip() == "1 game(s) timed out"
    game.refresh_from_db()
    other.refresh_from_db()
    assert (game.status, other.status) == ("finished", "active")


def test_a_move_after_the_deadline_is_refused_and_the_timeout_applied_once(
    game: Game, alice: Any, bob: Any
) -> None:
    # The worker is late (no task has run): the service itself sees the deadline has passed.
    with (
        time_machine.travel("2026-01-05 14:00:01+00:00", tick=False),
        pytest.raises(ActionRejected) as refusal,
    ):
        act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert refusal.value.message == (
        "Too late: your time for this move ran out at 2026-01-05 14:00 UTC, so you lost on time."
    )
    game.refresh_from_db()
    assert (game.status, game.winner) == ("finished", bob)
    assert game.result == "bob won: alice ran out of time"
    kinds = list(game.actions.values_list("kind", flat=True))
    assert kinds.count("timeout") == 1 and kinds[-1] == "timeout"
    # The late task finds the game over and does nothing.
    with time_machine.travel("2026-01-05 14:00:02+00:00", tick=False):
        assert enforce_deadline.call(game.pk, game.action_count - 1) is False
    assert game.actions.filter(kind="timeout").count() == 1


def test_the_opponent_acting_after_the_deadline_also_times_out_the_late_player(
    game: Game, alice: Any, bob: Any
) -> None:
    with (
        time_machine.travel("2026-01-05 14:00:01+00:00", tick=False),
        pytest.raises(ActionRejected) as refusal,
    ):
        act(game, bob, Action.resign(1))
    assert refusal.value.message == (
        "Too late: alice's time for this move ran out at 2026-01-05 14:00 UTC, so you won on time."
    )
    game.refresh_from_db()
    assert (game.status, game.winner) == ("finished", bob)
    assert game.actions.filter(kind="timeout").count() == 1


def test_a_move_just_before_the_deadline_is_applied(game: Game, alice: Any) -> None:
    with time_machine.travel("2026-01-05 13:59:59+00:00", tick=False):
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert game.status == "active" and not game.actions.filter(kind="timeout").exists()


def test_the_game_page_says_why_a_late_move_was_refused(game: Game, alice_client: Any) -> None:
    form = {"expected_number": game.action_count, "kind": "play", "moves_text": "8/5 6/5"}
    with time_machine.travel("2026-01-05 14:00:01+00:00", tick=False):
        response = alice_client.post(f"/games/{game.pk}/act/", form)
    assert response.status_code == 400
    assert "Too late: your time for this move ran out at 2026-01-05 14:00 UTC" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == "finished"
