"""One table: the live updates a process without pages to serve (the task worker) published,
which the app server's streams pass on to the pages (layer.py). Rows live a minute."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class LiveEvent(models.Model):
    group = models.CharField(max_length=200)
    message = models.TextField(help_text="The Channels message, as JSON")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = "live event"

    def __str__(self) -> str:
        return f"{self.group} #{self.pk}"
