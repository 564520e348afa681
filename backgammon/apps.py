from django.apps import AppConfig


class BackgammonConfig(AppConfig):
    """The game app: models, services and pages around the pure rules engine."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "backgammon"
    verbose_name = "Backgammon"
