"""API tokens: a player's keys for programs, each named, revocable, and stored only as a hash."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

__all__ = ["ApiToken"]


class ApiToken(models.Model):
    """One bearer token. The secret is shown once on creation; only its SHA-256 is kept, so a
    copy of the database gives nobody a working token."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="the player's label, e.g. 'phone app'")
    token_hash = models.CharField(max_length=64, unique=True, help_text="sha256 of the secret, hex")
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Tokens made by a password log-in through the API expire (API_PASSWORD_TOKEN_DAYS): a
    # program logging in on every start would otherwise pile up keys that work forever.
    # Tokens made on the profile page, where the player sees and revokes them, have none.
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.user} / {self.name}"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def is_expired(self, now: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now
