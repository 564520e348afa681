"""People pages: a player's public profile, search user profiles, who is here, the buddy list
and the ignore list. Thin: the queries live in accounts.people, list changes in accounts.relations."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.computer_players import computer_players
from accounts.forms import PlayerNameForm, PlayerSearchForm
from accounts.models import Relation
from accounts.people import (
    is_online,
    local_time,
    player_by_username,
    player_facts,
    players_here,
    players_matching,
)
from accounts.relations import RelationRefused, relation_of, relation_remove, relation_set
from gamesite.next_page import safe_next

SEARCH_PAGE_SIZE = 25
_LISTS: dict[str, dict[str, str]] = {
    Relation.Kind.BUDDY: {"url": "accounts:buddies", "added": "is on your buddy list",
                          "removed": "is off your buddy list"},
    Relation.Kind.IGNORE: {"url": "accounts:ignored", "added": "is on your ignore list",
                           "removed": "is off your ignore list"},
}


@require_GET
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's public profile, by userid in any case."""
    player = player_by_username(username)
    if player is None:
        raise Http404(f"There is no player called {username!r}.")
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.boosted:  # a pushed "changed" of the player's topic: the current games alone
        response = render(request, "accounts/_current_games.html", {"player": player, "facts": player_facts(player, request.user)})
        patch_vary_headers(response, ["HX-Request"])
        return response
    profile = player.profile
    viewer = request.user
    context = {
        "player": player,
        "profile": profile,
        "online": is_online(profile),
        "local_time": local_time(profile),
        "facts": player_facts(player, viewer),
        "is_self": viewer.is_authenticated and viewer.pk == player.pk,
        "relation": relation_of(viewer, player),
    }
    response = render(request, "accounts/player.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def player_search(request: HttpRequest) -> HttpResponse:
    """Search user profiles by part of the userid and/or country, a page at a time."""
    form = PlayerSearchForm(request.GET or None)
    page = None
    status = 200
    if form.is_bound:
        if form.is_valid():
            players = players_matching(
                query=form.cleaned_data["q"].strip(),
                country=form.cleaned_data["country"],
                viewer=request.user,
            )
            page = Paginator(players, SEARCH_PAGE_SIZE).get_page(request.GET.get("page"))
        else:
            status = 400
    query_string = request.GET.copy()
    query_string.pop("page", None)
    return render(
        request,
        "accounts/player_search.html",
        {"form": form, "page": page, "query_string": query_string.urlencode()},
        status=status,
    )


@require_GET
def who_is_here(request: HttpRequest) -> HttpResponse:
    """Players seen in the last minutes, buddies first, with what they are doing; then the
    computer players, who are always here. Visitors see it too (as ItsYourTurn shows them its
    Waiting Room): a profile already says whether its player is online, and nothing here is
    more than the profiles say."""
    return render(
        request,
        "accounts/who_is_here.html",
        {
            "rows": players_here(request.user),
            "presence_minutes": settings.PRESENCE_MINUTES,
            "computer_players": computer_players().userids,
        },
    )


def _list_page(request: HttpRequest, kind: str, form: PlayerNameForm, status: int = 200) -> HttpResponse:
    relations = (
        Relation.objects.filter(owner=request.user, kind=kind)
        .select_related("other__profile")
        .order_by("other__username")
    )
    template = "accounts/buddies.html" if kind == Relation.Kind.BUDDY else "accounts/ignored.html"
    return render(request, template, {"relations": relations, "form": form}, status=status)


def _back(request: HttpRequest, kind: str) -> HttpResponse:
    """To the page the button was on (a profile) when it is ours, else to the list."""
    return redirect(safe_next(request) or reverse(_LISTS[kind]["url"]))


@login_required
@require_http_methods(["GET", "POST"])
def relation_list(request: HttpRequest, kind: str) -> HttpResponse:
    """The buddy list or the ignore list; a POST adds the userid typed."""
    if request.method == "GET":
        return _list_page(request, kind, PlayerNameForm())
    form = PlayerNameForm(request.POST)
    if form.is_valid():
        try:
            relation = relation_set(owner=request.user, username=form.cleaned_data["username"], kind=kind)
        except RelationRefused as refusal:
            form.add_error("username", str(refusal))
        else:
            messages.success(request, f"{relation.other.get_username()} {_LISTS[kind]['added']}.")
            return _back(request, kind)
    return _list_page(request, kind, form, status=400)


@login_required
@require_POST
def relation_drop(request: HttpRequest, kind: str) -> HttpResponse:
    """Take the userid posted off the buddy list or the ignore list."""
    form = PlayerNameForm(request.POST)
    if form.is_valid():
        try:
            relation_remove(owner=request.user, username=form.cleaned_data["username"], kind=kind)
        except RelationRefused as refusal:
            form.add_error("username", str(refusal))
        else:
            messages.success(request, f"{form.cleaned_data['username']} {_LISTS[kind]['removed']}.")
            return _back(request, kind)
    return _list_page(request, kind, form, status=400)
