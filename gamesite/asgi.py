"""ASGI entry point for uvicorn: ``uvicorn gamesite.asgi:application``."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

application = get_asgi_application()
