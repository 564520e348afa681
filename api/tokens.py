"""Creating, checking and revoking API tokens: the one place that knows how a token looks."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from api.models import ApiToken
from gamesite.text import text_refusal

__all__ = ["TOKEN_NAME_MAX", "TokenRejected", "token_create", "token_revoke", "token_user", "tokens_of"]

TOKEN_NAME_MAX = 100
_PREFIX = "gt_"  # makes a leaked token recognisable to secret scanners and to people
# Writing last_used_at on every request would turn each read into a write; a minute is precise
# enough for "last used" on the profile page.
_LAST_USED_PRECISION = timedelta(minutes=1)


class TokenRejected(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def token_create(
    *, user: Any, name: str = "", lifetime: timedelta | None = None
) -> tuple[ApiToken, str]:
    """A new token for ``user``: the row and the secret, which is never stored and never shown
    again; with a ``lifetime`` it stops working that long from now."""
    name = name.strip() or "API token"
    if len(name) > TOKEN_NAME_MAX:
        raise TokenRejected(f"A token's name can be at most {TOKEN_NAME_MAX} characters")
    refusal = text_refusal(name, "token's name")
    if refusal:
        raise TokenRejected(refusal)
    secret = _PREFIX + secrets.token_urlsafe(32)
    now = timezone.now()
    token = ApiToken.objects.create(
        user=user, name=name, token_hash=_hash(secret), created_at=now,
        expires_at=now + lifetime if lifetime is not None else None,
    )
    return token, secret


def token_user(secret: str) -> tuple[ApiToken, Any] | None:
    """The live (unrevoked, unexpired) token and its active user for a secret, or None."""
    try:
        token = ApiToken.objects.select_related("user").get(token_hash=_hash(secret.strip()))
    except ApiToken.DoesNotExist:
        return None
    now = timezone.now()
    if token.is_revoked or token.is_expired(now) or not token.user.is_active:
        return None
    if token.last_used_at is None or now - token.last_used_at > _LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token, token.user


def token_revoke(*, user: Any, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens; revoking twice is harmless."""
    try:
        token = ApiToken.objects.get(pk=token_id, user=user)
    except ApiToken.DoesNotExist:
        raise TokenRejected("There is no such token of yours") from None
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def tokens_of(user: Any) -> QuerySet[ApiToken]:
    """The player's tokens still in force, newest first."""
    live = Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    return ApiToken.objects.filter(live, user=user, revoked_at__isnull=True)
