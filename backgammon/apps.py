from django.apps import AppConfig


class BackgammonConfig(AppConfig):
    """The game app: models, services and pages around the pure rules engine."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "backgammon"
    verbose_name = "Backgammon"

    def ready(self) -> None:
        from accounts.vacations import vacations_changed
        from backgammon import live
        from backgammon.services.more_time import games_reclock_for_vacation

        vacations_changed.connect(games_reclock_for_vacation, dispatch_uid="backgammon-vacations")

        from backgammon.signals import worker_tick

        worker_tick.connect(_auto_match_tick, dispatch_uid="backgammon-auto-match")
        live.connect()

        from backgammon.task_pruning import prune_tick

        worker_tick.connect(prune_tick, dispatch_uid="backgammon-task-pruning")

        from backgammon.models import Game, GameNote
        from backgammon.services.notes import note_key
        from backgammon.services.queries import forget_awaiting_counts
        from gamesite.kept import forget_when_changed

        forget_when_changed(Game, forget_awaiting_counts, "awaiting-counts")
        forget_when_changed(GameNote, lambda note: [note_key(note.game_id, note.author_id)], "game-notes")


def _auto_match_tick(**_: object) -> None:
    # Pairs what a request's own pairing skipped (another run held the requests' locks then).
    from backgammon.services.auto_match import auto_match_pair

    auto_match_pair()
