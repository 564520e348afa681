"""The competition app listens to backgammon's signals (backgammon knows nothing of it).

Each area adds its receivers to ``connect``: ratings, ladders and tournaments all learn of
results from ``backgammon.signals.match_finished``, inside the transaction that ends the match.
"""

from __future__ import annotations

from typing import Any

from backgammon.signals import match_finished

__all__ = ["connect"]


def _rate_the_match(sender: Any, game: Any, how: str, **kwargs: Any) -> None:
    from tournaments.ratings import rating_apply

    rating_apply(game=game, how=how)


def connect() -> None:
    """Connect every area's receivers (called once, from TournamentsConfig.ready)."""
    match_finished.connect(_rate_the_match, dispatch_uid="tournaments.ratings")
