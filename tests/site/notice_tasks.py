"""Running the notices' queued tasks as the worker would, for the notices tests."""

from __future__ import annotations

from typing import Any

from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from notices import tasks

NOTICE_TASKS = {
    task.module_path: task
    for task in (
        tasks.send_your_turn_notice,
        tasks.send_new_challenge_notice,
        tasks.send_message_notice,
        tasks.send_time_warning,
        tasks.send_daily_digest,
    )
}


def queued_notices() -> list[str]:
    """The task paths of the notices waiting in the database queue, oldest first."""
    return list(
        DBTaskResult.objects.filter(status=TaskResultStatus.READY, task_path__startswith="notices.")
        .order_by("enqueued_at")
        .values_list("task_path", flat=True)
    )


def run_queued_notices() -> list[Any]:
    """Run (and remove) every queued notices task, oldest first; what each returned."""
    results = []
    queued = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path__startswith="notices."
    ).order_by("enqueued_at")
    for row in queued:
        arguments = row.args_kwargs
        results.append(NOTICE_TASKS[row.task_path].call(*arguments["args"], **arguments["kwargs"]))
        row.delete()
    return results
