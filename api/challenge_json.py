"""Challenges as the API writes and reads them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from backgammon.engine import InvalidTimeControlError, TimeControl, find_variant
from backgammon.models import DEFAULT_TIME_LIMIT, Challenge
from backgammon.services import ChallengeRejected

__all__ = ["challenge_json", "challenge_time_control", "challenge_time_limit"]


def challenge_json(challenge: Challenge) -> dict[str, Any]:
    variant = find_variant(challenge.variant)
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.get_username(),
        "opponent": challenge.challenged.get_username(),
        "variant": challenge.variant,
        # As in GAME: 1 for a single game, 0 for money play.
        "match_length": challenge.match_length or (0 if variant.money else 1),
        "time_limit_hours": challenge.time_limit.total_seconds() / 3600,
        "time_control": challenge.time_control().to_dict(),
        "rated": challenge.rated,
        "message": challenge.message,
        "status": challenge.status,
        "game_id": challenge.game_id,
    }


def challenge_time_limit(hours: float | None) -> timedelta:
    """The per-move limit asked for in hours (the site's default when None); the service checks
    that it is one of the site's limits."""
    if hours is None:
        return DEFAULT_TIME_LIMIT
    if not 0 < hours < 24 * 365:
        raise ChallengeRejected("Choose a time limit per move from the site's list, e.g. 24 or 72 hours")
    return timedelta(seconds=round(hours * 3600))


def challenge_time_control(hours: float | None, control: Any) -> TimeControl | None:
    """The time control of a request that may name ``time_limit_hours`` or ``time_control`` (a
    schema already checked against the ranges), not both; None when it names neither."""
    if control is None:
        return None
    if hours is not None:
        raise ChallengeRejected("Give either time_limit_hours or time_control, not both")
    try:
        return TimeControl.from_dict(control.dict())
    except InvalidTimeControlError as refusal:
        raise ChallengeRejected(str(refusal)) from None
