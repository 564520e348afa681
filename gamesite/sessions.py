"""Sessions read from the shared cache (Redis in production) with the database behind them.

Django's ``cached_db`` engine: a request reads its session from the cache, and only a miss reads
the database; every write goes to the database first. The cache copy is kept for at most
SESSION_CACHE_SECONDS, not the session's two weeks: the cache ignores Redis errors, so a log-out
while Redis cannot be reached deletes the session from the database but not the cached copy. The
cache deletes that copy once Redis answers again (gamesite/redis_cache.py); should the process be
gone by then, the copy must not log the player back in for longer than a few minutes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import cached_db

__all__ = ["SessionStore"]


class _ShortLivedCache:
    """The session cache with every timeout cut to SESSION_CACHE_SECONDS."""

    def __init__(self, cache: Any) -> None:
        self._cache = cache

    def _timeout(self, timeout: Any) -> int:
        limit = int(settings.SESSION_CACHE_SECONDS)
        return limit if timeout is None else min(int(timeout), limit)

    def set(self, key: str, value: Any, timeout: Any = None) -> None:
        self._cache.set(key, value, self._timeout(timeout))

    async def aset(self, key: str, value: Any, timeout: Any = None) -> None:
        await self._cache.aset(key, value, self._timeout(timeout))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cache, name)

    def __contains__(self, key: str) -> bool:
        return key in self._cache


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = _ShortLivedCache(self._cache)
