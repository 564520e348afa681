"""The competition app listens to backgammon's signals (backgammon knows nothing of it).

Each area adds its receivers to ``connect``: ratings, ladders and tournaments all learn of
results from ``backgammon.signals.match_finished``, inside the transaction that ends the match.
"""

from __future__ import annotations

__all__ = ["connect"]


def connect() -> None:
    """Connect every area's receivers (called once, from TournamentsConfig.ready)."""
