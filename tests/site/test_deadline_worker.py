"""A real worker process killed in the middle of a deadline: after a restart the timeout is
applied exactly once (the worker's own periodic sweep finds the game; no cron, no retry)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from gamebuilder import fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.models import Game, GameAction
from backgammon.tasks import enforce_deadline

ROOT = Path(__file__).resolve().parents[2]


def _wait_for(condition: Callable[[], bool], *, seconds: float = 30) -> None:
    give_up = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"gave up waiting for {condition.__doc__}")
        time.sleep(0.1)


@pytest.fixture
def start_worker() -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """start_worker(sweep_seconds) -> a ``manage.py db_worker`` process on the test database."""
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    started: list[subprocess.Popen[bytes]] = []

    def start(sweep_seconds: int) -> subprocess.Popen[bytes]:
        env = {**os.environ, "DATABASE_URL": url, "DEADLINE_SWEEP_SECONDS": str(sweep_seconds)}
        command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"]
        worker = subprocess.Popen([*command, "--interval", "0.2"], cwd=ROOT, env=env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.poll() is None:
            worker.kill()
        worker.wait(timeout=10)


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
    start_worker: Callable[..., subprocess.Popen[bytes]],
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
        first = start_worker(sweep_seconds=3600)
        _wait_for(task_running)
        _wait_for(_waiting_for_the_game_lock)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    assert task_running()  # django-tasks-db will never run it again
    assert not timed_out()

    second = start_worker(sweep_seconds=1)
    _wait_for(timed_out)
    time.sleep(2.5)  # two more sweeps, and the killed worker's server process long gone
    second.send_signal(signal.SIGTERM)
    second.wait(timeout=10)
    game.refresh_from_db()
    assert GameAction.objects.filter(game=game, kind="timeout").count() == 1
    assert (game.status, game.winner) == ("finished", bob)
    assert game.result == "bob won: alice ran out of time"
