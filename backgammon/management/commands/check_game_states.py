"""Replay the games' logs and compare with their stored snapshots; repair on request."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backgammon.models import Game
from backgammon.services.consistency import game_check_state


class Command(BaseCommand):
    help = (
        "Replay the action log of every active game (every game with --all) and compare the result "
        "with the stored state snapshot and the facts kept on each logged action. Reports each "
        "mismatch; --repair rewrites them from the replay, the log being the truth. Exits with an "
        "error while mismatches remain, so that a scheduled run is noticed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--repair", action="store_true", help="rewrite mismatched snapshots from the replay")
        parser.add_argument("--all", action="store_true", help="check finished and aborted games too")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.all() if options["all"] else Game.objects.filter(status=Game.Status.ACTIVE)
        checked = mismatched = repaired = 0
        for game_id in games.order_by("pk").values_list("pk", flat=True).iterator():
            check = game_check_state(game_id=game_id, repair=options["repair"])
            checked += 1
            if check.ok:
                continue
            mismatched += 1
            repaired += check.repaired
            verdict = "repaired" if check.repaired else ("cannot be repaired" if not check.repairable else "")
            for problem in check.problems:
                self.stdout.write(f"game #{game_id}: {problem}")
            if verdict:
                self.stdout.write(f"game #{game_id}: {verdict}")
        self.stdout.write(f"{checked} game(s) checked: {mismatched} mismatched, {repaired} repaired")
        if mismatched > repaired:
            hint = "" if options["repair"] else "; run with --repair to rewrite them from the logs"
            raise CommandError(f"{mismatched - repaired} game(s) do not match their logs{hint}")
