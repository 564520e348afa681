"""A player's current rating per variant and the history of its changes (tournaments.ratings
holds the formula and the service that writes them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon.models import VARIANT_CHOICES, Game

__all__ = ["Rating", "RatingChange"]


class Rating(models.Model):
    """One player's rating in one variant; a row exists once they finish a rated match in it."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    rating = models.FloatField(default=1500.0)
    experience = models.PositiveIntegerField(
        default=0, help_text="total length of the player's finished rated matches in this variant"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["player", "variant"], name="rating_player_variant"),)
        ordering = ("player", "variant")

    def __str__(self) -> str:
        return f"{self.player} {self.variant} {self.rating:.2f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating: two rows per match, never changed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    change = models.FloatField()
    experience_before = models.PositiveIntegerField()
    match_length = models.PositiveSmallIntegerField(help_text="n in the formula (1 for a single game)")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # Exactly once per match: a second application for the same game cannot be stored.
        constraints = (models.UniqueConstraint(fields=["game", "player"], name="rating_change_once"),)
        indexes = (models.Index(fields=["player", "variant", "created_at"], name="rating_history"),)
        ordering = ("created_at", "pk")

    def __str__(self) -> str:
        return f"{self.player} {self.variant} {self.change:+.2f} (game #{self.game_id})"
