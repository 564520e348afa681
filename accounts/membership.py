"""Membership: the one question the site asks ("is this player a member now?").

A membership is a period with an end (``Profile.member_until``, kept by membership.periods from
Stripe's payments and staff's grants). It ends by itself; games already running are never stopped
by its end (the game limit is checked only when a game starts). Members have no game limit and may
join the members-only ladders and tournaments.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

__all__ = ["is_member", "member_until", "members_now"]


def member_until(user: Any, now: datetime | None = None) -> datetime | None:
    """When the player's membership ends, or None if they are not a member now."""
    profile = getattr(user, "profile", None)
    until = None if profile is None else profile.member_until
    if until is None or until <= (now or timezone.now()):
        return None
    return until


def is_member(user: Any, now: datetime | None = None) -> bool:
    """True for a player whose membership has not ended yet."""
    return member_until(user, now) is not None


def members_now(prefix: str = "", now: datetime | None = None) -> Q:
    """The condition "a member now" for a query on users (``prefix`` for a related user, e.g.
    ``"black__"``)."""
    return Q(**{f"{prefix}profile__member_until__gt": now or timezone.now()})
