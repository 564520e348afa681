"""The ratings help page that publishes the formula (a player's ratings are on their profile,
accounts.people_views.player_profile, through the ratings_card tag)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.ratings import RATED_VARIANTS, STARTING_RATING


def help_ratings(request: HttpRequest) -> HttpResponse:
    """How ratings are computed: the FIBS formula with worked examples."""
    return render(request, "help/ratings.html",
                  {"rated_variants": RATED_VARIANTS, "starting_rating": STARTING_RATING})
