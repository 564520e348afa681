"""Ratings as the API shows them: every rated variant (money play never is), rounded to cents."""

from __future__ import annotations

from typing import Any

from accounts.rating_choices import hidden_variants
from tournaments.ratings import RATED_VARIANTS, STARTING_RATING, ratings_of

__all__ = ["RATED_VARIANTS", "STARTING_RATING", "player_ratings"]


def player_ratings(user: Any, viewer: Any = None) -> dict[str, dict[str, float | int]]:
    """{code: {"rating": float, "experience": int}} for every rated variant code; for a
    ``viewer`` other than the player, only the variants whose rating the player shows."""
    hidden = set() if viewer is not None and viewer.pk == user.pk else hidden_variants(user)
    return {
        code: {"rating": round(rating, 2), "experience": experience}
        for code, (rating, experience) in ratings_of(user).items()
        if code not in hidden
    }
