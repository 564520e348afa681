"""The analysis board's requests: the only code that writes PositionAnalysis rows.

Asking for a position at a depth reads the kept answer when there is one (anyone's: the same
XGID, the same answer) and otherwise creates the row and queues the worker's task after commit;
the task claims the row by a conditional update, so a task run twice analyses once. New analyses
are limited per player (or per address for a visitor): POSITION_ANALYSES_PER_MINUTE in any
minute, so nobody can keep the worker busy. A row left queued or running by a killed worker for
POSITION_ANALYSIS_STALE_SECONDS is queued afresh by the next ask, as a failed one is.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from backgammon.engine import MatchState, encode_xgid, state_for_analysis, state_from_xgid
from backgammon.services import Rejected

from .models import PositionAnalysis

__all__ = [
    "PositionLimitReached",
    "position_analysis_ask",
    "position_analysis_run",
    "position_analysis_wait",
]

logger = logging.getLogger(__name__)
_WAIT_STEP_SECONDS = 0.05
_OPEN = (PositionAnalysis.Status.QUEUED, PositionAnalysis.Status.RUNNING)


class PositionLimitReached(Rejected):
    """The player asked for POSITION_ANALYSES_PER_MINUTE new analyses in the last minute."""


def position_analysis_ask(state: MatchState, plies: int, *, user: Any = None, address: str = "") -> PositionAnalysis:
    """The row of this position's analysis at ``plies``, queued if it was not asked before (or
    failed, or was left by a killed worker); PositionLimitReached past the asker's share."""
    from .tasks import analyse_position_task, position_queue

    xgid = encode_xgid(state_for_analysis(state))
    requester = f"user:{user.pk}" if user is not None and user.is_authenticated else f"address:{address or 'unknown'}"
    kept = PositionAnalysis.objects.filter(xgid=xgid, plies=plies).first()
    if kept is not None and not _to_ask_again(kept):
        return kept
    with transaction.atomic():
        if requester.startswith("user:"):  # their simultaneous asks count each other
            get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        _refuse_beyond_the_share(requester)
        fields = {"status": PositionAnalysis.Status.QUEUED, "result": {}, "failure": "",
                  "requested_by": user if requester.startswith("user:") else None,
                  "requested_from": requester, "requested_at": timezone.now(), "finished_at": None}
        try:
            with transaction.atomic():
                analysis, created = PositionAnalysis.objects.get_or_create(xgid=xgid, plies=plies, defaults=fields)
        except IntegrityError:  # another request created it between our read and our write
            return PositionAnalysis.objects.get(xgid=xgid, plies=plies)
        if not created:
            # Queued afresh only if it is still failed or stale: a simultaneous ask may have done it.
            again = PositionAnalysis.objects.filter(pk=analysis.pk, status=analysis.status,
                                                    requested_at=analysis.requested_at)
            if not _to_ask_again(analysis) or not again.update(**fields):
                analysis.refresh_from_db()
                return analysis
            analysis.refresh_from_db()
        queued = analyse_position_task.using(queue_name=position_queue(plies))
        transaction.on_commit(lambda: queued.enqueue(analysis.pk))
    return analysis


def _to_ask_again(analysis: PositionAnalysis) -> bool:
    if analysis.status == PositionAnalysis.Status.FAILED:
        return True
    stale_before = timezone.now() - timedelta(seconds=settings.POSITION_ANALYSIS_STALE_SECONDS)
    return analysis.status in _OPEN and analysis.requested_at < stale_before


def _refuse_beyond_the_share(requester: str) -> None:
    limit = settings.POSITION_ANALYSES_PER_MINUTE
    since = timezone.now() - timedelta(minutes=1)
    asked = PositionAnalysis.objects.filter(requested_from=requester, requested_at__gte=since).count()
    if asked >= limit:
        raise PositionLimitReached(
            f"You asked for {asked} new positions in the last minute, the most one player may ask "
            f"for ({limit}): positions analysed already still answer at once; try a new one in a minute."
        )


def position_analysis_wait(analysis: PositionAnalysis, seconds: float) -> PositionAnalysis:
    """The row once done or failed, or as it is after ``seconds`` (0: at once)."""
    deadline = time.monotonic() + seconds
    while analysis.status in _OPEN and time.monotonic() < deadline:
        time.sleep(_WAIT_STEP_SECONDS)
        analysis.refresh_from_db()
    return analysis


def position_analysis_run(analysis_id: int) -> bool:
    """Analyse a queued position; False when another run has it or had it already."""
    from .position_board import analyse_position

    claimed = PositionAnalysis.objects.filter(pk=analysis_id, status=PositionAnalysis.Status.QUEUED).update(
        status=PositionAnalysis.Status.RUNNING
    )
    if not claimed:
        return False
    analysis = PositionAnalysis.objects.get(pk=analysis_id)
    rows = PositionAnalysis.objects.filter(pk=analysis_id, status=PositionAnalysis.Status.RUNNING)
    try:
        result = analyse_position(state_from_xgid(analysis.xgid), analysis.plies)
    except Exception as error:  # recorded for the asker; the worker goes on with other tasks
        logger.exception("analysis of position %s at %s-ply failed", analysis.xgid, analysis.plies)
        rows.update(status=PositionAnalysis.Status.FAILED, failure=str(error)[:500], finished_at=timezone.now())
        return False
    rows.update(status=PositionAnalysis.Status.DONE, result=result, finished_at=timezone.now())
    return True
