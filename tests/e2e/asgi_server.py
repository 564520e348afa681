"""The browser tests' live server: the site's ASGI application under uvicorn, as in production,
in a thread of the test process (so scripted dice and other patches reach it), on the test
database.

Live updates go through the real Redis (127.0.0.1:6379, or $TEST_REDIS_URL) under a channel
prefix of this run's own, so parallel runs never hear each other: the in-memory layer could not
carry a move made by the test's own code (another thread, another event loop) to a stream.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from typing import Any

import uvicorn
from django.test.utils import modify_settings, override_settings

from gamesite import live_layers

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_channel_layers(prefix: str) -> dict[str, Any]:
    return live_layers.redis_channel_layers(TEST_REDIS_URL, prefix)


class AsgiLiveServer:
    """Started and stopped by the ``live_server`` fixture (tests/e2e/conftest.py); ``url`` as
    pytest-django's, and ``_live_server_modified_settings``, which its helper switches per test."""

    def __init__(self) -> None:
        from gamesite.asgi import application

        self.host = "127.0.0.1"
        self.port = free_port()
        self.prefix = f"e2e-{uuid.uuid4().hex[:12]}"
        self._live_server_modified_settings = _PerTestSettings(
            modify_settings(ALLOWED_HOSTS={"append": self.host}),
            override_settings(CHANNEL_LAYERS=redis_channel_layers(self.prefix)),
        )
        # Pages' requests, and each /live/ stream until its answer starts: the stream's checks
        # read the database in a page thread like any page, then it waits on the loop alone.
        self.requests_in_flight = 0

        async def counted(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                await application(scope, receive, send)
                return
            self.requests_in_flight += 1  # only ever changed on the server's own loop
            counting = True

            def done() -> None:
                nonlocal counting
                if counting:
                    counting = False
                    self.requests_in_flight -= 1

            async def sending(message: Any) -> None:
                if message["type"] == "http.response.start":
                    done()
                await send(message)

            stream = scope["path"].startswith("/live/")
            try:
                await application(scope, receive, sending if stream else send)
            finally:
                done()

        config = uvicorn.Config(counted, host=self.host, port=self.port, lifespan="off",
                                log_level="warning", timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="asgi-live-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def __add__(self, other: str) -> str:
        return f"{self}{other}"

    def start(self) -> None:
        self.thread.start()
        give_up = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > give_up:
                raise RuntimeError("the ASGI live server did not start")
            time.sleep(0.05)

    def wait_until_idle(self, seconds: float = 5.0) -> None:
        """Until the requests a closed tab left running are answered, and the streams it was
        opening have done their checks: the test database is flushed next, and a request still
        reading (a join takes its tables' locks one by one) can deadlock with the flush's
        TRUNCATE (seen once: a replay test's teardown, 2026-12-07)."""
        give_up = time.monotonic() + seconds
        while self.requests_in_flight and time.monotonic() < give_up:
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


class _PerTestSettings:
    """What pytest-django's live-server helper enables for each test using the server and
    disables after it, so the tests after the browser tests keep the suite's own settings."""

    def __init__(self, *changes: Any) -> None:
        self.changes = changes

    def enable(self) -> None:
        for change in self.changes:
            change.enable()

    def disable(self) -> None:
        for change in reversed(self.changes):
            change.disable()
