"""The deployed channel layer (config.channel_layers) against a real Redis.

Rooms sit quiet for seconds at a time (the lobby, a player typing an answer): the
layer must keep waiting, not fail, when nothing arrives for longer than redis-py's
default 5 s read timeout. A room event reaches every socket of the room, in every
process, once.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest
import redis

from config.channel_layers import channel_layers

QUIET_S = 5  # redis-py's default read timeout

URL = os.environ.get("EARSHOT_TEST_CHANNEL_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def layer():
    try:
        redis.Redis.from_url(URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Redis at {URL}")
    from django.utils.module_loading import import_string

    config = channel_layers(URL)["default"]
    return import_string(config["BACKEND"])(**config["CONFIG"])


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
        waiting = asyncio.ensure_future(layer.receive(channel))  # as a consumer waits
        await asyncio.sleep(QUIET_S + 2)
        quiet_failure = waiting.exception() if waiting.done() else None
        waited = time.monotonic() - began
        await layer.group_send("room.IDLE1", {"type": "room.event", "event": {"type": "state"}})
        message = await asyncio.wait_for(waiting, 5)
        await layer.flush()
        return waited, quiet_failure, message

    waited, quiet_failure, message = _run(scenario())
    assert quiet_failure is None
    assert waited >= QUIET_S + 1.5
    assert message["event"] == {"type": "state"}


def test_without_a_url_the_embedded_default_is_in_memory():
    assert channel_layers("")["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_a_room_event_reaches_every_socket_of_every_process_once(layer):
    """Two layers stand for two ASGI processes, with three and two sockets of one room."""
    from django.utils.module_loading import import_string

    config = channel_layers(URL)["default"]
    other = import_string(config["BACKEND"])(**config["CONFIG"])

    async def scenario():
        here = [await layer.new_channel() for _ in range(3)]
        there = [await other.new_channel() for _ in range(2)]
        for channel in here:
            await layer.group_add("room.FANOUT", channel)
        for channel in there:
            await other.group_add("room.FANOUT", channel)
        await asyncio.sleep(0.3)  # subscriptions settle
        await other.group_send("room.FANOUT", {"type": "room.event", "event": {"type": "buzz", "player": 7}})
        got = [await asyncio.wait_for(layer.receive(c), 5) for c in here]
        got += [await asyncio.wait_for(other.receive(c), 5) for c in there]
        extra = [asyncio.ensure_future(lay.receive(c)) for lay, cs in ((layer, here), (other, there)) for c in cs]
        await asyncio.sleep(0.3)
        extra = [task.result() for task in extra if task.done()]
        await layer.flush()
        await other.flush()
        return got, extra

    got, extra = _run(scenario())
    assert [m["event"] for m in got] == [{"type": "buzz", "player": 7}] * 5
    assert extra == []
