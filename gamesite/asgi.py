"""ASGI entry point: ``uvicorn gamesite.asgi:application`` (`make run`), and in production gunicorn
with uvicorn workers (deploy/gunicorn.conf.py).

Every request goes through Django's WSGI handler on the process's page threads (a2wsgi's door
with fewer hand-overs to the event loop, gamesite/page_threads.py; ``WEB_THREADS``, default 3).
The views are all synchronous; Django's ASGI handler would run each one's middleware and view
through sync_to_async, paying the hand-overs between the event loop and that thread (measured on
a 2-core machine: a poll 12 ms that way, 4 ms this way). The live-update stream (``/live/``,
backgammon/views/live.py) is checked there too, and then held open on the event loop for as
long as its page is open, by a coroutine of its own: through Django's ASGI handler each open
stream kept 359 objects, a thread and 115 KB alive.

Three page threads per process, one process per core (deploy/gunicorn.conf.py). The work is
Python, so threads of one process take turns holding the interpreter, and a thread that wants it
back waits up to its switch interval (Python's 5 ms; the app workers set 1 ms,
deploy/gunicorn.conf.py). With the 5 ms, 4 processes of 4 threads held no level of polling
players (a roll's p95 240 ms at 50). But one thread alone waits idle through every query and
Redis round trip, and anything slow (a log-in's password hashing: 250 ms) holds up every
request queued behind it. With 2 processes at 600 `make bench-web` players, twice back to back:
2 threads each gave a p95 of 160 and 280 ms, 1 thread 350 and 370 ms, for the same cores.
With the live scenario's turns (100 live matches beside 300 correspondence players, the streams
on a process of their own, in a slow hour: the fixed loop 77-82 ms at the start), 3 threads gave
the rolls and moves a p95 of 250-290 ms against 380-400 and 420-470 for 2 (runs before and
after), the wait for a page thread 180-210 against 340-410, each request's own time in the app
76-93 against 57-70: a short request no longer waits for a long one to end, it takes turns with
it. 4 threads, in a slower moment yet, gave 840-920.
"""

import asyncio
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

from django.conf import settings
from django.core.wsgi import get_wsgi_application

django_pages = get_wsgi_application()  # sets Django up, so the modules below can be imported

from backgammon.live import remember_server_loop  # here: it needs Django set up
from gamesite.after_answer import answering_pages
from gamesite.kept import answers_once_per_request
from gamesite.page_threads import PageThreads

# What a page thread runs: Django's WSGI handler, what it tells others told after its answer.
page_door = answering_pages(answers_once_per_request(django_pages))
pages = PageThreads(page_door, workers=settings.WEB_THREADS)


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    # The pages' threads publish live updates on this loop (backgammon/live.py).
    remember_server_loop(asyncio.get_running_loop())
    await pages(scope, receive, send)
