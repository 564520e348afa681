"""Move deadlines that stand still while the player to act is on vacation.

A deadline is computed in one place (``deadline_from``): the clock of the player to act starts now,
runs for the game's time limit, and is paused by that player's vacations (accounts.vacations).
``game.deadline`` holds the result, so the service's lateness check under the lock and the
worker's sweep read one column and need no vacation logic of their own.

Ladders and tournaments may cap or forbid vacations in their games: they register a policy with
``register_vacation_policy(policy)``, a function of the game returning False (or 0) to keep the
clock running through vacations, a number of days N to let each vacation pause it for at most its
first N days, or True or None to leave it alone. The strictest answer wins; every game's clocks
are paused fully unless some policy says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from accounts.vacations import Interval, clock_end, paused_intervals, running_time
from backgammon.models import Game

__all__ = [
    "VacationPolicy",
    "capped_pauses",
    "deadline_from",
    "game_pauses",
    "game_vacation_allowed",
    "game_vacation_cap",
    "moved_deadline",
    "paused_for",
    "register_vacation_policy",
]

VacationPolicy = Callable[[Game], bool | int | None]
"""False or 0: no pause; N: at most N days of each vacation; True or None: no say."""

_vacation_policies: list[VacationPolicy] = []


def register_vacation_policy(policy: VacationPolicy) -> None:
    """Let ``policy(game)`` forbid (False or 0) or cap (a number of days) vacations in a game."""
    if policy not in _vacation_policies:
        _vacation_policies.append(policy)


def _days_cap(answer: bool | int | None) -> int | None:
    # bool is an int in Python: True must mean "no say", not "one day".
    if answer is None or answer is True:
        return None
    if answer is False:
        return 0
    return max(0, answer)


def game_vacation_cap(game: Game) -> int | None:
    """The most days of each vacation that pause this game's clocks (None: no cap)."""
    caps = [cap for cap in map(_days_cap, (policy(game) for policy in _vacation_policies))
            if cap is not None]
    return min(caps, default=None)


def game_vacation_allowed(game: Game) -> bool:
    """Whether vacations pause this game's clocks at all (yes, unless a policy says no)."""
    return game_vacation_cap(game) != 0


def capped_pauses(pauses: list[Interval], cap_days: int | None) -> list[Interval]:
    """Each pause cut to its first ``cap_days`` days (all of it when there is no cap)."""
    if cap_days is None:
        return list(pauses)
    limit = timedelta(days=cap_days)
    cut = [(start, min(end, start + limit)) for start, end in pauses]
    return [(start, end) for start, end in cut if end > start]


def game_pauses(game: Game, pauses: list[Interval]) -> list[Interval]:
    """A player's vacation intervals as they pause this game's clocks, under its policies."""
    return capped_pauses(pauses, game_vacation_cap(game))


def paused_for(game: Game, user_id: Any, now: datetime) -> list[Interval]:
    """The intervals that pause ``user_id``'s clock in ``game`` from ``now`` on."""
    if user_id is None:
        return []
    # Vacations first: most players have none, and then the game's policies (a query per
    # competition kind) need not be asked.
    pauses = paused_intervals(user_id, now)
    if not pauses:
        return []
    cap = game_vacation_cap(game)
    if cap == 0:
        return []
    return [span for span in capped_pauses(pauses, cap) if span[1] > now]


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
