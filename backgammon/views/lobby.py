"""The lobby: Game status (home of a logged-in player), New game (challenges), Next game."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.rating_choices import rated_defaults
from backgammon.engine import VARIANTS
from backgammon.forms import ChallengeForm
from backgammon.models import Challenge, Game
from backgammon.services import (
    ChallengeRejected,
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenge_withdraw,
    next_game_for,
    open_challenge_create,
    status_lists,
)
from backgammon.services.challenges import live_challenge_just_accepted
from gamesite.jinja_env import render_jinja
from gamesite.menu_counts import menu_counts_keys

OPEN_OPPONENT = "anyone"
"""Typed as the opponent on Start new game, it puts the challenge in the waiting room."""

__all__ = ["challenge_respond", "game_url", "new_game", "next_game", "next_game_url", "status"]


def game_url(game: Game) -> str:
    """The game page, or Game status while the game page is not wired in."""
    try:
        return reverse("backgammon:game", args=[game.pk])
    except NoReverseMatch:
        return reverse("backgammon:status")


def to_live_match_just_started(request: HttpRequest) -> HttpResponse | None:
    """For a list region's htmx refresh (Game status, the main screen: asked again at the news of a
    change), off to the live match the player's challenge has just started; None otherwise."""
    htmx = getattr(request, "htmx", None)
    if not htmx or htmx.boosted or request.method != "GET":
        return None
    started = live_challenge_just_accepted(request.user)
    return None if started is None else HttpResponseClientRedirect(reverse("backgammon:game", args=[started]))


def _render_status(request: HttpRequest, *, status_code: int = 200) -> HttpResponse:
    """The page, or for htmx's poll only its lists (the page asks every few seconds), or off to the
    live match a challenge of the player's has just started."""
    going = to_live_match_just_started(request)
    if going is not None:
        return going
    htmx = getattr(request, "htmx", None)
    lists = status_lists(request.user, also_kept=menu_counts_keys(request.user.pk))
    markup = render_jinja("backgammon/_status_lists.html", {"lists": lists, "user": request.user}, request)
    if htmx and not htmx.boosted:
        response = HttpResponse(markup, status=status_code)
    else:
        response = render(request, "backgammon/status.html", {"status_lists": markup}, status=status_code)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
def status(request: HttpRequest) -> HttpResponse:
    """My games (where I must act first), then my challenges."""
    return _render_status(request)


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    """Challenge a named player (or "anyone": an open challenge in the waiting room); errors
    re-render the form with the reason and change nothing."""
    if request.method == "POST":
        form = ChallengeForm(request.POST)
        if form.is_valid():
            arguments = form.service_arguments()
            try:
                if arguments["opponent"].strip().lower() == OPEN_OPPONENT:
                    del arguments["opponent"]
                    made = open_challenge_create(challenger=request.user, **arguments)
                    if made.is_live:  # listed in the Live tab, not among the correspondence offers
                        messages.success(request, "Your live challenge is in the Live tab while you are here.")
                        return redirect("backgammon:waiting_room_live")
                    messages.success(request, "Your open challenge is in the waiting room.")
                    return redirect("backgammon:waiting_room")
                challenge = challenge_create(challenger=request.user, **arguments)
            except ChallengeRejected as refusal:
                form.add_error(None, refusal.message)
            else:
                messages.success(
                    request,
                    f"Your challenge was sent to {challenge.challenged.get_username()}.",
                )
                return redirect("backgammon:status")
        status_code = 400
    else:
        form = ChallengeForm(initial={"opponent": request.GET.get("opponent", "")},
                             rated_defaults=rated_defaults(request.user))
        status_code = 200
    return render(
        request,
        "backgammon/new_game.html",
        {"form": form, "variant_rows": zip(form["variant"], VARIANTS.values(), strict=True)},
        status=status_code,
    )


def _challenge_for_user(challenge_id: int, user: Any) -> Challenge:
    """The challenge if ``user`` sent or received it; a 404 for anyone else."""
    try:
        challenge = Challenge.objects.get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise Http404("No such challenge") from None
    if user.pk not in (challenge.challenger_id, challenge.challenged_id):
        raise Http404("No such challenge")
    return challenge


_RESPONSES = {"accept", "decline", "withdraw"}


@login_required
@require_POST
def challenge_respond(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept or decline a challenge to me, or withdraw one of mine."""
    challenge = _challenge_for_user(challenge_id, request.user)
    response = request.POST.get("response", "")
    if response not in _RESPONSES:
        messages.error(request, "Choose Accept, Decline or Withdraw.")
        return _render_status(request, status_code=400)
    try:
        if response == "accept":
            game = challenge_accept(challenge_id=challenge.pk, actor=request.user)
            messages.success(request, f"The game against {game.black.get_username()} has started.")
            return redirect(game_url(game))
        if response == "decline":
            challenge_decline(challenge_id=challenge.pk, actor=request.user)
            messages.success(request, "You declined the challenge.")
        else:
            challenge_withdraw(challenge_id=challenge.pk, actor=request.user)
            messages.success(request, "You withdrew your challenge.")
    except ChallengeRejected as refusal:
        messages.error(request, _sentence(refusal.message))
        return _render_status(request, status_code=409)
    return redirect("backgammon:status")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def next_game_url(request: HttpRequest) -> str:
    """The game where I must act with the oldest deadline, or Game status (saying so) if none."""
    game = next_game_for(request.user)
    if game is None:
        messages.info(request, "No game is waiting for you.")
        return reverse("backgammon:status")
    return game_url(game)


@login_required
@require_GET
def next_game(request: HttpRequest) -> HttpResponse:
    """The game where I must act with the oldest deadline, or Game status if there is none."""
    return redirect(next_game_url(request))
