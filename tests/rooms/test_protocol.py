"""The room clock and client messages (rooms.protocol, no Django)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rooms import protocol
from rooms.protocol import ProtocolError, parse_client, schedule_for

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def test_schedule_places_clues_after_lead_in_with_gaps():
    s = schedule_for([2.0, 3.0, 1.0], lead_in_s=1.0, gap_s=0.5, final_window_s=4.0)
    assert s.starts == (1.0, 3.5, 7.0)
    assert s.clues_end == 8.0 and s.dead_at == 12.0
    assert [s.revealed(t) for t in (0.0, 1.0, 3.4, 3.5, 9.0)] == [1, 1, 1, 2, 3]
    assert s.position(4.0) == (1, 0.5)
    assert s.position(0.2) == (0, 0.0)  # before the first clue plays: at its start
    assert s.next_event(0.0) == 1.0 and s.next_event(3.5) == 7.0 and s.next_event(7.5) == 12.0
    assert s.next_event(12.0) is None


def test_question_time_stops_while_paused():
    now = T0 + timedelta(seconds=10)
    assert protocol.question_time(started_at=T0, now=now) == 10.0
    assert protocol.question_time(started_at=T0, now=now, paused_s=3.0) == 7.0
    # paused 2 s ago, after 3 s of earlier pauses: the clock shows 5 s
    assert protocol.question_time(started_at=T0, now=now, paused_s=3.0,
                                  paused_at=now - timedelta(seconds=2)) == 5.0


def test_buzz_fraction_runs_from_first_instant_to_last_clue_end():
    s = schedule_for([2.0, 2.0], lead_in_s=1.0, gap_s=0.0)
    assert protocol.buzz_fraction(s, 0, 0.0) == 0.0
    assert protocol.buzz_fraction(s, 1, 0.0) == pytest.approx(0.5)
    assert protocol.buzz_fraction(s, 1, 5.0) == 1.0  # capped at the clue's end


@pytest.mark.parametrize("durations", [[], [0.0], [1.0, -2.0]])
def test_schedule_refuses_impossible_clips(durations):
    with pytest.raises(ValueError):
        schedule_for(durations)


@pytest.mark.parametrize(("message", "field"), [
    ([], "message"), ({"type": "dance"}, "type"), ({"type": "buzz"}, "question"),
    ({"type": "buzz", "question": True}, "question"), ({"type": "buzz", "question": -1}, "question"),
    ({"type": "answer", "question": 0, "text": "  "}, "text"),
    ({"type": "answer", "question": 0, "text": "x" * 301}, "text"), ({"type": "ping", "t": "now"}, "t"),
])
def test_bad_messages_name_their_field(message, field):
    with pytest.raises(ProtocolError) as caught:
        parse_client(message)
    assert caught.value.field == field


def test_good_messages_parse():
    assert parse_client({"type": "buzz", "question": 2}) == ("buzz", {"question": 2})
    assert parse_client({"type": "answer", "question": 0, "text": " Canberra "}) == (
        "answer", {"question": 0, "text": "Canberra"})
    assert parse_client({"type": "start"}) == ("start", {})
    assert set(protocol.CODE_ALPHABET).isdisjoint("0O1IL")
