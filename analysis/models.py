"""One analysis per game (match): queued, running, done or failed, with its progress and results."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon.models import Game

__all__ = ["GameAnalysis"]


class GameAnalysis(models.Model):
    """GNU Backgammon's analysis of a finished game, filled in by the worker's task.

    ``results`` is ``analyse.analyse_match``'s output: a verdict per logged action (in log order)
    and a summary per player. One row per game, so asking twice queues one analysis.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0, help_text="actions analysed so far")
    total = models.PositiveIntegerField(default=0, help_text="actions to analyse")
    results = models.JSONField(default=dict, blank=True)
    failure = models.CharField(max_length=500, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="last sign of life of the worker running it"
    )

    class Meta:
        verbose_name_plural = "game analyses"

    def __str__(self) -> str:
        return f"Analysis of game #{self.game_id} ({self.status})"

    @property
    def percent(self) -> int:
        return 100 * self.done // self.total if self.total else 0
