"""The room's websocket: one per open page of a seated player (docs/rooms.md).

The page joins through the HTTP views first (``rooms.views``: access, consent and
seating); the socket only accepts a player who already has a seat. Every change goes
through ``rooms.services`` (row locks decide races) and its events are broadcast to
the room's group. Each socket keeps a timer for the room's next clock event and calls
``room_tick`` when it falls; the lock makes one of them act, the rest find nothing to do.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.permissions import can_play

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


class RoomConsumer(AsyncJsonWebsocketConsumer):
    room = None
    seat = None
    timer: asyncio.Task | None = None

    async def connect(self) -> None:
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
        self._arm()

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
        if self.timer:
            self.timer.cancel()
        if self.seat is not None and self.room is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(services.seat_connected)(self.seat, -1)
            await self._broadcast([await database_sync_to_async(services.state_event)(self.room)])

    async def receive_json(self, content, **kwargs) -> None:
        try:
            kind, fields = protocol.parse_client(content)
        except protocol.ProtocolError as exc:
            await self.send_json({"type": "error", "field": exc.field, "message": exc.message})
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
                await self.send_json({"type": "error", "field": "buzz", "message": "someone else buzzed first"})
                return
            events = await self._handle("buzz", fields)
            if events:
                _buzz_won[key] = self.seat.pk

    async def _handle(self, kind: str, fields: dict) -> list[dict]:
        handler = {"start": self._start, "buzz": self._buzz, "answer": self._answer, "next": self._next}[kind]
        try:
            events = await database_sync_to_async(handler)(fields)
        except services.RoomError as exc:
            await self.send_json({"type": "error", "field": exc.field, "message": exc.message})
            return []
        except Exception:  # keep the socket: log it, tell the page, let it retry
            logger.exception("room %s: %s failed", self.room.code, kind)
            await self.send_json({"type": "error", "field": "server", "message": "Something went wrong; try again."})
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
        await self.send_json(event)
        if message["event"].get("type") in ("state", "question", "buzz", "ruling", "end"):
            self._arm()

    def _arm(self) -> None:
        if self.timer and not self.timer.done():
            self.timer.cancel()
        self.timer = asyncio.ensure_future(self._wait_and_tick())

    async def _wait_and_tick(self) -> None:
        try:
            delay = await database_sync_to_async(services.seconds_to_next_tick)(self.room)
            if delay is None:
                return
            await asyncio.sleep(delay)
            events = await database_sync_to_async(services.room_tick)(room=self.room)
            if events:
                await self._broadcast(events)
            else:
                self._arm()  # another page acted first, or nothing was due yet: wait for the next event
        except asyncio.CancelledError:
            pass
