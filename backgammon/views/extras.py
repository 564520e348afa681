"""Beside the game: a player's private note, and their wish that nobody watches the game.

Neither is a game action: both have their own services (services.notes, services.watching) and
their own forms (templates/backgammon/_note.html beside the game region, and _privacy.html in
it: backgammon/jinja2/backgammon/), swapped in by htmx and working as plain forms without it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_ratelimit.core import is_ratelimited

from backgammon.models import Game
from backgammon.services.notes import NOTE_MAX_LENGTH, NoteRejected, game_note_save, game_note_text
from backgammon.services.refusals import Refusal, Rejected
from backgammon.services.rematch import rematch_offer, rematch_state
from backgammon.services.watching import game_set_private, games_to_watch
from backgammon.views.access import visible_game_or_404
from gamesite.jinja_env import render_jinja

__all__ = ["game_note", "game_privacy", "watch"]

WATCH_PAGE_SIZE = 25
# Generous for a person typing and saving, not for a script filling the database.
NOTE_SAVES_RATE = "60/m"
NOTE_SAVES_REFUSED = "You saved notes very often just now: wait a minute, then save again. Your note is unchanged."


def _refusal_status(refusal: Rejected) -> int:
    return {Refusal.NOT_FOUND: 404, Refusal.NOT_PLAYER: 403}.get(refusal.kind, 400)


def _back_to_game(game_id: int) -> HttpResponse:
    return redirect("backgammon:game", game_id=game_id)


def _note_refused(request: HttpRequest, game: Game, text: str, message: str, *, status: int) -> HttpResponse:
    """The note form again with what was typed and why it was not saved."""
    context = {"game": game, "note_text": text, "note_error": message, "note_max": NOTE_MAX_LENGTH}
    # htmx swaps the note panel (static/js/swap_errors.js); a plain form gets a page of its own.
    template = "backgammon/_note.html" if getattr(request, "htmx", False) else "backgammon/note_refused.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def game_note(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save the player's private note; htmx gets the note panel back, a plain form the game page."""
    game = visible_game_or_404(game_id, request.user)
    text = request.POST.get("text", "")
    if is_ratelimited(request, group="game-note", key="user", rate=NOTE_SAVES_RATE, increment=True):
        return _note_refused(request, game, text, NOTE_SAVES_REFUSED, status=429)
    try:
        game_note_save(game_id=game.pk, author=request.user, text=text)
    except NoteRejected as refusal:
        if refusal.kind is Refusal.NOT_PLAYER:
            raise Http404("There is no such note.") from None
        return _note_refused(request, game, text, refusal.message, status=_refusal_status(refusal))
    if getattr(request, "htmx", False):
        context = {"game": game, "note_text": game_note_text(game=game, author=request.user),
                   "note_saved": True, "note_max": NOTE_MAX_LENGTH}
        return render(request, "backgammon/_note.html", context)
    messages.success(request, "Your note is saved. Only you can see it.")
    return _back_to_game(game.pk)


@login_required
@require_POST
def game_privacy(request: HttpRequest, game_id: int) -> HttpResponse:
    """A player asks that nobody watches the game (``private=1``), or no longer (``private=0``)."""
    game = visible_game_or_404(game_id, request.user)
    wish = request.POST.get("private")
    if wish not in ("0", "1"):
        return HttpResponse("Say whether the game should be private (1) or open to watchers (0).",
                            status=400, content_type="text/plain; charset=utf-8")
    try:
        game_set_private(game_id=game.pk, user=request.user, private=wish == "1")
    except Rejected as refusal:
        return HttpResponse(refusal.message, status=_refusal_status(refusal), content_type="text/plain; charset=utf-8")
    messages.success(request, "Nobody but the two of you can watch this game now." if wish == "1"
                     else "Your game may be watched again (unless your opponent keeps it private).")
    return _back_to_game(game.pk)


@login_required
@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    """Games in progress to watch, latest activity first, 25 a page."""
    pages = Paginator(games_to_watch(), WATCH_PAGE_SIZE)
    page = pages.get_page(request.GET.get("page"))
    return render(request, "backgammon/watch.html", {"games": page, "page_obj": page})


@login_required
@require_http_methods(["GET", "POST"])
def game_rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """POST: a player of a finished live match challenges the opponent to the same match again,
    or accepts the opponent's offer of it. GET (the game page's rematch slot asking again, htmx):
    where the rematch stands, or off to it once it has started."""
    game = visible_game_or_404(game_id, request.user)
    if request.method == "GET":
        return _rematch_slot(request, game)
    try:
        made = rematch_offer(game_id=game.pk, user=request.user)
    except Rejected as refusal:
        status = _refusal_status(refusal)
        if status != 400:  # a watcher's request: nothing to show them on the game's page
            return HttpResponse(refusal.message, status=status, content_type="text/plain; charset=utf-8")
        messages.error(request, refusal.message)
        return _back_to_game(game.pk)
    opponent = game.opponent_of(request.user)
    if isinstance(made, Game):
        messages.success(request, f"The rematch against {opponent.get_username()} has started.")
        return _back_to_game(made.pk)
    messages.success(request, f"Rematch offered to {opponent.get_username()}: it lapses unless answered "
                              "within 2 minutes.")
    return _back_to_game(game.pk)


def _rematch_slot(request: HttpRequest, game: Game) -> HttpResponse:
    state = rematch_state(game, request.user)
    if state is None:
        raise Http404("Only the players of a finished live match have a rematch.")
    if not getattr(request, "htmx", False):
        return _back_to_game(game.pk)
    if state.started is not None:
        return HttpResponseClientRedirect(reverse("backgammon:game", args=[state.started.pk]))
    context = {"rematch": state, "rematch_url": reverse("backgammon:game_rematch", args=[game.pk]),
               "opponent_name": game.opponent_of(request.user).get_username()}
    return HttpResponse(render_jinja("backgammon/_rematch.html", context, request))
