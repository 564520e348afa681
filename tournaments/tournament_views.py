"""The Tournaments pages: the list by area and status with Sign up and Withdraw, and each
tournament's live bracket or table (htmx asks for it again when a pushed event says it changed)."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST

from backgammon.models import time_limit_label
from backgammon.services import Refusal, Rejected
from tournaments.models import Tournament, TournamentMatch
from tournaments.replacements import tournament_replace_player
from tournaments.tournaments import (
    TournamentConflict,
    standings,
    tournament_join,
    tournament_leave,
)

__all__ = ["tournament", "tournament_action", "tournament_replace", "tournaments"]

LISTED_STATUSES = (Tournament.Status.SIGNUP, Tournament.Status.RUNNING, Tournament.Status.FINISHED)
Format = Tournament.Format


def _areas(viewer: Any) -> list[dict[str, Any]]:
    listed = (Tournament.objects.filter(status__in=LISTED_STATUSES)
              .annotate(entrants=Count("entries")).order_by("-created_at", "-pk"))
    mine = set()
    if viewer.is_authenticated:
        mine = set(listed.filter(entries__player=viewer).values_list("pk", flat=True))
    areas = []
    for area, area_label in Tournament.Area.choices:
        sections = []
        for status in LISTED_STATUSES:
            rows = [
                {"tournament": t, "signed_up": t.pk in mine,
                 "time_limit": _clock_words(t)}
                for t in listed if t.area == area and t.status == status
            ]
            sections.append({"status": status, "label": status.label, "rows": rows})
        areas.append({"area": area, "label": area_label, "sections": sections})
    return areas


def _render_list(request: HttpRequest, *, status: int = 200) -> HttpResponse:
    """The page, or to htmx (asking again on a pushed "changed" event) its lists alone."""
    htmx = getattr(request, "htmx", None)
    region = request.method == "GET" and htmx and not htmx.boosted
    template = "tournaments/_tournaments_live.html" if region else "tournaments/tournaments.html"
    response = render(request, template, {"areas": _areas(request.user)}, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def tournaments(request: HttpRequest) -> HttpResponse:
    return _render_list(request)


def _status(refusal: Rejected) -> int:
    if refusal.kind is Refusal.NOT_FOUND:
        return 404
    if refusal.kind is Refusal.NOT_PLAYER:
        return 403
    return 409 if isinstance(refusal, TournamentConflict) else 400


@login_required
@require_POST
def tournament_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """Sign up or withdraw; a refusal shows the list again with the reason."""
    try:
        if action == "join":
            joined = tournament_join(tournament_id=tournament_id, player=request.user)
            messages.success(request, f"You signed up for {joined.name}.")
        else:
            left = tournament_leave(tournament_id=tournament_id, player=request.user)
            messages.success(request, f"You withdrew from {left.name}.")
    except Rejected as refusal:
        messages.error(request, refusal.message)
        return _render_list(request, status=_status(refusal))
    return redirect("tournaments:tournaments")


def _match_row(match: TournamentMatch, viewer: Any) -> dict[str, Any]:
    def name(player: Any) -> str | None:
        return player.get_username() if player is not None else None

    return {
        "match": match,
        "a": name(match.player_a),
        "b": "bye" if match.bye else name(match.player_b),
        "winner": name(match.winner),
        "game_link": _game_link_words(match, viewer),
    }


def _game_link_words(match: TournamentMatch, viewer: Any) -> str:
    """What the match's game link says to ``viewer``: "Play" on their own match in progress,
    "Game" once decided, "Watch game" to others; nothing where the game page would not open
    for them (a visitor: it needs a log-in; a private game: its players only)."""
    game = match.game
    if game is None or not viewer.is_authenticated:
        return ""
    own = viewer.pk in (game.black_id, game.white_id)
    if own:
        return "Play" if game.is_active else "Game"
    if game.is_private:
        return ""
    return "Watch game" if game.is_active else "Game"


def _round_title(number: int, last: int) -> str:
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(last - number, f"Round {number}")


BRACKET_TITLES = {"winners": "unbeaten", "losers": "once beaten", "final": "final"}


def _sections(tournament: Tournament, viewer: Any) -> list[dict[str, Any]]:
    """The bracket's columns (single elimination), the rounds per bracket (double elimination),
    or the rounds of the table (round robin)."""
    matches = list(tournament.matches.select_related("player_a", "player_b", "winner", "game")
                   .order_by("round", "bracket", "slot"))
    last = max((match.round for match in matches), default=0)
    sections = []
    for (number, bracket), group in groupby(matches, key=lambda m: (m.round, m.bracket)):
        if tournament.format == Format.SINGLE_ELIMINATION:
            title = _round_title(number, last)
        elif tournament.format == Format.DOUBLE_ELIMINATION:
            title = f"Round {number}, {BRACKET_TITLES.get(bracket, bracket)}"
        else:
            title = f"Round {number}"
        sections.append({"title": title, "matches": [_match_row(m, viewer) for m in group]})
    return sections


def _context(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    found = Tournament.objects.filter(pk=tournament_id).select_related("winner").first()
    if found is None:
        raise Http404("There is no such tournament.")
    entries = list(found.entries.select_related("player"))
    return {
        "tournament": found,
        "time_limit": _clock_words(found),
        "entrants": [entry.player.get_username() for entry in entries],
        "sections": _sections(found, request.user),
        "standings": standings(found) if found.status != Tournament.Status.SIGNUP else [],
        "columns": found.format == Format.SINGLE_ELIMINATION,
        "live": found.status in (Tournament.Status.SIGNUP, Tournament.Status.RUNNING),
        "replacements": found.replacements.select_related("old", "new", "staff"),
    }


@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page, or to htmx (asking again on a pushed "changed" event of the tournament's topic)
    only its live region."""
    context = _context(request, tournament_id)
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.boosted:
        response = HttpResponse(render_to_string("tournaments/_tournament_live.html", context, request=request))
    else:
        response = render(request, "tournaments/tournament.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_POST
def tournament_replace(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Staff's form on the tournament page: replace ``old`` by ``new``, with a reason."""
    users = get_user_model()._default_manager
    old = users.filter(username__iexact=request.POST.get("old", "").strip()).first()
    new = users.filter(username__iexact=request.POST.get("new", "").strip()).first()
    try:
        if not request.user.is_staff:
            raise Rejected("Only staff can replace a player", Refusal.NOT_PLAYER)
        if old is None or new is None:
            raise Rejected("Name two players who have accounts here: the one to replace and the "
                           "replacement")
        tournament_replace_player(tournament_id=tournament_id, staff=request.user, old=old, new=new,
                                  reason=request.POST.get("reason", ""))
    except Rejected as refusal:
        messages.error(request, refusal.message)
        return render(request, "tournaments/tournament.html", _context(request, tournament_id),
                      status=_status(refusal))
    messages.success(request, f"{new.get_username()} replaced {old.get_username()}.")
    return redirect("tournaments:tournament", tournament_id)


def _clock_words(tournament: Tournament) -> str:
    """"3 days per move", or a live tournament's clock: "live: 8 s + 1 min" (delay + reserve)."""
    control = tournament.time_control()
    if control is None:
        return f"{time_limit_label(tournament.time_limit)} per move"
    return f"live: {control.describe()}"
