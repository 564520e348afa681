"""Staff's replacements of a tournament's players, each kept with its reason."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models.tournament import Tournament

__all__ = ["Replacement"]


class Replacement(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="replacements")
    old = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    new = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=500)
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("made_at", "pk")

    def __str__(self) -> str:
        return f"{self.new} replaced {self.old} in {self.tournament}"
