"""Asking Redis only while it answers: short socket timeouts and a circuit breaker.

A Redis that has stopped answering (a paused process, a hung host) does not refuse connections:
every command waits for its socket timeout. Pages ask the cache several times each (the session,
the signed-in user, the menu counts, the throttles), so one-second timeouts made every signed-in
page take seconds (issue 29: 4-11 s, up to 55 s under load). Here every command is bounded by
REDIS_TIMEOUT_SECONDS, and the first one that times out (or cannot connect) opens this process's
breaker: for REDIS_PAUSE_SECONDS nobody in the process asks Redis at all, each command failing at
once with ``RedisUnavailable`` (what the cache then does: gamesite/redis_cache.py). After the
pause the next command tries again, and an answer closes the breaker; a failure opens it anew.
So a stalled Redis costs a page at most one timeout, and the process one timeout per pause.

The breaker is one per process, shared by its threads and its event loop: the cache and the
sessions through the redis-py connection classes below (``guarded_connection_class``), the
Channels layer through ``guarded`` (gamesite/live_layers.py). There is one Redis (REDIS_URL).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis
from django.conf import settings
from redis.connection import (
    AbstractConnection,
    Connection,
    SSLConnection,
    UnixDomainSocketConnection,
)

__all__ = ["RedisUnavailable", "guarded", "guarded_connection_class", "redis_breaker"]

log = logging.getLogger(__name__)
T = TypeVar("T")

# What a Redis that does not answer raises (a refused or timed-out connect, a read that timed out,
# a connection dropped): not a command's own error (a wrong type), which says Redis is there.
NOT_ANSWERING = (redis.ConnectionError, redis.TimeoutError)


class RedisUnavailable(redis.ConnectionError):
    """Redis failed a moment ago: not asked again until the breaker's pause is over."""


class CircuitBreaker:
    """Open (nobody asks) for a pause after each failure; closed again by the first answer."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open_until = 0.0  # time.monotonic(); 0.0 while closed

    def allows(self) -> bool:
        """May Redis be asked now? Yes while closed, and once the pause is over (a new try)."""
        open_until = self._open_until
        return open_until == 0.0 or time.monotonic() >= open_until

    @property
    def is_open(self) -> bool:
        return self._open_until != 0.0

    def refuse_while_open(self) -> None:
        if not self.allows():
            raise RedisUnavailable("Redis did not answer a moment ago: not asked again yet")

    def failed(self) -> None:
        pause = float(getattr(settings, "REDIS_PAUSE_SECONDS", 3.0))
        with self._lock:
            was_closed = self._open_until == 0.0
            self._open_until = time.monotonic() + pause
        if was_closed:
            log.warning("Redis does not answer: not asked for %.1f s at a time until it does", pause)

    def answered(self) -> None:
        if self._open_until == 0.0:
            return
        with self._lock:
            reopened = self._open_until != 0.0
            self._open_until = 0.0
        if reopened:
            log.warning("Redis answers again")

    def reset(self) -> None:
        """Closed, as at start (the tests start each from here)."""
        with self._lock:
            self._open_until = 0.0


redis_breaker = CircuitBreaker()


class _Guarded(AbstractConnection):
    """A redis-py connection that asks only while the breaker allows, and tells it how it went."""

    def connect(self) -> None:
        redis_breaker.refuse_while_open()
        try:
            super().connect()
        except NOT_ANSWERING:
            redis_breaker.failed()
            raise

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        redis_breaker.refuse_while_open()
        try:
            super().send_packed_command(command, check_health)
        except NOT_ANSWERING:
            redis_breaker.failed()
            raise

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            response = super().read_response(*args, **kwargs)
        except NOT_ANSWERING:
            redis_breaker.failed()
            raise
        redis_breaker.answered()
        return response


class GuardedConnection(_Guarded, Connection):
    pass


class GuardedUnixConnection(_Guarded, UnixDomainSocketConnection):
    pass


class GuardedSSLConnection(_Guarded, SSLConnection):
    pass


def guarded_connection_class(url: str) -> type[AbstractConnection]:
    """The guarded class for ``url``'s kind of connection (redis://, unix://, rediss://): the
    cache's CONNECTION_POOL_KWARGS, which would otherwise override the URL's own choice."""
    if url.startswith("unix://"):
        return GuardedUnixConnection
    if url.startswith("rediss://"):
        return GuardedSSLConnection
    return GuardedConnection


async def guarded(call: Callable[..., Awaitable[T]], *args: Any) -> T:
    """``await call(*args)`` (a Channels layer's command), asked only while the breaker allows."""
    redis_breaker.refuse_while_open()
    try:
        result = await call(*args)
    except NOT_ANSWERING:
        redis_breaker.failed()
        raise
    redis_breaker.answered()
    return result
