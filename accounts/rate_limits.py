"""Password-reset e-mails are rate limited (django-ratelimit, in the shared cache): per target
e-mail, so nobody can flood a player's mailbox, and per client address, so nobody can spray
e-mails at everyone. Every request counts, whether or not the address belongs to an account,
so a refusal reveals nothing about who has one.

Sign-ups are limited per client address (an hour's and a day's allowance), so one address cannot
make accounts by the dozen and multiply every per-account limit.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

from accounts.login_guard import client_address

__all__ = [
    "AVATAR_UPLOAD_REFUSED",
    "PASSWORD_RESET_REFUSED",
    "SIGNUP_REFUSED",
    "avatar_upload_refused",
    "password_reset_refused",
    "signup_refused",
]

AVATAR_UPLOAD_REFUSED = "You changed your avatar many times in the last hour. Please try again later."

PASSWORD_RESET_REFUSED = (
    "Too many password-reset e-mails were asked for just now. Please look for the e-mail "
    "already sent (and in your spam folder), or try again in an hour."
)


SIGNUP_REFUSED = (
    "Several userids were created from your network just now. Please try again later, or log "
    "in with the userid you have."
)


def signup_refused(request: HttpRequest) -> bool:
    """Count this sign-up against the client's address; True when it is over either allowance."""
    over = False
    for group, rate in (("signup-address-hour", settings.SIGNUP_RATE_PER_ADDRESS_HOUR),
                        ("signup-address-day", settings.SIGNUP_RATE_PER_ADDRESS_DAY)):
        # Each allowance counts every try, so the first refusal does not depend on which ran out.
        over |= is_ratelimited(
            request, group=group, key=lambda _group, req: client_address(req) or "unknown",
            rate=rate, increment=True,
        )
    return over


def password_reset_refused(request: HttpRequest, email: str) -> bool:
    """Count this request against the e-mail and the address; True when either is over."""
    by_address = is_ratelimited(
        request,
        group="password-reset-address",
        key=lambda _group, req: client_address(req) or "unknown",
        rate=settings.PASSWORD_RESET_RATE_PER_ADDRESS,
        increment=True,
    )
    by_email = is_ratelimited(
        request,
        group="password-reset-email",
        key=lambda _group, _req: email.strip().lower(),
        rate=settings.PASSWORD_RESET_RATE_PER_EMAIL,
        increment=True,
    )
    return by_address or by_email


def avatar_upload_refused(request: HttpRequest) -> bool:
    """Count this avatar upload against the player; True when they are over AVATAR_UPLOAD_RATE."""
    return is_ratelimited(
        request,
        group="avatar-upload",
        key=lambda _group, req: str(req.user.pk),
        rate=settings.AVATAR_UPLOAD_RATE,
        increment=True,
    )
