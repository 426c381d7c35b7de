"""The room protocol over real websockets (Channels' communicator, the project's ASGI app)."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from rooms import services

pytestmark = pytest.mark.django_db(transaction=True)


def _run(coroutine):
    """Run ``coroutine`` on a fresh event loop in its own thread: an earlier test of the
    session (a sync Playwright page, say) may leave a loop running on this thread."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture(autouse=True)
def _close_consumer_connections():
    """The consumers' database work runs on asgiref's one sync thread: close its connection after."""
    yield
    from asgiref.sync import sync_to_async
    from django.db import connections

    _run(sync_to_async(connections.close_all)())
    from rooms.consumers import close_buzz_connections

    close_buzz_connections()


def _cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def _socket(code: str, cookie: bytes | None, origin: bytes = b"http://localhost",
            lang: str = "") -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", origin), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/rooms/{code}/" + (f"?lang={lang}" if lang else ""),
                                 headers=headers)


async def _until(comm: WebsocketCommunicator, kind: str, timeout: float = 30.0) -> dict:
    """The next message of ``kind`` (earlier ones skipped)."""
    async def wait() -> dict:
        while True:
            message = await comm.receive_json_from(timeout=timeout)
            if message.get("type") == kind:
                return message
    return await asyncio.wait_for(wait(), timeout)


async def _collect(comm: WebsocketCommunicator, kinds: set[str], timeout: float = 30.0) -> dict[str, dict]:
    """Messages until one of each of ``kinds`` has arrived (the first of each kept)."""
    seen: dict[str, dict] = {}

    async def wait() -> dict[str, dict]:
        while not kinds <= set(seen):
            message = await comm.receive_json_from(timeout=timeout)
            seen.setdefault(message.get("type"), message)
        return seen
    return await asyncio.wait_for(wait(), timeout)


@pytest.fixture
def room_of_two(imported, make_user, settings):
    # a busy test machine may take seconds between messages: keep the question open meanwhile
    settings.EARSHOT_ROOM_FINAL_WINDOW_S = 120.0
    from quiz.services import responder_for_user

    users = [make_user(), make_user()]
    host, guest = (responder_for_user(project=imported, user=u) for u in users)
    room = services.room_create(project=imported, host=host, size=2)
    services.room_join(room=room, responder=guest)
    return room, users


def test_buzz_locks_the_other_player_out_and_the_ruling_reaches_both(room_of_two):
    room, (host_user, guest_user) = room_of_two
    cookies = _cookie(host_user), _cookie(guest_user)

    async def play():
        a, b = _socket(room.code, cookies[0]), _socket(room.code, cookies[1])
        assert (await a.connect())[0] and (await b.connect())[0]
        hello_a, hello_b = await _until(a, "hello"), await _until(b, "hello")
        assert hello_a["host"] and not hello_b["host"]
        await a.send_json_to({"type": "start"})
        qa, qb = await _until(a, "state"), await _until(b, "state")
        while qa["question"] is None:
            qa = await _until(a, "state")
        while qb["question"] is None:
            qb = await _until(b, "state")
        assert qa["question"]["clips"] == qb["question"]["clips"]  # both hear the same clue
        assert qa["question"]["starts_at"] == qb["question"]["starts_at"]  # at the same time
        # both buzz together: exactly one wins, both are told who
        await b.send_json_to({"type": "buzz", "question": 0})
        await a.send_json_to({"type": "buzz", "question": 0})
        buzz_b = await _until(b, "buzz")
        winner, loser = (b, a) if buzz_b["player"] == hello_b["you"] else (a, b)
        seen = await _collect(loser, {"buzz", "error"})
        assert seen["buzz"]["player"] == buzz_b["player"]  # the other page learns who buzzed
        assert seen["error"]["field"] == "buzz"  # ... and that its own buzz came too late
        await winner.send_json_to({"type": "answer", "question": 0, "text": "surely wrong"})
        ruling_a, ruling_b = await _until(a, "ruling"), await _until(b, "ruling")
        assert ruling_a == ruling_b and ruling_a["correct"] is False
        assert "answer" not in ruling_a  # the question goes on for the other player
        await a.disconnect()
        await b.disconnect()

    _run(play())


def test_sockets_without_a_seat_or_from_another_site_are_refused(room_of_two, make_user):
    room, (host_user, _) = room_of_two

    async def connect(comm):
        ok, _ = await comm.connect()
        if ok:
            await comm.disconnect()
        return ok

    assert not _run(connect(_socket(room.code, None)))  # anonymous
    assert not _run(connect(_socket(room.code, _cookie(make_user()))))  # not seated
    assert not _run(connect(_socket("NOPE9", _cookie(host_user))))  # no such room
    assert not _run(connect(_socket(room.code, _cookie(host_user), origin=b"https://evil.example")))


def test_bad_messages_get_an_error_naming_the_field(room_of_two):
    room, (host_user, _) = room_of_two
    cookie = _cookie(host_user)

    async def talk():
        a = _socket(room.code, cookie)
        await a.connect()
        await a.send_json_to({"type": "buzz"})
        error = await _until(a, "error")
        await a.send_json_to({"type": "ping", "t": 5})
        pong = await _until(a, "pong")
        await a.disconnect()
        return error, pong

    error, pong = _run(talk())
    assert error["field"] == "question"
    assert pong["t"] == 5 and pong["server"] > 0


def test_room_events_reach_pages_while_the_database_thread_is_busy(room_of_two):
    """A broadcast must not wait for asgiref's sync thread (busy with another room's
    answer, say): Channels' own dispatch queued on it before every message."""
    import time

    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer

    room, (host_user, _) = room_of_two
    cookie = _cookie(host_user)

    async def scenario():
        a = _socket(room.code, cookie)
        assert (await a.connect())[0]
        await _until(a, "hello")
        await _until(a, "state")
        busy = asyncio.ensure_future(sync_to_async(time.sleep)(5.0))  # the one sync thread, taken
        await asyncio.sleep(0.2)
        await get_channel_layer().group_send(f"room.{room.code}", {
            "type": "room.event", "event": {"type": "buzz", "question": 0, "player": 1, "name": "x"}})
        got = await _until(a, "buzz", timeout=10)
        arrived_while_busy = not busy.done()
        await busy
        await a.disconnect()
        return got, arrived_while_busy

    got, arrived_while_busy = _run(scenario())
    assert got["player"] == 1
    assert arrived_while_busy, "the event waited for the busy sync thread"


def test_each_page_reads_rulings_and_errors_in_its_own_language(room_of_two):
    """One room, a Korean page and an English one: the same ruling, each in its language."""
    room, (host_user, guest_user) = room_of_two
    cookies = _cookie(host_user), _cookie(guest_user)

    async def play():
        a, b = _socket(room.code, cookies[0], lang="ko"), _socket(room.code, cookies[1], lang="en")
        assert (await a.connect())[0] and (await b.connect())[0]
        await _until(a, "hello")
        hello_b = await _until(b, "hello")
        await b.send_json_to({"type": "start"})  # not the host
        refused = await _until(b, "error")
        await a.send_json_to({"type": "start"})
        state = await _until(b, "state")
        while state["question"] is None:
            state = await _until(b, "state")
        await b.send_json_to({"type": "buzz", "question": 0})
        await _until(b, "buzz")
        await b.send_json_to({"type": "answer", "question": 0, "text": "surely wrong"})
        ruling_a, ruling_b = await _until(a, "ruling"), await _until(b, "ruling")
        await a.disconnect()
        await b.disconnect()
        return refused, ruling_a, ruling_b, hello_b

    refused, ruling_a, ruling_b, hello_b = _run(play())
    assert refused["message"] == "Only the host can start the room."
    from django.utils import translation

    from quiz.rulings import player_ruling

    with translation.override("ko"):
        korean = player_ruling(outcome="answer", correct=False, mode="free")
    assert ruling_b["sentence"] == "Not quite: that answer is not accepted."
    assert ruling_a["sentence"] == korean != ruling_b["sentence"]
    assert "_ruling" not in ruling_a and ruling_a["player"] == ruling_b["player"] == hello_b["you"]
