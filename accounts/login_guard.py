"""How django-axes sees a log-in attempt here: the client's address, the userid whatever its
case, and the friendly page a locked-out attempt gets (site log-in and admin alike).

Failures are counted per userid *from one address* (AXES_LOCKOUT_PARAMETERS in settings), so a
stranger typing wrong passwords locks only themselves out, never the player, and they live in
the database where every app server sees them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

__all__ = ["LOCKOUT_MESSAGE", "client_address", "lockout_response", "normalised_userid"]

LOCKOUT_MESSAGE = (
    "Too many failed log-in attempts. For your account's safety, log-in is paused for "
    "{minutes} minutes. If you forgot your password, you can reset it by e-mail."
)


def client_address(request: HttpRequest) -> str | None:
    """The client's address (None when unknown, e.g. a log-in made in code); X-Forwarded-For
    only behind a proxy we were told to trust."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        # The proxy appends the address it saw, so the last entry is the one it vouches for;
        # anything before it came from the client and may be forged.
        last = forwarded.split(",")[-1].strip()
        if last:
            return last
    return request.META.get("REMOTE_ADDR") or None


def normalised_userid(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """Userids are unique whatever their case, so 'ALICE' and 'alice' count as one."""
    username = (credentials or {}).get("username")
    if username is None:
        username = request.POST.get("username", "")
    return str(username).strip().lower()


def lockout_message() -> str:
    return LOCKOUT_MESSAGE.format(minutes=max(1, settings.LOGIN_LOCKOUT_SECONDS // 60))


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """429 with a sentence a person understands and the way out (a password reset); JSON for the
    API's token call."""
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": lockout_message()}, status=429)
        response["Retry-After"] = str(settings.LOGIN_LOCKOUT_SECONDS)
        return response
    return render(request, "accounts/locked_out.html", {"message": lockout_message()}, status=429)
