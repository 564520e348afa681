"""The vacation cap a ladder or a tournament puts on its games (read by
tournaments.vacation_policy, which backgammon's clocks ask)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator
from django.db import models

__all__ = ["MAX_VACATION_CAP_DAYS", "vacation_days_cap_field"]

MAX_VACATION_CAP_DAYS = 365


def vacation_days_cap_field() -> models.PositiveSmallIntegerField:  # type: ignore[type-arg]
    return models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(MAX_VACATION_CAP_DAYS)],
        help_text="empty: players' vacations pause its games fully; 0: not at all; "
        "N: at most the first N days of each vacation",
    )
