"""An app worker's heap, set aside from Python's cyclic garbage collector once it is loaded
(deploy/gunicorn.conf.py calls ``settle_heap`` in each worker).

A worker holds some 200,000 objects that live as long as it does: the modules, Django's and
Jinja's compiled templates, the URL resolvers. Every full collection walked them all, and under
load a full collection came every 8-10 s: the page threads' objects in flight outlive two young
collections, reach the oldest generation and make it look grown by a quarter. On the 2-core
machine (`make bench-web`'s live scenario) each took 150-310 ms, 22-26 of them per worker in a
run, and for each every request of that worker waited. ``gc.freeze()`` moves what exists into a
generation the collector never walks: once at start, and again once the first requests have
imported and compiled what they use (70,000 objects more). A young collection every 7,000 new
objects rather than 700 lets most of a request's objects die by their counts before any
collection sees them, so fewer are promoted.

Measured with ``gc.callbacks`` in the bench's workers under the live scenario: the collector
took about 38 ms of each second of a worker's (full collections 17, young ones 21) and about 12
with both (3 full collections a run, at most 81 ms; young ones every 7,000 objects take longer
each, up to 50-70 ms, but a tenth as often). That is some 5% of a worker's CPU, and no more
pauses of 150-310 ms. Whole runs of the scenario vary more than that from hour to hour on this
shared machine (±15% in CPU a request), so their figures are only indicative: at three quarters
of the live scenario (150 live matches beside 450 correspondence players, 98 requests a second),
back to back, 7.8 ms of CPU a request against 9.4 without, and the rolls' and moves' p95 90-99
ms against 140-150 (but their p99 420-690 against 260-280); the freeze alone, with young
collections every 700 objects, 10.1 ms and 190 ms in a later hour.

What is frozen is never collected as a cycle (objects freed by their reference counts are freed
as ever): the second freeze follows a full collection, so only cycles in flight at that moment
could be kept, once.
"""

from __future__ import annotations

import gc
import threading

__all__ = ["YOUNG_THRESHOLD", "settle_heap"]

YOUNG_THRESHOLD = 7000
"""New objects between young collections (Python's default: 700)."""


def _freeze() -> None:
    gc.collect()
    gc.freeze()


def settle_heap(*, again_after_s: float) -> threading.Timer:
    """Freeze what the worker has loaded now and, ``again_after_s`` seconds later, what its first
    requests loaded; the timer that will do the second (a daemon thread, started)."""
    _freeze()
    _generation0, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
    timer = threading.Timer(again_after_s, _freeze)
    timer.daemon = True
    timer.start()
    return timer
