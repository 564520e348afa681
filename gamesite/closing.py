"""A WSGI answer with work of its own at its closing: the WSGI server closes an answer after
sending its last byte (PEP 3333; a2wsgi does), so what is done then no longer holds up the
answer. Used by gamesite/after_answer.py and gamesite/kept.py around the app servers' pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["ClosingWith"]


class ClosingWith:
    """``answer``, whose closing does ``first()``, then the answer's own close, then ``last()``,
    each whatever the one before raised."""

    def __init__(self, answer: Any, *, first: Callable[[], None] = lambda: None,
                 last: Callable[[], None] = lambda: None) -> None:
        self._answer, self._first, self._last = answer, first, last

    def __iter__(self) -> Any:
        return iter(self._answer)

    def close(self) -> None:
        try:
            self._first()
        finally:
            try:
                close = getattr(self._answer, "close", None)
                if close is not None:
                    close()
            finally:
                self._last()
