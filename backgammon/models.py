"""The game app's data: challenges, games with their append-only action log, and staff decisions.

A game's truth is its action log (``GameAction`` rows numbered 1, 2, 3...): the engine replays it.
The ``Game`` row also keeps a snapshot of the replayed state (phase, position, dice, cube, score,
who must act, deadline) so that lists and pages need no replay. Only the services in
``backgammon.services`` write either, under a row lock, in one transaction.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon.engine import VARIANTS, Side, find_variant

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from backgammon.engine.game import MatchRules
    from backgammon.engine.match import MatchState

__all__ = ["TIME_LIMITS", "Challenge", "Game", "GameAction", "StaffAction", "time_limit_label"]

VARIANT_CHOICES = [(code, f"{variant.name} ({code})") for code, variant in VARIANTS.items()]


def _limit(delta: timedelta, label: str) -> tuple[timedelta, str]:
    return delta, label


# ItsYourTurn's per-move limits, plus short ones for two players who are online together.
TIME_LIMITS: tuple[tuple[timedelta, str], ...] = (
    _limit(timedelta(minutes=1), "1 minute (live)"),
    _limit(timedelta(minutes=2), "2 minutes (live)"),
    _limit(timedelta(minutes=5), "5 minutes (live)"),
    _limit(timedelta(minutes=10), "10 minutes (live)"),
    _limit(timedelta(hours=1), "1 hour"),
    _limit(timedelta(hours=2), "2 hours"),
    _limit(timedelta(hours=4), "4 hours"),
    _limit(timedelta(hours=8), "8 hours"),
    _limit(timedelta(hours=12), "12 hours"),
    _limit(timedelta(days=1), "1 day"),
    _limit(timedelta(days=2), "2 days"),
    _limit(timedelta(days=3), "3 days"),
    _limit(timedelta(days=5), "5 days"),
    _limit(timedelta(days=7), "7 days"),
    _limit(timedelta(days=10), "10 days"),
    _limit(timedelta(days=14), "14 days"),
)
DEFAULT_TIME_LIMIT = timedelta(days=3)


def time_limit_label(delta: timedelta) -> str:
    """The player's words for a per-move limit, e.g. "3 days".

    >>> time_limit_label(timedelta(hours=12))
    '12 hours'
    """
    for value, label in TIME_LIMITS:
        if value == delta:
            return label
    return str(delta)


class Challenge(models.Model):
    """An invitation to play: the challenger (Black in the game) names an opponent and the rules."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    match_length = models.PositiveSmallIntegerField(default=0, help_text="0 for a single game")
    time_limit = models.DurationField(help_text="per move")
    rated = models.BooleanField(default=True)
    jacoby = models.BooleanField(default=False)
    beavers = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    stake = models.PositiveIntegerField(default=0, help_text="money game: points per point won")
    message = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    game = models.ForeignKey("Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = (
            models.Index(fields=["challenged", "status"], name="challenge_to_status"),
            models.Index(fields=["challenger", "status"], name="challenge_from_status"),
        )

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.challenged} to {self.variant} ({self.status})"

    @property
    def variant_name(self) -> str:
        return find_variant(self.variant).name

    @property
    def time_limit_label(self) -> str:
        return time_limit_label(self.time_limit)


class Game(models.Model):
    """One game or match between two players, with a snapshot of its replayed state."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    match_length = models.PositiveSmallIntegerField(default=0, help_text="0 for a single game")
    jacoby = models.BooleanField(default=False)
    beavers = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    stake = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    time_limit = models.DurationField(help_text="per move")
    black = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    white = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    action_count = models.PositiveIntegerField(default=0, help_text="number of the last action")

    # The snapshot: the replayed state, rewritten in the transaction that appends each action.
    phase = models.CharField(max_length=20, blank=True)
    turn = models.PositiveSmallIntegerField(default=0)
    position_id = models.CharField(max_length=20, blank=True, help_text="from the turn's side")
    match_id = models.CharField(max_length=20, blank=True)
    dice = models.CharField(max_length=2, blank=True)
    cube_value = models.PositiveIntegerField(default=1)
    cube_owner = models.PositiveSmallIntegerField(null=True, blank=True)
    score_black = models.PositiveSmallIntegerField(default=0)
    score_white = models.PositiveSmallIntegerField(default=0)
    game_number = models.PositiveSmallIntegerField(default=1)
    crawford = models.BooleanField(default=False)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    deadline = models.DateTimeField(null=True, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    result = models.CharField(max_length=200, blank=True)

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = (
            # "Games where I must act", oldest deadline first: the header count and Next game.
            models.Index(fields=["actor", "status", "deadline"], name="game_actor_status_deadline"),
            models.Index(fields=["black", "status"], name="game_black_status"),
            models.Index(fields=["white", "status"], name="game_white_status"),
            # The deadline sweep.
            models.Index(fields=["status", "deadline"], name="game_status_deadline"),
        )

    def __str__(self) -> str:
        return f"#{self.pk} {self.variant} {self.black} v {self.white}"

    @property
    def variant_name(self) -> str:
        return find_variant(self.variant).name

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def rules(self) -> MatchRules:
        from backgammon.engine.game import MatchRules

        return MatchRules(
            variant=find_variant(self.variant),
            match_length=self.match_length,
            jacoby=self.jacoby,
            beavers=self.beavers,
            automatic_doubles=self.automatic_doubles,
        )

    def state(self) -> MatchState:
        """The engine's replay of the action log, computed once per instance."""
        cached: MatchState | None = getattr(self, "_state_cache", None)
        if cached is None:
            from backgammon.engine.actions import Action
            from backgammon.engine.match import replay

            logged = self.actions.order_by("number").values_list("data", flat=True)
            cached = replay(self.rules(), [Action.from_dict(data) for data in logged])
            self._state_cache = cached
        return cached

    def side_of(self, user: AbstractBaseUser | Any) -> Side | None:
        """The side this user plays, or None for anyone else (including anonymous users)."""
        user_id = getattr(user, "pk", None)
        if user_id is None:
            return None
        if user_id == self.black_id:
            return Side.BLACK
        if user_id == self.white_id:
            return Side.WHITE
        return None

    def player(self, side: Side) -> Any:
        return self.black if side is Side.BLACK else self.white

    def opponent_of(self, user: Any) -> Any:
        side = self.side_of(user)
        if side is None:
            raise ValueError(f"{user} does not play in game {self.pk}")
        return self.player(side.other)

    @property
    def time_limit_label(self) -> str:
        return time_limit_label(self.time_limit)

    def score_text(self) -> str:
        """"2-1 (to 5)" for a match, "" for a single game."""
        if not self.match_length:
            return ""
        return f"{self.score_black}-{self.score_white} (to {self.match_length})"


class GameAction(models.Model):
    """One entry of a game's append-only log: an engine Action, numbered from 1 within the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    side = models.PositiveSmallIntegerField(null=True, blank=True, help_text="empty for the system")
    kind = models.CharField(max_length=20)
    data = models.JSONField(help_text="Action.to_dict()")
    notation = models.CharField(max_length=100, blank=True)
    message = models.CharField(max_length=500, blank=True)
    # For a roll this is the instant whose entry of the keyed dice table gave the dice (audits).
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("game", "number")
        constraints = (
            models.UniqueConstraint(fields=["game", "number"], name="game_action_unique_number"),
        )

    def __str__(self) -> str:
        return f"#{self.game_id}.{self.number} {self.kind} {self.notation}".rstrip()


class StaffAction(models.Model):
    """A staff decision outside the rules (abort or adjudicate), with the reason given."""

    class Kind(models.TextChoices):
        ABORT = "abort"
        ADJUDICATE = "adjudicate"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="staff_actions")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.kind} of game #{self.game_id} by {self.staff}"
