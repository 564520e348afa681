"""Log-in by userid whatever its case: userids are unique regardless of case (a database index,
accounts migration 0002), so 'ALICE' can only mean alice."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


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
        User = get_user_model()
        user = User._default_manager.select_related("profile").filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None
