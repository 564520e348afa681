"""Login throttling: too many failed passwords for one userid, or from one address, lock
further attempts out for a while.

Counts live in the shared cache so every app server sees the same numbers. A counter is
created with ``add`` (only if absent) and then incremented, which Redis does atomically, so two
servers failing at once both count. Each failure keeps the counter for another window, so the
limit reached means 15 quiet minutes before the next try. A locked-out attempt is refused
before the password is even checked, so the right password does not get through either, and
it does not extend the lockout.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

__all__ = ["LOCKOUT_MESSAGE", "clear_userid", "client_ip", "is_locked_out", "record_failure"]

LOCKOUT_MESSAGE = (
    "Too many failed log-in attempts. For your account's safety, log-in is paused for "
    "{minutes} minutes. If you forgot your password, you can reset it by e-mail."
)


def client_ip(request: HttpRequest) -> str:
    """The client's address; X-Forwarded-For only behind a proxy we were told to trust."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        # The proxy appends the address it saw, so the last entry is the one it vouches for.
        last = forwarded.split(",")[-1].strip()
        if last:
            return last
    return str(request.META.get("REMOTE_ADDR", "unknown"))


def _key(kind: str, value: str) -> str:
    # Hashed so any userid (spaces, unicode) makes a valid cache key of bounded length.
    digest = hashlib.sha256(value.encode("utf-8")).hexdigest()[:32]
    return f"login-fail:{kind}:{digest}"


def _keys(userid: str, ip: str) -> list[tuple[str, int]]:
    return [
        (_key("user", userid.strip().lower()), settings.LOGIN_FAILURES_PER_USERID),
        (_key("ip", ip), settings.LOGIN_FAILURES_PER_IP),
    ]


def is_locked_out(userid: str, ip: str) -> bool:
    """True when this userid or this address has used up its failed attempts."""
    for key, limit in _keys(userid, ip):
        if (cache.get(key) or 0) >= limit:
            return True
    return False


def record_failure(userid: str, ip: str) -> None:
    """Count one failed attempt against both the userid and the address."""
    timeout = settings.LOGIN_LOCKOUT_SECONDS
    for key, _limit in _keys(userid, ip):
        cache.add(key, 0, timeout)
        try:
            cache.incr(key)
        except ValueError:
            # The counter expired between add and incr: this failure starts a new window.
            cache.add(key, 1, timeout)
        # Backends without a native increment (the database cache) rewrite the entry with the
        # default timeout; set it again, so the count lives for the window after this failure.
        cache.touch(key, timeout)


def clear_userid(userid: str) -> None:
    """A successful log-in forgives the userid's earlier mistakes (not the address's)."""
    cache.delete(_key("user", userid.strip().lower()))


def lockout_message() -> str:
    return LOCKOUT_MESSAGE.format(minutes=max(1, settings.LOGIN_LOCKOUT_SECONDS // 60))
