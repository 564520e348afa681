from typing import Any

from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Analysis and replay"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A finished game's page shows its analysis panel; backgammon never imports this app.
        from analysis.views import panel_context
        from backgammon.game_reads import register_finished_game_reader
        from backgammon.signals import worker_tick

        register_finished_game_reader("analysis", panel_context)

        worker_tick.connect(_fail_stale_tick, dispatch_uid="analysis-fail-stale")


def _fail_stale_tick(**_: Any) -> None:
    # An analysis whose worker was killed would stay "running" for ever: every worker's tick
    # marks it failed once its heartbeat is ANALYSIS_STALE_SECONDS old (the page offers a retry).
    from analysis.services import analysis_fail_stale

    analysis_fail_stale()
