"""Log-in by userid whatever its case: userids are unique regardless of case (a database index,
accounts migration 0002), so 'ALICE' can only mean alice."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from gamesite.kept import kept

__all__ = ["CaseInsensitiveModelBackend", "kept_user", "signed_in_user_key"]

# The signed-in user is read on every request; a minute at most, forgotten when the user or
# their profile is saved (accounts/signals.py), so a password change or a deactivation counts at once.
SIGNED_IN_USER_SECONDS = 60


def signed_in_user_key(user_id: Any) -> str:
    return f"accounts:user:{user_id}"


class CaseInsensitiveModelBackend(ModelBackend):
    """ModelBackend with case-blind userids, and the profile read with the user."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        User = get_user_model()
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is not None:
            match = User._default_manager.filter(username__iexact=username).first()
            if match is not None:
                username = match.get_username()
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id: Any) -> Any:
        """The signed-in user of a request, with the profile every page reads in the same query."""
        user = kept_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


def kept_user(user_id: Any) -> Any:
    """The user with their profile, as a request's signed-in user is read (kept); None if there
    is no such user. Also the players a game page shows (backgammon/views/access.py)."""
    User = get_user_model()
    return kept(signed_in_user_key(user_id),
                lambda: User._default_manager.select_related("profile").filter(pk=user_id).first(),
                SIGNED_IN_USER_SECONDS)
