"""The Channels layer of the live rooms (rooms/): Redis when a URL is given, else memory.

Kept apart from settings so a test can build the deployed configuration with a URL of
its choosing and check it against a real Redis.
"""

from __future__ import annotations

# channels_redis waits for a room's next message with BZPOPMIN for this many seconds
# (RedisChannelLayer.brpop_timeout) and asks again. redis-py 7+ gives every connection a
# 5 s socket read timeout by default, so an idle room's wait raced that timeout and every
# socket of the room closed with 1011 after 5 s of quiet. The read timeout must outlast
# the server-side wait; it still bounds a read from a Redis that stopped answering.
BZPOPMIN_S = 5
READ_TIMEOUT_S = BZPOPMIN_S + 10


def channel_layers(redis_url: str) -> dict:
    """``CHANNEL_LAYERS`` for ``redis_url`` (several ASGI processes), or the in-memory layer if empty."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return {"default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [{"address": redis_url, "socket_timeout": READ_TIMEOUT_S,
                       "socket_connect_timeout": 5, "health_check_interval": 30}],
            "capacity": 1500,
            "expiry": 30,
        },
    }}
