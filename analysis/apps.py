from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Analysis and replay"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A finished game's page shows its analysis panel; backgammon never imports this app.
        from analysis.views import panel_context
        from backgammon.game_reads import register_finished_game_reader

        register_finished_game_reader("analysis", panel_context)
