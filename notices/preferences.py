"""Players' e-mail notice preferences: read (made on first need), changed, unsubscribed."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from notices.models import NoticePreferences

__all__ = ["PREFERENCE_FLAGS", "preferences_for", "preferences_lock", "preferences_unsubscribe", "preferences_update"]

PREFERENCE_FLAGS = (
    "your_turn", "new_challenge", "new_message", "time_warning", "game_finished", "membership_reminder",
)


def preferences_for(user: Any) -> NoticePreferences:
    """The player's preferences, the defaults saved the first time they are asked for."""
    return preferences_for_id(user.pk)


def preferences_lock(user_id: int) -> NoticePreferences:
    """The preferences under a row lock, inside the caller's transaction: one player's notices
    are decided one at a time, so two workers never both pass the "not sent lately" check."""
    preferences_for_id(user_id)
    return NoticePreferences.objects.select_for_update().get(user_id=user_id)


def preferences_for_id(user_id: int) -> NoticePreferences:
    try:
        # Its own savepoint: when two first requests race, the loser's insert fails alone.
        with transaction.atomic():
            return NoticePreferences.objects.get_or_create(user_id=user_id)[0]
    except IntegrityError:
        return NoticePreferences.objects.get(user_id=user_id)


def preferences_update(*, user: Any, delivery: str, **flags: bool) -> NoticePreferences:
    """Save the player's choice: how notices come, and which immediate ones they want."""
    if delivery not in NoticePreferences.Delivery.values:
        raise ValueError(f"Unknown delivery {delivery!r}")
    unknown = set(flags) - set(PREFERENCE_FLAGS)
    if unknown:
        raise ValueError(f"Unknown notice kinds {sorted(unknown)}")
    preferences = preferences_for(user)
    preferences.delivery = delivery
    for name, value in flags.items():
        setattr(preferences, name, bool(value))
    preferences.save(update_fields=["delivery", *flags, "updated_at"])
    return preferences


def preferences_unsubscribe(user: Any) -> bool:
    """No more e-mail notices for this player; False if they already had none."""
    preferences = preferences_for(user)
    if preferences.delivery == NoticePreferences.Delivery.NONE:
        return False
    preferences.delivery = NoticePreferences.Delivery.NONE
    preferences.save(update_fields=["delivery", "updated_at"])
    return True
