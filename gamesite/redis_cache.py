"""The Redis cache, for when Redis stops answering (its breaker: gamesite/redis_guard.py).

``GuardedRedisCache`` is django-redis's cache with errors ignored (a read is a miss, a write is
lost) and one thing more: a forget (a delete) that fails is remembered and done again, before
anything else this process asks, as soon as Redis answers. Otherwise an answer kept before a
write (gamesite/kept.py: a player's note, the signed-in user; a session ended by a log-out)
would outlive the write for the rest of its time in the cache (issue 29: a note saved during a
6 s stall showed its old text for an hour, and saving what the page showed overwrote the newer
one). A forget left in a stalled Redis's socket is carried out by Redis when it resumes, before
the retry, which comes later; so is a stale answer's write left there, which the retry then
removes. So a kept answer outlives a write by the stall and at most one breaker pause (3 s).
The forgets wait in the memory of the process that wrote: one killed before Redis came back
leaves its answers to their time limits.

``ThrottleCache`` holds django-ratelimit's counters: in Redis, shared by every app server, and
while Redis does not answer in this process's memory, so the limits still hold, per process
(a limit of 20 an hour allows up to 20 per app-server process during an outage), and nobody is
refused for Redis's sake. Neither open nor closed: counted locally.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django_redis.cache import RedisCache
from django_redis.client.default import _main_exceptions
from django_redis.exceptions import ConnectionInterrupted

from gamesite.redis_guard import guarded_connection_class, redis_breaker

__all__ = ["GuardedRedisCache", "ThrottleCache", "forgets_waiting", "redis_caches"]


def redis_caches(url: str, timeout: float, prefix: str = "") -> dict[str, Any]:
    """CACHES for the Redis at ``url``, each command waiting at most ``timeout`` seconds: the
    shared cache and django-ratelimit's counters (settings' RATELIMIT_USE_CACHE: "throttles"),
    their keys under ``prefix``: sites sharing one Redis database keep apart by it (each has its
    own user 1, whose kept row another site must never read)."""
    options = {
        "IGNORE_EXCEPTIONS": True,
        "SOCKET_CONNECT_TIMEOUT": timeout,
        "SOCKET_TIMEOUT": timeout,
        "CONNECTION_POOL_KWARGS": {"connection_class": guarded_connection_class(url)},
    }
    return {
        "default": {"BACKEND": "gamesite.redis_cache.GuardedRedisCache", "LOCATION": url, "OPTIONS": options,
                    "KEY_PREFIX": prefix},
        "throttles": {"BACKEND": "gamesite.redis_cache.ThrottleCache", "LOCATION": url, "OPTIONS": options,
                      "KEY_PREFIX": prefix},
    }

# Keys (as made, prefix and version in) whose delete failed, by Redis location: shared by the
# process's threads (each has its own cache object).
_to_forget: dict[str, set[Any]] = {}
_to_forget_lock = threading.Lock()


def forgets_waiting(location: str) -> int:
    """How many forgets this process still owes the Redis at ``location``."""
    with _to_forget_lock:
        return len(_to_forget.get(location, ()))


class GuardedRedisCache(RedisCache):
    """django-redis's cache, whose failed forgets are done again once Redis answers (above)."""

    @property
    def client(self) -> Any:
        client = super().client
        if self._server in _to_forget and redis_breaker.allows():
            self._forget_what_failed(client)
        return client

    def _forget_what_failed(self, client: Any) -> None:
        with _to_forget_lock:
            keys = list(_to_forget.get(self._server, ()))
        if not keys:
            return
        try:
            client.delete_many(keys)  # made keys already: kept as they are
        except ConnectionInterrupted:
            return  # still not answering: the next ask tries again
        with _to_forget_lock:
            left = _to_forget.get(self._server, set()) - set(keys)  # forgets failed meanwhile stay
            if left:
                _to_forget[self._server] = left
            else:
                _to_forget.pop(self._server, None)

    def _forget_later(self, keys: Iterable[Any]) -> None:
        with _to_forget_lock:
            _to_forget.setdefault(self._server, set()).update(keys)

    def delete(self, key: Any, version: int | None = None, prefix: str | None = None,
               client: Any = None) -> bool:
        try:
            return bool(self.client.delete(key, version=version, prefix=prefix, client=client))
        except ConnectionInterrupted:
            self._forget_later([self.client.make_key(key, version=version, prefix=prefix)])
            return False

    def delete_many(self, keys: Iterable[Any], version: int | None = None, client: Any = None) -> int:
        keys = list(keys)
        try:
            return int(self.client.delete_many(keys, version=version, client=client))
        except ConnectionInterrupted:
            self._forget_later(self.client.make_key(key, version=version) for key in keys)
            return 0


    def written_then_read(self, writes: list[tuple[str, Any, Any]], keys: Iterable[Any]) -> dict[Any, Any]:
        """``writes`` in their order, each ``("set", {key: value}, seconds)`` or ``("delete",
        keys, None)``, then the values under ``keys`` there are, all in one trip to Redis (a
        pipeline, not a transaction: gamesite/kept.py sends what a page request wrote with its
        next read). Redis not answering: as the cache's IGNORE_EXCEPTIONS has it, the sets are
        lost and the reads are misses, and the deletes are done again once it answers."""
        client = self.client
        made = {client.make_key(key): key for key in keys}
        deleted: list[Any] = []
        try:
            pipeline = client.get_client(write=True).pipeline(transaction=False)
            for kind, what, seconds in writes:
                if kind == "delete":
                    named = [client.make_key(key) for key in what]
                    deleted += named
                    if named:
                        pipeline.delete(*named)
                else:
                    for key, value in what.items():
                        client.set(key, value, seconds, client=pipeline)
            if made:
                pipeline.mget(*made)
            results = pipeline.execute()
        except (*_main_exceptions, ConnectionInterrupted):
            self._forget_later(deleted)
            return {}
        values = results[-1] if made else []
        return {made[name]: client.decode(value) for name, value in zip(made, values, strict=True) if value is not None}


class ThrottleCache(GuardedRedisCache):
    """django-ratelimit's counters (it adds, then increments): in this process's memory while
    Redis does not answer (above)."""

    # Counters of the windows of every limit, per player and address: a few thousand at most.
    LOCAL_COUNTERS = 10_000
    # A counter begun here without its window's length (it began in Redis) lasts the longest one.
    LOCAL_SECONDS = 24 * 3600

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # One per process (LocMemCache's storage is shared by name), whichever thread counts.
        self._here = LocMemCache("throttles-while-redis-is-away",
                                 {"OPTIONS": {"MAX_ENTRIES": self.LOCAL_COUNTERS}})

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None,
            client: Any = None, **kwargs: Any) -> bool:
        added = super().add(key, value, timeout, version=version, client=client, **kwargs)
        if added is None:  # Redis did not answer (errors are ignored)
            return bool(self._here.add(key, value, timeout, version))
        return bool(added)

    def incr(self, key: Any, delta: int = 1, version: int | None = None, client: Any = None,
             **kwargs: Any) -> int:
        count = super().incr(key, delta, version=version, client=client, **kwargs)
        if count is not None:
            return int(count)
        try:
            return int(self._here.incr(key, delta, version))
        except ValueError:  # counted in Redis until it stopped answering: from here on, here
            self._here.set(key, delta, self.LOCAL_SECONDS, version)
            return delta
