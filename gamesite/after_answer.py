"""Work a page request leaves for after its answer has gone out.

What a move tells others (the opponent's pushed region, both players' menu counts, a bot's turn,
a your-turn mail) is drawn and queued once the mover's answer has been sent: the answer does not
wait for it (about 3 of a move's 9 ms). The app servers' page threads run each request through
``answering_pages`` (gamesite/asgi.py); the WSGI server closes an answer after sending its last
byte (a2wsgi does, as PEP 3333 asks), and the work left with ``after_answer`` runs then, in the
same thread, before Django's own close (which ends the request: its database connection, its
kept answers). Anywhere else (the task worker, a management command, the suite's test client)
``after_answer`` does the work at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from gamesite.closing import ClosingWith

__all__ = ["after_answer", "answering_pages", "in_a_page_thread"]

log = logging.getLogger(__name__)

_thread = threading.local()


def answering_pages(wsgi_app: Any) -> Any:
    """``wsgi_app``, doing what its requests leave with ``after_answer`` once each answer is sent."""

    def answering(environ: Any, start_response: Any) -> Any:
        _thread.page = True
        _thread.left = []
        try:
            answer = wsgi_app(environ, start_response)
        except BaseException:
            _do_what_was_left()
            raise
        return ClosingWith(answer, first=_do_what_was_left)

    return answering


def in_a_page_thread() -> bool:
    """Whether this thread answers pages (its answers never wait for what it publishes)."""
    return bool(getattr(_thread, "page", False))


def after_answer(work: Callable[[], None]) -> None:
    """``work()`` once this page request's answer has gone out; at once outside a page request."""
    left = getattr(_thread, "left", None)
    if left is None:
        work()
    else:
        left.append(work)


def _do_what_was_left() -> None:
    left, _thread.left = getattr(_thread, "left", None) or [], None
    for work in left:  # what a piece of work leaves in turn is done at once
        try:
            work()
        except Exception:  # the answer is gone: a failure can only be logged
            log.exception("work left for after the answer failed")
