"""Analysis and replay pages: ask for an analysis, watch its progress, step through the match.

Anyone logged in who may watch the game may ask for its analysis and replay it; the analysis
runs in the worker (services.analysis_request queues it), never in the request.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from backgammon.models import Game
from backgammon.views.access import visible_game_or_404

from .models import GameAnalysis
from .replay import build_replay
from .services import AnalysisRejected, analysis_request, analysis_unavailable_reason

__all__ = ["analysis_panel", "analysis_start", "replay"]


def _game_or_404(game_id: int, user: object) -> Game:
    # A private game's replay and analysis are its players' alone, like its page.
    return visible_game_or_404(game_id, user)


def panel_context(game: Game) -> dict[str, object]:
    """What the analysis panel shows: the button, the reason there is none, progress, or the link."""
    return {
        "game": game,
        "analysis": GameAnalysis.objects.filter(game=game).first(),
        "unavailable": analysis_unavailable_reason(game),
    }


@login_required
@require_POST
def analysis_start(request: HttpRequest, game_id: int) -> HttpResponse:
    """Queue the analysis; the panel (htmx) or the game page (plain form) shows its progress."""
    game = _game_or_404(game_id, request.user)
    try:
        analysis_request(game_id=game.pk, user=request.user)
    except AnalysisRejected as refusal:
        context = {**panel_context(game), "error": refusal.message}
        return render(request, "analysis/_panel.html", context, status=400)
    if getattr(request, "htmx", False):
        return render(request, "analysis/_panel.html", panel_context(game))
    return redirect(reverse("backgammon:game", args=[game.pk]) + "#analysis")


@login_required
@require_GET
def analysis_panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The panel alone, asked for by htmx when a pushed event says the analysis moved on
    (backgammon/live_topics.py), or polled by static/js/live.js while push is unavailable."""
    game = _game_or_404(game_id, request.user)
    return render(request, "analysis/_panel.html", panel_context(game))


@login_required
@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """The match step by step (``?step=N``), with the analysis beside each move when done."""
    game = _game_or_404(game_id, request.user)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    analysis = GameAnalysis.objects.filter(game=game).first()
    page = build_replay(game, user=request.user, step=step, analysis=analysis)
    return render(request, "analysis/replay.html", {"page": page, "game": game, "analysis": analysis})
