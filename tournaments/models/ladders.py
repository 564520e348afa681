"""Ladders: players ranked per variant and time limit, who climb by beating those above them.

Backgammon's Challenge and Game know nothing of ladders: a ``LadderMatch`` row ties a challenge
(and so, once accepted, its game) to the ladder it was made on.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon.models import VARIANT_CHOICES, Challenge

from .vacation_caps import vacation_days_cap_field

__all__ = ["DEFAULT_INACTIVITY_DAYS", "Ladder", "LadderMatch", "LadderRung"]

DEFAULT_INACTIVITY_DAYS = 30


class Ladder(models.Model):
    """One ladder: its games' rules, and how long a player may go without a ladder game."""

    name = models.CharField(max_length=100, unique=True)
    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    match_length = models.PositiveSmallIntegerField(default=0, help_text="0 for a single game")
    time_limit = models.DurationField(help_text="per move")
    # Only members (accounts.membership) may join a members' ladder.
    members_only = models.BooleanField(default=False)
    inactivity_days = models.PositiveSmallIntegerField(
        default=DEFAULT_INACTIVITY_DAYS,
        help_text="a player with no ladder game for this many days drops off the ladder",
    )
    vacation_days_cap = vacation_days_cap_field()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("variant", "time_limit", "name")

    def __str__(self) -> str:
        return self.name

    @property
    def inactivity_limit(self) -> timedelta:
        return timedelta(days=self.inactivity_days)


class LadderRung(models.Model):
    """A player's place on a ladder (rank 1 is the top) and record there."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rungs")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(default=timezone.now)
    last_game_at = models.DateTimeField(null=True, blank=True, help_text="when a ladder game last ended")

    class Meta:
        ordering = ("ladder", "rank")
        # Ranks are not unique in the database: a move shifts a run of ranks by one, which a
        # unique index would refuse half way; the ladder's row lock keeps them consistent.
        constraints = (models.UniqueConstraint(fields=["ladder", "player"], name="one_rung_per_player"),)
        indexes = (models.Index(fields=["ladder", "rank"]),)

    def __str__(self) -> str:
        return f"{self.ladder}: #{self.rank} {self.player}"

    @property
    def active_since(self) -> datetime:
        return self.last_game_at or self.joined_at


class LadderMatch(models.Model):
    """A challenge made on a ladder; its result moves places when the game ends."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="matches")
    challenge = models.OneToOneField(Challenge, on_delete=models.CASCADE, related_name="+")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "ladder matches"

    def __str__(self) -> str:
        return f"{self.ladder}: {self.challenger} v {self.defender}"
