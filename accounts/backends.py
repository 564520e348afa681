"""Log-in by userid whatever its case: userids are unique regardless of case (a database index,
accounts migration 0002), so 'ALICE' can only mean alice."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class CaseInsensitiveModelBackend(ModelBackend):
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
