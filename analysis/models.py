"""One analysis per game (match): queued, running, done or failed, with its progress and results."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon.models import Game

__all__ = ["GameAnalysis", "PositionAnalysis"]


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


class PositionAnalysis(models.Model):
    """gnubg's answer for one position of the analysis board at one depth, filled in by the
    worker and kept: whoever asks again for the same position (the same XGID) reads this row.

    ``result`` is ``position_board.analyse_position``'s output: the ranked plays for the roll and
    the cube decision before it. ``requested_from`` names who asked first (``user:<id>`` or
    ``address:<ip>``), for the per-player limit of new analyses.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    xgid = models.CharField(max_length=80, help_text="the position as the site writes its XGID")
    plies = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(default=dict, blank=True)
    failure = models.CharField(max_length=500, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_from = models.CharField(max_length=80)
    requested_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "position analyses"
        constraints = (models.UniqueConstraint(fields=["xgid", "plies"], name="one_analysis_per_position_and_depth"),)
        indexes = (models.Index(fields=["requested_from", "requested_at"], name="position_asked_by_when"),)

    def __str__(self) -> str:
        return f"{self.xgid} at {self.plies}-ply ({self.status})"
