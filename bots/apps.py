from django.apps import AppConfig


class BotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = "Computer opponents"

    def ready(self) -> None:
        from bots import receivers

        receivers.connect()
