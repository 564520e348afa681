"""The waiting room (open challenges anyone may join) and auto-match: PLAY menu pages."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling

from accounts.rating_choices import rated_defaults
from backgammon.engine import VARIANTS
from backgammon.forms import AutoMatchForm, OpenChallengeForm, WaitingRoomFilterForm, time_limit_key
from backgammon.lobby_limits import LOBBY_TOO_FAST, lobby_write_refused
from backgammon.models import AutoMatchRequest, Challenge, Game
from backgammon.services import (
    ChallengeRejected,
    OpenChallengeFilters,
    auto_match_cancel,
    auto_match_of,
    auto_match_place,
    auto_match_waiting,
    live_match_in_play,
    open_challenge_create,
    open_challenge_join,
    open_challenge_withdraw,
    open_challenges_for,
)
from backgammon.services.auto_match import AutoMatchWaiting
from backgammon.services.waiting_room import MAX_OPEN_CHALLENGES, OpenChallengeRow

from .lobby import game_url

_DEFAULT_LIMITS = (timedelta(days=1), timedelta(days=3))

__all__ = [
    "auto_match",
    "auto_match_cancel_view",
    "waiting_room",
    "waiting_room_join",
    "waiting_room_live",
    "waiting_room_withdraw",
]

# The Live tab's form starts on a live preset; the correspondence tab's on correspondence.
_LIVE_FORM_CLOCK = "rapid"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _render_room(request: HttpRequest, form: OpenChallengeForm, *, live: bool, status: int = 200) -> HttpResponse:
    filter_form = WaitingRoomFilterForm(request.GET or None, live=live)
    filters = filter_form.filters() if filter_form.is_valid() else OpenChallengeFilters()
    # Each tab lists its own kind: a live offer's terms are a match clock, not a time per move.
    rows = open_challenges_for(request.user, replace(filters, live=live))
    htmx = getattr(request, "htmx", None)
    region = {"rows": rows, "live": live, "filtered": any(key != _WAITING for key in request.GET),
              "region_url": _region_url(request, rows)}
    if request.method == "GET" and htmx and not htmx.boosted:  # a pushed "changed": the list alone
        joined = _my_live_offer_joined(request)
        if joined is not None:
            return HttpResponseClientRedirect(game_url(joined))
        response = render(request, "backgammon/_open_challenges.html", region)
    else:
        response = render(
            request,
            "backgammon/waiting_room.html",
            {
                **region,
                "room_url": reverse("backgammon:waiting_room_live" if live else "backgammon:waiting_room"),
                "filter_form": filter_form,
                "form": form,
                "variant_rows": zip(form["variant"], VARIANTS.values(), strict=True),
            },
            status=status,
        )
    patch_vary_headers(response, ["HX-Request"])
    return response


_WAITING = "waiting"
"""The list's own address carries the ids of the viewer's live offers it showed, so that when one
is joined the creator's page (told by the pushed "changed") goes to the match at once."""


def _region_url(request: HttpRequest, rows: list[OpenChallengeRow]) -> str:
    query = request.GET.copy()
    query.pop(_WAITING, None)
    mine = [str(row.challenge.pk) for row in rows if row.challenge.is_live and row.challenge.challenger_id == request.user.pk]
    if mine:
        query[_WAITING] = ",".join(mine)
    return f"{request.path}?{query.urlencode()}" if query else request.path


def _my_live_offer_joined(request: HttpRequest) -> Game | None:
    """The match one of the viewer's live offers (listed on their page) started, if any."""
    if not request.user.is_authenticated:
        return None
    ids = [int(part) for part in request.GET.get(_WAITING, "").split(",")[:MAX_OPEN_CHALLENGES] if part.isdigit()]
    if not ids:
        return None
    joined = (
        Challenge.objects.filter(pk__in=ids, challenger=request.user, status=Challenge.Status.ACCEPTED,
                                 live_reserve_s__isnull=False, game__status=Game.Status.ACTIVE)
        .select_related("game").order_by("-responded_at").first()
    )
    return joined.game if joined is not None else None


@require_http_methods(["GET", "POST"])
def waiting_room(request: HttpRequest) -> HttpResponse:
    """The correspondence open challenges I may see (filtered), and a form to add mine (either
    kind). Visitors see the room too, as on ItsYourTurn, and are asked to sign up or log in to
    join or add a challenge."""
    return _room(request, live=False)


@require_http_methods(["GET", "POST"])
def waiting_room_live(request: HttpRequest) -> HttpResponse:
    """The Live tab: live open challenges of players who are here now, and the same form."""
    return _room(request, live=True)


def _room(request: HttpRequest, *, live: bool) -> HttpResponse:
    if request.method != "POST":
        form = OpenChallengeForm(
            initial={"clock": _LIVE_FORM_CLOCK} if live else None, rated_defaults=rated_defaults(request.user)
        )
        return _render_room(request, form, live=live)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = OpenChallengeForm(request.POST)
    if form.is_valid():
        if lobby_write_refused(request, request.user):
            form.add_error(None, LOBBY_TOO_FAST)
            return _render_room(request, form, live=live, status=429)
        try:
            made = open_challenge_create(challenger=request.user, **form.service_arguments())
        except ChallengeRejected as refusal:
            form.add_error(None, _sentence(refusal.message))
        else:
            if made.is_live:
                messages.success(request, "Your live challenge is in the Live tab while you are here.")
                return redirect("backgammon:waiting_room_live")
            messages.success(request, "Your open challenge is in the waiting room.")
            return redirect("backgammon:waiting_room")
    return _render_room(request, form, live=live, status=400)


@require_POST
def waiting_room_join(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Join an open challenge: its game starts and opens. A visitor is asked to log in and comes
    back to the room (this address answers POST only)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("backgammon:waiting_room"))
    try:
        game = open_challenge_join(challenge_id=challenge_id, actor=request.user)
    except ChallengeRejected as refusal:
        messages.error(request, _sentence(refusal.message))
        return redirect(_tab_of(request))
    messages.success(request, f"The game against {game.black.get_username()} has started.")
    return redirect(game_url(game))


@login_required
@require_POST
def waiting_room_withdraw(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        open_challenge_withdraw(challenge_id=challenge_id, actor=request.user)
    except ChallengeRejected as refusal:
        messages.error(request, _sentence(refusal.message))
    else:
        messages.success(request, "You withdrew your open challenge.")
    return redirect(_tab_of(request))


def _tab_of(request: HttpRequest) -> str:
    """The tab a join or withdraw button was on (its form says), to go back to."""
    return "backgammon:waiting_room_live" if request.POST.get("tab") == "live" else "backgammon:waiting_room"


@login_required
@require_http_methods(["GET", "POST"])
def auto_match(request: HttpRequest) -> HttpResponse:
    """My auto-match request (make or change it) and the games it started. A live request's
    game opens at once: the POST that pairs it goes there, and the page of a player still
    waiting asks every few seconds (``known``: the games it had) and is sent there."""
    if request.method == "POST":
        form = AutoMatchForm(request.POST)
        status = 400
        if form.is_valid():
            if lobby_write_refused(request, request.user):
                form.add_error(None, LOBBY_TOO_FAST)
                status = 429
            else:
                try:
                    placed = auto_match_place(player=request.user, **form.service_arguments())
                except ChallengeRejected as refusal:
                    form.add_error(None, _sentence(refusal.message))
                else:
                    made = placed.request
                    if made.is_live and placed.started:
                        return redirect("backgammon:game", max(game.pk for game in placed.started))
                    games = _game_ids(made)
                    messages.success(request, _saved_sentence(len(games), made.max_games, live=made.is_live))
                    return redirect("backgammon:auto_match")
        current = auto_match_of(request.user)
        return render(request, "backgammon/auto_match.html", {"form": form, "current": current}, status=status)
    htmx = getattr(request, "htmx", None)
    if htmx and "known" in request.GET:
        return _live_wait_answer(request, auto_match_waiting(request.user))
    current = auto_match_of(request.user)
    if current is not None and current.status == AutoMatchRequest.Status.OPEN:
        # Changing a request starts from what it asks now.
        form = AutoMatchForm(initial={
            "variants": current.variants,
            "time_limits": [str(seconds) for seconds in current.time_limits],
            "live_clocks": ["any"] if current.live_any else current.live_presets,
            "rated": current.rated,
            "max_games": current.max_games,
        })
    else:
        form = AutoMatchForm(initial={"variants": ["BP"], "time_limits": [time_limit_key(v) for v in _DEFAULT_LIMITS]})
    return render(request, "backgammon/auto_match.html", {"form": form, "current": current,
                                                          "playing_live": _playing_live(current, request.user)})


def _playing_live(current: AutoMatchRequest | None, user: Any) -> Game | None:
    """The live match that keeps an open live request waiting, for its page to say why."""
    if current is None or not current.is_live or current.status != AutoMatchRequest.Status.OPEN:
        return None
    return live_match_in_play(user)


def _game_ids(found: AutoMatchRequest) -> set[int]:
    return set(found.games.values_list("pk", flat=True))


def _live_wait_answer(request: HttpRequest, current: AutoMatchWaiting | None) -> HttpResponse:
    """A waiting live request's poll: off to the game it started since the page was drawn, or
    nothing to change (204), or stop asking once the request is no longer a waiting live one."""
    try:
        known = int(request.GET["known"])
    except ValueError:
        return HttpResponse("known is a count of games", status=400)
    if current is None or not current.is_live:
        return HttpResponseStopPolling()
    if current.started > known and current.newest_game_id is not None:
        return HttpResponseClientRedirect(reverse("backgammon:game", args=[current.newest_game_id]))
    if not current.is_open:
        return HttpResponseStopPolling()
    return HttpResponse(status=204)


def _saved_sentence(started: int, max_games: int, *, live: bool = False) -> str:
    if not started and live:
        return "Your live request is saved: we will pair you with a live opponent as soon as one is here."
    if not started:
        return "Your auto-match request is saved: we will pair you soon."
    if started >= max_games:
        return f"Your auto-match request is filled: {started} of {max_games} games started."
    return f"Your auto-match request is saved: {started} of {max_games} games started, looking for more."


@login_required
@require_POST
def auto_match_cancel_view(request: HttpRequest) -> HttpResponse:
    try:
        auto_match_cancel(player=request.user)
    except ChallengeRejected as refusal:
        messages.error(request, _sentence(refusal.message))
    else:
        messages.success(request, "You cancelled your auto-match request.")
    return redirect("backgammon:auto_match")
