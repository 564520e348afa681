"""Strict parsing of settings from the environment: a bad value stops the process at start-up.

Twelve-factor style: every deployment fact comes from an environment variable, and a typo
(``DEBUG=ture``) is an error rather than a silent default.

>>> env_bool("GAMESITE_DOCTEST_UNSET", default=True, environ={})
True
>>> env_list("HOSTS", environ={"HOSTS": "a.example, b.example,"})
['a.example', 'b.example']
>>> email_settings_from_url("smtp://bob:s%40cret@mail.example:2525?tls=1")["EMAIL_HOST_PASSWORD"]
's@cret'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

__all__ = [
    "email_settings_from_url",
    "env_bool",
    "env_int",
    "env_list",
    "env_rate",
    "env_seconds",
    "env_str",
    "key_bytes",
]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _environ(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def env_str(name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None) -> str:
    """The variable's text; without a default a missing variable is a configuration error."""
    value = _environ(environ).get(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"The environment variable {name} is required.")
        return default
    return value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """Parse 1/0, true/false, yes/no, on/off; anything else is refused.

    >>> env_bool("X", default=False, environ={"X": "maybe"})
    Traceback (most recent call last):
    ...
    django.core.exceptions.ImproperlyConfigured: X must be one of 1/0, true/false, yes/no, on/off, not 'maybe'.
    """
    raw = _environ(environ).get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off, not {raw!r}."
    )


def env_int(name: str, default: int, *, environ: Mapping[str, str] | None = None) -> int:
    """A whole number, or the default when the variable is unset.

    >>> env_int("N", 3, environ={"N": " 42 "})
    42
    """
    raw = _environ(environ).get(name)
    if raw is None:
        return default
    try:
        return int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None


def env_seconds(name: str, default: float, *, environ: Mapping[str, str] | None = None) -> float:
    """A time of more than zero seconds, fractions allowed, or the default when unset.

    >>> env_seconds("T", 1.0, environ={"T": "0.25"})
    0.25
    """
    raw = _environ(environ).get(name)
    if raw is None:
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise ImproperlyConfigured(f"{name} must be a number of seconds above 0, not {raw!r}.")
    return value


def env_list(
    name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; empty items are dropped."""
    raw = _environ(environ).get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


_RATE = re.compile(r"\A[1-9][0-9]*/[1-9]?[0-9]*[smhd]\Z")


def env_rate(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """A rate such as ``3/h`` (count per second, minute, hour or day; ``10/15m`` too).

    >>> env_rate("R", "3/h", environ={"R": "10/d"})
    '10/d'
    >>> env_rate("R", "3/h", environ={"R": "three an hour"})
    Traceback (most recent call last):
    ...
    django.core.exceptions.ImproperlyConfigured: R must be a rate such as 3/h or 10/d, not 'three an hour'.
    """
    value = env_str(name, default, environ=environ).strip()
    if not _RATE.match(value):
        raise ImproperlyConfigured(f"{name} must be a rate such as 3/h or 10/d, not {value!r}.")
    return value


def key_bytes(value: str) -> bytes:
    """A secret key given as hex (even length, hex digits only) or as plain text.

    >>> key_bytes("00ff")
    b'\\x00\\xff'
    >>> key_bytes("correct horse")
    b'correct horse'
    """
    text = value.strip()
    if not text:
        raise ImproperlyConfigured("A secret key must not be empty.")
    if len(text) % 2 == 0:
        try:
            return bytes.fromhex(text)
        except ValueError:
            pass
    return text.encode("utf-8")


_EMAIL_BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}


def email_settings_from_url(url: str) -> dict[str, Any]:
    """Django e-mail settings from ``smtp://user:password@host:port?tls=1`` (or ``ssl=1``),
    ``console:``, ``locmem:`` or ``dummy:``.

    >>> email_settings_from_url("console:")["EMAIL_BACKEND"]
    'django.core.mail.backends.console.EmailBackend'
    >>> email_settings_from_url("pigeon://loft")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ImproperlyConfigured: EMAIL_URL scheme 'pigeon' is not one of console, dummy, locmem, smtp.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _EMAIL_BACKENDS:
        known = ", ".join(sorted(_EMAIL_BACKENDS))
        raise ImproperlyConfigured(f"EMAIL_URL scheme {scheme!r} is not one of {known}.")
    result: dict[str, Any] = {"EMAIL_BACKEND": _EMAIL_BACKENDS[scheme]}
    if scheme != "smtp":
        return result
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    flags = {key: env_bool(key, False, environ=query) for key in ("tls", "ssl")}
    if flags["tls"] and flags["ssl"]:
        raise ImproperlyConfigured("EMAIL_URL cannot ask for both tls and ssl.")
    result.update(
        EMAIL_HOST=parts.hostname or "localhost",
        EMAIL_PORT=parts.port or (465 if flags["ssl"] else 587 if flags["tls"] else 25),
        EMAIL_HOST_USER=unquote(parts.username or ""),
        EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
        EMAIL_USE_TLS=flags["tls"],
        EMAIL_USE_SSL=flags["ssl"],
    )
    return result
