"""A real worker process killed in the middle of a deadline: after a restart the timeout is
applied exactly once (the worker's own periodic sweep finds the game; no cron, no retry)."""

from __future__ import annotations

import signal
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from gamebuilder import fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.models import Game, GameAction
from backgammon.tasks import enforce_deadline
from tests.site.worker_process import WorkerStarter, wait_for


def _waiting_for_the_game_lock() -> bool:
    """a worker's query blocked on the game's row lock"""
    with connection.cursor() as cursor:
        # Activity statistics are a snapshot per transaction, and the caller holds one open.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND query LIKE %s",
            ['SELECT "backgammon_game"%'],  # the locking select; its tail is cut off in the view
        )
        return bool(cursor.fetchone()[0])


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_the_middle_of_a_deadline_times_out_once_after_restart(
    alice: Any,
    bob: Any,
    start_worker: WorkerStarter,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert connection.vendor == "postgresql"
    scripted_dice(monkeypatch).then((3, 1))  # Alice opens, and is the one who runs out of time
    game = start_game(alice, bob, "BP", time_limit=timedelta(hours=1))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    task = enforce_deadline.enqueue(game.pk, game.action_count)

    def task_running() -> bool:
        """the deadline task claimed by the worker"""
        return DBTaskResult.objects.get(pk=task.id).status == "RUNNING"

    def timed_out() -> bool:
        """the timeout in the game's log"""
        return GameAction.objects.filter(game=game, kind="timeout").exists()

    # Hold the game's row lock, so the worker that claims the task stops inside the service,
    # its transaction open; then kill it there, as a crash or an OOM kill would.
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        first = start_worker(DEADLINE_SWEEP_SECONDS="3600")
        wait_for(task_running)
        wait_for(_waiting_for_the_game_lock)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    assert task_running()  # django-tasks-db will never run it again
    assert not timed_out()

    second = start_worker(DEADLINE_SWEEP_SECONDS="1")
    wait_for(timed_out)
    time.sleep(2.5)  # two more sweeps, and the killed worker's server process long gone
    second.send_signal(signal.SIGTERM)
    second.wait(timeout=10)
    game.refresh_from_db()
    assert GameAction.objects.filter(game=game, kind="timeout").count() == 1
    assert (game.status, game.winner) == ("finished", bob)
    assert game.result == "bob won: alice ran out of time"
