"""Work a page request leaves for after its answer (gamesite/after_answer.py): done when the
server closes the answer, in order, whatever fails; at once outside a page request."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from gamesite.after_answer import after_answer, answering_pages, in_a_page_thread


def _in_a_page_thread(call: Callable[[], Any]) -> Any:
    # A thread of its own: answering_pages marks the thread it runs in as a page thread.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(call).result(5)


def test_outside_a_page_request_the_work_is_done_at_once() -> None:
    done: list[str] = []
    after_answer(lambda: done.append("now"))
    assert done == ["now"]


def test_a_page_requests_work_is_done_when_the_server_closes_its_answer(caplog: pytest.LogCaptureFixture) -> None:
    done: list[str] = []

    def failing() -> None:
        raise RuntimeError("Redis went away")

    def page(environ: object, start_response: object) -> list[bytes]:
        after_answer(lambda: done.append("first"))
        after_answer(failing)
        after_answer(lambda: after_answer(lambda: done.append("left by the work: at once")))
        after_answer(lambda: done.append("last"))
        done.append("answered")
        return [b"the answer"]

    def serve() -> tuple[list[bytes], list[str], bool]:
        answer = answering_pages(page)({}, None)
        body = list(answer)
        before_close = list(done)
        answer.close()
        return body, before_close, in_a_page_thread()

    body, before_close, page_thread = _in_a_page_thread(serve)
    assert body == [b"the answer"] and page_thread
    assert before_close == ["answered"]
    assert done == ["answered", "first", "left by the work: at once", "last"]
    assert "work left for after the answer failed" in caplog.text and "Redis went away" in caplog.text


def test_what_a_failed_request_left_is_still_done() -> None:
    done: list[str] = []

    def page(environ: object, start_response: object) -> list[bytes]:
        after_answer(lambda: done.append("the move's news"))  # committed before the failure
        raise RuntimeError("the view broke after the commit")

    def serve() -> None:
        with pytest.raises(RuntimeError):
            answering_pages(page)({}, None)

    _in_a_page_thread(serve)
    assert done == ["the move's news"]
