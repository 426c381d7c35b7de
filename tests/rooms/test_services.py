"""Room state changes on the real database: lockout races, rulings, stored responses."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from quiz.models import Mode, Presentation, Question, Response
from quiz.study import serving_next, study_for, study_update
from rooms import services
from rooms.models import QuestionPhase, RoomBuzz, RoomPhase, RoomQuestion
from rooms.services import RoomError


@pytest.fixture
def seats(imported, make_user):
    from quiz.services import responder_for_user

    host = responder_for_user(project=imported, user=make_user())
    guest = responder_for_user(project=imported, user=make_user())
    room = services.room_create(project=imported, host=host, size=3)
    return room, room.players.get(responder=host), services.room_join(room=room, responder=guest)


def _started(seats):
    room, host, guest = seats
    services.room_start(room=room, by=host)
    room.refresh_from_db()
    return room, host, guest, RoomQuestion.objects.get(room=room, index=0)


def _events_text(events) -> str:
    return json.dumps(events, default=str)


def test_start_serves_the_first_question_to_everyone_without_its_answer(seats):
    room, host, guest = seats
    with pytest.raises(RoomError):
        services.room_start(room=room, by=guest)  # only the host
    events = services.room_start(room=room, by=host)
    room.refresh_from_db()
    assert room.phase == RoomPhase.PLAYING and len(room.order) == 3
    rq = RoomQuestion.objects.get(room=room, index=0)
    for seat in (host, guest):
        assert Presentation.objects.filter(responder=seat.responder, question=rq.question, mode=Mode.FREE).exists()
    text = _events_text(events)
    for question in Question.objects.filter(project=room.project):
        assert question.answerline not in text


def test_two_buzzes_at_once_exactly_one_wins(seats, transactional_db):
    room, host, guest, rq = _started(seats)
    now = rq.started_at + timedelta(seconds=2)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def buzz(seat):
        try:
            barrier.wait()
            services.room_buzz(room=room, seat=seat, question_index=0, now=now)
            outcomes.append("won")
        except RoomError as exc:
            outcomes.append(str(exc.message))
        finally:
            connection.close()

    threads = [threading.Thread(target=buzz, args=(s,)) for s in (host, guest)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["Someone else buzzed first.", "won"]
    rq.refresh_from_db()
    assert rq.phase == QuestionPhase.BUZZED and RoomBuzz.objects.filter(room_question=rq).count() == 1


@pytest.mark.parametrize("rounds", range(3))
def test_lockout_race_under_load(seats, transactional_db, rounds):
    """Eight tries from two players in parallel: still one buzz, one winner."""
    room, host, guest, rq = _started(seats)
    now = rq.started_at + timedelta(seconds=2)
    barrier = threading.Barrier(8)
    wins = []

    def buzz(seat):
        try:
            barrier.wait()
            services.room_buzz(room=room, seat=seat, question_index=0, now=now)
            wins.append(seat.pk)
        except RoomError:
            pass
        finally:
            connection.close()

    threads = [threading.Thread(target=buzz, args=((host, guest)[i % 2],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1
    assert RoomBuzz.objects.filter(room_question=rq).count() == 1


def test_a_correct_answer_is_an_ordinary_response_and_closes_the_question_for_the_others(seats):
    room, host, guest, rq = _started(seats)
    question = rq.question
    correct = question.answerline.split(" [")[0]
    t = rq.started_at + timedelta(seconds=1.7)
    services.room_buzz(room=room, seat=guest, question_index=0, now=t)
    events = services.room_answer(room=room, seat=guest, question_index=0, text=correct,
                                  now=t + timedelta(seconds=2))
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["ruling", "end"]
    assert events[0]["correct"] is True and events[0]["points"] > 0
    response = Response.objects.get(responder=guest.responder, question=question)
    assert response.mode == Mode.FREE and response.correct and response.clue_index == 0
    buzz = RoomBuzz.objects.get(room_question=rq, player=guest)
    assert buzz.response == response and buzz.correct
    guest.refresh_from_db()
    assert guest.points == buzz.points > 0
    # the host never answered: no response, no pending presentation, never served again
    assert not Response.objects.filter(responder=host.responder, question=question).exists()
    presentation = Presentation.objects.get(responder=host.responder, question=question)
    assert presentation.closed_at is not None
    study = study_for(room.project)
    nxt = serving_next(study=study, responder=host.responder)
    assert getattr(nxt, "question_id", getattr(getattr(nxt, "question", None), "pk", None)) != question.pk


def test_a_wrong_answer_locks_the_buzzer_out_and_play_goes_on(seats):
    room, host, guest, rq = _started(seats)
    t = rq.started_at + timedelta(seconds=1.6)
    services.room_buzz(room=room, seat=guest, question_index=0, now=t)
    events = services.room_answer(room=room, seat=guest, question_index=0, text="Definitely not it",
                                  now=t + timedelta(seconds=3))
    assert events[0]["type"] == "ruling" and events[0]["correct"] is False
    assert events[-1]["type"] == "question" and events[-1]["phase"] == "open"
    assert guest.pk in events[-1]["locked_out"]
    rq.refresh_from_db()
    assert rq.paused_s == pytest.approx(3.0)  # the clock stood still while the buzzer answered
    with pytest.raises(RoomError):
        services.room_buzz(room=room, seat=guest, question_index=0, now=t + timedelta(seconds=4))
    services.room_buzz(room=room, seat=host, question_index=0, now=t + timedelta(seconds=4))
    events = services.room_answer(room=room, seat=host, question_index=0, text="also wrong",
                                  now=t + timedelta(seconds=5))
    assert [e["type"] for e in events][-2:] == ["end", "state"]  # nobody left to buzz: dead
    rq.refresh_from_db()
    assert rq.phase == QuestionPhase.DEAD


def test_only_the_buzzer_answers_and_only_in_time(seats):
    room, host, guest, rq = _started(seats)
    t = rq.started_at + timedelta(seconds=1.6)
    services.room_buzz(room=room, seat=guest, question_index=0, now=t)
    with pytest.raises(RoomError):
        services.room_answer(room=room, seat=host, question_index=0, text="x", now=t)
    late = t + timedelta(seconds=study_for(room.project).answer_seconds + services.ANSWER_GRACE_S + 1)
    events = services.room_answer(room=room, seat=guest, question_index=0, text="x", now=late)
    assert events[0]["type"] == "ruling" and events[0]["correct"] is False
    stored = Response.objects.get(responder=guest.responder, question=rq.question)
    assert stored.outcome == "timeout"


def test_a_dead_question_times_out_the_silent_and_the_room_moves_on(seats):
    room, host, guest, rq = _started(seats)
    schedule = services.schedule_of(rq)
    dead = rq.started_at + timedelta(seconds=schedule.dead_at + 0.1)
    events = services.room_tick(room=room, now=dead)
    assert "end" in [e["type"] for e in events]
    for seat in (host, guest):
        assert Response.objects.get(responder=seat.responder, question=rq.question).outcome == "timeout"
    rq.refresh_from_db()
    later = rq.ended_at + timedelta(seconds=5)
    services.room_tick(room=room, now=later)
    assert RoomQuestion.objects.filter(room=room, index=1).exists()


def test_pyramid_clues_are_revealed_by_the_server_clock_and_clip_access_follows(seats, client):
    room, host, guest = seats
    pyramid = Question.objects.get(project=room.project, pyramidal=True)
    Question.objects.filter(project=room.project).exclude(pk=pyramid.pk).update(is_active=False)
    services.room_start(room=room, by=host)
    rq = RoomQuestion.objects.get(room=room, index=0)
    assert rq.question == pyramid
    clips = list(pyramid.question_clips.order_by("position").values_list("clip__public_id", flat=True))
    client.force_login(guest.responder.user)
    assert client.get(f"/clips/{clips[0]}/").status_code == 200
    assert client.get(f"/clips/{clips[1]}/").status_code == 404  # not revealed yet
    schedule = services.schedule_of(rq)
    events = services.room_tick(room=room, now=rq.started_at + timedelta(seconds=schedule.starts[1] + 0.01))
    assert events and events[0]["revealed"] == 2 and len(events[0]["clips"]) == 2
    assert client.get(f"/clips/{clips[1]}/").status_code == 200
    assert client.get(f"/clips/{clips[2]}/").status_code == 404
    # a buzz lands on the clue the server revealed, with the time into it
    services.room_buzz(room=room, seat=guest, question_index=0,
                       now=rq.started_at + timedelta(seconds=schedule.starts[1] + 0.2))
    buzz = RoomBuzz.objects.get(player=guest)
    assert buzz.clue_index == 1 and buzz.clue_time_s == pytest.approx(0.2, abs=0.02)


def test_feedback_none_tells_the_room_nothing_about_the_answer(seats):
    room, host, guest = seats
    study_update(project=room.project, feedback="none")
    services.room_start(room=room, by=host)
    rq = RoomQuestion.objects.get(room=room, index=0)
    t = rq.started_at + timedelta(seconds=1.6)
    services.room_buzz(room=room, seat=guest, question_index=0, now=t)
    events = services.room_answer(room=room, seat=guest, question_index=0,
                                  text=rq.question.answerline.split(" [")[0], now=t + timedelta(seconds=1))
    text = _events_text(events)
    assert rq.question.answerline.split(" [")[0] not in text
    assert all("correct" not in e for e in events if e["type"] in ("ruling", "end"))


def test_questions_a_player_met_elsewhere_are_never_played_in_their_room(seats):
    from quiz.services import presentation_get_or_create

    room, host, guest = seats
    met = Question.objects.filter(project=room.project, correct_choice__isnull=False).first()
    presentation_get_or_create(responder=guest.responder, question=met, mode=Mode.MCQ)
    services.room_start(room=room, by=host)
    room.refresh_from_db()
    assert met.pk not in room.order


def test_reconnecting_finds_the_same_seat_and_a_late_joiner_hears_the_current_question(seats, make_user):
    from quiz.services import responder_for_user

    room, _host, guest, rq = _started(seats)
    assert services.room_join(room=room, responder=guest.responder) == guest
    late = responder_for_user(project=room.project, user=make_user())
    services.room_join(room=room, responder=late)
    assert Presentation.objects.filter(responder=late, question=rq.question).exists()
    assert timezone.now() >= rq.started_at
