"""Finished task rows pruned from the worker: every action schedules a deadline task, and
django-tasks-db keeps each finished row for ever, so without this the table grows with every move.

``prune_finished_tasks`` deletes finished (successful or failed) rows older than
TASK_RESULTS_KEEP_DAYS, TASK_PRUNE_BATCH rows per statement and at most TASK_PRUNE_BATCHES
statements per call, so a worker's tick never holds a long lock on the table. The worker tick
calls it at most once per TASK_PRUNE_EVERY_SECONDS across all workers (a key in the shared
cache); a backlog larger than one call's share goes at the next calls.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

__all__ = ["prune_finished_tasks", "prune_tick"]

_FINISHED = (TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED)


def prune_finished_tasks(*, now: datetime | None = None) -> int:
    """Delete finished task rows older than the setting's days; returns how many went."""
    before = (now or timezone.now()) - timedelta(days=settings.TASK_RESULTS_KEEP_DAYS)
    old = DBTaskResult.objects.filter(status__in=_FINISHED, finished_at__lt=before)
    deleted = 0
    for _ in range(settings.TASK_PRUNE_BATCHES):
        batch = list(old.order_by("finished_at").values_list("pk", flat=True)[: settings.TASK_PRUNE_BATCH])
        if not batch:
            break
        # Only rows still finished and old: a pk read a moment ago cannot have changed state back,
        # but the condition costs nothing and keeps the delete honest on its own.
        count, _ = old.filter(pk__in=batch).delete()
        deleted += count
        if len(batch) < settings.TASK_PRUNE_BATCH:
            break
    return deleted


def prune_tick(**_: object) -> None:
    """The worker tick's share: one pruning per TASK_PRUNE_EVERY_SECONDS, whichever worker comes first."""
    if cache.add("tasks:pruned", 1, timeout=settings.TASK_PRUNE_EVERY_SECONDS):
        prune_finished_tasks()
