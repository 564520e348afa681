"""Finished task rows are pruned by the worker tick: old finished rows go, in batches; rows still
to run, running, or recently finished stay."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from backgammon.signals import worker_tick
from backgammon.task_pruning import prune_finished_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_batches(settings: Any) -> None:
    settings.TASK_RESULTS_KEEP_DAYS = 2
    settings.TASK_PRUNE_BATCH = 2
    settings.TASK_PRUNE_BATCHES = 2
    cache.clear()


def _row(status: str, *, finished_days_ago: float | None) -> DBTaskResult:
    finished = None if finished_days_ago is None else timezone.now() - timedelta(days=finished_days_ago)
    return DBTaskResult.objects.create(
        status=status, finished_at=finished, args_kwargs={"args": [], "kwargs": {}},
        task_path="backgammon.tasks.enforce_deadline", backend_name="default", queue_name="default",
    )


def test_old_finished_rows_go_in_batches_and_the_rest_stay() -> None:
    old = [_row(TaskResultStatus.SUCCESSFUL, finished_days_ago=3) for _ in range(4)]
    old.append(_row(TaskResultStatus.FAILED, finished_days_ago=10))
    kept = [
        _row(TaskResultStatus.SUCCESSFUL, finished_days_ago=1),  # too recent
        _row(TaskResultStatus.READY, finished_days_ago=None),  # still to run
        _row(TaskResultStatus.RUNNING, finished_days_ago=None),
    ]
    assert prune_finished_tasks() == 4  # two batches of two
    assert prune_finished_tasks() == 1  # the rest at the next call
    assert prune_finished_tasks() == 0
    assert set(DBTaskResult.objects.values_list("pk", flat=True)) == {row.pk for row in kept}


def test_the_worker_tick_prunes_once_per_period_whichever_worker_comes(settings: Any) -> None:
    settings.TASK_PRUNE_BATCHES = 100
    for _ in range(3):
        _row(TaskResultStatus.SUCCESSFUL, finished_days_ago=5)
    worker_tick.send(sender=None)
    assert not DBTaskResult.objects.exists()
    late = _row(TaskResultStatus.SUCCESSFUL, finished_days_ago=5)
    worker_tick.send(sender=None)  # another worker, within TASK_PRUNE_EVERY_SECONDS: no second pruning
    assert DBTaskResult.objects.filter(pk=late.pk).exists()
    cache.delete("tasks:pruned")  # the period is over
    worker_tick.send(sender=None)
    assert not DBTaskResult.objects.exists()
