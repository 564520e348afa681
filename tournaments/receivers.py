"""The competition app listens to backgammon's signals (backgammon knows nothing of it).

Each area adds its receivers to ``connect``: ratings, ladders and tournaments all learn of
results from ``backgammon.signals.match_finished``, inside the transaction that ends the match.
"""

from __future__ import annotations

__all__ = ["connect"]


def connect() -> None:
    """Connect every area's receivers (called once, from TournamentsConfig.ready)."""
    _connect_tournaments()


def _connect_tournaments() -> None:
    from backgammon.signals import match_finished, worker_tick
    from tournaments.tournaments import on_match_finished

    match_finished.connect(on_match_finished, dispatch_uid="tournaments.on_match_finished")
    worker_tick.connect(_close_tournament_signups, dispatch_uid="tournaments.close_signups")


def _close_tournament_signups(sender: object, **kwargs: object) -> None:
    from tournaments.tournaments import close_signups

    close_signups()
