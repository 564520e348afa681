"""Sweep every active game past its deadline and time out the player who should have acted."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from backgammon.tasks import sweep_deadlines


class Command(BaseCommand):
    help = (
        "Time out the player to act in every active game whose move deadline has passed. "
        "The worker (manage.py db_worker) runs this sweep by itself every "
        "DEADLINE_SWEEP_SECONDS; the command is for operators."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{sweep_deadlines()} game(s) timed out")
