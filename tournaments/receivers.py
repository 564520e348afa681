"""The competition app listens to backgammon's signals (backgammon knows nothing of it).

Each area adds its receivers to ``connect``: ratings, ladders and tournaments all learn of
results from ``backgammon.signals.match_finished``, inside the transaction that ends the match.
"""

from __future__ import annotations

from typing import Any

from backgammon import signals

__all__ = ["connect"]


def _rate_the_match(sender: Any, game: Any, how: str, **kwargs: Any) -> None:
    from tournaments.ratings import rating_apply

    rating_apply(game=game, how=how)


def _ladder_result(*, game: Any, **_: Any) -> None:
    from tournaments.ladders import ladder_record_result

    ladder_record_result(game=game)


def _ladder_inactivity(**_: Any) -> None:
    # The worker's tick thread: database work only.
    from tournaments.ladders import ladder_drop_inactive

    ladder_drop_inactive()


def connect() -> None:
    """Connect every area's receivers (called once, from TournamentsConfig.ready)."""
    signals.match_finished.connect(_rate_the_match, dispatch_uid="tournaments.ratings")
    signals.match_finished.connect(_ladder_result, dispatch_uid="ladders-match-finished")
    signals.worker_tick.connect(_ladder_inactivity, dispatch_uid="ladders-worker-tick")
    _connect_tournaments()
    _register_vacation_policy()
    _register_rating_source()
    _register_competition_source()
    _register_rating_changes_on_the_game_page()


def _register_rating_changes_on_the_game_page() -> None:
    from backgammon.game_reads import register_finished_game_reader
    from tournaments.templatetags.ratings import rating_changes_note

    def rating_changes(game: Any) -> str:
        return rating_changes_note(game) if game.rated else ""

    register_finished_game_reader("rating_changes", rating_changes)


def _register_competition_source() -> None:
    from backgammon.competitions import register_competition_source
    from tournaments.competitions import competitions_of_games

    register_competition_source(competitions_of_games)


def _connect_tournaments() -> None:
    from backgammon.signals import match_finished, worker_tick
    from tournaments.tournaments import on_match_finished

    match_finished.connect(on_match_finished, dispatch_uid="tournaments.on_match_finished")
    worker_tick.connect(_close_tournament_signups, dispatch_uid="tournaments.close_signups")


def _close_tournament_signups(sender: object, **kwargs: object) -> None:
    from tournaments.tournaments import close_signups

    close_signups()


def _register_vacation_policy() -> None:
    from backgammon.services.clocks import register_vacation_policy
    from tournaments.vacation_policy import competition_vacation_cap

    register_vacation_policy(competition_vacation_cap)


def _register_rating_source() -> None:
    # The waiting room's rating ranges and auto-match's pairing read ratings through this.
    from backgammon.services.ratings_source import register_rating_source
    from tournaments.ratings import ratings_of_players

    register_rating_source(ratings_of_players)
