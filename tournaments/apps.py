from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Competition"

    def ready(self) -> None:
        # Each area (ratings, ladders, tournaments) connects its receivers of backgammon's
        # signals (match_finished above all) here; backgammon never imports this app.
        from tournaments import receivers

        receivers.connect()
