"""WSGI entry point for gunicorn: ``gunicorn gamesite.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

from gamesite.kept import answers_once_per_request

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

application = answers_once_per_request(get_wsgi_application())
