"""The dice statistics pages: how the site's dice have fallen, site-wide and for one player."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from backgammon.dice_chart import bar_chart
from backgammon.dice_statistics import SITE_CACHE_SECONDS, DiceReport, player_report, site_report

__all__ = ["dice_player", "dice_site"]


def _context(report: DiceReport) -> dict[str, Any]:
    return {
        "report": report,
        "charts": {
            "rolls": bar_chart(report.rolls.rows),
            "faces": bar_chart(report.faces.rows),
            "doubles": bar_chart(report.doubles.rows, slot=90),
        },
    }


@require_GET
def dice_site(request: HttpRequest) -> HttpResponse:
    """Every roll on the site against fair dice (figures at most a few minutes old)."""
    context = _context(site_report())
    context["cache_minutes"] = SITE_CACHE_SECONDS // 60
    return render(request, "backgammon/dice_statistics.html", context)


@require_GET
def dice_player(request: HttpRequest, username: str) -> HttpResponse:
    """One player's rolls, by userid (in any case), against fair dice."""
    player = get_user_model()._default_manager.filter(username__iexact=username, is_active=True).first()
    if player is None:
        raise Http404(f"There is no player called {username!r}.")
    context = _context(player_report(player))
    context["player"] = player
    return render(request, "backgammon/dice_statistics.html", context)
