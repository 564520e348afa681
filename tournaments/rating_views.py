"""The ratings pages: a public player page and the help page that publishes the formula."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.ratings import RATED_VARIANTS, STARTING_RATING


def player(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's ratings and rating history, by userid (in any case)."""
    found = get_user_model()._default_manager.filter(username__iexact=username, is_active=True).first()
    if found is None:
        raise Http404(f"There is no player called {username!r}.")
    return render(request, "tournaments/player.html", {"player": found})


def help_ratings(request: HttpRequest) -> HttpResponse:
    """How ratings are computed: the FIBS formula with worked examples."""
    return render(request, "help/ratings.html",
                  {"rated_variants": RATED_VARIANTS, "starting_rating": STARTING_RATING})
