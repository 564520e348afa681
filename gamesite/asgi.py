"""ASGI entry point: ``uvicorn gamesite.asgi:application`` (`make run`), and in production gunicorn
with uvicorn workers (deploy/gunicorn.conf.py).

Every request goes through Django's WSGI handler on the process's page threads (a2wsgi's door
with fewer hand-overs to the event loop, gamesite/page_threads.py; ``WEB_THREADS``, default 5).
The views are all synchronous; Django's ASGI handler would run each one's middleware and view
through sync_to_async, paying the hand-overs between the event loop and that thread (measured on
a 2-core machine: a poll 12 ms that way, 4 ms this way). The live-update stream (``/live/``,
backgammon/views/live.py) is checked there too, and then held open on the event loop for as
long as its page is open, by a coroutine of its own: through Django's ASGI handler each open
stream kept 359 objects, a thread and 115 KB alive.

Five page threads per process, one process per core (deploy/gunicorn.conf.py). The work is
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
it. 4 threads, in a slower moment yet, gave 840-920. Then, at that scale again with hours that
changed minute by minute (the fixed loop 58-104 ms), twice 3 threads then 5 back to back: 5 gave
the rolls and moves a p95 of 220-250 and 460-470 ms against 430-490 and 600-610 for 3, the wait
for a page thread 106-134 and 310 against 355-390 and 520, each request's own time in the app a
little longer (p95 107-160 against 87-114), the pushes 250-280 and 510 against 460-500 and 640,
for the same or less CPU a request (14.5 and 17.3 ms against 14.9 and 18.4). Threads that each
spend most of a request waiting on a dozen round trips to PostgreSQL and Redis leave the
interpreter free: more of them start the next request rather than queue it. (8 threads, in the
slowest moment, 20 ms of CPU a request: 1.3 s; not told apart from the hour.)
Below saturation, at two fifths of the live scenario (every run held), three, four and five
threads alternated seven times differed by no more than the hour drifted (README, issue 31).
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
