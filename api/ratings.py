"""Ratings as the API shows them.

Rated play has not started yet (the competition issue brings ratings), so every player stands at
the starting rating with no experience in each rated variant; money play is never rated.
"""

from __future__ import annotations

from typing import Any

from backgammon.engine import VARIANTS

__all__ = ["RATED_VARIANTS", "STARTING_RATING", "player_ratings"]

STARTING_RATING = 1500.0
RATED_VARIANTS = tuple(code for code, variant in VARIANTS.items() if not variant.money)


def player_ratings(user: Any) -> dict[str, dict[str, float | int]]:
    return {code: {"rating": STARTING_RATING, "experience": 0} for code in RATED_VARIANTS}
