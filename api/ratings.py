"""Ratings as the API shows them: every rated variant (money play never is), rounded to cents."""

from __future__ import annotations

from typing import Any

from tournaments.ratings import RATED_VARIANTS, STARTING_RATING, ratings_of

__all__ = ["RATED_VARIANTS", "STARTING_RATING", "player_ratings"]


def player_ratings(user: Any) -> dict[str, dict[str, float | int]]:
    """{code: {"rating": float, "experience": int}} for every rated variant code."""
    return {
        code: {"rating": round(rating, 2), "experience": experience}
        for code, (rating, experience) in ratings_of(user).items()
    }
