"""A real ``manage.py db_worker`` process on the test database, for the tests that need the
worker itself (deadlines, bots, analysis), and a patient wait for what it does.

The tests using it need ``django_db(transaction=True)``: the worker is another process and sees
only committed rows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
WorkerStarter = Callable[..., "subprocess.Popen[bytes]"]


def test_database_url() -> str:
    """The DATABASE_URL of the test database, for a process of its own."""
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


test_database_url.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def wait_for(condition: Callable[[], bool], *, seconds: float = 30, poll: float = 0.1) -> None:
    """Wait until ``condition()``; its docstring says what was awaited when it never comes."""
    give_up = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"gave up waiting for {condition.__doc__}")
        time.sleep(poll)


@pytest.fixture
def start_worker() -> Iterator[WorkerStarter]:
    """start_worker(queue_name="default", **environment) -> a worker process (killed after the
    test if still running); ``queue_name="analysis"`` starts the analyses' worker."""
    started: list[subprocess.Popen[bytes]] = []

    def start(queue_name: str = "default", **environment: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, "DATABASE_URL": test_database_url(), **environment}
        command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
                   "--queue-name", queue_name]
        worker = subprocess.Popen([*command, "--interval", "0.2"], cwd=ROOT, env=env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.poll() is None:
            worker.kill()
        worker.wait(timeout=10)
