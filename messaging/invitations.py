"""Tell a friend: an invitation e-mail with a sign-up link naming who invited them.

Only from a player whose own e-mail address is confirmed (accounts.email_confirmation): the
mail carries the player's note, and unconfirmed throwaway accounts must not relay it.
Rate limited per inviting player and per target address, and the answer never depends on
whether the address belongs to a player: the same e-mail goes out and the same words come back,
so the form cannot be used to find out who plays here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.core.validators import validate_email
from django.template.loader import render_to_string
from django_ratelimit.core import is_ratelimited

from accounts.email_confirmation import email_is_confirmed
from backgammon.services import Rejected
from gamesite.text import text_refusal

__all__ = ["NOTE_MAX", "UNCONFIRMED", "InvitationRefused", "invitation_send"]

NOTE_MAX = 300
TOO_MANY = "Too many invitations were sent just now: please try again later."
UNCONFIRMED = (
    "Please confirm your own e-mail address first (with the link we mail you): invitations go "
    "out only from players with a confirmed address."
)


class InvitationRefused(Rejected):
    """An invitation that cannot be sent; the message says why."""


def _over_rate(inviter: Any, email: str) -> bool:
    # Every allowance counts every try, so the first refusal does not depend on which one ran out.
    limits = (
        ("invite-user-hour", settings.INVITE_RATE_PER_USER_HOUR, str(inviter.pk)),
        ("invite-user-day", settings.INVITE_RATE_PER_USER_DAY, str(inviter.pk)),
        ("invite-email-hour", settings.INVITE_RATE_PER_EMAIL_HOUR, email),
        ("invite-email-day", settings.INVITE_RATE_PER_EMAIL_DAY, email),
    )
    over = False
    for group, rate, value in limits:
        over |= is_ratelimited(
            None, group=group, key=lambda _group, _request, value=value: value, rate=rate, increment=True
        )
    return over


def invitation_send(*, inviter: Any, email: str, note: str, signup_url: str) -> None:
    """E-mail ``email`` an invitation from ``inviter`` with ``signup_url`` (absolute)."""
    if not email_is_confirmed(inviter):
        raise InvitationRefused(UNCONFIRMED)
    email = (email or "").strip()
    note = (note or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise InvitationRefused("Enter your friend's e-mail address, e.g. sam@example.com.") from None
    if len(note) > NOTE_MAX:
        raise InvitationRefused(f"The note can be at most {NOTE_MAX} characters.")
    refusal = text_refusal(note, "note")
    if refusal:
        raise InvitationRefused(refusal)
    if _over_rate(inviter, email.lower()):
        raise InvitationRefused(TOO_MANY)
    context = {
        "inviter": inviter.get_username(),
        "note": note,
        "signup_url": signup_url,
        "site_name": settings.SITE_NAME,
    }
    subject = f"{inviter.get_username()} invites you to play backgammon on {settings.SITE_NAME}"
    mail = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("messaging/email/invitation.txt", context),
        to=[email],
    )
    mail.attach_alternative(render_to_string("messaging/email/invitation.html", context), "text/html")
    mail.send()
