"""The Channels layer of the live rooms (rooms/): Redis when a URL is given, else memory.

Kept apart from settings so a test can build the deployed configuration with a URL of
its choosing and check it against a real Redis.

Redis pub/sub, not channels_redis's list-based layer: a room event is one PUBLISH per
room, and each ASGI process that has sockets in the room gets it once and hands it to
its own sockets. The list-based layer stores a copy per socket and each process pops
them one at a time (three Redis round trips a message), so a buzz broadcast waited
about a second in that queue when every room buzzed at once. Room events need no
delivery guarantee beyond the open sockets: a page that reconnects gets the room's
whole state.
"""

from __future__ import annotations

# redis-py 7+ gives every connection a 5 s read timeout by default. channels_redis's
# list-based layer waited up to 5 s for a message and raced it (a quiet room's sockets
# closed with 1011 after 5 s); the pub/sub layer polls with its own short timeout. The
# read timeout still bounds a read from a Redis that stopped answering.
READ_TIMEOUT_S = 15


def channel_layers(redis_url: str) -> dict:
    """``CHANNEL_LAYERS`` for ``redis_url`` (several ASGI processes), or the in-memory layer if empty."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return {"default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [{"address": redis_url, "socket_timeout": READ_TIMEOUT_S, "socket_connect_timeout": 5}],
        },
    }}
