"""Live rooms: the clock and the messages, without Django (docs/rooms.md).

A room plays one question at a time to every player at once. The server owns the
clock: a question's clues start at fixed offsets of *question time* (wall time
since the question started, minus the time it stood paused while a buzzer
answered), so every player's page and the server agree on which clue is playing,
and a buzz is placed on the clue the server had revealed, never on what a page
claims. The first buzz locks the others out (the database decides: see
``rooms.services.room_buzz``); this module only says what the clock says.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

LEAD_IN_S = 1.5  # between "question starts" and its first clue: every page gets the message first
CLUE_GAP_S = 0.6  # silence between two clues of a pyramid
FINAL_WINDOW_S = 6.0  # after the last clue ends: time left to buzz before the question is dead
RULING_PAUSE_S = 4.0  # the ruling stays on screen this long before the room moves on
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud across a room
CODE_LENGTH = 5
MAX_NAME = 40
MAX_ANSWER = 300


class ProtocolError(ValueError):
    """A client message that cannot be taken, naming the field at fault."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Schedule:
    """When each clue of a question starts and ends, in question seconds."""

    starts: tuple[float, ...]
    durations: tuple[float, ...]
    final_window_s: float = FINAL_WINDOW_S

    @property
    def clues_end(self) -> float:
        return self.starts[-1] + self.durations[-1]

    @property
    def dead_at(self) -> float:
        """Question time at which, with no correct buzz, the question is over."""
        return self.clues_end + self.final_window_s

    def revealed(self, t: float) -> int:
        """Clues revealed at question time ``t`` (at least the first: it is served with the question)."""
        return max(1, bisect.bisect_right(self.starts, t))

    def position(self, t: float) -> tuple[int, float]:
        """(clue index, seconds into that clue) at question time ``t``: where a buzz lands."""
        index = self.revealed(t) - 1
        return index, max(0.0, t - self.starts[index])

    def next_event(self, t: float, revealed: int | None = None) -> float | None:
        """Question time of the next clue start, or of the dead line; ``None`` once past both.

        With ``revealed`` (clues the server has already revealed) the next event is the
        start of the first clue not yet revealed, even if that time has passed (it is
        due now); the starts of revealed clues are not events (nothing happens there).
        """
        if revealed is not None:
            pending = self.starts[max(revealed, 0):]
            if pending:
                return pending[0]
        else:
            later = [s for s in self.starts if s > t]
            if later:
                return later[0]
        return self.dead_at if t < self.dead_at else None


def schedule_for(durations: Sequence[float], *, lead_in_s: float = LEAD_IN_S, gap_s: float = CLUE_GAP_S,
                 final_window_s: float = FINAL_WINDOW_S) -> Schedule:
    """The clue schedule of a question whose clips last ``durations`` seconds, in order."""
    if not durations:
        raise ValueError("a question needs at least one clip")
    starts, t = [], lead_in_s
    for d in durations:
        if d <= 0:
            raise ValueError("clip durations must be positive")
        starts.append(t)
        t += d + gap_s
    return Schedule(tuple(starts), tuple(float(d) for d in durations), final_window_s)


def question_time(*, started_at: datetime, now: datetime, paused_s: float = 0.0,
                  paused_at: datetime | None = None) -> float:
    """Seconds of play since ``started_at``: wall time less the time spent paused (a buzz being answered)."""
    t = (now - started_at).total_seconds() - paused_s
    if paused_at is not None:
        t -= max(0.0, (now - paused_at).total_seconds())
    return max(0.0, t)


def buzz_fraction(schedule: Schedule, clue_index: int, clue_time_s: float) -> float:
    """How far through the pyramid a buzz came, 0 (first instant) to 1 (end of the last clue).

    The points rule (``quiz.scoring.points``) rewards a small fraction.
    """
    t = schedule.starts[clue_index] + min(clue_time_s, schedule.durations[clue_index])
    span = schedule.clues_end - schedule.starts[0]
    return 0.0 if span <= 0 else min(1.0, max(0.0, (t - schedule.starts[0]) / span))


CLIENT_TYPES = {"ping", "start", "buzz", "answer", "next", "leave"}


def parse_client(message: object) -> tuple[str, dict]:
    """Validate one message from a page: ``(type, fields)``, or :class:`ProtocolError`."""
    if not isinstance(message, dict):
        raise ProtocolError("message", "must be a JSON object")
    kind = message.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("type", f"must be one of {', '.join(sorted(CLIENT_TYPES))}")
    fields: dict = {}
    if kind == "ping":
        sent = message.get("t")
        if not isinstance(sent, (int, float)):
            raise ProtocolError("t", "must be the page's clock in milliseconds")
        fields["t"] = float(sent)
    elif kind == "answer":
        text = message.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ProtocolError("text", "must not be empty")
        if len(text) > MAX_ANSWER:
            raise ProtocolError("text", f"is longer than {MAX_ANSWER} characters")
        fields["text"] = text.strip()
    if kind in ("buzz", "answer", "next"):
        index = message.get("question")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ProtocolError("question", "must be the index of the question on screen")
        fields["question"] = index
    return kind, fields
