from django.apps import AppConfig


class LiveBridgeConfig(AppConfig):
    name = "gamesite.live_bridge"
    label = "live_bridge"
    verbose_name = "Live updates without Redis"
    default_auto_field = "django.db.models.BigAutoField"
