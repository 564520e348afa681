"""The embedded default (``make run``: SQLite, two players and the worker at once) never answers
"database is locked": WAL mode, a busy timeout and immediate transactions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOAD = ROOT / "tests" / "site" / "sqlite_load.py"
SECONDS = 6


def _environment(tmp_path: Path) -> dict[str, str]:
    # As `make run` has it: the cache in the database, shared by its processes (not the suite's own).
    env = {key: value for key, value in os.environ.items()
           if key not in ("SECRET_KEY", "DICE_KEY", "CACHE_IN_PROCESS")}
    env.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DEV_SECRETS_FILE=str(tmp_path / ".dev-secrets"),
        DEADLINE_SWEEP_SECONDS="1",
        LOG_LEVEL="WARNING",
    )
    return env


def test_the_settings_put_sqlite_in_wal_mode_with_immediate_transactions(tmp_path: Path) -> None:
    code = (
        "import django; django.setup(); from django.db import connection; "
        "c = connection.cursor(); print(c.execute('PRAGMA journal_mode').fetchone()[0], "
        "c.execute('PRAGMA synchronous').fetchone()[0], connection.settings_dict['OPTIONS'])"
    )
    env = {**_environment(tmp_path), "DJANGO_SETTINGS_MODULE": "gamesite.settings"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    journal, synchronous, options = result.stdout.split(" ", 2)
    assert (journal, synchronous) == ("wal", "1")  # synchronous=NORMAL is 1
    assert "'transaction_mode': 'IMMEDIATE'" in options and "'timeout': 20" in options


@pytest.mark.slow
def test_two_players_and_the_worker_at_once_never_meet_a_locked_database(tmp_path: Path) -> None:
    env = _environment(tmp_path)

    def run(*args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )

    assert run("manage.py", "migrate", "--noinput").wait(timeout=120) == 0
    assert run("manage.py", "createcachetable").wait(timeout=120) == 0  # as `make run` does
    setup = run(str(LOAD), "setup", "24")
    assert setup.wait(timeout=120) == 0, setup.stderr.read() if setup.stderr else ""
    worker = run("manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.05")
    roles = [
        run(str(LOAD), "player", "alice", str(SECONDS)),
        run(str(LOAD), "player", "bob", str(SECONDS)),
        run(str(LOAD), "deadlines", str(SECONDS)),
    ]
    outputs = [role.communicate(timeout=SECONDS + 120) for role in roles]
    worker.terminate()
    _, worker_errors = worker.communicate(timeout=30)

    lines = [out.split() for out, _ in outputs]
    assert all(role.returncode == 0 for role in roles), [err[-2000:] for _, err in outputs]
    assert [line[0] for line in lines] == ["player", "player", "deadlines"]
    assert all(int(line[1]) > 20 for line in lines), lines  # real work was done by everyone
    assert [int(line[2]) for line in lines] == [0, 0, 0], lines
    assert "database is locked" not in worker_errors
    assert "FAILED" not in worker_errors, worker_errors[-2000:]
