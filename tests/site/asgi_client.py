"""Requests through the app server's own ASGI application (gamesite/asgi.py), made as uvicorn makes
them, on the test's event loop: the live stream is checked in a page thread and then answered on
the loop (gamesite/page_threads.py, FINISH_ON_LOOP), which Django's test clients never reach.

``AsgiClient(user).get(path)`` gives an ``AsgiAnswer`` once its status and headers have come; its
body is read as it comes (``chunks``), and ``close()`` is the browser going away (the server
then hears ``http.disconnect``) and waits for the application to finish.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

from django.test import Client

__all__ = ["AsgiAnswer", "AsgiClient", "close_every_answer"]

ANSWER_SECONDS = 5.0

_unfinished: list[AsgiAnswer] = []


async def close_every_answer() -> None:
    """Closes every answer still open, as a browser quitting does (a test's streams end with it)."""
    while _unfinished:
        await _unfinished.pop().close()


class AsgiAnswer:
    def __init__(self, start: dict[str, Any], sent: asyncio.Queue[dict[str, Any]], gone: asyncio.Event,
                 application: asyncio.Task[None]) -> None:
        self.status_code: int = start["status"]
        self._headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
        self._sent, self._gone, self._application = sent, gone, application
        self._ended = False
        _unfinished.append(self)

    def __getitem__(self, header: str) -> str:
        return self._headers[header.lower()]

    def has_header(self, header: str) -> bool:
        return header.lower() in self._headers

    async def chunks(self) -> AsyncIterator[bytes]:
        """The body's pieces as the application sends them, until its last."""
        while not self._ended:
            message = await self._sent.get()
            self._ended = not message.get("more_body", False)
            if message["body"]:
                yield message["body"]

    async def content(self) -> bytes:
        return b"".join([chunk async for chunk in self.chunks()])

    async def close(self) -> None:
        """The browser closes the page; returns once the application has finished."""
        self._gone.set()
        if self in _unfinished:
            _unfinished.remove(self)
        await asyncio.wait_for(self._application, ANSWER_SECONDS)


class AsgiClient:
    """A browser signed in as ``user`` (or a visitor), speaking to gamesite.asgi.application."""

    def __init__(self, user: Any = None) -> None:
        self.cookie = ""
        if user is not None:
            client = Client()
            client.force_login(user)
            self.cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def get(self, path: str) -> AsgiAnswer:
        return await self.request("GET", path)

    async def post(self, path: str) -> AsgiAnswer:
        """An empty form, with the CSRF token a page would send."""
        token = secrets.token_hex(16)
        return await self.request("POST", path, cookie=f"csrftoken={token}", x_csrftoken=token)

    async def request(self, method: str, path: str, cookie: str = "", **headers: str) -> AsgiAnswer:
        from gamesite.asgi import application

        path, _, query = path.partition("?")
        cookies = "; ".join(filter(None, [self.cookie, cookie]))
        sent_headers = [(b"host", b"testserver"), (b"accept", b"text/event-stream")]
        sent_headers += [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
        if cookies:
            sent_headers.append((b"cookie", cookies.encode()))
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": query.encode(), "root_path": "", "headers": sent_headers,
                 "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}
        sent: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        gone = asyncio.Event()
        asked = False

        async def receive() -> dict[str, Any]:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        running = asyncio.ensure_future(application(scope, receive, sent.put))
        waiting = asyncio.ensure_future(sent.get())
        await asyncio.wait({waiting, running}, timeout=ANSWER_SECONDS, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():
            waiting.cancel()
            if running.done():
                running.result()  # the application's error
            raise TimeoutError(f"{method} {path}: no answer within {ANSWER_SECONDS} s")
        return AsgiAnswer(waiting.result(), sent, gone, running)
