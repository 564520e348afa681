"""Asking for an analysis and running it: the only code that writes GameAnalysis rows.

A request creates the game's one analysis row and queues the worker's task after commit; asking
again while it is queued, running or done changes nothing (a failed one is queued afresh). The
task claims the row by a conditional update, so a task run twice analyses once.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import transaction
from django.utils import timezone

from backgammon.engine.actions import Action
from backgammon.live_topics import publish_analysis_changed
from backgammon.models import Game
from backgammon.services import Rejected

from .models import GameAnalysis
from .variants import UNSUPPORTED_VARIANTS

__all__ = ["AnalysisRejected", "analysis_request", "analysis_run", "analysis_unavailable_reason"]

logger = logging.getLogger(__name__)
PROGRESS_EVERY = 10
"""Actions analysed between two progress writes: the page's bar moves without a write per action."""
PROGRESS_TOLD_EVERY_SECONDS = 0.5
"""The game's open pages hear of the progress at most this often (backgammon/live_topics.py)."""


class AnalysisRejected(Rejected):
    """An analysis that cannot be asked for (a game still being played, a variant gnubg lacks)."""


def analysis_unavailable_reason(game: Game) -> str:
    """Why this game cannot be analysed, as a sentence; "" when it can."""
    if game.variant in UNSUPPORTED_VARIANTS:
        return f"Analysis is not available for {game.variant_name}: {UNSUPPORTED_VARIANTS[game.variant]}."
    if game.status == Game.Status.ABORTED:
        return "This game was aborted by the staff: there is nothing to analyse."
    if game.status != Game.Status.FINISHED:
        return "Analysis is for finished games: this one is not over yet."
    return ""


def analysis_request(*, game_id: int, user: Any) -> GameAnalysis:
    """Queue the analysis of a finished game (once); return its row."""
    from .tasks import analyse_game

    with transaction.atomic():
        # The game row's lock makes two simultaneous requests queue one task.
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise AnalysisRejected("There is no such game.")
        reason = analysis_unavailable_reason(game)
        if reason:
            raise AnalysisRejected(reason)
        analysis, created = GameAnalysis.objects.get_or_create(
            game=game, defaults={"requested_by": user, "total": game.action_count}
        )
        if not created and analysis.status != GameAnalysis.Status.FAILED:
            return analysis
        if not created:
            analysis.status, analysis.done, analysis.failure = GameAnalysis.Status.QUEUED, 0, ""
            analysis.requested_by, analysis.requested_at = user, timezone.now()
            analysis.save(update_fields=["status", "done", "failure", "requested_by", "requested_at"])
        transaction.on_commit(lambda: analyse_game.enqueue(analysis.pk))
        _changed(game)
    return analysis


def analysis_run(analysis_id: int) -> bool:
    """Analyse a queued request; False when another run has it or had it already."""
    from .isolated import analyse_isolated

    claimed = GameAnalysis.objects.filter(pk=analysis_id, status=GameAnalysis.Status.QUEUED).update(
        status=GameAnalysis.Status.RUNNING, done=0
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
    told_at = time.monotonic()

    def progress(done: int, total: int) -> None:
        nonlocal told_at
        if done % PROGRESS_EVERY == 0:
            rows.update(done=done)
            if time.monotonic() - told_at >= PROGRESS_TOLD_EVERY_SECONDS:
                _changed(game)
                told_at = time.monotonic()

    try:
        results = analyse_isolated(game.rules(), actions, progress)
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
