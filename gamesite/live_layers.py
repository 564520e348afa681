"""The Channels layer that carries live updates between app servers (backgammon/live.py).

Redis publish/subscribe (channels_redis's RedisPubSubChannelLayer): a group message is one
PUBLISH, and each app server holds one subscription connection that hands it to the streams it
serves. channels_redis's default layer keeps each group in a sorted set and queues each message
per channel through a Lua script: measured on the 2-core machine, a message sent and received cost
1.1 ms of CPU that way and 0.3 ms this way (whatever its size), and at 400 bench players the app
servers used 13% less CPU. A message nobody listens to is simply lost, which suits pages: what
a page shows is read from the database, and a page that missed something asks on its next
event, or when its stream, which checks its own delivery (backgammon/views/live.py), reconnects.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

from gamesite.redis_guard import guarded

__all__ = ["PublishingTogether", "group_send_all", "redis_channel_layers"]

# A command waits at most this long for Redis (a dead or stalled host; settings'
# REDIS_TIMEOUT_SECONDS): the move itself stands meanwhile, and the process's breaker then stops
# asking for a while (gamesite/redis_guard.py).
SOCKET_TIMEOUT_SECONDS = 0.5


def redis_channel_layers(url: str, prefix: str, timeout: float = SOCKET_TIMEOUT_SECONDS) -> dict[str, Any]:
    """CHANNEL_LAYERS for Redis at ``url``; ``prefix`` keeps sites sharing one Redis apart."""
    host = {"address": url, "socket_timeout": timeout, "socket_connect_timeout": timeout}
    return {
        "default": {
            "BACKEND": "gamesite.live_layers.PublishingTogether",
            "CONFIG": {"hosts": [host], "prefix": prefix},
        }
    }


class PublishingTogether(RedisPubSubChannelLayer):
    """channels_redis's publish/subscribe layer that also sends several group messages in one
    round trip (``group_send_all``). A move tells its game's group and both players' groups: three
    PUBLISH commands, each waiting for Redis's reply on the server's event loop (measured under
    `make bench-web` load: the loop's Redis writes and waits were a tenth of an app server's
    time). Pipelined, they cost one write and one wait.

    It works on the layer's per-loop shards (channels_redis 4.3's RedisPubSubLoopLayer: its
    shards, their lock and connection), as its own group_send does; the version is pinned, and
    tests/site/test_live_push.py sends through it to a real Redis."""

    # Each command that goes to Redis, asked only while the process's breaker allows: with Redis
    # stalled, a stream opened is refused at once (503: its page polls), a publication dropped.
    # (The base layer hands these to its per-loop layer through __getattr__.)
    async def new_channel(self, prefix: str = "specific.") -> str:
        return await guarded(self._get_layer().new_channel, prefix)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await guarded(self._get_layer().send, channel, message)

    async def group_add(self, group: str, channel: str) -> None:
        await guarded(self._get_layer().group_add, group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await guarded(self._get_layer().group_discard, group, channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await guarded(self._get_layer().group_send, group, message)

    async def group_send_all(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        await guarded(self._publish_together, messages)

    async def _publish_together(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        layer = self._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = defaultdict(list)
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            by_shard[layer._get_shard(channel)].append((channel, self.serialize(message)))
        for shard, publications in by_shard.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipe:
                    for channel, data in publications:
                        pipe.publish(channel, data)
                    await pipe.execute()


async def group_send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message) in order: in one round trip when the layer can (above, and
    gamesite/live_bridge/layer.py: one INSERT), else one by one (the in-memory layer)."""
    if hasattr(layer, "group_send_all"):
        await layer.group_send_all(messages)
        return
    for group, message in messages:
        await layer.group_send(group, message)
