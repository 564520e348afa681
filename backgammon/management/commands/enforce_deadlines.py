"""Sweep every active game past its deadline and time out the player who should have acted."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from backgammon.services import game_enforce_deadline, overdue_games


class Command(BaseCommand):
    help = (
        "Time out the player to act in every active game whose move deadline has passed. "
        "The scheduled deadline tasks normally do this; the sweep is the operators' safety net."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        applied = 0
        for game_id, action_number in overdue_games().values_list("id", "action_count"):
            # Each game is re-checked under its own lock: a move that lands meanwhile wins.
            if game_enforce_deadline(game_id=game_id, action_number=action_number):
                applied += 1
        self.stdout.write(f"{applied} game(s) timed out")
