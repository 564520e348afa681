"""The computer opponents: ordinary user accounts marked as bots, each with a strength."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Bot(models.Model):
    """Marks a user as a GNU Backgammon bot (see bots.migrations for the three accounts)."""

    class Strength(models.TextChoices):
        EASY = "easy", "Easy: makes human-sized mistakes"
        MEDIUM = "medium", "Medium: GNU Backgammon at 0-ply"
        STRONG = "strong", "Strong: GNU Backgammon at 2-ply"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot"
    )
    strength = models.CharField(max_length=10, choices=Strength.choices)

    def __str__(self) -> str:
        return f"{self.user} ({self.strength})"
