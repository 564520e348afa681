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
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import cached_db

from gamesite.kept import ask_together_with, asked_with_the_signed_in_user

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


# Whom each session this process has answered lately signed in (its session key's user id): the
# next request of that session asks the cache for the session and for its user's kept answers
# (the signed-in user, and what is asked with them: accounts/backends.py) in one trip, not two.
# The user is still the session's own: a guess that no longer holds (a log-out, another log-in)
# only asked for answers nobody reads, and the user's are asked as before.
_session_users: dict[str, str] = {}
_SESSION_USERS_KEPT = 50_000


def _signed_in_keys(user_id: str) -> list[str]:
    from accounts.backends import signed_in_user_key  # an app's, read once Django has loaded them

    return [signed_in_user_key(user_id), *asked_with_the_signed_in_user()]


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = _ShortLivedCache(self._cache)

    def load(self) -> dict[str, Any]:
        known = self.session_key and _session_users.get(self.session_key)
        data = None
        if known and settings.SESSION_CACHE_ALIAS == "default":
            data = ask_together_with(self.cache_key, _signed_in_keys(known))
        if data is None:  # not asked yet, or not in the cache: the cache, then the database
            data = super().load()
        user_id = data.get(SESSION_KEY) if isinstance(data, dict) else None
        if user_id is not None and self.session_key:
            if len(_session_users) >= _SESSION_USERS_KEPT:
                _session_users.clear()
            _session_users[self.session_key] = str(user_id)
        return data  # type: ignore[no-any-return]
