"""How a publication reaches the app server's event loop (backgammon/live.py): a page's thread
hands it over and answers at once; any other thread (the browser tests' own code setting a
scene) waits until it is sent, so a page opened next never hears of what came before it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.layers import InMemoryChannelLayer

from backgammon import live
from gamesite.after_answer import answering_pages

GROUP = live.user_group(4242)


@pytest.fixture
def server_loop(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[asyncio.AbstractEventLoop, InMemoryChannelLayer]]:
    """A running loop in a thread of its own, as uvicorn's, and a channel layer listening on it."""
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    layer = InMemoryChannelLayer()
    asyncio.run_coroutine_threadsafe(layer.group_add(GROUP, "listener"), loop).result(2)
    monkeypatch.setattr(live, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(live, "_server_loop", loop)
    yield loop, layer
    loop.call_soon_threadsafe(loop.stop)
    runner.join(2)
    loop.close()


def waiting_messages(loop: asyncio.AbstractEventLoop, layer: InMemoryChannelLayer) -> int:
    async def count() -> int:
        queue = layer.channels.get("listener")
        return 0 if queue is None else queue.qsize()

    return asyncio.run_coroutine_threadsafe(count(), loop).result(2)


def hold(loop: asyncio.AbstractEventLoop) -> threading.Event:
    """Keep the loop busy until the returned event is set."""
    release = threading.Event()
    loop.call_soon_threadsafe(release.wait, 5)
    return release


def test_another_thread_returns_only_once_the_event_is_sent(server_loop) -> None:  # type: ignore[no-untyped-def]
    loop, layer = server_loop
    release = hold(loop)
    with ThreadPoolExecutor(1) as scene_thread:
        published = scene_thread.submit(live.publish_status, 4242)
        time.sleep(0.2)
        assert not published.done()  # the loop is busy: it waits
        release.set()
        published.result(2)
    assert waiting_messages(loop, layer) == 1


def test_a_page_thread_answers_without_waiting_and_the_event_is_still_sent(server_loop) -> None:  # type: ignore[no-untyped-def]
    loop, layer = server_loop

    def page(environ: object, start_response: object) -> list[bytes]:
        live.publish_status(4242)
        return [b"answered"]

    def answered_and_closed() -> list[bytes]:  # as the app server sends an answer, then closes it
        answer = answering_pages(page)({}, None)
        body = list(answer)
        answer.close()  # what the request published goes now
        return body

    release = hold(loop)  # the loop cannot send anything yet
    with ThreadPoolExecutor(1) as page_thread:
        answer = page_thread.submit(answered_and_closed).result(2)
    assert answer == [b"answered"]
    release.set()
    for _ in range(100):
        if waiting_messages(loop, layer):
            break
    assert waiting_messages(loop, layer) == 1
