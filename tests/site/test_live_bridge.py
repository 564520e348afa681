"""The database bridge (gamesite/live_bridge): without Redis, what a process with no pages (the
task worker) publishes reaches the app server's streams through the ``LiveEvent`` table. Two
layers in this process play the two processes; tests/site/test_live_make_run.py runs the real
ones (uvicorn, the worker) on SQLite."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.utils import timezone

from gamesite.live_bridge.layer import POLL_SECONDS, DatabaseBridgedLayer
from gamesite.live_bridge.models import LiveEvent
from tests.site.test_live_push import in_own_thread

pytestmark = pytest.mark.django_db(transaction=True)


def news(topic: str) -> dict[str, Any]:
    return {"type": "live.event", "events": [["changed", {"topic": topic}]]}


def test_the_workers_messages_reach_the_app_servers_groups_and_only_while_a_page_is_open() -> None:
    app_server, worker = DatabaseBridgedLayer(), DatabaseBridgedLayer()

    async def scenario() -> None:
        await worker.group_send_all([("topic-lobby", news("before"))])  # no page open: nobody hears it
        page = await app_server.new_channel()
        await app_server.group_add("topic-lobby", page)
        await asyncio.sleep(POLL_SECONDS * 2)  # the reader has started after the rows already there
        await worker.group_send_all([("user-9", news("not this page's")), ("topic-lobby", news("lobby"))])
        assert await asyncio.wait_for(app_server.receive(page), 1.0) == news("lobby")
        # The app server's own page threads publish in memory, not through the table.
        rows = await sync_to_async(LiveEvent.objects.count)()
        await app_server.group_send("topic-lobby", news("own"))
        assert await asyncio.wait_for(app_server.receive(page), 0.1) == news("own")
        assert await sync_to_async(LiveEvent.objects.count)() == rows
        await app_server.group_discard("topic-lobby", page)
        await asyncio.sleep(POLL_SECONDS * 3)
        assert app_server._reader is not None and app_server._reader.done()  # no page: no reading

    in_own_thread(async_to_sync(scenario))
    assert list(LiveEvent.objects.values_list("group", flat=True)) == ["topic-lobby", "user-9", "topic-lobby"]


def test_a_writer_deletes_rows_older_than_a_minute() -> None:
    stale = LiveEvent.objects.create(group="topic-lobby", message="{}",
                                     created_at=timezone.now() - timedelta(minutes=2))
    in_own_thread(lambda: async_to_sync(DatabaseBridgedLayer().group_send_all)([("topic-lobby", news("lobby"))]))
    assert not LiveEvent.objects.filter(pk=stale.pk).exists()
    assert LiveEvent.objects.count() == 1
