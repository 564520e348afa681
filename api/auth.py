"""Bearer-token authentication and the per-token rate limits. Session cookies are not accepted:
a program proves itself with its token alone, so no API call needs (or is open to) CSRF."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer
from ninja.throttling import SimpleRateThrottle

from api.tokens import token_user

__all__ = ["BURST_RATE", "SUSTAINED_RATE", "BearerToken", "TokenThrottle", "throttles"]

# A client polling and playing at 10 requests a second stays well inside both limits.
BURST_RATE = "30/s"
SUSTAINED_RATE = "1200/m"


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = token_user(token)
        if found is None:
            return None
        api_token, user = found
        request.api_token = api_token  # type: ignore[attr-defined]
        request.user = user
        return user


class TokenThrottle(SimpleRateThrottle):
    """Counts requests per token (not per user: each of a player's programs has its own budget)."""

    def __init__(self, rate: str, scope: str) -> None:
        self.scope = scope
        super().__init__(rate)

    def get_cache_key(self, request: HttpRequest) -> str | None:
        token = getattr(request, "api_token", None)
        if token is None:
            return None  # the token call itself: the log-in lock-out guards it
        return self.cache_format % {"scope": self.scope, "ident": token.pk}


def throttles() -> list[TokenThrottle]:
    return [TokenThrottle(BURST_RATE, "api_burst"), TokenThrottle(SUSTAINED_RATE, "api_sustained")]
