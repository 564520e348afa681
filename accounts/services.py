"""Creating accounts: the one place the sign-up page turns a valid form into a user."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

__all__ = ["EMAIL_INDEX", "account_create"]

EMAIL_INDEX = "accounts_email_lower_uniq"
"""The database's unique index on lower(email) (migration 0010): one account per address."""


def account_create(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """A new user and (through accounts.signals) its profile, in one transaction."""
    User = get_user_model()
    with transaction.atomic():
        user: AbstractBaseUser = User.objects.create_user(
            username=username, email=email, password=password
        )
    return user
