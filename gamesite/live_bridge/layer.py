"""The Channels layer of a site without Redis (``make run``: SQLite, the app server and the task
worker in two processes): the database carries the worker's live updates to the app server.

In the app server, the process whose pages hold streams (it has joined a group), this is the
in-memory layer: what its own page threads publish reaches its streams at once. Any other
process (the task worker: a bot's move, a timeout, an analysis, a tournament's next round)
writes its messages to the ``LiveEvent`` table instead, in one INSERT after its change has
committed; while the app server has a stream open it reads the rows newer than the last it
passed on every ``POLL_SECONDS`` (one indexed query, in a thread of its own so its event loop
never waits) and hands each to its groups. Nothing polls while no page is open, and a site with
Redis never uses this (settings.CHANNEL_LAYERS): there the worker publishes to Redis itself.

Rows older than ``KEEP_SECONDS`` are deleted by the processes that write them, now and then.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from django.db import connection
from django.utils import timezone

__all__ = ["DatabaseBridgedLayer"]

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
KEEP_SECONDS = 60
PRUNE_EVERY_SECONDS = 30
# Rows read at most in one look (a burst beyond it is read on the next look).
BATCH = 500


class DatabaseBridgedLayer(InMemoryChannelLayer):
    """In-memory within the app server; through the ``LiveEvent`` table from other processes."""

    # Read by backgammon.live.layer_is_shared: the worker's changes reach the pages, which then
    # need no slow poll of their own.
    shared = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._serving = False
        self._reader: asyncio.Task[None] | None = None
        self._pruned_at = 0.0
        # One thread reads the table, with one database connection, closed when no page is open.
        self._reading_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-bridge")

    async def group_add(self, group: str, channel: str) -> None:
        await super().group_add(group, channel)
        self._serving = True
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._pass_on())

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_all([(group, message)])

    async def group_send_all(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Each (group, message): to this process's streams, or, from a process that serves
        none, to the table (in the calling thread, with its database connection)."""
        if self._serving:
            for group, message in messages:
                await super().group_send(group, message)
            return
        await sync_to_async(self._write)(messages)

    def _write(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        from .models import LiveEvent

        now = timezone.now()
        LiveEvent.objects.bulk_create(
            LiveEvent(group=group, message=json.dumps(message), created_at=now) for group, message in messages
        )
        if time.monotonic() - self._pruned_at >= PRUNE_EVERY_SECONDS:
            self._pruned_at = time.monotonic()
            LiveEvent.objects.filter(created_at__lt=now - timedelta(seconds=KEEP_SECONDS)).delete()

    async def _pass_on(self) -> None:
        """While this process has streams: the rows other processes wrote, to their groups."""
        loop = asyncio.get_running_loop()
        try:
            try:
                last = await loop.run_in_executor(self._reading_thread, _newest_id)
            except Exception:  # no table (not migrated) or no database: the pages poll slowly
                log.warning("live: cannot read the worker's events", exc_info=True)
                return
            while self.groups:
                await asyncio.sleep(POLL_SECONDS)
                try:
                    rows = await loop.run_in_executor(self._reading_thread, _rows_after, last)
                except Exception:  # the database away a moment: look again next time
                    log.warning("live: could not read the worker's events", exc_info=True)
                    continue
                for row_id, group, text in rows:
                    last = row_id
                    await InMemoryChannelLayer.group_send(self, group, json.loads(text))
        finally:
            await loop.run_in_executor(self._reading_thread, _close_connection)


def _close_connection() -> None:
    connection.close()  # this thread's own


def _newest_id() -> int:
    from .models import LiveEvent

    return LiveEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _rows_after(last: int) -> list[tuple[int, str, str]]:
    from .models import LiveEvent

    return list(LiveEvent.objects.filter(pk__gt=last).order_by("pk").values_list("pk", "group", "message")[:BATCH])
