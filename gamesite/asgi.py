"""ASGI entry point: ``uvicorn gamesite.asgi:application`` (`make run`), and in production gunicorn
with uvicorn workers (deploy/gunicorn.conf.py).

One Django, two doors:
- the live-update stream (``/live/``, backgammon/views/live.py) goes through Django's ASGI
  handler: an async view that holds its connection open, idle, for as long as the page is open;
- every other request goes through Django's WSGI handler on the process's page thread (a2wsgi,
  ``WEB_THREADS``, default 1). Those views are all synchronous; Django's ASGI handler would run
  each one's middleware and view through sync_to_async, paying the hand-overs between the event
  loop and that thread (measured on a 2-core machine: a poll 12 ms that way, 4 ms this way).

One page thread per process, and more processes (deploy/gunicorn.conf.py) rather than threads:
the work is Python, so threads of one process only take turns holding the interpreter, and a
thread that wants it back waits up to its switch interval (5 ms) each time. `make bench-web`
with 4 processes: 4 threads each held no level of players (a roll's p95 240 ms at 50 players),
1 thread each held 100 (p95 under 60 ms) and served the trivial view 850 times a second, not 330.
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
LIVE_PATH = reverse("backgammon:live_events")

from backgammon.live import answers_pages, remember_server_loop  # here: it needs Django set up

pages = WSGIMiddleware(answers_pages(get_wsgi_application()), workers=env_int("WEB_THREADS", 1))


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    # The pages' threads publish live updates on this loop (backgammon/live.py).
    remember_server_loop(asyncio.get_running_loop())
    if scope["type"] == "http" and scope["path"] != LIVE_PATH:
        await pages(scope, receive, send)
    else:
        await streams(scope, receive, send)
