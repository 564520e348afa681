"""The pages' WSGI door on the event loop (gamesite/page_threads.py): an answer handed over at
once, a form's body read before the page thread starts, streamed answers and large bodies as
a2wsgi has them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from gamesite.page_threads import FINISH_ON_LOOP, PREREAD_BYTES, PageThreads
from tests.site.test_live_push import in_own_thread


def _scope(method: str = "GET", body_length: int | None = None) -> dict[str, Any]:
    headers = [(b"host", b"testserver")]
    if body_length is not None:
        headers.append((b"content-length", str(body_length).encode()))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
            "scheme": "http", "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "",
            "headers": headers, "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}


def _serve(app: Any, scope: dict[str, Any], pieces: list[bytes], events: list[str]) -> list[dict[str, Any]]:
    """Run ``app`` behind PageThreads for one request whose body comes in ``pieces``; what it sent."""
    sent: list[dict[str, Any]] = []
    waiting = list(pieces) or [b""]

    async def receive() -> dict[str, Any]:
        events.append("receive")
        body = waiting.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(waiting)}

    async def send(message: dict[str, Any]) -> None:
        events.append(f"send {message['type']}")
        sent.append(message)

    # In a thread of its own: after the browser tests, a loop still runs in this one.
    in_own_thread(lambda: asyncio.run(PageThreads(app, workers=1)(scope, receive, send)))
    return sent


def test_an_answer_goes_to_the_loop_whole_with_its_headers() -> None:
    def app(environ: Any, start_response: Any) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "text/plain"), ("X-Kind", "page")])
        return [b"the page"]

    sent = _serve(app, _scope(), [], [])
    assert sent == [
        {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain"), (b"x-kind", b"page")]},
        {"type": "http.response.body", "body": b"the page", "more_body": False},
    ]


def test_a_forms_body_is_read_before_the_page_thread_starts() -> None:
    events: list[str] = []

    def app(environ: Any, start_response: Any) -> list[bytes]:
        events.append("app")
        body = environ["wsgi.input"].read()
        start_response("200 OK", [])
        return [body.upper()]

    sent = _serve(app, _scope("POST", 11), [b"kind=", b"roll=1"], events)
    assert events[:3] == ["receive", "receive", "app"]
    assert sent[-1]["body"] == b"KIND=ROLL=1"


def test_a_large_body_is_read_as_the_app_asks_for_it() -> None:
    events: list[str] = []
    big = b"x" * (PREREAD_BYTES + 1)

    def app(environ: Any, start_response: Any) -> list[bytes]:
        events.append("app")
        length = len(environ["wsgi.input"].read())
        start_response("200 OK", [])
        return [str(length).encode()]

    sent = _serve(app, _scope("POST", len(big)), [big[:1000], big[1000:]], events)
    assert events[0] == "app" and events.count("receive") == 2
    assert sent[-1]["body"] == str(len(big)).encode()


def test_a_streamed_answer_goes_piece_by_piece_the_last_marked_and_closed_after_it() -> None:
    events: list[str] = []

    class Streamed:
        def __iter__(self) -> Iterator[bytes]:
            for piece in (b"one", b"two", b"three"):
                events.append(f"yield {piece.decode()}")
                yield piece

        def close(self) -> None:
            events.append("closed")

    def app(environ: Any, start_response: Any) -> Streamed:
        start_response("200 OK", [])
        return Streamed()

    sent = _serve(app, _scope(), [], events)
    assert [(m.get("body"), m.get("more_body")) for m in sent] == [
        (None, None), (b"one", True), (b"two", True), (b"three", False)]
    assert events.index("closed") > events.index("send http.response.body")
    assert events.index("yield two") < events.index("send http.response.start")  # one piece behind


def test_the_page_thread_goes_on_to_its_after_answer_work_without_waiting_for_the_loop() -> None:
    """The loop is held up (as by other requests) until the answer's closing has run: had the
    page thread waited for the loop to take its last piece, the closing would come only once the
    loop was free, after the hold's time limit."""
    import threading

    closed = threading.Event()
    held: list[bool] = []
    loops: list[asyncio.AbstractEventLoop] = []

    class Answer(list[bytes]):
        def close(self) -> None:
            closed.set()  # what gamesite/after_answer.py runs: the push of a move

    def hold_the_loop() -> None:
        held.append(closed.wait(5))

    def app(environ: Any, start_response: Any) -> list[bytes]:
        loops[0].call_soon_threadsafe(hold_the_loop)
        start_response("200 OK", [])
        return Answer([b"the page"])

    async def receive() -> dict[str, Any]:
        loops.append(asyncio.get_running_loop())
        return {"type": "http.request", "body": b"", "more_body": False}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    in_own_thread(lambda: asyncio.run(PageThreads(app, workers=1)(_scope(), receive, send)))
    assert held == [True]
    assert [m.get("body") for m in sent] == [None, b"the page"]


def test_a_last_piece_that_finds_the_send_queue_full_still_goes_last() -> None:
    """A streamed answer whose client reads slowly: the queue (one piece here) is full when the
    last piece comes, and every piece still goes in order, the end of the answer after them."""
    pieces = [b"one", b"two", b"three", b"four"]

    def app(environ: Any, start_response: Any) -> Iterator[bytes]:
        start_response("200 OK", [])
        return iter(pieces)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        await asyncio.sleep(0.02)
        sent.append(message)

    in_own_thread(lambda: asyncio.run(PageThreads(app, workers=1, send_queue_size=1)(_scope(), receive, send)))
    assert [(m.get("body"), m.get("more_body")) for m in sent] == [
        (None, None), (b"one", True), (b"two", True), (b"three", True), (b"four", False)]


def test_an_app_that_fails_before_its_answer_sends_nothing_and_the_server_answers_500() -> None:
    def app(environ: Any, start_response: Any) -> list[bytes]:
        start_response("200 OK", [])
        raise RuntimeError("broken view")

    sent: list[Any] = []
    with pytest.raises(RuntimeError, match="broken view"):
        sent = _serve(app, _scope(), [], [])
    assert sent == []


def test_an_answer_left_to_the_loop_is_finished_there_once_the_request_is_closed() -> None:
    """The live stream's way (backgammon/views/live.py): the view checks the request in a page
    thread and leaves its body to a coroutine on the loop, given the status and headers."""
    events: list[str] = []

    class Checked(list[bytes]):
        def close(self) -> None:
            events.append("request closed")

    async def finish(start: dict[str, Any], receive: Any, send: Any) -> None:
        events.append("finishing")
        await send({**start, "headers": [*start["headers"], (b"x-finished", b"on the loop")]})
        await send({"type": "http.response.body", "body": b"event: hello\n\n", "more_body": False})

    def app(environ: Any, start_response: Any) -> list[bytes]:
        environ[FINISH_ON_LOOP](finish)
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return Checked([b"never sent"])

    sent = _serve(app, _scope(), [], events)
    assert sent == [
        {"type": "http.response.start", "status": 200,
         "headers": [(b"content-type", b"text/event-stream"), (b"x-finished", b"on the loop")]},
        {"type": "http.response.body", "body": b"event: hello\n\n", "more_body": False},
    ]
    assert events.index("request closed") < events.index("finishing")


def test_an_answer_left_to_the_loop_is_finished_even_when_the_app_then_fails() -> None:
    """What the view took for its finisher (a stream's groups, its marks) is always let go of."""
    given: list[dict[str, Any]] = []

    async def finish(start: dict[str, Any], receive: Any, send: Any) -> None:
        given.append(start)

    def app(environ: Any, start_response: Any) -> list[bytes]:
        environ[FINISH_ON_LOOP](finish)
        raise RuntimeError("broken middleware")

    with pytest.raises(RuntimeError, match="broken middleware"):
        _serve(app, _scope(), [], [])
    assert [start["status"] for start in given] == [500]


def test_a_page_threads_requests_share_its_cache_backend() -> None:
    """Django keeps its cache backends (and their Redis clients) in context variables: each page
    thread runs its requests in one context of its own, so they are built once per thread, not
    once per request."""
    from django.core.cache import caches

    backends: list[int] = []

    def app(environ: Any, start_response: Any) -> list[bytes]:
        backends.append(id(caches["default"]))
        start_response("200 OK", [])
        return [b""]

    async def two_requests() -> None:
        threads = PageThreads(app, workers=1)

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            pass

        for _ in range(2):
            await threads(_scope(), receive, send)

    in_own_thread(lambda: asyncio.run(two_requests()))
    assert len(backends) == 2 and backends[0] == backends[1]


def test_the_app_is_told_when_its_request_arrived_before_it_waited_for_a_thread() -> None:
    import time

    from gamesite.page_threads import ARRIVED

    seen: list[float] = []

    def app(environ: Any, start_response: Any) -> list[bytes]:
        seen.extend([environ[ARRIVED], time.perf_counter()])
        start_response("200 OK", [])
        return [b""]

    before = time.perf_counter()
    _serve(app, _scope(), [], [])
    arrived, started = seen
    assert before <= arrived <= started
