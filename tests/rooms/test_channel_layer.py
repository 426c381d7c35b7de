"""The deployed channel layer (config.channel_layers) against a real Redis.

Rooms sit quiet for seconds at a time (the lobby, a player typing an answer): the
layer must keep waiting, not fail, when nothing arrives for longer than its own
BZPOPMIN round.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest
import redis

from config.channel_layers import BZPOPMIN_S, channel_layers

URL = os.environ.get("EARSHOT_TEST_CHANNEL_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def layer():
    try:
        redis.Redis.from_url(URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Redis at {URL}")
    from channels.layers import get_channel_layer  # noqa: F401  (the backend loader's module)
    from channels_redis.core import RedisChannelLayer

    config = channel_layers(URL)["default"]
    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    made = RedisChannelLayer(**config["CONFIG"])
    assert made.brpop_timeout == BZPOPMIN_S, "channels_redis changed its wait: revisit READ_TIMEOUT_S"
    return made


def _run(coroutine):
    """A fresh loop on its own thread (an earlier test may leave one running on this thread)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_an_idle_room_keeps_waiting_then_gets_its_message(layer):
    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("room.IDLE1", channel)
        began = time.monotonic()
        with pytest.raises(asyncio.TimeoutError):  # our own limit, not a Redis read timeout
            await asyncio.wait_for(layer.receive(channel), BZPOPMIN_S + 2)
        waited = time.monotonic() - began
        await layer.group_send("room.IDLE1", {"type": "room.event", "event": {"type": "state"}})
        message = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.flush()
        return waited, message

    waited, message = _run(scenario())
    assert waited >= BZPOPMIN_S + 1.5
    assert message["event"] == {"type": "state"}


def test_without_a_url_the_embedded_default_is_in_memory():
    assert channel_layers("")["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
