"""Bearer-token authentication and the rate limits: per token, and per client address for tokens
that do not work. Session cookies are not accepted: a program proves itself with its token
alone, so no API call needs (or is open to) CSRF."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.errors import Throttled
from ninja.security import HttpBearer
from ninja.throttling import SimpleRateThrottle

from accounts.login_guard import client_address
from api.tokens import token_user

__all__ = [
    "BURST_RATE",
    "SUSTAINED_RATE",
    "BadTokenThrottle",
    "BearerToken",
    "TokenThrottle",
    "throttles",
]

# A client polling and playing at 10 requests a second stays well inside both limits.
BURST_RATE = "30/s"
SUSTAINED_RATE = "1200/m"


class BadTokenThrottle(SimpleRateThrottle):
    """Tokens that do not work, counted per client address (API_BAD_TOKEN_RATE): past the limit
    every bearer request from the address is refused (429) before its token is even looked up,
    so guessing gains nothing, not even a different answer for a token that works. Like the
    per-token limits, it lives in the cache and lets requests through when the cache is down
    (a stalled Redis must not shut every program out)."""

    def __init__(self) -> None:
        self.scope = "api_bad_token"
        super().__init__(settings.API_BAD_TOKEN_RATE)

    def get_cache_key(self, request: HttpRequest) -> str | None:
        address = client_address(request)
        return self.cache_format % {"scope": self.scope, "ident": address} if address else None

    def refuses(self, request: HttpRequest) -> bool:
        """Whether the address used up its allowance (counting nothing)."""
        self.key = self.get_cache_key(request)
        self.now = self.timer()
        self.history = []
        if self.key is None:
            return False  # no address to count against (a request made in code)
        self.history = [moment for moment in self.cache.get(self.key) or []
                        if moment > self.now - self.duration]  # type: ignore[operator]
        return len(self.history) >= self.num_requests  # type: ignore[operator]

    def seconds_to_wait(self) -> int:
        """After refuses(): until the oldest failure counted leaves the window."""
        oldest = self.history[-1] if self.history else self.now
        return max(1, math.ceil(oldest + self.duration - self.now))  # type: ignore[operator]

    def count_failure(self, request: HttpRequest) -> None:
        if not self.refuses(request) and self.key is not None:
            self.throttle_success()


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        bad_tokens = BadTokenThrottle()
        if bad_tokens.refuses(request):
            raise Throttled(wait=bad_tokens.seconds_to_wait())
        found = token_user(token)
        if found is None:
            bad_tokens.count_failure(request)
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
