"""Submissions racing each other: ``race(count, attempt)`` runs ``attempt`` in ``count`` threads
released together and returns what each one came to, so a test can see that only one got through.

Each thread has its own database connection (closed when it ends), as two requests would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection

__all__ = ["race"]


def race(count: int, attempt: Callable[[], str]) -> list[str]:
    """Run ``attempt`` in ``count`` threads at once; its outcomes, sorted ignoring case."""
    barrier = threading.Barrier(count, timeout=20)
    outcomes: list[str] = []
    lock = threading.Lock()

    def run() -> None:
        try:
            barrier.wait()
            outcome = attempt()
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(outcomes) == count, "a racing thread did not finish"
    return sorted(outcomes, key=str.lower)
