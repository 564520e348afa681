"""Where a form sends the player back to (``next``): the one check every such value goes through.

Only a path of this site is followed. Django's ``url_has_allowed_host_and_scheme`` decides that
it names no other site ("//evil.example", "https:…", "javascript:…", "/\\\\evil.example"); it must
moreover start with "/", since ``redirect`` reads a value without "/" or "." as the name of a URL
pattern (a 500, once the form's change was saved), and be short and free of control characters.
Anything else means the page's own default, never an error: the change was made either way.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

from gamesite.text import has_refused_characters

__all__ = ["NEXT_MAX", "safe_next"]

NEXT_MAX = 2000
"""Longer than any address of ours; a longer ``next`` is someone's experiment."""


def safe_next(request: HttpRequest, default: str = "") -> str:
    """The request's ``next`` (form field, else query) if it is a path of this site, else ``default``."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if (
        wanted.startswith("/")
        and len(wanted) <= NEXT_MAX
        and not has_refused_characters(wanted)
        and not any(char.isspace() for char in wanted)
        and url_has_allowed_host_and_scheme(
            wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return wanted
    return default
