"""Live rooms: every change of a room's state, under row locks (docs/rooms.md).

Each function is safe to call from several processes at once: the room question's
row lock decides a race (two buzzes arriving together: exactly one wins; two pages
advancing the clock: one reveal, one advance). Each returns the events to broadcast,
plain dicts; ``rooms.consumers`` sends them.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Project
from quiz import game, scoring
from quiz.models import (
    Mode,
    Presentation,
    PresentationEvent,
    Question,
    QuestionClip,
    Responder,
    Response,
)
from quiz.rulings import player_ruling
from quiz.services import presentation_get_or_create, response_submit
from quiz.study import playable, study_for

from . import protocol
from .models import QuestionPhase, Room, RoomBuzz, RoomPhase, RoomPlayer, RoomQuestion

ANSWER_GRACE_S = 1.5  # network and typing slack on top of the project's answer_seconds
MAX_PLAYERS = 16


class RoomError(ValueError):
    """A request the room cannot take now, naming the field at fault.

    ``message`` is a lazy translation: the socket renders it in its page's language.
    """

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _new_code() -> str:
    return "".join(secrets.choice(protocol.CODE_ALPHABET) for _ in range(protocol.CODE_LENGTH))


def room_create(*, project: Project, host: Responder, size: int | None = None) -> Room:
    """A new room in the lobby, its host seated."""
    study = study_for(project)
    size = int(size or study.round_size or 10)
    if not 1 <= size <= 50:
        raise RoomError("size", _("A room plays 1 to 50 questions."))
    for _attempt in range(20):
        try:
            with transaction.atomic():
                room = Room.objects.create(project=project, code=_new_code(), host=host, size=size)
                RoomPlayer.objects.create(room=room, responder=host, name=host.label[:protocol.MAX_NAME])
                return room
        except IntegrityError:
            continue
    raise RoomError("code", _("No free room code; try again."))


def room_by_code(code: str) -> Room | None:
    return Room.objects.select_related("project").filter(code=(code or "").strip().upper()).first()


def room_join(*, room: Room, responder: Responder) -> RoomPlayer:
    """Seat ``responder`` (again: a reconnect finds the same seat and score)."""
    if responder.project_id != room.project_id:
        raise RoomError("room", _("This room belongs to another project."))
    seat = RoomPlayer.objects.filter(room=room, responder=responder).first()
    if seat is not None:
        return seat
    if room.phase == RoomPhase.FINISHED:
        raise RoomError("room", _("This room has finished."))
    if room.players.count() >= MAX_PLAYERS:
        raise RoomError("room", _("This room is full (%(n)d players).") % {"n": MAX_PLAYERS})
    seat, _created = RoomPlayer.objects.get_or_create(room=room, responder=responder,
                                               defaults={"name": responder.label[:protocol.MAX_NAME]})
    current = _current(room)
    if current is not None and current.phase in (QuestionPhase.OPEN, QuestionPhase.BUZZED):
        _serve(current, [seat])
    return seat


def _current(room: Room) -> RoomQuestion | None:
    return room.questions.select_related("question", "buzzer").order_by("-index").first()


def _clue_clips(question: Question) -> tuple[list[float], list[str]]:
    """(durations, public ids) of the clips a room plays for ``question``, in order: all
    clues of a pyramid, the first clip otherwise."""
    rows = list(QuestionClip.objects.filter(question_id=question.pk).order_by("position")
                .values_list("clip__duration_s", "clip__public_id"))
    if not question.pyramidal:
        rows = rows[:1]
    return [max(float(d or 0.0), 0.1) for d, _ in rows], [pid for _, pid in rows]


def schedule_of(room_question: RoomQuestion) -> protocol.Schedule:
    """The question's clue clock, from the clip lengths fixed when it began (no query)."""
    durations = room_question.clip_durations or _clue_clips(room_question.question)[0]
    return protocol.schedule_for(
        durations,
        final_window_s=float(getattr(settings, "EARSHOT_ROOM_FINAL_WINDOW_S", protocol.FINAL_WINDOW_S)),
    )


def _locked_current(room: Room, *related: str) -> RoomQuestion | None:
    """The room's current question, its row locked (only its own row) until the transaction ends."""
    query = RoomQuestion.objects.filter(room=room).order_by("-index")
    if related:
        query = query.select_related(*related).select_for_update(of=("self",))
    else:
        query = query.select_for_update()
    return query.first()


def _now_t(rq: RoomQuestion, now: datetime) -> float:
    return protocol.question_time(started_at=rq.started_at, now=now, paused_s=rq.paused_s, paused_at=rq.paused_at)


def _serve(rq: RoomQuestion, seats: list[RoomPlayer]) -> None:
    """Serve the room's question to these players (free answer; clues as revealed so far)."""
    study = study_for(rq.room.project)
    for seat in seats:
        presentation = presentation_get_or_create(responder=seat.responder, question=rq.question,
                                                  mode=Mode.FREE, design=study.design)
        if presentation.clues_revealed < rq.revealed:
            _reveal_for(presentation, rq.revealed, timezone.now())


def _reveal_for(presentation: Presentation, revealed: int, now: datetime) -> None:
    for index in range(presentation.clues_revealed, revealed):
        PresentationEvent.objects.create(presentation=presentation, kind=PresentationEvent.Kind.REVEAL,
                                         clue_index=index, at=now, detail={"room": True})
    Presentation.objects.filter(pk=presentation.pk, clues_revealed__lt=revealed).update(clues_revealed=revealed)


def _eligible_questions(room: Room) -> list[Question]:
    """Active questions with a free-answer version that no seated player has been served.

    A question a player has met in any mode is never played to them again, in a room
    or elsewhere (the study-integrity rule of docs/quiz-studies.md).
    """
    met = Presentation.objects.filter(responder__room_seats__room=room).values("question_id")
    return list(playable(room.project).exclude(pk__in=met).order_by("id"))


def room_start(*, room: Room, by: RoomPlayer, now: datetime | None = None) -> list[dict]:
    """The host starts the round: the first question begins for everyone."""
    if by.responder_id != room.host_id:
        raise RoomError("start", _("Only the host can start the room."))
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if room.phase != RoomPhase.LOBBY:
            return []
        candidates = _eligible_questions(room)
        if not candidates:
            raise RoomError("start", _("No question is left that every player here has not met."))
        picked = random.Random(room.code).sample(candidates, min(room.size, len(candidates)))
        room.phase, room.order = RoomPhase.PLAYING, [q.pk for q in picked]
        room.save(update_fields=["phase", "order"])
        _begin(room, 0, picked[0], now or timezone.now())
    return [state_event(room)]


def _begin(room: Room, index: int, question: Question, now: datetime) -> RoomQuestion:
    durations, clip_ids = _clue_clips(question)
    rq = RoomQuestion.objects.create(room=room, index=index, question=question, started_at=now,
                                     clip_durations=durations, clip_ids=clip_ids)
    _serve(rq, list(room.players.select_related("responder")))
    return rq


def _clip_urls(rq: RoomQuestion, revealed: int) -> list[str]:
    clip_ids = rq.clip_ids or _clue_clips(rq.question)[1]
    return [reverse("quiz:clip_audio", args=[pid]) for pid in clip_ids[:revealed]]


def _epoch_ms(rq: RoomQuestion, t: float) -> int:
    """Wall-clock time (ms since the epoch) at which question time ``t`` falls, unpaused."""
    return int((rq.started_at.timestamp() + rq.paused_s + t) * 1000)


def question_event(rq: RoomQuestion, now: datetime | None = None) -> dict:
    """What every page needs to play the question now (nothing about its answer)."""
    now = now or timezone.now()
    schedule = schedule_of(rq)
    t = _now_t(rq, now)
    urls = _clip_urls(rq, rq.revealed)
    return {
        "type": "question", "question": rq.index, "phase": rq.phase, "clues": len(schedule.starts),
        "revealed": rq.revealed, "clips": urls, "t": round(t, 3),
        "paused": rq.paused_at is not None,
        "starts_at": [_epoch_ms(rq, s) for s in schedule.starts[: rq.revealed]],
        "dead_at": _epoch_ms(rq, schedule.dead_at),
        "buzzer": rq.buzzer.name if rq.buzzer_id else None,
        "buzzer_id": rq.buzzer_id,
        "locked_out": list(rq.buzzes.filter(correct=False).values_list("player_id", flat=True)),
        "prompt": rq.question.prompt,
    }


def state_event(room: Room) -> dict:
    """The room as the lobby and scoreboard show it."""
    room.refresh_from_db()
    players = [{"id": p.pk, "name": p.name, "points": p.points, "host": p.responder_id == room.host_id,
                "online": p.connections > 0}
               for p in room.players.order_by("-points", "id")]
    rq = _current(room)
    return {"type": "state", "room": room.code, "phase": room.phase, "size": room.size, "players": players,
            "question": None if rq is None else question_event(rq)}


def room_tick(*, room: Room, now: datetime | None = None) -> list[dict]:
    """Bring the clock up to date: reveal due clues, end a dead question, move on after a ruling.

    Idempotent: any page's timer may call it; the row lock makes one of them act.
    """
    now = now or timezone.now()
    events: list[dict] = []
    room = Room.objects.get(pk=room.pk)  # the caller's copy may be older than the last start
    with transaction.atomic():
        rq = _locked_current(room)
        if rq is None or room.phase != RoomPhase.PLAYING:
            return events
        schedule = schedule_of(rq)
        if rq.phase == QuestionPhase.BUZZED:
            deadline = _answer_deadline(rq)
            if now > deadline:
                events += _time_out_buzzer(rq, now)
            return events
        if rq.phase == QuestionPhase.OPEN:
            t = _now_t(rq, now)
            revealed = schedule.revealed(t)
            if revealed > rq.revealed:
                rq.revealed = revealed
                rq.save(update_fields=["revealed"])
                for presentation in Presentation.objects.filter(question=rq.question, mode=Mode.FREE,
                                                                 responder__room_seats__room=room):
                    _reveal_for(presentation, revealed, now)
                events.append(question_event(rq, now))
            if t >= schedule.dead_at:
                events += _end(rq, now, winner=None)
            return events
        # WON or DEAD: after the ruling pause, the next question (or the end)
        if rq.ended_at and (now - rq.ended_at).total_seconds() >= protocol.RULING_PAUSE_S:
            events += _advance(room, rq, now)
    return events


def _answer_deadline(rq: RoomQuestion) -> datetime:
    study = study_for(rq.room.project)
    return rq.paused_at + timezone.timedelta(seconds=study.answer_seconds + ANSWER_GRACE_S)


def room_buzz(*, room: Room, seat: RoomPlayer, question_index: int, now: datetime | None = None) -> list[dict]:
    """Take a buzz. The first to lock the question's row wins; the rest are told they were late.

    This is the path every player of a room races on, so it reads only what it must
    (the clock is stored on the room question; the seat's presentation was made when
    the question was served) and writes the buzz, the presentation's buzz and its event.
    """
    now = now or timezone.now()
    with transaction.atomic():
        rq = _locked_current(room)
        if rq is None or rq.index != question_index:
            raise RoomError("question", _("That question is over."))
        if rq.phase != QuestionPhase.OPEN:
            raise RoomError("buzz", _("Someone else buzzed first.") if rq.phase == QuestionPhase.BUZZED
                            else _("This question is over."))
        if rq.buzzes.filter(player=seat).exists():
            raise RoomError("buzz", _("You already buzzed on this question."))
        schedule = schedule_of(rq)
        t = _now_t(rq, now)
        if t >= schedule.dead_at:
            raise RoomError("buzz", _("Time is up for this question."))
        clue_index, clue_time_s = schedule.position(t)
        clue_index = min(clue_index, rq.revealed - 1)
        presentation_id = (Presentation.objects.filter(responder_id=seat.responder_id, question_id=rq.question_id,
                                                       mode=Mode.FREE).values_list("pk", flat=True).first()
                           or presentation_get_or_create(responder=seat.responder, question=rq.question,
                                                         mode=Mode.FREE).pk)
        RoomBuzz.objects.create(room_question=rq, player=seat, presentation_id=presentation_id, buzzed_at=now,
                                clue_index=clue_index, clue_time_s=clue_time_s,
                                position=protocol.buzz_fraction(schedule, clue_index, clue_time_s))
        Presentation.objects.filter(pk=presentation_id).update(
            buzzed_at=now, buzz_clue_index=clue_index, buzz_clue_time_s=clue_time_s)
        PresentationEvent.objects.create(presentation_id=presentation_id, kind=PresentationEvent.Kind.BUZZ,
                                         clue_index=clue_index, at=now,
                                         detail={"clue_time_s": clue_time_s, "room": room.code})
        rq.phase, rq.buzzer, rq.paused_at = QuestionPhase.BUZZED, seat, now
        rq.save(update_fields=["phase", "buzzer", "paused_at"])
        answer_seconds = study_for(room.project).answer_seconds
    return [{"type": "buzz", "question": rq.index, "player": seat.pk, "name": seat.name,
             "clue_index": clue_index, "answer_seconds": answer_seconds}]


def _ruling_payload(rq: RoomQuestion, response: Response | None, study) -> dict:
    """What players may learn about the answer, under the project's feedback policy."""
    if study.feedback == "none":
        return {}
    payload = {}
    if response is not None:
        payload["correct"] = bool(response.correct)
    if study.feedback == "full" and rq.phase in (QuestionPhase.WON, QuestionPhase.DEAD):
        payload["answer"] = rq.question.answerline
    return payload


def room_answer(*, room: Room, seat: RoomPlayer, question_index: int, text: str,
                now: datetime | None = None) -> list[dict]:
    """Judge the buzzer's answer, store it as an ordinary response, and rule for the room."""
    now = now or timezone.now()
    events: list[dict] = []
    with transaction.atomic():
        rq = _locked_current(room, "question")
        if rq is None or rq.index != question_index:
            raise RoomError("question", _("That question is over."))
        if rq.phase != QuestionPhase.BUZZED or rq.buzzer_id != seat.pk:
            raise RoomError("answer", _("Only the player who buzzed may answer now."))
        if now > _answer_deadline(rq):
            return _time_out_buzzer(rq, now)
        buzz = rq.buzzes.get(player=seat)
        study = study_for(room.project)
        response, _created = response_submit(
            responder=seat.responder, question=rq.question, mode=Mode.FREE,
            client_token=f"room-{room.code}-{rq.index}-{seat.pk}", answer_text=text,
            clue_index=buzz.clue_index, clue_time_s=buzz.clue_time_s, buzz_position=buzz.position,
            design=study.design,
        )
        correct = bool(response.correct)
        gained = scoring.points(game.points_rule(study), outcome="answer", correct=correct,
                                position=buzz.position if rq.question.pyramidal else None)
        buzz.response, buzz.correct, buzz.points = response, correct, gained
        buzz.save(update_fields=["response", "correct", "points"])
        RoomPlayer.objects.filter(pk=seat.pk).update(points=seat.points + gained)
        _resume(rq, now)
        ruling = {"type": "ruling", "question": rq.index, "player": seat.pk, "name": seat.name,
                  "_ruling": {"outcome": "answer", "correct": correct, "prompted": bool(response.prompt)}
                  if study.feedback != "none" else None,
                  "sentence": player_ruling(outcome="answer", correct=correct, mode=Mode.FREE,
                                            prompted=bool(response.prompt)) if study.feedback != "none"
                  else "", "points": gained if study.feedback != "none" else None}
        if correct:
            events += _end(rq, now, winner=seat, response=response)
            ruling.update(_ruling_payload(rq, response, study))
            events.insert(0, ruling)
            return events
        ruling.update(_ruling_payload(rq, response, study))
        events.append(ruling)
        events += _after_wrong(rq, now)
    return events


def _resume(rq: RoomQuestion, now: datetime) -> None:
    if rq.paused_at is not None:
        rq.paused_s += max(0.0, (now - rq.paused_at).total_seconds())
    rq.paused_at, rq.buzzer, rq.phase = None, None, QuestionPhase.OPEN
    rq.save(update_fields=["paused_s", "paused_at", "buzzer", "phase"])


def _after_wrong(rq: RoomQuestion, now: datetime) -> list[dict]:
    """After a wrong answer the question goes on for the others; with nobody left, it is dead."""
    seated = set(rq.room.players.values_list("pk", flat=True))
    tried = set(rq.buzzes.values_list("player_id", flat=True))
    if seated <= tried:
        return _end(rq, now, winner=None)
    return [question_event(rq, now)]


def _time_out_buzzer(rq: RoomQuestion, now: datetime) -> list[dict]:
    """The buzzer did not answer in time: a time-out (a wrong buzz), and play goes on."""
    seat = rq.buzzer
    study = study_for(rq.room.project)
    buzz = rq.buzzes.get(player=seat)
    response, _created = game.response_unanswered(presentation=buzz.presentation, study=study,
                                           client_token=f"room-{rq.room.code}-{rq.index}-{seat.pk}",
                                           outcome="timeout")
    buzz.response, buzz.correct = response, False
    buzz.save(update_fields=["response", "correct"])
    _resume(rq, now)
    events = [{"type": "ruling", "question": rq.index, "player": seat.pk, "name": seat.name,
               "_ruling": {"outcome": "timeout", "correct": False, "prompted": False},
               "sentence": player_ruling(outcome="timeout", correct=False, mode=Mode.FREE), "points": 0,
               "correct": False}]
    return events + _after_wrong(rq, now)


def _end(rq: RoomQuestion, now: datetime, *, winner: RoomPlayer | None, response: Response | None = None) -> list[dict]:
    """Close the question for everyone; players who never buzzed keep no pending presentation.

    On a dead question (nobody right, every clue heard) a player who never buzzed
    gets a time-out response, as in single play. On a won question they were locked
    out of answering: their presentation is closed without a response (it says
    nothing of what they knew, and they will never be served it again).
    """
    study = study_for(rq.room.project)
    rq.phase = QuestionPhase.WON if winner else QuestionPhase.DEAD
    rq.winner, rq.ended_at, rq.paused_at, rq.buzzer = winner, now, None, None
    rq.revealed = len(schedule_of(rq).starts)
    rq.save(update_fields=["phase", "winner", "ended_at", "paused_at", "buzzer", "revealed"])
    buzzed = set(rq.buzzes.values_list("player_id", flat=True))
    for seat in rq.room.players.select_related("responder").exclude(pk__in=buzzed):
        presentation = Presentation.objects.filter(responder=seat.responder, question=rq.question,
                                                   mode=Mode.FREE).first()
        if presentation is None:
            continue
        if winner is None:
            game.response_unanswered(presentation=presentation, study=study,
                                     client_token=f"room-{rq.room.code}-{rq.index}-{seat.pk}", outcome="timeout")
        elif presentation.closed_at is None:
            Presentation.objects.filter(pk=presentation.pk).update(closed_at=now)
    event = {"type": "end", "question": rq.index, "winner": winner.pk if winner else None,
             "name": winner.name if winner else None}
    event.update(_ruling_payload(rq, response, study))
    event.pop("correct", None)
    if study.feedback == "none":
        event["winner"] = event["name"] = None
    return [event, state_event(rq.room)]


def _advance(room: Room, rq: RoomQuestion, now: datetime) -> list[dict]:
    order = list(room.order)
    used = set(room.questions.values_list("question_id", flat=True))
    met = set(Presentation.objects.filter(responder__room_seats__room=room).exclude(question_id__in=used)
              .values_list("question_id", flat=True))
    remaining = [qid for qid in order if qid not in used and qid not in met]
    if rq.index + 1 >= room.size or not remaining:
        Room.objects.filter(pk=room.pk).update(phase=RoomPhase.FINISHED, finished_at=now)
        return [state_event(room)]
    _begin(room, rq.index + 1, Question.objects.get(pk=remaining[0]), now)
    return [state_event(room)]


def room_next(*, room: Room, by: RoomPlayer, question_index: int, now: datetime | None = None) -> list[dict]:
    """The host moves on at once after a ruling (instead of waiting for the pause)."""
    if by.responder_id != room.host_id:
        raise RoomError("next", _("Only the host can move the room on."))
    now = now or timezone.now()
    room = Room.objects.get(pk=room.pk)
    with transaction.atomic():
        rq = _locked_current(room)
        if rq is None or rq.index != question_index or rq.phase not in (QuestionPhase.WON, QuestionPhase.DEAD):
            return []
        return _advance(room, rq, now)


def seconds_to_next_tick(room: Room, now: datetime | None = None) -> float | None:
    """When the clock next needs :func:`room_tick` (a clue, the dead line, an answer deadline, the ruling pause)."""
    now = now or timezone.now()
    room = Room.objects.get(pk=room.pk)
    rq = _current(room)
    if rq is None or room.phase != RoomPhase.PLAYING:
        return None
    if rq.phase == QuestionPhase.BUZZED:
        return max(0.0, (_answer_deadline(rq) - now).total_seconds()) + 0.05
    if rq.phase == QuestionPhase.OPEN:
        t = _now_t(rq, now)
        nxt = schedule_of(rq).next_event(t, revealed=rq.revealed)
        return None if nxt is None else max(0.0, nxt - t) + 0.02
    if rq.ended_at is None:
        return None
    return max(0.0, protocol.RULING_PAUSE_S - (now - rq.ended_at).total_seconds()) + 0.02


def seat_connected(seat: RoomPlayer, delta: int) -> None:
    from django.db.models import F
    from django.db.models.functions import Greatest

    RoomPlayer.objects.filter(pk=seat.pk).update(connections=Greatest(F("connections") + delta, 0))
