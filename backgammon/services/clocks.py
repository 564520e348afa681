"""Move deadlines that stand still while the player to act is on vacation.

A deadline is computed in one place (``deadline_from``): the clock of the player to act starts now,
runs for the game's time limit, and is paused by that player's vacations (accounts.vacations).
``game.deadline`` holds the result, so the service's lateness check under the lock and the
worker's sweep read one column and need no vacation logic of their own.

Ladders and tournaments may forbid vacations in their games: they register a policy with
``register_vacation_policy(policy)``, a function of the game returning False to keep the clock
running through vacations. Every game allows them unless some policy says no.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from accounts.vacations import Interval, clock_end, paused_intervals, running_time
from backgammon.models import Game

__all__ = [
    "deadline_from",
    "game_vacation_allowed",
    "moved_deadline",
    "paused_for",
    "register_vacation_policy",
]

_vacation_policies: list[Callable[[Game], bool]] = []


def register_vacation_policy(policy: Callable[[Game], bool]) -> None:
    """``policy(game)`` returns False when vacations must not pause that game's clocks."""
    if policy not in _vacation_policies:
        _vacation_policies.append(policy)


def game_vacation_allowed(game: Game) -> bool:
    """Whether vacations pause this game's clocks (yes, unless a registered policy says no)."""
    return all(policy(game) for policy in _vacation_policies)


def paused_for(game: Game, user_id: Any, now: datetime) -> list[Interval]:
    """The intervals that pause ``user_id``'s clock in ``game`` from ``now`` on."""
    if user_id is None or not game_vacation_allowed(game):
        return []
    return paused_intervals(user_id, now)


def deadline_from(game: Game, user_id: Any, now: datetime) -> datetime:
    """The deadline of a move whose clock starts ``now``: the time limit, vacations not counted."""
    return clock_end(now, game.time_limit, paused_for(game, user_id, now))


def moved_deadline(
    deadline: datetime,
    now: datetime,
    *,
    before: list[Interval],
    after: list[Interval],
    extra: timedelta = timedelta(0),
) -> datetime:
    """A running deadline recomputed when the pauses change from ``before`` to ``after``.

    The clock time still to run is what ``deadline`` leaves after the old pauses, plus ``extra``;
    the new deadline is when that has run past the new pauses.
    """
    if deadline <= now:
        return deadline + extra
    left = running_time(now, deadline, before) + extra
    return clock_end(now, left, after)
