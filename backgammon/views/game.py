"""The game page: the board from the viewer's side, click-to-move by links, turn-flow forms,
live updates (pushed, see views/live.py, or polled), and the match record as a .mat file.

Every state change is a POST through ``services.game_apply_action`` with the action number the
page was built on; success answers htmx (the page's forms post through it) with the fresh game
region and redirects a plain form back here (post/redirect/get); a refusal re-renders the page
with the reason (403 for outsiders, 409 for a page that is out of date, 400 for anything else).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling, replace_url

from backgammon.action_input import SIMPLE_ACTIONS, resign_action, typed_play
from backgammon.engine.actions import Action
from backgammon.engine.match import Phase
from backgammon.game_page import turn_from_url
from backgammon.game_reads import keys_of_page
from backgammon.game_region import (
    MAIN_TEMPLATE,
    REGION_TEMPLATE,
    ROLLED_TEMPLATE,
    page_for,
    region_context,
)
from backgammon.models import Game
from backgammon.move_records import mat_text
from backgammon.services import ActionRejected, Refusal, game_apply_action
from backgammon.services.notes import NOTE_MAX_LENGTH
from backgammon.signals import game_viewed
from backgammon.views.access import known_actor, visible_game_or_404
from backgammon.views.lobby import next_game_url
from gamesite.jinja_env import render_jinja
from gamesite.kept import ask_together

__all__ = ["game", "game_act", "game_mat", "game_poll"]

def _game_or_404(game_id: int, user: Any) -> Game:
    # Anyone logged in may watch a public game; only its players can act (the service checks that).
    # What the page will show from kept answers comes in the same trip as the game's players.
    viewer_id = user.pk if user.is_authenticated else None
    return visible_game_or_404(game_id, user, also_kept=lambda game: keys_of_page(game, viewer_id))


STALE_PAGE_REDRAWN = "This game has moved on since your page was loaded: this is where it stands now"
"""A stale page's refusal as the page says it: its answer is the game as it is now (the service's
words, for the API, ask the client to reload)."""

MAIN_COLUMN = "game-main"
"""The id of the game region's main column (_game_main.html): what a click building the turn asks for."""


def _show(request: HttpRequest, game: Game, *, steps: str = "", swap: bool = False, confirm_double: bool = False,
          confirm_submit: bool = False, error: str = "", status: int = 200, message: str = "",
          moves_text: str = "", partial: bool | None = None, main_only: bool = False,
          rolled: bool = False) -> HttpResponse:
    """The whole page, or only the game region for htmx (always for the poll: it swaps the region),
    or with ``main_only`` the region's main column alone (the board and the turn's controls), or
    with ``rolled`` the answer to a roll that leaves the roller to move: the main column, with
    what else the roll changes out of band (_rolled.html), swapped in for the main column.

    One way through: what it shows is read first (game_reads.gather, by page_for), the page is
    worked out from that, and rendered once."""
    if partial is None:
        partial = _wants_region(request)
    main_only = main_only or rolled
    whole_page = not (partial or main_only)
    page = page_for(game, request.user, steps=steps, swap=swap, confirm_double=confirm_double,
                    confirm_submit=confirm_submit, whole_page=whole_page)
    context = region_context(page, error=error, message=message, moves_text=moves_text)
    context["user"] = request.user
    if not whole_page:
        template = ROLLED_TEMPLATE if rolled else MAIN_TEMPLATE if main_only else REGION_TEMPLATE
        response = HttpResponse(render_jinja(template, context, request), status=status)
        if rolled:
            # The roll's form targets the region: its answer goes in for the main column.
            response["HX-Retarget"] = response["HX-Reselect"] = f"#{MAIN_COLUMN}"
            response["HX-Reswap"] = "outerHTML show:none"
    else:
        if page.is_player:  # the note stands outside the game region (game.html)
            context |= {"note_text": page.reads.note_text, "note_max": NOTE_MAX_LENGTH}
        # The header's counts, read with the rest: the context processors' lazy ones go unasked.
        context |= page.reads.menu_counts or {}
        context["region"] = render_jinja(REGION_TEMPLATE, context, request)
        response = render(request, "backgammon/game.html", context, status=status)
    # The same URL answers htmx with the game region (or its main column, for the links that
    # target it) and browsers with the whole page.
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


@login_required
@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page; ``steps`` and ``swap`` in the query string hold the turn being built, and
    ``confirm=double`` asks for the step that confirms a double, ``confirm=submit`` the one that
    confirms a finished move (shown to players whose board settings ask for it)."""
    the_game = _game_or_404(game_id, request.user)
    confirm = request.GET.get("confirm")
    turn = {"steps": request.GET.get("steps", ""), "swap": request.GET.get("swap") == "1",
            "confirm_double": confirm == "double", "confirm_submit": confirm == "submit"}
    # A click building the turn changes the board and the controls, nothing beside them: the
    # moves list and the players' panel are neither rendered nor sent again (a third of all
    # requests are such clicks), and the page that sends it has already been read.
    if _wants_region(request) and request.htmx.target == MAIN_COLUMN:
        return _show(request, the_game, **turn, partial=True, main_only=True)
    _viewed(request, the_game)  # before the reads: the unread count it changes is on the page
    return _show(request, the_game, **turn)


def _viewed(request: HttpRequest, game: Game) -> None:
    """A player reading their game has read the messages that came with its moves."""
    if game.side_of(request.user) is not None:
        game_viewed.send(sender=Game, game_id=game.pk, user=request.user)


def _action_from_post(request: HttpRequest, page_state: Any) -> Action:
    """The action a form asks for, read against the state the service has locked; a play is
    checked against the turn before the engine sees it."""
    kind = request.POST.get("kind", "")
    if kind in SIMPLE_ACTIONS:
        return SIMPLE_ACTIONS[kind]()
    if kind == "resign":
        return resign_action(request.POST.get("level", ""))
    if kind == "play":
        return _play_from_post(request, page_state)
    raise ActionRejected("That is not something you can do in a game")


def _play_from_post(request: HttpRequest, state: Any) -> Action:
    if state.phase is not Phase.MOVE:
        raise ActionRejected("There is no roll to play now")
    typed = request.POST.get("moves_text", "").strip()
    if typed:
        return typed_play(typed)
    turn, problem = turn_from_url(state, request.POST.get("steps", ""), request.POST.get("swap") == "1")
    if problem:
        raise ActionRejected(problem)
    if not turn.is_complete():
        raise ActionRejected("Your move is not finished: play every die you can, then Submit")
    return Action.play(tuple((move.origin, move.destination) for move in turn.steps))


def _refusal_status(game: Game, user: Any, refusal: ActionRejected) -> int:
    if game.side_of(user) is None or refusal.kind is Refusal.NOT_PLAYER:
        return 403
    if refusal.kind is Refusal.STALE:
        return 409
    return 400


@login_required
@require_POST
def game_act(request: HttpRequest, game_id: int) -> HttpResponse:
    """Roll, double, take, drop, beaver, resign, answer a resignation, or submit a play;
    ``then=next`` goes on to the next game waiting for the player (or Game status) afterwards.

    The game row is read once, by the service under its lock: the form is turned into an action
    against that state. htmx gets the fresh game region; a plain form, a redirect to the page.
    """
    try:
        expected = int(request.POST.get("expected_number", ""))
    except ValueError:
        expected = -1
    try:
        the_game = game_apply_action(game_id=game_id, actor=request.user,
                                     action=lambda state: _action_from_post(request, state), expected_number=expected,
                                     message=request.POST.get("message", ""))
    except ActionRejected as refusal:
        return _refused(request, game_id, expected, refusal)
    # "Submit & next game" (ItsYourTurn's submit-and-go-on): straight to the next game waiting.
    if request.POST.get("then") == "next":
        return _go(request, next_game_url(request))
    url = reverse("backgammon:game", args=[the_game.pk])
    if _wants_region(request):
        # The region is all that changed: no redirect and no second request for a whole page.
        known_actor(the_game)
        ask_together(keys_of_page(the_game, request.user.pk))  # what _viewed and the region read: one trip
        _viewed(request, the_game)
        return replace_url(_show(request, the_game, partial=True,
                                 rolled=_rolled_only(request, the_game, expected)), url)
    return _go(request, url)


def _rolled_only(request: HttpRequest, game: Game, expected: int) -> bool:
    """Whether the action was a roll and nothing came after it: the roller is to move. A roll
    changes the main column and a few parts beside it, not the moves list or the players' panel,
    so its answer is that much smaller (a roll that passed or played itself changed them)."""
    state = game.state()
    return (request.POST.get("kind") == "roll" and game.action_count == expected + 1
            and state.phase is Phase.MOVE and state.turn is game.side_of(request.user))


def _refused(request: HttpRequest, game_id: int, expected: int, refusal: ActionRejected) -> HttpResponse:
    """The page again with the reason; outsiders of a private (or missing) game get a 404."""
    fresh = _game_or_404(game_id, request.user)
    if fresh.side_of(request.user) is None:
        refusal = ActionRejected("You are watching this game: only its players can move", Refusal.NOT_PLAYER)
    elif refusal.kind is Refusal.STALE:
        refusal = ActionRejected(STALE_PAGE_REDRAWN, Refusal.STALE)
    keep_turn = expected == fresh.action_count
    return _show(request, fresh, steps=request.POST.get("steps", "") if keep_turn else "",
                 swap=request.POST.get("swap") == "1" and keep_turn,
                 confirm_double=request.POST.get("kind") == "double" and keep_turn,
                 error=refusal.message, status=_refusal_status(fresh, request.user, refusal),
                 message=request.POST.get("message", ""), moves_text=request.POST.get("moves_text", ""))


def _wants_region(request: HttpRequest) -> bool:
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.boosted


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """Post/redirect/get; htmx is told to load the page itself rather than swap a redirect in."""
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_GET
def game_poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """htmx asks whether the game moved on since its page was built: when the page's event
    stream says the game changed, or, without push, as static/js/live.js polls.

    Unchanged: 204 (htmx leaves the page alone), or 286 once the game is over (htmx stops asking).
    Changed: the fresh game region, which htmx swaps in.

    ``heard=N`` (static/js/live.js adds it when a pushed event told of action N, which the page
    does not show): the game has all but surely changed, so it is read once, whole, rather than
    looked up first and then read again. That is nearly every poll of a page that has push.
    """
    if _heard_news(request):
        the_game = _game_or_404(game_id, request.user)
        if request.GET.get("n") != str(the_game.action_count):
            _viewed(request, the_game)
            return _show(request, the_game, partial=True)
        if not the_game.is_active:
            return HttpResponseStopPolling()
        return HttpResponse(status=204)
    found = (Game.objects.filter(pk=game_id)
             .values_list("action_count", "status", "private_black", "private_white", "black_id", "white_id").first())
    if found is None:
        raise Http404("There is no such game.")
    count, status, private_black, private_white, *players = found
    if (private_black or private_white) and request.user.pk not in players:
        raise Http404("There is no such game.")
    if request.GET.get("n") == str(count):
        if status != Game.Status.ACTIVE:
            return HttpResponseStopPolling()
        return HttpResponse(status=204)
    the_game = _game_or_404(game_id, request.user)
    _viewed(request, the_game)
    return _show(request, the_game, partial=True)


def _heard_news(request: HttpRequest) -> bool:
    """Whether the poll comes from a pushed event of an action later than the page shows."""
    try:  # anything but two plain numbers ("²", a 5,000-digit one...) is no news
        heard, shown = int(request.GET.get("heard", ""), 10), int(request.GET.get("n", ""), 10)
    except ValueError:
        return False
    return heard > shown >= 0


@login_required
@require_GET
def game_mat(request: HttpRequest, game_id: int) -> HttpResponse:
    """The match so far as a Jellyfish/GNU Backgammon .mat file, for analysis elsewhere."""
    the_game = _game_or_404(game_id, request.user)
    response = HttpResponse(mat_text(the_game, site=request.get_host()),
                            content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{the_game.pk}.mat"'
    return response
