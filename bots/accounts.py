"""The three bot accounts, created by a data migration (and again by tests after a flush)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import make_password

from accounts.skeleton import userid_key

BOT_ACCOUNTS = (("gnubg-easy", "easy"), ("gnubg-medium", "medium"), ("gnubg-strong", "strong"))


def create_bot_accounts(user_model: Any, profile_model: Any, bot_model: Any) -> None:
    """Make the bots' users (unusable passwords: nobody logs in as a bot), profiles and marks.

    Idempotent. Takes the models as arguments so the migration can pass its historical ones.
    """
    for username, strength in BOT_ACCOUNTS:
        user, _ = user_model.objects.get_or_create(
            username=username,
            defaults={"password": make_password(None), "first_name": "GNU Backgammon"},
        )
        # Historical models send no signal that accounts listens to: the profile is made here.
        profile_model.objects.get_or_create(
            user=user, defaults={"userid_skeleton": userid_key(username)}
        )
        bot_model.objects.update_or_create(user=user, defaults={"strength": strength})
