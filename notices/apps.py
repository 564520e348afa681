from django.apps import AppConfig


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = "Notices (e-mail and push) and news"

    def ready(self) -> None:
        from notices import receivers
        from notices.push import subscriptions  # noqa: F401  (forgets its kept answer on changes)

        receivers.connect()
