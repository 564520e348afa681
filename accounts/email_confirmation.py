"""Confirming a player's e-mail address: a signed link mailed to it, opened by its reader.

The link carries the user and the address it was sent to, signed with the site's key and valid
for EMAIL_CONFIRM_DAYS; the site keeps nothing until it is used. Using it stores that address as
the profile's ``confirmed_email``, so the account counts as confirmed only while its address is
still the one confirmed. Mails asked for are rate limited per player (EMAIL_CONFIRM_RATE).

What needs a confirmed address: sending "Tell a friend" invitations (messaging.invitations),
which would otherwise relay anyone's text from a throwaway account.
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django_ratelimit.core import is_ratelimited

from accounts.models import Profile
from backgammon.services import Rejected
from gamesite.site_address import absolute_url

__all__ = [
    "CONFIRMATION_SENT",
    "ConfirmationRefused",
    "confirmation_send",
    "confirmation_send_quietly",
    "email_confirm",
    "email_confirm_target",
    "email_is_confirmed",
]

log = logging.getLogger(__name__)

_SALT = "accounts.email-confirmation"
CONFIRMATION_SENT = (
    "A link to confirm your e-mail address is on its way to {email}: open it to confirm the "
    "address (you need that to invite friends)."
)
TOO_MANY = (
    "Several confirmation links were sent just now: please look for them (and in your spam "
    "folder), or ask again in an hour."
)
NO_ADDRESS = "Your profile has no e-mail address to confirm: please add one first."
BAD_LINK = (
    "This confirmation link is broken or more than {days} days old: please ask for a new one "
    "on your profile."
)
OLD_ADDRESS = (
    "This link confirms an address that is no longer the account's: please use the latest link."
)


class ConfirmationRefused(Rejected):
    """A confirmation that cannot be sent or used; the message says why."""


def email_is_confirmed(user: Any) -> bool:
    confirmed = user.profile.confirmed_email
    return bool(confirmed and user.email) and confirmed.lower() == user.email.lower()


def _token(user: Any) -> str:
    return signing.dumps({"user": user.pk, "email": user.email.lower()}, salt=_SALT, compress=True)


def confirmation_send(*, user: Any) -> None:
    """Mail ``user`` a link that confirms their current address (made absolute from SITE_URL,
    never from a request's Host header: gamesite/site_address.py)."""
    if not user.email:
        raise ConfirmationRefused(NO_ADDRESS)
    if is_ratelimited(None, group="email-confirm", key=lambda _group, _request: str(user.pk),
                      rate=settings.EMAIL_CONFIRM_RATE, increment=True):
        raise ConfirmationRefused(TOO_MANY)
    context = {
        "user": user.get_username(),
        "link": absolute_url(reverse("accounts:email_confirm", args=[_token(user)])),
        "days": settings.EMAIL_CONFIRM_DAYS,
        "site_name": settings.SITE_NAME,
    }
    send_mail(
        f"Confirm your e-mail address on {settings.SITE_NAME}",
        render_to_string("accounts/email/confirm_email.txt", context),
        None,
        [user.email],
    )


def confirmation_send_quietly(*, user: Any) -> bool:
    """As confirmation_send, for a page whose own work is done (a sign-up, a new address): a
    refusal or a mail server out of reach is logged, and the player can ask again later."""
    try:
        confirmation_send(user=user)
    except (ConfirmationRefused, smtplib.SMTPException, OSError) as error:
        log.warning("No confirmation link sent to user %s: %s", user.pk, error)
        return False
    return True


def email_confirm_target(token: str) -> tuple[Any, str]:
    """The active user and the address a link confirms, or ConfirmationRefused."""
    try:
        signed = signing.loads(token, salt=_SALT, max_age=settings.EMAIL_CONFIRM_DAYS * 86400)
        user = get_user_model()._default_manager.get(pk=int(signed["user"]), is_active=True)
        email = str(signed["email"])
    except (signing.BadSignature, KeyError, TypeError, ValueError, get_user_model().DoesNotExist):
        raise ConfirmationRefused(BAD_LINK.format(days=settings.EMAIL_CONFIRM_DAYS)) from None
    if user.email.lower() != email:
        raise ConfirmationRefused(OLD_ADDRESS)
    return user, email


def email_confirm(token: str) -> Any:
    """Use a confirmation link: the account's address is confirmed; the user is returned."""
    user, _ = email_confirm_target(token)
    with transaction.atomic():
        # The profile's row lock, then the link checked again: the address cannot change
        # between the check and the save.
        profile = Profile.objects.select_for_update().get(user_id=user.pk)
        user, email = email_confirm_target(token)
        profile.confirmed_email = email
        profile.save(update_fields=["confirmed_email"])  # a save: kept answers forget the profile
    return user
