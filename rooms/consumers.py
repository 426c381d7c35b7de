"""The room's websocket: one per open page of a seated player (docs/rooms.md).

The page joins through the HTTP views first (``rooms.views``: access, consent and
seating); the socket only accepts a player who already has a seat. Every change goes
through ``rooms.services`` (row locks decide races) and its events are broadcast to
the room's group. Each server process keeps one :class:`RoomClock` per room it has
sockets of: it reads when the room's clock next needs ``room_tick`` and calls it
then; any event of the room makes it read again. With several processes each one's
clock calls ``room_tick``; the row lock makes one of them act, the rest find nothing
to do.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import connections
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.permissions import can_play
from quiz.models import Mode
from quiz.rulings import player_ruling

from . import protocol, services
from .models import RoomPlayer

logger = logging.getLogger(__name__)


def _group(code: str) -> str:
    return f"room.{code}"


# In-process fast path for a burst of buzzes (the database still decides every race):
# buzzes on one question from this process's sockets queue on one asyncio lock, so
# they do not all wait in line for the single database thread; once one has won, the
# rest are refused without a query. The mark goes when the question opens again (a
# wrong answer or a time-out) or another question starts.
_buzz_locks: dict[tuple[int, int], asyncio.Lock] = {}
_buzz_won: dict[tuple[int, int], int] = {}
# Buzzes take their own database thread: a burst of them (every room buzzing as its
# first clue plays) must not queue behind other rooms' answers, reveals and next
# questions on asgiref's one sync thread. One thread is enough: a buzz is a short
# transaction, and buzzes queue only behind each other.
_buzz_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rooms-buzz")


def close_buzz_connections() -> None:
    """Close the buzz thread's database connection (tests do, before the test database goes)."""
    _buzz_thread.submit(connections.close_all).result()


class RoomClock:
    """The room's clock in this process: one timer however many of its sockets are here.

    A socket's page joining, or any event of the room (a buzz, a ruling, a reveal),
    calls :meth:`poke`; a burst of events coalesces into one read of the next due time.
    Reading it per socket instead cost a database call per player per event, and they
    queued on the one database thread in front of the next buzz.
    """

    def __init__(self, room, broadcast) -> None:
        self.room = room
        self.broadcast = broadcast  # async (events) -> None: send to the room's group
        self.sockets = 0
        self.changed = asyncio.Event()
        self.task: asyncio.Task | None = None

    def poke(self) -> None:
        self.changed.set()
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _run(self) -> None:
        try:
            while self.sockets > 0:
                self.changed.clear()
                delay = await database_sync_to_async(services.seconds_to_next_tick)(self.room)
                if self.changed.is_set():
                    continue  # something happened while reading: read again
                try:
                    await asyncio.wait_for(self.changed.wait(), delay)
                    continue  # an event came first: the due time may have moved
                except TimeoutError:
                    pass
                events = await database_sync_to_async(services.room_tick)(room=self.room)
                if events:
                    await self.broadcast(events)
                else:  # another process acted first, or the clock was read early: look again shortly
                    await asyncio.sleep(0.02)
        except asyncio.CancelledError:
            pass
        except Exception:  # the next event or socket restarts it
            logger.exception("room %s: clock failed", self.room.code)


_clocks: dict[int, RoomClock] = {}


class RoomConsumer(AsyncJsonWebsocketConsumer):
    room = None
    seat = None
    clock: RoomClock | None = None
    language = "en"

    async def dispatch(self, message: dict) -> None:
        """Channels' dispatch, without its ``aclose_old_connections()`` before each message.

        That call runs on asgiref's one sync thread, so every event delivered to every
        socket (a buzz to each of a room's players) queued behind whatever database
        work other rooms had there: about a second per broadcast under load. This
        consumer touches the database only through ``database_sync_to_async``, which
        closes stale connections on the thread that uses them.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def _language(self) -> str:
        """The page's language (``?lang=`` on the socket URL, one of settings.LANGUAGES)."""
        asked = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
        return asked if asked in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE

    def _say(self, text) -> str:
        """``text`` (a lazy translation) in this socket's language."""
        with translation.override(self.language):
            return str(text)

    async def _error(self, field: str, message) -> None:
        await self.send_json({"type": "error", "field": field, "message": self._say(message)})

    async def connect(self) -> None:
        self.language = self._language()
        code = self.scope["url_route"]["kwargs"]["code"]
        self.seat = await database_sync_to_async(self._seat)(code, self.scope.get("user"))
        if self.seat is None:
            await self.close(code=4403)
            return
        self.room = self.seat.room
        self.group = _group(self.room.code)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await database_sync_to_async(services.seat_connected)(self.seat, +1)
        await self.send_json({"type": "hello", "you": self.seat.pk,
                              "host": self.seat.responder_id == self.room.host_id})
        await self._broadcast([await database_sync_to_async(services.state_event)(self.room)])
        self.clock = _clocks.get(self.room.pk)
        if self.clock is None:
            self.clock = _clocks[self.room.pk] = RoomClock(self.room, self._broadcast)
        self.clock.sockets += 1
        self.clock.poke()

    @staticmethod
    def _seat(code: str, user) -> RoomPlayer | None:
        if user is None or not user.is_authenticated:
            return None
        room = services.room_by_code(code)
        if room is None or not can_play(user, room.project):
            return None
        return RoomPlayer.objects.select_related("room", "room__project", "responder") \
            .filter(room=room, responder__user=user).first()

    async def disconnect(self, close_code: int) -> None:
        if self.clock is not None:
            self.clock.sockets -= 1
            if self.clock.sockets <= 0:
                self.clock.stop()
                if _clocks.get(self.room.pk) is self.clock:
                    del _clocks[self.room.pk]
            self.clock = None
        if self.seat is not None and self.room is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(services.seat_connected)(self.seat, -1)
            await self._broadcast([await database_sync_to_async(services.state_event)(self.room)])

    async def receive_json(self, content, **kwargs) -> None:
        try:
            kind, fields = protocol.parse_client(content)
        except protocol.ProtocolError as exc:
            await self._error(exc.field, exc.message)
            return
        if kind == "ping":
            await self.send_json({"type": "pong", "t": fields["t"], "server": time.time() * 1000})
            return
        if kind == "leave":
            await self.close()
            return
        if kind == "buzz":
            await self._buzz_fast(fields)
            return
        await self._handle(kind, fields)

    async def _buzz_fast(self, fields: dict) -> None:
        key = (self.room.pk, fields["question"])
        lock = _buzz_locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key in _buzz_won:
                await self._error("buzz", _("Someone else buzzed first."))
                return
            events = await self._handle("buzz", fields)
            if events:
                _buzz_won[key] = self.seat.pk

    async def _handle(self, kind: str, fields: dict) -> list[dict]:
        handler = {"start": self._start, "buzz": self._buzz, "answer": self._answer, "next": self._next}[kind]
        run = (database_sync_to_async(handler, thread_sensitive=False, executor=_buzz_thread) if kind == "buzz"
               else database_sync_to_async(handler))
        try:
            events = await run(fields)
        except services.RoomError as exc:
            await self._error(exc.field, exc.message)
            return []
        except Exception:  # keep the socket: log it, tell the page, let it retry
            logger.exception("room %s: %s failed", self.room.code, kind)
            await self._error("server", _("Something went wrong; try again."))
            return []
        await self._broadcast(events)
        return events

    def _fresh_seat(self) -> RoomPlayer:
        return RoomPlayer.objects.select_related("responder").get(pk=self.seat.pk)

    def _start(self, fields: dict) -> list[dict]:
        return services.room_start(room=self.room, by=self._fresh_seat())

    def _buzz(self, fields: dict) -> list[dict]:
        # the seat as loaded at connect: room_buzz reads only its id, name and responder
        return services.room_buzz(room=self.room, seat=self.seat, question_index=fields["question"])

    def _answer(self, fields: dict) -> list[dict]:
        return services.room_answer(room=self.room, seat=self._fresh_seat(), question_index=fields["question"],
                                    text=fields["text"])

    def _next(self, fields: dict) -> list[dict]:
        return services.room_next(room=self.room, by=self._fresh_seat(), question_index=fields["question"])

    async def _broadcast(self, events: list[dict]) -> None:
        for event in events:
            await self.channel_layer.group_send(self.group, {"type": "room.event", "event": event})

    async def room_event(self, message: dict) -> None:
        """A room event from the group: pass it to the page, and re-arm the clock timer."""
        event = message["event"]
        kind = event.get("type")
        if kind in ("question", "ruling", "state"):
            # the question opens again (or a new one starts): this room's buzz marks go
            current = (event.get("question") or {}).get("question") if kind == "state" else None
            for key in [k for k in _buzz_won if k[0] == self.room.pk and k[1] != current]:
                _buzz_won.pop(key, None)
                _buzz_locks.pop(key, None)
        ruling = event.get("_ruling")
        event = {k: v for k, v in event.items() if not k.startswith("_")}  # private to the server
        if ruling:  # the sentence in this page's language
            with translation.override(self.language):
                event["sentence"] = player_ruling(mode=Mode.FREE, **ruling)
        await self.send_json(event)
        if kind in ("state", "question", "buzz", "ruling", "end") and self.clock is not None:
            self.clock.poke()
