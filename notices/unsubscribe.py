"""The one-click unsubscribe link in every notice: a signed user id, so it needs no log-in.

The signature (django.core.signing, with SECRET_KEY and its own salt) is what makes the link
safe to act on without a session or CSRF token: nobody can make one for another player.
It does not expire: an old notice's link must still work.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse

from gamesite.site_address import absolute_url

__all__ = ["BadUnsubscribeLink", "unsubscribe_token", "unsubscribe_url", "user_from_token"]

_SALT = "notices.unsubscribe"


class BadUnsubscribeLink(ValueError):
    """The link was altered, cut short or names nobody."""


def unsubscribe_token(user: Any) -> str:
    """"<user id>:<signature>": no timestamp, so every notice carries the same stable link."""
    return signing.Signer(salt=_SALT).sign(str(user.pk))


def unsubscribe_url(user: Any) -> str:
    """The absolute link for mails (there is no request to take the host from)."""
    return absolute_url(reverse("notices:unsubscribe", args=[unsubscribe_token(user)]))


def user_from_token(token: str) -> Any:
    """The player the token was made for; BadUnsubscribeLink if it is not one of ours."""
    try:
        user_id = signing.Signer(salt=_SALT).unsign(token)
    except signing.BadSignature:
        raise BadUnsubscribeLink(
            "This unsubscribe link is not valid: it may have been cut short when copied."
        ) from None
    user = get_user_model().objects.filter(pk=int(user_id)).first() if user_id.isdigit() else None
    if user is None:
        raise BadUnsubscribeLink("This unsubscribe link names no player of ours.")
    return user
