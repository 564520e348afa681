from django.apps import AppConfig


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = "E-mail notices and news"

    def ready(self) -> None:
        from notices import receivers

        receivers.connect()
