from django.apps import AppConfig


class MessagingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "messaging"
    verbose_name = "Messages"

    def ready(self) -> None:
        from messaging import receivers

        receivers.connect()
