"""Membership: staff grant it in Django admin (the player's profile); members may join the
members-only ladders and tournaments."""

from __future__ import annotations

from typing import Any

__all__ = ["is_member"]


def is_member(user: Any) -> bool:
    """True for a player whose profile staff marked as a member."""
    profile = getattr(user, "profile", None)
    return bool(profile is not None and profile.is_member)
