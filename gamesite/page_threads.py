"""The pages' WSGI door inside the ASGI application (gamesite/asgi.py): a2wsgi's, with fewer
hand-overs between a page thread and the event loop.

a2wsgi's responder hands the loop each piece of an answer and waits for it: the status and
headers, then the body, then an empty last piece, and (for a form) the request's body is fetched
from the loop the same way when Django reads it. Each hand-over waits for the loop thread to
take the interpreter and then for the page thread to take it back, up to Python's switch interval
(5 ms) each way while another thread computes: under load most of a move's time outside Django.

Here a form's body (up to PREREAD_BYTES, with its length given) is read on the loop before the
page thread starts, and an answer goes to the loop in one hand-over: the status and headers with
the first piece of the body, and the last piece marked as the last (a streamed answer, such as a
static file, still goes piece by piece, each as it comes), and the page thread does not wait
for the loop to take the last piece. What a2wsgi does otherwise (the threads, the environ,
closing the answer after its last piece) is unchanged.

A view may also leave the rest of its answer to the event loop (``FINISH_ON_LOOP``): the live
stream checks its request in a page thread like any page, then holds its connection open on the
loop with nothing of Django's request kept alive (backgammon/views/live.py).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from a2wsgi.wsgi import Body, WSGIMiddleware, WSGIResponder, build_environ

__all__ = ["ARRIVED", "FINISH_ON_LOOP", "PREREAD_BYTES", "Finisher", "PageThreads"]

PREREAD_BYTES = 1 << 20
"""Request bodies up to this size are read before the page thread starts (forms, API calls);
larger ones (an upload) are read as Django asks for them."""

Finisher = Callable[[dict[str, Any], Any, Any], Awaitable[None]]
"""``finish(start, receive, send)``: sends the whole answer itself, ``start`` being the status and
headers Django gave (the ASGI ``http.response.start`` message, not yet sent)."""

ARRIVED = "gamesite.arrived"
"""The environ key (``request.META``) of the moment the request reached the application
(``time.perf_counter()``), before it waited for a page thread: gamesite/request_log.py tells the
wait apart from Django's own time."""

FINISH_ON_LOOP = "gamesite.finish_on_loop"
"""The environ key (``request.META`` in a view) of a callable taking a ``Finisher``: once Django is
done with the request (its answer closed, its thread free for the next), the door runs the
finisher on the event loop in place of sending the answer's body, and the finisher always runs,
so it can let go of what the view took for it. Absent under any other server."""


class PageThreads(WSGIMiddleware):
    """a2wsgi's WSGIMiddleware answering through ``_Responder``."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await _Responder(self.app, self.executor, self.send_queue_size)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


class _Responder(WSGIResponder):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._start: dict[str, Any] | None = None
        self._finishers: list[Finisher] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        arrived = time.perf_counter()
        body = Body(self.loop, receive)
        if _length(scope) <= PREREAD_BYTES:
            await _read_whole(body, receive)
        environ = build_environ(scope, body)
        environ[FINISH_ON_LOOP] = self._finishers.append
        environ[ARRIVED] = arrived
        sender = self.loop.create_task(self.sender(send))
        try:
            await self.loop.run_in_executor(self.executor, _in_the_threads_context, self.wsgi, environ,
                                            self.start_response)
            await self.send_queue.put(None)
            await sender
            if self.exc_info is not None:
                raise self.exc_info[0].with_traceback(self.exc_info[1], self.exc_info[2])
        finally:
            if not sender.done():
                sender.cancel()
            if self._finishers:
                await self._finishers[0](self._start or _FAILED, receive, send)

    def start_response(self, status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        """Kept until the body's first piece goes (a2wsgi sends it at once, and waits)."""
        self.exc_info = exc_info
        if not self.response_started:
            self.response_started = True
            headers = [(name.strip().encode("latin1").lower(), value.strip().encode("latin1"))
                       for name, value in response_headers]
            self._start = {"type": "http.response.start", "status": int(status.split(" ", 1)[0]), "headers": headers}
        return lambda chunk: self._hand_over(chunk, last=False)

    def wsgi(self, environ: Any, start_response: Any) -> None:
        iterable: Iterable[bytes] = self.app(environ, start_response)
        try:
            if self._finishers:  # the finisher sends the body, on the loop
                return
            held: bytes | None = None  # one piece behind, so the last is known as the last
            for chunk in iterable:
                if held is not None:
                    self._hand_over(held, last=False)
                held = chunk
            self._hand_over(held or b"", last=True)
        finally:
            getattr(iterable, "close", lambda: None)()

    def _hand_over(self, chunk: bytes, *, last: bool) -> None:
        """A piece of the answer to the loop. The page thread waits for the loop to take a piece
        that more follow (a streamed answer: the queue's bound holds it back), not the last one:
        it goes on at once to what the request left for after its answer (the push of a move,
        gamesite/after_answer.py) while the loop sends it, rather than sleeping until the loop
        has run and then waking again (a sleep and a wake of the thread per answer)."""
        messages = [] if self._start is None else [self._start]
        self._start = None
        messages.append({"type": "http.response.body", "body": chunk, "more_body": not last})

        async def put_all() -> None:
            for message in messages:
                await self.send_queue.put(message)

        if last:
            self.loop.call_soon_threadsafe(self._queue_last, messages, put_all)
        else:
            asyncio.run_coroutine_threadsafe(put_all(), loop=self.loop).result()

    def _queue_last(self, messages: list[dict[str, Any]], put_all: Callable[[], Awaitable[None]]) -> None:
        """On the loop: the last piece into the send queue, after every piece before it (each was
        put before its thread went on). This runs before the request's coroutine resumes (its
        thread's end is a callback scheduled after this one), so the end-of-answer mark comes
        after it; when the queue is full, a task puts it, and asyncio's queue lets waiting
        putters in the order they came, that task's first."""
        queue = self.send_queue
        if queue.maxsize <= 0 or queue.maxsize - queue.qsize() >= len(messages):
            for message in messages:
                queue.put_nowait(message)
        else:
            self.loop.create_task(put_all())  # type: ignore[arg-type]


# What a finisher is given if the view's request failed before Django answered it.
_FAILED: dict[str, Any] = {"type": "http.response.start", "status": 500, "headers": []}

_page_thread = threading.local()


def _in_the_threads_context(call: Callable[..., None], *args: Any) -> None:
    """``call(*args)`` in the page thread's own context, the same for each of its requests, as a
    threaded WSGI server's requests share their thread's locals. Django keeps what is not
    thread-critical (the cache backends and their Redis clients) in context variables: a copy of
    the loop's context per request (a2wsgi's way) built a new backend and client for every request,
    about 0.14 ms of a 2-core machine's CPU each, in the slowest hour."""
    context = getattr(_page_thread, "context", None)
    if context is None:
        context = _page_thread.context = contextvars.Context()
    context.run(call, *args)


def _length(scope: Any) -> int:
    """The request body's declared length; 0 without a body; above PREREAD_BYTES when unknown."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return PREREAD_BYTES + 1
        if name == b"transfer-encoding":
            return PREREAD_BYTES + 1
    return 0


async def _read_whole(body: Body, receive: Any) -> None:
    """Fill a2wsgi's Body from the loop, so Django's reads never wait for it."""
    while True:
        message = await receive()
        body.buffer.extend(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body._has_more = False
