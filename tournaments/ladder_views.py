"""The Ladders page: every ladder with its ranks, and Join, Leave and Challenge for a player."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST

from backgammon.models import time_limit_label
from backgammon.services import Refusal, Rejected
from tournaments.ladders import (
    LadderConflict,
    challengeable_player_ids,
    ladder_challenge,
    ladder_join,
    ladder_leave,
)
from tournaments.models import Ladder

__all__ = ["ladder_action", "ladders"]


def _ladder_rows(viewer: Any) -> list[dict[str, Any]]:
    rows = []
    for ladder in Ladder.objects.all():
        rungs = list(ladder.rungs.select_related("player").order_by("rank"))
        rows.append({
            "ladder": ladder,
            "time_limit": time_limit_label(ladder.time_limit),
            "rungs": rungs,
            "on_it": any(rung.player_id == viewer.pk for rung in rungs),
            "may_challenge": challengeable_player_ids(ladder, viewer),
        })
    return rows


def _render(request: HttpRequest, *, status: int = 200) -> HttpResponse:
    """The page, or to htmx (asking again on a pushed "changed" event) its ladders alone."""
    htmx = getattr(request, "htmx", None)
    region = request.method == "GET" and htmx and not htmx.boosted
    template = "tournaments/_ladders_live.html" if region else "tournaments/ladders.html"
    response = render(request, template, {"ladders": _ladder_rows(request.user)}, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def ladders(request: HttpRequest) -> HttpResponse:
    return _render(request)


def _status(refusal: Rejected) -> int:
    if refusal.kind is Refusal.NOT_FOUND:
        return 404
    return 409 if isinstance(refusal, LadderConflict) else 400


@login_required
@require_POST
def ladder_action(request: HttpRequest, ladder_id: int, action: str) -> HttpResponse:
    """Join, leave, or challenge the player named in the form's ``opponent``."""
    try:
        if action == "join":
            rung = ladder_join(ladder_id=ladder_id, player=request.user)
            messages.success(request, f"You joined the ladder {rung.ladder.name} at rank {rung.rank}.")
        elif action == "leave":
            ladder_leave(ladder_id=ladder_id, player=request.user)
            messages.success(request, "You left the ladder.")
        else:
            opponent = request.POST.get("opponent", "")
            made = ladder_challenge(ladder_id=ladder_id, challenger=request.user, opponent=opponent)
            messages.success(request, f"You challenged {made.challenged.get_username()}: the game "
                                      "starts when they accept.")
    except Rejected as refusal:
        messages.error(request, refusal.message)
        return _render(request, status=_status(refusal))
    return redirect("tournaments:ladders")
