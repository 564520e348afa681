"""ASGI entry point: ``uvicorn gamesite.asgi:application`` (`make run`), and in production gunicorn
with uvicorn workers (deploy/gunicorn.conf.py).

One Django, two doors:
- the live-update stream (``/live/``, backgammon/views/live.py) goes through Django's ASGI
  handler: an async view that holds its connection open, idle, for as long as the page is open;
- every other request goes through Django's WSGI handler on a small pool of threads (a2wsgi).
  Those views are all synchronous; Django's ASGI handler would run each one's middleware and
  view through sync_to_async on one thread per process, so a request waiting on the database
  held up every other, and each paid the hand-overs between the event loop and that thread
  (measured on a 2-core machine: a poll 12 ms that way, 4 ms this way, with the pool).
"""

import asyncio
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.urls import reverse

from gamesite.env import env_int

streams = get_asgi_application()  # sets Django up, so the URLconf can be read below
pages = WSGIMiddleware(get_wsgi_application(), workers=env_int("WEB_THREADS", 4))
LIVE_PATH = reverse("backgammon:live_events")

from backgammon.live import remember_server_loop  # here: it needs Django set up


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    # The pages' threads publish live updates on this loop (backgammon/live.py).
    remember_server_loop(asyncio.get_running_loop())
    if scope["type"] == "http" and scope["path"] != LIVE_PATH:
        await pages(scope, receive, send)
    else:
        await streams(scope, receive, send)
