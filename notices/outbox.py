"""A notice's mail goes out at least once, even when its worker is killed while sending it.

The notice is claimed and its mail composed in one transaction (the SentNotice row, its
``outbox`` holding the mail); the mail is handed to the mail server only after that commit, and
``outbox`` is emptied once the server has accepted it. A worker killed before the acceptance
(a slow mail server holding the message, an OOM kill) leaves the mail held; every worker's tick
(``queue_stale``) queues ``deliver_held_notice`` for a mail held longer than
NOTICE_RESEND_AFTER_SECONDS, which takes it by a conditional update (so one worker resends it)
and sends it again. Only a kill between the server's acceptance and our emptying of ``outbox``
sends a mail twice. Before this, the send happened inside the claim's transaction: the kill
rolled the claim back, the task stayed RUNNING and nothing was ever sent.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks.base import TaskResultStatus

from notices.mail import compose_notice, send_composed
from notices.models import SentNotice

__all__ = ["deliver", "hold", "queue_stale", "redeliver", "requeue_cut_off_tasks", "tick"]

logger = logging.getLogger(__name__)


def hold(*, key: str, user: Any, template: str, subject: str, context: dict[str, Any]) -> None:
    """Inside the claim's transaction: compose the mail and keep it on the claimed notice."""
    composed = compose_notice(user=user, template=template, subject=subject, context=context)
    SentNotice.objects.filter(key=key).update(outbox=composed, attempted_at=timezone.now(), attempts=1)


def deliver(key: str) -> bool:
    """After the claim's commit: send the mail held for ``key``; True once the server took it.

    A mail server that refuses or fails raises here (the task is recorded failed) and leaves the
    mail held, for ``queue_stale`` to try again later."""
    held = SentNotice.objects.filter(key=key, outbox__isnull=False).values_list("pk", "outbox").first()
    if held is None:
        return False
    pk, composed = held
    send_composed(composed)
    SentNotice.objects.filter(pk=pk).update(outbox=None)
    return True


def _stale_before(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.NOTICE_RESEND_AFTER_SECONDS)


def _stale(now: datetime) -> Any:
    return SentNotice.objects.filter(
        outbox__isnull=False,
        attempted_at__lt=_stale_before(now),
        attempts__lt=settings.NOTICE_SEND_ATTEMPTS,
    )


def redeliver(notice_id: int, now: datetime | None = None) -> bool:
    """Send a mail held too long (its worker died, or the server failed) again; True if sent.

    The conditional update on the stale attempt is the claim: of several runs at once, one sends."""
    now = now or timezone.now()
    taken = _stale(now).filter(pk=notice_id).update(attempted_at=now, attempts=F("attempts") + 1)
    if not taken:
        return False
    key = SentNotice.objects.values_list("key", flat=True).get(pk=notice_id)
    logger.warning("notice %s: sending its mail again (its first attempt did not finish)", key)
    return deliver(key)


def queue_stale(now: datetime | None = None) -> int:
    """The workers' tick: queue a resend of every mail held too long; how many were queued."""
    from django_tasks_db.models import DBTaskResult

    from notices.tasks import deliver_held_notice

    queued = 0
    for notice_id in _stale(now or timezone.now()).values_list("pk", flat=True)[:100]:
        waiting = DBTaskResult.objects.filter(
            status=TaskResultStatus.READY,
            task_path=deliver_held_notice.module_path,
            args_kwargs={"args": [notice_id], "kwargs": {}},
        )
        if not waiting.exists():
            deliver_held_notice.enqueue(notice_id)
            queued += 1
    return queued


def requeue_cut_off_tasks(now: datetime | None = None) -> int:
    """Queue again the notice tasks a killed worker left RUNNING for ever (django-tasks-db never
    retries one); how many. A task killed before its claim committed has left no trace, and a
    task decides afresh and claims each notice, so running it again sends at most what it
    should have. The old row is marked failed by a conditional update: one worker requeues it."""
    from django_tasks_db.models import DBTaskResult

    now = now or timezone.now()
    cut_off = DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, task_path__startswith="notices.tasks.",
        started_at__lt=_stale_before(now),
    )
    requeued = 0
    for pk, path, arguments in cut_off.values_list("pk", "task_path", "args_kwargs")[:100]:
        taken = DBTaskResult.objects.filter(pk=pk, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.FAILED, finished_at=now,
            traceback="cut off (its worker stopped): queued again",
        )
        if taken:
            import_string(path).enqueue(*arguments["args"], **arguments["kwargs"])
            requeued += 1
    return requeued


def tick() -> int:
    """What every worker's tick does for notices cut off by a kill; how many were queued."""
    return requeue_cut_off_tasks() + queue_stale()
