"""The ratings help page that publishes the formula, and "Edit ratings" (/accounts/ratings/):
per variant, whether others see the rating and whether new games start rated, with the player's
full history of rating changes. (Anyone's shown ratings are on their player page, through the
ratings_card tag.)"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.models import RatingChoice
from accounts.rating_choices import RatingChoiceRefused, rating_choices_update
from backgammon.engine import VARIANTS
from tournaments.rating_history import rating_history_rows
from tournaments.ratings import (
    RAMP_EXPERIENCE,
    RATED_VARIANTS,
    STARTING_RATING,
    is_provisional,
    ratings_of,
)


def help_ratings(request: HttpRequest) -> HttpResponse:
    """How ratings are computed: the FIBS formula with worked examples."""
    return render(request, "help/ratings.html",
                  {"rated_variants": RATED_VARIANTS, "starting_rating": STARTING_RATING})


def _choices_rows(user: Any) -> list[dict[str, Any]]:
    saved = {choice.variant: choice for choice in RatingChoice.objects.filter(user=user)}
    rows = []
    for code, (rating, experience) in ratings_of(user).items():
        choice = saved.get(code)
        rows.append({
            "code": code, "name": VARIANTS[code].name, "rating": f"{rating:.2f}", "experience": experience,
            "provisional": 0 < experience and is_provisional(experience),
            "shown": choice.shown if choice else True,
            "rated": choice.rated_by_default if choice else True,
        })
    return rows


_CHECKED = {"on", "1", "true", "yes"}


def _parse(post: Any) -> tuple[dict[str, bool], dict[str, bool]]:
    """Each rated variant's two boxes (a box left out is unticked); anything else is refused."""
    known = {f"{kind}_{code}" for kind in ("shown", "rated") for code in RATED_VARIANTS}
    extra = [name for name in post if name not in known and name != "csrfmiddlewaretoken"]
    if extra:
        raise RatingChoiceRefused(f"Unknown choice {min(extra)!r}.")
    for name in known & set(post):
        if post.get(name, "").lower() not in _CHECKED:
            raise RatingChoiceRefused(f"{name!r} is a box to tick or leave, not {post.get(name)!r}.")
    shown = {code: f"shown_{code}" in post for code in RATED_VARIANTS}
    rated = {code: f"rated_{code}" in post for code in RATED_VARIANTS}
    return shown, rated


@login_required
@require_http_methods(["GET", "POST"])
def edit_ratings(request: HttpRequest) -> HttpResponse:
    user = request.user
    error = ""
    if request.method == "POST":
        try:
            shown, rated = _parse(request.POST)
            rating_choices_update(user=user, shown=shown, rated=rated)
        except RatingChoiceRefused as refusal:
            error = str(refusal)
        else:
            messages.success(request, "Your rating choices are saved.")
            return redirect("tournaments:edit_ratings")
    context = {
        "rows": _choices_rows(user),
        "history": rating_history_rows(user),
        "ramp": RAMP_EXPERIENCE,
        "error": error,
    }
    return render(request, "tournaments/edit_ratings.html", context, status=400 if error else 200)
