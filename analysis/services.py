"""Asking for an analysis and running it: the only code that writes GameAnalysis rows.

A request creates the game's one analysis row and queues the worker's task after commit; asking
again while it is queued, running or done changes nothing (a failed one is queued afresh). The
task claims the row by a conditional update, so a task run twice analyses once.

Analyses run on a queue and a worker of their own (tasks.ANALYSIS_QUEUE), and one player may
have at most ANALYSES_PER_PLAYER queued or running at once, so nobody can hold up the others'.
A running analysis beats a heartbeat; one whose worker was killed falls silent, and the workers'
tick (``analysis_fail_stale``) marks it failed after ANALYSIS_STALE_SECONDS, with the page's
"Try again"; asking again meanwhile does the same at once.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from backgammon.engine.actions import Action
from backgammon.live_topics import publish_analysis_changed
from backgammon.models import Game
from backgammon.services import Refusal, Rejected

from .models import GameAnalysis
from .variants import UNSUPPORTED_VARIANTS

__all__ = [
    "AnalysisAlreadyAsked",
    "AnalysisLimitReached",
    "AnalysisNotYet",
    "AnalysisRejected",
    "analysis_ask",
    "analysis_fail_stale",
    "analysis_request",
    "analysis_run",
    "analysis_unavailable_reason",
]

logger = logging.getLogger(__name__)
PROGRESS_EVERY = 10
"""Actions analysed between two progress writes: the page's bar moves without a write per action."""
PROGRESS_TOLD_EVERY_SECONDS = 0.5
"""The game's open pages hear of the progress at most this often (backgammon/live_topics.py)."""
HEARTBEAT_EVERY_SECONDS = 10
"""A running analysis says it is alive this often (or at a quarter of ANALYSIS_STALE_SECONDS)."""
STOPPED = "The worker analysing it stopped (restarted or killed) at {done} of {total} actions."


class AnalysisRejected(Rejected):
    """An analysis that cannot be asked for (a variant gnubg lacks, an aborted game)."""


class AnalysisNotYet(AnalysisRejected):
    """The game is still being played: its analysis can be asked for once it is over."""


class AnalysisLimitReached(AnalysisRejected):
    """The player already has ANALYSES_PER_PLAYER analyses queued or running."""


class AnalysisAlreadyAsked(AnalysisRejected):
    """The game's analysis is already queued, running or done; ``analysis`` is its row."""

    def __init__(self, analysis: GameAnalysis) -> None:
        super().__init__(f"This game's analysis is already {analysis.status}: nothing to ask again.")
        self.analysis = analysis


NOT_OVER = "Analysis is for finished games: this one is not over yet."


def analysis_unavailable_reason(game: Game) -> str:
    """Why this game cannot be analysed, as a sentence; "" when it can."""
    if game.variant in UNSUPPORTED_VARIANTS:
        return f"Analysis is not available for {game.variant_name}: {UNSUPPORTED_VARIANTS[game.variant]}."
    if game.status == Game.Status.ABORTED:
        return "This game was aborted by the staff: there is nothing to analyse."
    if game.status != Game.Status.FINISHED:
        return NOT_OVER
    return ""


def analysis_request(*, game_id: int, user: Any) -> GameAnalysis:
    """Queue the analysis of a finished game (once); return its row, also when it was already
    queued, running or done (the page's button: asking twice changes nothing)."""
    try:
        return analysis_ask(game_id=game_id, user=user)
    except AnalysisAlreadyAsked as asked:
        return asked.analysis


def analysis_ask(*, game_id: int, user: Any) -> GameAnalysis:
    """Queue the analysis of a finished game; AnalysisAlreadyAsked when it is queued, running or
    done (a failed one is queued afresh), AnalysisNotYet for a game in play, AnalysisLimitReached
    past the player's share, AnalysisRejected for a game gnubg cannot analyse."""
    from .tasks import analyse_game

    with transaction.atomic():
        # The player's row lock makes their simultaneous requests count each other (the share
        # below); the game row's lock makes two simultaneous requests queue one task.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise AnalysisRejected("There is no such game.", Refusal.NOT_FOUND)
        reason = analysis_unavailable_reason(game)
        if reason:
            raise (AnalysisNotYet if reason == NOT_OVER else AnalysisRejected)(reason)
        _fail_stale(GameAnalysis.objects.filter(game=game))  # a killed worker's: ask again works
        existing = GameAnalysis.objects.filter(game=game).first()
        if existing is not None and existing.status != GameAnalysis.Status.FAILED:
            # Nothing was written above (a stale one would now be failed), so the rollback of
            # this refusal loses nothing.
            raise AnalysisAlreadyAsked(existing)
        _refuse_beyond_the_players_share(user)
        analysis, created = GameAnalysis.objects.get_or_create(
            game=game, defaults={"requested_by": user, "total": game.action_count}
        )
        if not created:
            analysis.status, analysis.done, analysis.failure = GameAnalysis.Status.QUEUED, 0, ""
            analysis.requested_by, analysis.requested_at = user, timezone.now()
            analysis.heartbeat_at = None
            analysis.save(update_fields=["status", "done", "failure", "requested_by", "requested_at",
                                        "heartbeat_at"])
        transaction.on_commit(lambda: analyse_game.enqueue(analysis.pk))
        _changed(game)
    return analysis


def _refuse_beyond_the_players_share(user: Any) -> None:
    """One player may have ANALYSES_PER_PLAYER queued or running at once, no more."""
    limit = settings.ANALYSES_PER_PLAYER
    waiting = GameAnalysis.objects.filter(
        requested_by_id=user.pk, status__in=(GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING)
    ).count()
    if waiting >= limit:
        raise AnalysisLimitReached(
            f"You already have {waiting} analyses waiting or running, the most one player may "
            f"have at once ({limit}): ask again when one of them is done."
        )


def _stale_before(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)


def _fail_stale(analyses: Any, now: datetime | None = None) -> list[int]:
    """Mark failed the running analyses among ``analyses`` whose heartbeat stopped; their ids.

    Each is taken by a conditional update on the heartbeat it was seen with, so a worker that
    beats meanwhile keeps its analysis, and several workers checking at once fail it once."""
    now = now or timezone.now()
    cutoff = _stale_before(now)
    silent = Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, requested_at__lt=cutoff)
    failed = []
    running = analyses.filter(silent, status=GameAnalysis.Status.RUNNING)
    for pk, heartbeat, done, total in running.values_list("pk", "heartbeat_at", "done", "total"):
        taken = GameAnalysis.objects.filter(
            pk=pk, status=GameAnalysis.Status.RUNNING, heartbeat_at=heartbeat
        ).update(status=GameAnalysis.Status.FAILED, failure=STOPPED.format(done=done, total=total),
                 finished_at=now)
        if taken:
            failed.append(pk)
    return failed


def analysis_fail_stale(now: datetime | None = None) -> int:
    """The workers' tick: fail every analysis whose worker died while running it; how many."""
    failed = _fail_stale(GameAnalysis.objects.all(), now)
    for analysis in GameAnalysis.objects.filter(pk__in=failed).select_related("game"):
        logger.warning("analysis of game %s lost its worker: marked failed", analysis.game_id)
        _changed(analysis.game)
    return len(failed)


def analysis_run(analysis_id: int) -> bool:
    """Analyse a queued request; False when another run has it or had it already."""
    from .isolated import analyse_isolated

    claimed = GameAnalysis.objects.filter(pk=analysis_id, status=GameAnalysis.Status.QUEUED).update(
        status=GameAnalysis.Status.RUNNING, done=0, heartbeat_at=timezone.now()
    )
    if not claimed:
        return False  # another worker got there first, or it is finished
    analysis = GameAnalysis.objects.select_related("game").get(pk=analysis_id)
    game = analysis.game
    logged = game.actions.order_by("number").values_list("data", flat=True)
    actions = [Action.from_dict(data) for data in logged]
    rows = GameAnalysis.objects.filter(pk=analysis_id)
    rows.update(total=len(actions))

    _changed(game)
    told_at = beat_at = time.monotonic()
    beat_every = min(HEARTBEAT_EVERY_SECONDS, settings.ANALYSIS_STALE_SECONDS / 4)

    def progress(done: int, total: int) -> None:
        nonlocal told_at, beat_at
        if done % PROGRESS_EVERY == 0 or time.monotonic() - beat_at >= beat_every:
            rows.update(done=done, heartbeat_at=timezone.now())
            beat_at = time.monotonic()
            if time.monotonic() - told_at >= PROGRESS_TOLD_EVERY_SECONDS:
                _changed(game)
                told_at = time.monotonic()

    def alive() -> None:
        nonlocal beat_at
        rows.update(heartbeat_at=timezone.now())
        beat_at = time.monotonic()

    try:
        results = analyse_isolated(game.rules(), actions, progress, alive=alive, alive_every=beat_every)
    except Exception as error:  # recorded for the page; the worker goes on with other tasks
        logger.exception("analysis of game %s failed", game.pk)
        rows.update(status=GameAnalysis.Status.FAILED, failure=str(error)[:500], finished_at=timezone.now())
        _changed(game)
        return False
    rows.update(status=GameAnalysis.Status.DONE, done=len(actions), results=results,
                finished_at=timezone.now())
    _changed(game)
    return True


def _changed(game: Game) -> None:
    """The game's open pages show the analysis panel anew (queued, progress, done or failed)."""
    publish_analysis_changed(game_id=game.pk, player_ids=(game.black_id, game.white_id))
