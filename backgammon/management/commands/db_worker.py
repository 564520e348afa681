"""The site's task worker: django-tasks-db's ``db_worker`` plus the deadline sweep, no cron needed.

It keeps the library's name (``manage.py db_worker``, the command operators and the issues know);
backgammon comes before django_tasks_db in INSTALLED_APPS, so this command is the one Django runs.

Why not ``db_worker`` alone: django-tasks-db runs a task once. A worker killed while running a
deadline task leaves it RUNNING for ever, and the library has no periodic tasks, so that
player would never be timed out. This command runs the ordinary worker loop (same options as
``db_worker``) and, in a thread beside it, ``sweep_deadlines`` at start-up and then every
``DEADLINE_SWEEP_SECONDS``. The sweep works from the games, not the task rows, and every
timeout is re-checked under the game's row lock, so any number of workers may run it at once:
a timeout is applied exactly once, whichever process gets there first. (A self-rescheduling
sweep task would itself be lost with a killed worker; a thread in every worker cannot be.)

A second thread sweeps the live games alone every ``LIVE_SWEEP_SECONDS`` (default 0.25): a
reserve's end is applied within a second of it, with no task per roll and move (tasks.py says why).

A third thread sends ``backgammon.signals.worker_tick`` every ``WORKER_TICK_SECONDS`` (default
5): the bots app nudges any game or challenge left waiting for a computer opponent, and old
finished task rows are pruned (backgammon.task_pruning).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV
from django_tasks_db.management.commands import db_worker

from backgammon.signals import worker_tick
from backgammon.tasks import sweep_deadlines

logger = logging.getLogger(__name__)

WORKER_POLL_SECONDS = 0.25


def _sweep_forever(interval: float, *, live: bool = False) -> None:
    while True:
        try:
            applied = sweep_deadlines(live=live)
            if applied:
                logger.info("%s sweep: %d game(s) timed out", "Live" if live else "Deadline", applied)
        except Exception:
            # A database hiccup must not end the sweeping: the next round tries again.
            logger.exception("%s sweep failed", "Live" if live else "Deadline")
        finally:
            close_old_connections()
            connection.close()
        time.sleep(interval)


def _tick_forever(interval: float) -> None:
    # Apps hook their periodic safety nets here (the bots: games left waiting for them).
    while True:
        try:
            worker_tick.send(sender=Command)
        except Exception:
            logger.exception("Worker tick failed")
        finally:
            close_old_connections()
            connection.close()
        time.sleep(interval)


class Command(db_worker.Command):
    help = (
        "Run the task worker (move deadlines) with the deadline sweep every "
        "DEADLINE_SWEEP_SECONDS. Takes db_worker's options."
    )

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        # A live reserve's end must be applied within a second of it (issue 31): the library's
        # idle poll of once a second could alone use all of that. Four polls a second are an
        # indexed read of the task table each, nothing beside a game's own queries.
        parser.set_defaults(interval=WORKER_POLL_SECONDS)

    def handle(self, *args: Any, **options: Any) -> None:
        # With --reload the parent process only watches files; the child does the work.
        if not options["reload"] or os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
            # gnubg (the bots' and the analysis' evaluator) must be loaded on the main thread,
            # before the threads below start: loaded first on another thread, its look-ahead
            # evaluations crash the whole process (see backgammon.gnubg_bridge).
            import_module("backgammon.gnubg_bridge")
            interval = float(settings.DEADLINE_SWEEP_SECONDS)
            threading.Thread(
                target=_sweep_forever, args=(interval,), name="deadline-sweep", daemon=True
            ).start()
            threading.Thread(
                target=_sweep_forever, args=(float(settings.LIVE_SWEEP_SECONDS),), kwargs={"live": True},
                name="live-sweep", daemon=True,
            ).start()
            tick = float(getattr(settings, "WORKER_TICK_SECONDS", 5))
            threading.Thread(
                target=_tick_forever, args=(tick,), name="worker-tick", daemon=True
            ).start()
        super().handle(*args, **options)
