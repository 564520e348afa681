"""/health/ for load balancers and monitors: is the database answering (SELECT 1) and, when
REDIS_URL is set, Redis (PING)? JSON 200 when all is well, 503 naming what failed.

It answers first in the middleware chain (gamesite.settings.MIDDLEWARE), so it needs no log-in,
never reads or writes a session, skips the host check (a balancer may ask by address) and the
HTTPS redirect (SECURE_REDIRECT_EXEMPT), and costs one query and one PING.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse

__all__ = ["HEALTH_PATH", "HealthCheck", "health_report"]

HEALTH_PATH = "/health/"
logger = logging.getLogger(__name__)


@cache
def _redis_client(url: str, timeout: float) -> redis.Redis:
    # Its own connection, past the site's breaker (gamesite/redis_guard.py): it says how Redis
    # is now, within the time any command may take (REDIS_TIMEOUT_SECONDS).
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        logger.warning("health check: the database does not answer", exc_info=True)
        return False


def _redis_ok(url: str) -> bool:
    try:
        return bool(_redis_client(url, settings.REDIS_TIMEOUT_SECONDS).ping())
    except redis.RedisError:
        logger.warning("health check: Redis does not answer", exc_info=True)
        return False


def health_report() -> tuple[str, dict[str, str]]:
    """("ok" | "degraded" | "failed", {"database": "ok" | "failed", "redis": ...}); Redis only
    when configured. Without Redis the pages still answer (README, Faults): the server is
    "degraded", not failed, so a load balancer keeps it; without the database it is failed."""
    checks = {"database": _database_ok()}
    if settings.REDIS_URL:
        checks["redis"] = _redis_ok(settings.REDIS_URL)
    status = "failed" if not checks["database"] else "ok" if all(checks.values()) else "degraded"
    return status, {name: "ok" if ok else "failed" for name, ok in checks.items()}


class HealthCheck:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != HEALTH_PATH or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        status, checks = health_report()
        response = JsonResponse({"status": status, "checks": checks}, status=503 if status == "failed" else 200)
        response["Cache-Control"] = "no-store"
        return response
