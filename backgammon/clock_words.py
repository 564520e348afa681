"""Time left on a move, in words, saying when the player to act is away on vacation."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from accounts.vacations import vacation_until, vacations_end
from backgammon.models import Game
from backgammon.services.clocks import paused_for


def _amount(value: int, unit: str) -> str:
    return f"{value} {unit}{'' if value == 1 else 's'}"


def duration_words(left: timedelta) -> str:
    """E.g. "2 days 3 hours", "5 hours 10 minutes", "less than a minute"."""
    minutes = int(left.total_seconds()) // 60
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        parts = [_amount(days, "day")] + ([_amount(hours, "hour")] if hours else [])
    elif hours:
        parts = [_amount(hours, "hour")] + ([_amount(minutes, "minute")] if minutes else [])
    elif minutes:
        parts = [_amount(minutes, "minute")]
    else:
        return "less than a minute"
    return " ".join(parts)


def time_left_words(game: Game, now: datetime | None = None, suffix: str = "") -> str:
    """"2 days 3 hours (alice is on vacation until 14 March)", or "" when no clock runs.

    ``suffix`` goes after the amount, before the vacation note ("3 days left (...)")."""
    if game.deadline is None or game.actor_id is None or not game.is_active:
        return ""
    now = now or timezone.now()
    words = duration_words(max(game.deadline - now, timedelta(0))) + suffix
    # When the clock runs again: the vacation's end, or sooner where a ladder or tournament
    # lets only part of a vacation pause its games (then say so: the player is still away).
    away = vacations_end(game.actor_id)  # kept: most players never book one
    pauses = paused_for(game, game.actor_id, now) if away is not None and away > now else []
    back = next((end for start, end in pauses if start <= now), None)
    if back is not None:
        day, name = timezone.localtime(back), game.actor.get_username()
        away_until = vacation_until(game.actor_id, now)
        if away_until is not None and away_until > back:
            words += f" ({name} is on vacation; this game's clock stands still until {day.day} {day:%B})"
        else:
            words += f" ({name} is on vacation until {day.day} {day:%B})"
    return words
