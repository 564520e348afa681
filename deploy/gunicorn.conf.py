"""gunicorn's configuration for Gammon Turn:
`gunicorn -c deploy/gunicorn.conf.py gamesite.asgi:application`.

Every value can be set from the environment (the systemd unit's EnvironmentFile), so one file
serves every machine:

- GUNICORN_BIND: where to listen, default 127.0.0.1:8000 (nginx in front, on the same machine;
  0.0.0.0:8000 when a load balancer elsewhere connects).
- WEB_CONCURRENCY: worker processes, default one per core. The work is Python, and each
  process's event loop (its pages' live streams) is work of its own: processes beyond the cores
  only take turns. On 2 cores with 600 `make bench-web` players, 2 processes used 0.97 cores
  for a p95 of 160 ms, 4 used 1.14 for 280 ms (3: between). It was 2 per core while pages polled,
  the best then for gunicorn's sync workers.
- GUNICORN_WORKER_CLASS: "uvicorn_worker.UvicornWorker" (default: the ASGI application,
  gamesite.asgi:application, whose /live/ stream pushes updates to open pages; gunicorn keeps
  managing the processes (restarts, graceful reloads) and uvicorn serves each one), or "sync"
  with gamesite.wsgi (every page works, /live/ answers 503 and pages poll).
- GUNICORN_TIMEOUT: seconds before a stuck worker is replaced, default 30.
- GUNICORN_KEEPALIVE: seconds an idle connection stays open, default 75 (see below).
- GUNICORN_MAX_REQUESTS: requests after which a worker is replaced (a guard against slow leaks),
  default 200,000, give or take a tenth; 0 never replaces them.
- GUNICORN_SWITCH_INTERVAL_MS: Python's switch interval in each worker, default 1 (below).
- GUNICORN_HEAP_FREEZE: "1" (default) sets each worker's loaded heap aside from the garbage
  collector, at start and again GUNICORN_HEAP_FREEZE_AGAIN_S (default 60) seconds later, once
  its first requests have loaded what they use (gamesite/heap.py says why); "0" leaves Python's
  collector as it is.
- WEB_THREADS (settings, used by gamesite/asgi.py): threads per process serving the pages, default 5
  (some work while the others wait on the database or Redis, and a short request need not wait
  for a long one to end; beyond that they only take turns on the interpreter: scale with
  processes); DATABASE_POOL_SIZE (settings, default WEB_THREADS + 2) keeps that many connections
  per process: one for each page thread (they check the live streams too), two spare.

gunicorn's access log stays off: the site writes its own line per request
(gamesite/request_log.py, JSON with LOG_FORMAT=json) with the user and the request id.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from typing import Any

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", str(multiprocessing.cpu_count())))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "uvicorn_worker.UvicornWorker")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30  # a restart lets running requests finish (a move is one transaction anyway)
# Seconds an idle connection stays open. Longer than the proxy keeps its idle connections to the
# app server (nginx's upstream keepalive_timeout, 60 s in deploy/nginx; a cloud balancer's idle
# timeout, 60 s on AWS): otherwise the proxy sends a request down a connection the server is just
# closing, and nginx answers that request 502 rather than send a move (a POST) twice. (For the
# app server's CPU it made no difference in `make bench-web`, whose players connect directly.)
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))
# A worker is replaced after this many requests (with jitter, so not all at once): a slow leak
# in any library never grows without bound. Not often: a replaced worker drops the live streams
# it held (each page then reconnects and looks again) and starts with cold caches; at 5,000 a
# busy 2-core machine (400 requests a second over 4 workers) replaced one every 12 s.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "200000"))
max_requests_jitter = max_requests // 10
accesslog = None
errorlog = "-"  # standard error: systemd's journal
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# Temporary files of the heartbeat in memory, not on a disk that may stall.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# How long a thread that wants the interpreter waits for the one holding it to let go (Python's
# switch interval, 5 ms unless told). In a worker, a page thread whose query or Redis reply has
# come back waits that long while the other page thread or the event loop computes, once for
# each of a move's dozen round trips. At 700 `make bench-web` players, back to back in one hour:
# 5 ms gave a roll's p95 63 ms and a move's 62 (pushes 78), 1 ms 48 and 43 (pushes 54-59), the
# wait for a page thread 29-34 ms against 18-22, and the app servers used 0.72 cores against 0.67.
# And 3 ms did worse than 1 too: at two fifths of the live scenario, alternated twice in one hour (the
# fixed loop 115-130 ms), 14.7 and 14.6 ms of app CPU a request against 13.7 and 13.2, the rolls'
# and moves' p95 110-130 and 97-110 ms against 78-88 and 75-86.
_switch_text = os.environ.get("GUNICORN_SWITCH_INTERVAL_MS", "1")
try:
    switch_interval_ms = float(_switch_text)
except ValueError:
    switch_interval_ms = 0.0
if not 0 < switch_interval_ms <= 100:
    raise ValueError(f"GUNICORN_SWITCH_INTERVAL_MS must be above 0 and at most 100, not {_switch_text!r}")
_freeze_text = os.environ.get("GUNICORN_HEAP_FREEZE", "1")
if _freeze_text not in ("0", "1"):
    raise ValueError(f"GUNICORN_HEAP_FREEZE must be 0 or 1, not {_freeze_text!r}")
heap_freeze = _freeze_text == "1"
_again_text = os.environ.get("GUNICORN_HEAP_FREEZE_AGAIN_S", "60")
try:
    heap_freeze_again_s = float(_again_text)
except ValueError:
    heap_freeze_again_s = -1.0
if not 0 <= heap_freeze_again_s <= 86400:
    raise ValueError(f"GUNICORN_HEAP_FREEZE_AGAIN_S must be seconds from 0 to 86400, not {_again_text!r}")


def post_worker_init(worker: Any) -> None:
    """In each worker once it has loaded the application (gunicorn's hook)."""
    sys.setswitchinterval(switch_interval_ms / 1000)
    if heap_freeze:
        from gamesite.heap import settle_heap

        settle_heap(again_after_s=heap_freeze_again_s)
