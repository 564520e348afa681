"""More time on the game page: the waiting player gives the one to act 1, 3 or 7 days."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from backgammon.services import ActionRejected
from backgammon.services.more_time import game_give_time

from .game import _game_or_404, _go, _refusal_status, _show


@login_required
@require_POST
def game_give_time_view(request: HttpRequest, game_id: int) -> HttpResponse:
    the_game = _game_or_404(game_id, request.user)
    try:
        days = int(request.POST.get("days", ""))
    except ValueError:
        days = 0
    if not 1 <= days <= 7:
        days = 0  # the service refuses it with its own words; a huge number would overflow here
    try:
        game_give_time(game_id=the_game.pk, giver=request.user, extra=timedelta(days=days))
    except ActionRejected as refusal:
        fresh = _game_or_404(game_id, request.user)
        return _show(request, fresh, error=refusal.message, status=_refusal_status(fresh, request.user, refusal))
    return _go(request, reverse("backgammon:game", args=[the_game.pk]))
