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

__all__ = ["PublishingTogether", "group_send_all", "redis_channel_layers"]

# A publish waits at most this long for Redis (a dead host): the move itself stands meanwhile.
SOCKET_TIMEOUT_SECONDS = 5


def redis_channel_layers(url: str, prefix: str) -> dict[str, Any]:
    """CHANNEL_LAYERS for Redis at ``url``; ``prefix`` keeps sites sharing one Redis apart."""
    return {
        "default": {
            "BACKEND": "gamesite.live_layers.PublishingTogether",
            "CONFIG": {"hosts": [{"address": url, "socket_timeout": SOCKET_TIMEOUT_SECONDS}], "prefix": prefix},
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

    async def group_send_all(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
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
