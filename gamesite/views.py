"""The home page, the help pages (static text with the site layout) and the menu bar's counts."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseStopPolling

from backgammon.engine.variants import VARIANTS
from backgammon.views.lobby import to_live_match_just_started
from gamesite.menu_counts import menu_counts_context, menu_counts_markup
from notices.main_screen import main_screen


def home(request: HttpRequest) -> HttpResponse:
    """Visitors get a welcome; players get the main screen: what to do now (to htmx, asking
    again when a pushed event says it changed, only its lists)."""
    if request.user.is_authenticated:
        going = to_live_match_just_started(request)
        if going is not None:
            return going
        htmx = getattr(request, "htmx", None)
        context = {"screen": main_screen(request.user)}
        template = "notices/_main_screen.html" if htmx and not htmx.boosted else "notices/main_screen.html"
        response = render(request, template, context)
        patch_vary_headers(response, ["HX-Request"])
        return response
    return render(request, "home.html")


def help_rules(request: HttpRequest) -> HttpResponse:
    """The rules of every variant we offer."""
    return render(request, "help/rules.html", {"variants": VARIANTS})


def help_features(request: HttpRequest) -> HttpResponse:
    """How to use the game page: click-to-move, typed moves, Next game and so on."""
    return render(request, "help/features.html")


def help_dice(request: HttpRequest) -> HttpResponse:
    """How the dice are rolled and why they are fair."""
    return render(request, "help/dice.html")


@require_GET
def menu_counts(request: HttpRequest) -> HttpResponse:
    """The menu bar's two counts, PLAY (games waiting for me) and TALK (unread messages), asked
    for together by a page that polls (static/js/live.js, without push) or whose pushed "status"
    event came without them: one request, not one per count. ``play`` and ``talk`` are the
    counts the page shows; 204 while both are unchanged.

    A visitor (logged out meanwhile) gets 286, which stops htmx asking, rather than a redirect
    to the log-in page swapped into the header.
    """
    if not request.user.is_authenticated:
        return HttpResponseStopPolling()
    counts = menu_counts_context(request.user)
    play, talk = counts["games_awaiting_count"], counts["unread_messages_count"]
    if request.GET.get("play") == str(play) and request.GET.get("talk") == str(talk):
        return HttpResponse(status=204)
    return HttpResponse(menu_counts_markup(counts))
