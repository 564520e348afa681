"""Players' ratings as the lobby needs them (waiting-room rating ranges, auto-match's closest
ratings first), without backgammon knowing where ratings live.

The ratings app registers a source with ``register_rating_source(source)``: a function of user
ids and a variant code returning {user id: rating} (the starting rating for a player who has
none yet). Without a source no rating is known: rating ranges cannot be met and auto-match pairs
in the order requests came.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["RatingSource", "ratings_in", "register_rating_source"]

RatingSource = Callable[[Iterable[int], str], dict[int, float]]

_sources: list[RatingSource] = []


def register_rating_source(source: RatingSource) -> None:
    """Let ``source(user_ids, variant)`` answer the players' ratings in a variant."""
    if source not in _sources:
        _sources.append(source)


def ratings_in(variant: str, user_ids: Iterable[int]) -> dict[int, float]:
    """{user id: rating in ``variant``} for those of ``user_ids`` that have one."""
    ids = list(user_ids)
    found: dict[int, float] = {}
    for source in _sources:
        found.update(source(ids, variant))
    return found
