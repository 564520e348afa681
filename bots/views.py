"""Play the computer now (GET: the offer with its terms; POST: start the game and open it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from backgammon.services import ChallengeRejected, Refusal
from bots.forms import PlayNowForm, offer_form
from bots.play_now import computer_game_start, latest_computer_game

__all__ = ["play_now"]


def _page(request: HttpRequest, form: PlayNowForm, words: str, *, status: int = 200) -> HttpResponse:
    return render(request, "bots/play_now.html", {"form": form, "terms": words}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def play_now(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, *offer_form(request.user))
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        _, words = offer_form(request.user)
        return _page(request, form, words, status=400)
    try:
        game = computer_game_start(player=request.user, **form.service_arguments())
    except ChallengeRejected as refusal:
        if refusal.kind is Refusal.STALE:
            # A second click, or a second tab: the game the first one started is what was wanted.
            started = latest_computer_game(request.user)
            if started is not None:
                messages.info(request, refusal.message)
                return redirect(reverse("backgammon:game", args=[started.pk]))
        form.add_error(None, refusal.message)
        _, words = offer_form(request.user)
        return _page(request, form, words, status=409 if refusal.kind is Refusal.STALE else 400)
    messages.success(request, f"Your game against {game.white.get_username()} has started.")
    return redirect(reverse("backgammon:game", args=[game.pk]))
