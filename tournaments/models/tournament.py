"""Tournaments: a bracket (single or double elimination) or a table (round robin) of matches,
each a backgammon Game created as soon as both of its players are known."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon.engine.clock import TimeControl
from backgammon.models import VARIANT_CHOICES, Game

from .vacation_caps import vacation_days_cap_field

__all__ = ["Entry", "Tournament", "TournamentMatch"]


class Tournament(models.Model):
    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
        ROUND_ROBIN = "round_robin", "Round robin"

    class Status(models.TextChoices):
        SIGNUP = "signup", "Sign-up"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Area(models.TextChoices):
        # ItsYourTurn's two areas of the same game: a player signs up in one of them at a time.
        STANDARD = "standard", "Backgammon"
        CASUAL = "casual", "Casual backgammon"

    name = models.CharField(max_length=100)
    area = models.CharField(max_length=10, choices=Area.choices, default=Area.STANDARD)
    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    match_length = models.PositiveSmallIntegerField(default=0, help_text="0 for a single game")
    format = models.CharField(max_length=20, choices=Format.choices)
    size = models.PositiveSmallIntegerField(help_text="the most players; it starts when full")
    time_limit = models.DurationField(help_text="per move (a live tournament: its delay plus reserve)")
    # A live tournament (issue 31): its matches are played with this match clock, each round's
    # matches start together, and a player not there loses after the delay plus two minutes.
    live_delay_s = models.PositiveSmallIntegerField(null=True, blank=True, help_text="live: each turn's delay")
    live_reserve_s = models.PositiveIntegerField(null=True, blank=True, help_text="live: each player's reserve")
    rated = models.BooleanField(default=True)
    signup_closes_at = models.DateTimeField(
        null=True, blank=True, help_text="it starts then with at least 2 players"
    )
    members_only = models.BooleanField(default=False)
    vacation_days_cap = vacation_days_cap_field()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SIGNUP)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return self.name

    @property
    def is_live(self) -> bool:
        return self.live_reserve_s is not None

    def time_control(self) -> TimeControl | None:
        """The match clock of a live tournament's games; None by correspondence."""
        if self.live_reserve_s is None:
            return None
        return TimeControl.live(self.live_delay_s or 0, self.live_reserve_s)


class Entry(models.Model):
    """A player signed up; ``seed`` (1 the best) is set when the tournament starts."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("seed", "joined_at", "pk")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
        )

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class TournamentMatch(models.Model):
    """One match of the bracket or table. A bye has ``player_b`` None, no game, and ``player_a``
    as its winner."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField()
    bracket = models.CharField(
        max_length=10, blank=True, help_text="double elimination: winners, losers or final"
    )
    slot = models.PositiveSmallIntegerField()
    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    bye = models.BooleanField(default=False)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_match"
    )
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    adjudication = models.CharField(max_length=500, blank=True, help_text="staff's logged reason")

    class Meta:
        ordering = ("round", "slot")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "round", "slot"], name="one_match_per_slot"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} round {self.round} match {self.slot}"
