"""The game around the quiz: buzzes, skips, rounds, the daily challenge, the machines' results.

Writes and reads for single-player play (a live room calls the same
:func:`buzz_record` and :func:`response_unanswered`). The arithmetic is in the
pure :mod:`quiz.scoring`; what a player may see is decided by :mod:`quiz.study`
(feedback policy, design). Every time here is the server's: the buzz's clue and
seconds are measured when the buzz request arrives, never taken from the browser.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import Project

from . import scoring
from . import study as studies
from .models import (
    Category,
    Mode,
    Outcome,
    PlayRound,
    Presentation,
    PresentationEvent,
    Question,
    QuestionClip,
    QuizStudy,
    Responder,
    Response,
)

SKIP_RULE_VERSION = "outcome-1"


class GameError(ValueError):
    """A game action that cannot be taken now (names the field); ``status`` is the HTTP status."""

    def __init__(self, field: str, message: str, status: int = 400):
        self.field = field
        self.message = message
        self.status = status
        super().__init__(f"{field}: {message}")


def points_rule(study: QuizStudy) -> scoring.PointsRule:
    """The project's points settings as a :class:`quiz.scoring.PointsRule`."""
    return scoring.PointsRule(correct=study.points_correct, early_bonus=study.points_early_bonus,
                              wrong_early=study.points_wrong_early)


def _durations(question_id: int) -> list[float]:
    return list(QuestionClip.objects.filter(question_id=question_id).order_by("position")
                .values_list("clip__duration_s", flat=True))


def _last_reveal(presentation: Presentation) -> tuple[int, datetime]:
    index = max(presentation.clues_revealed - 1, 0)
    at = (presentation.events.filter(kind=PresentationEvent.Kind.REVEAL, clue_index=index)
          .values_list("at", flat=True).first())
    return index, at or presentation.served_at


def clue_timing(presentation: Presentation, now: datetime | None = None) -> tuple[int | None, float | None]:
    """The clue and seconds-into-it that an answer counts at (pyramidal only).

    After a buzz: where the buzz came. Without one (an answer typed straight in):
    the last clue revealed, and the seconds since its reveal, now.
    """
    if not presentation.question.pyramidal:
        return None, None
    if presentation.buzzed_at is not None:
        return presentation.buzz_clue_index, presentation.buzz_clue_time_s
    index, since = _last_reveal(presentation)
    return index, round(((now or timezone.now()) - since).total_seconds(), 3)


def answer_deadline(study: QuizStudy, presentation: Presentation, now: datetime | None = None) -> scoring.Deadline:
    """The deadline that applies now: the answer timer after a buzz, else the question timer."""
    now = now or timezone.now()
    if presentation.buzzed_at is not None:
        return scoring.deadline(study.answer_seconds, (now - presentation.buzzed_at).total_seconds())
    return scoring.deadline(study.question_seconds, (now - presentation.served_at).total_seconds())


def _answered(presentation: Presentation) -> bool:
    return Response.objects.filter(responder_id=presentation.responder_id, question_id=presentation.question_id,
                                   mode=presentation.mode).exists()


@dataclass(frozen=True)
class Buzz:
    """A buzz as the server took it; ``created`` is False for a repeated buzz."""

    clue_index: int | None
    clue_time_s: float | None
    at: datetime
    answer_seconds: int
    created: bool


def buzz_record(*, presentation: Presentation, study: QuizStudy, now: datetime | None = None) -> Buzz:
    """Take the player's buzz: the clue and seconds are the server's, measured now.

    Idempotent: a second buzz returns the first one unchanged (the conditional
    update lets exactly one of two simultaneous buzzes win). Refused once the
    question is answered, or after the question timer (with its grace) ran out.
    """
    now = now or timezone.now()
    if _answered(presentation):
        raise GameError("presentation", "already answered", status=409)
    if presentation.buzzed_at is None and answer_deadline(study, presentation, now).expired:
        raise GameError("presentation", "the time for this question is up", status=409)
    index, seconds = (None, None)
    if presentation.question.pyramidal:
        index, since = _last_reveal(presentation)
        seconds = round((now - since).total_seconds(), 3)
    with transaction.atomic():
        won = Presentation.objects.filter(pk=presentation.pk, buzzed_at__isnull=True).update(
            buzzed_at=now, buzz_clue_index=index, buzz_clue_time_s=seconds,
        )
        if won:
            PresentationEvent.objects.create(
                presentation=presentation, kind=PresentationEvent.Kind.BUZZ, clue_index=index,
                detail={"clue_time_s": seconds}, at=now,
            )
    presentation.refresh_from_db(fields=["buzzed_at", "buzz_clue_index", "buzz_clue_time_s"])
    return Buzz(presentation.buzz_clue_index, presentation.buzz_clue_time_s, presentation.buzzed_at,
                study.answer_seconds, bool(won))


def buzz_position_for(presentation: Presentation, clue_index: int | None, clue_time_s: float | None) -> float | None:
    """:func:`quiz.scoring.buzz_position` for this presentation's question."""
    if clue_index is None:
        return None
    return scoring.buzz_position(clue_index, clue_time_s, _durations(presentation.question_id))


def response_unanswered(
    *, presentation: Presentation, study: QuizStudy, client_token: str, outcome: str,
    listening: dict | None = None, listened_fraction: float | None = None,
) -> tuple[Response, bool]:
    """Store a skip ("I don't know") or a time-out as a response of its own outcome.

    It is not a wrong answer: ``correct`` is False (the question was met and not
    answered), ``answer_text`` empty, the rule names the outcome, and no points are
    lost. Idempotent by ``client_token`` and by (player, question, mode), like
    :func:`quiz.services.response_submit`.
    """
    from .services import SubmissionError

    if outcome not in (Outcome.SKIP, Outcome.TIMEOUT):
        raise SubmissionError("outcome", "must be skip or timeout")
    client_token = (client_token or "").strip()
    if not client_token or len(client_token) > 64:
        raise SubmissionError("client_token", "is required (1-64 characters)")
    responder = presentation.responder
    question = presentation.question
    stored = Response.objects.filter(responder=responder, question=question, mode=presentation.mode).first()
    if stored is not None:
        return stored, False
    clashing = Response.objects.filter(responder=responder, client_token=client_token).first()
    if clashing is not None:
        raise SubmissionError("client_token", "was already used for another answer")
    now = timezone.now()
    clue_index, clue_time_s = clue_timing(presentation, now)
    explanation = ("The player chose \u201cI don't know\u201d." if outcome == Outcome.SKIP
                   else "No answer arrived in time.")
    try:
        with transaction.atomic():
            response = Response.objects.create(
                project_id=question.project_id, question=question, responder=responder,
                mode=presentation.mode, answer_text="", option_order=presentation.option_order,
                clue_index=clue_index, clue_time_s=clue_time_s,
                buzz_position=buzz_position_for(presentation, clue_index, clue_time_s),
                latency_ms=int((now - presentation.served_at).total_seconds() * 1000),
                client_token=client_token, stage=presentation.stage,
                design=study.design, listening=listening or {}, listened_fraction=listened_fraction,
                outcome=outcome, round_id=presentation.round_id,
                correct=False, prompt=False, score=0.0, rule=outcome, rule_version=SKIP_RULE_VERSION,
                matched="", explanation=explanation, judged_at=now,
            )
    except IntegrityError:
        return Response.objects.get(responder=responder, question=question, mode=presentation.mode), False
    return response, True


def response_points(study: QuizStudy, response: Response, correct: bool | None = None) -> int:
    """The points a stored response is worth now (``correct``: its effective verdict)."""
    right = response.correct if correct is None else bool(correct)
    return scoring.points(points_rule(study), outcome=response.outcome, correct=right,
                          position=response.buzz_position)


# --- rounds and the daily challenge ------------------------------------------------


def round_open(responder: Responder) -> PlayRound | None:
    """The player's open (unfinished) ordinary round, if any."""
    return (PlayRound.objects.filter(responder=responder, kind=PlayRound.Kind.ROUND, finished_at__isnull=True)
            .order_by("-id").first())


def round_start(*, responder: Responder, study: QuizStudy, category: Category | None = None,
                chosen_mode: str = "") -> PlayRound:
    """Start a new round of ``study.round_size`` questions (an open round is closed first)."""
    now = timezone.now()
    with transaction.atomic():
        PlayRound.objects.filter(responder=responder, kind=PlayRound.Kind.ROUND,
                                 finished_at__isnull=True).update(finished_at=now)
        return PlayRound.objects.create(responder=responder, kind=PlayRound.Kind.ROUND, category=category,
                                        chosen_mode=chosen_mode or "", size=max(study.round_size, 1))


def round_answered(play_round: PlayRound) -> int:
    """Questions of the round answered so far (skips and time-outs included)."""
    return Response.objects.filter(round=play_round).count()


def round_finish_if_done(play_round: PlayRound, *, nothing_left: bool = False,
                         study: QuizStudy | None = None) -> bool:
    """Close the round once ``size`` questions are answered (or nothing is left to serve).

    A daily round is done once every question of the day's set the player could
    meet is answered (pass ``study`` to check).
    """
    if play_round.finished_at is not None:
        return True
    if play_round.kind == PlayRound.Kind.DAILY and study is not None and not nothing_left:
        nothing_left = daily_next(study=study, responder=play_round.responder, play_round=play_round) is None
    if nothing_left or round_answered(play_round) >= play_round.size:
        PlayRound.objects.filter(pk=play_round.pk, finished_at__isnull=True).update(finished_at=timezone.now())
        play_round.refresh_from_db(fields=["finished_at"])
        return True
    return False


def utc_today() -> date:
    """The daily challenge's day: the UTC date (the same worldwide at any moment)."""
    return timezone.now().astimezone(UTC).date()


def daily_question_ids(*, project: Project, day: date, size: int, study: QuizStudy | None = None) -> list[int]:
    """The day's challenge questions for everyone: :func:`quiz.scoring.daily_set` over playable ones.

    Keyed by the project's slug and each question's external id, so the set does not
    depend on database ids, insertion order or the server. When the study serves
    multiple choice only, only questions with options are drawn.
    """
    mcq_only = study is not None and studies.design_modes(study, None) == (Mode.MCQ,)
    ids = dict(studies.playable(project, mode=Mode.MCQ if mcq_only else None).values_list("external_id", "id"))
    return [ids[key] for key in scoring.daily_set(project.slug, day, ids, size)]


def daily_round(*, responder: Responder, study: QuizStudy, day: date) -> PlayRound:
    """The player's daily round of ``day`` (created on first use; one per player and day)."""
    existing = PlayRound.objects.filter(responder=responder, kind=PlayRound.Kind.DAILY, day=day).first()
    if existing:
        return existing
    try:
        with transaction.atomic():
            return PlayRound.objects.create(responder=responder, kind=PlayRound.Kind.DAILY, day=day,
                                            size=max(study.daily_size, 1))
    except IntegrityError:
        return PlayRound.objects.get(responder=responder, kind=PlayRound.Kind.DAILY, day=day)


def daily_next(*, study: QuizStudy, responder: Responder, play_round: PlayRound):
    """The next daily question for this player: a pending one, or the next unseen in the set.

    Returns a :class:`quiz.study.Serving` or :class:`Presentation`, or ``None`` when
    the player has met every question of the day's set (questions met before the
    day, in any round, are not served again: the once-per-player rule holds).
    """
    ids = daily_question_ids(project=responder.project, day=play_round.day, size=play_round.size, study=study)
    pending = (Presentation.objects.filter(round=play_round)
               .exclude(question_id__in=Response.objects.filter(round=play_round).values("question_id"))
               .select_related("question").first())
    if pending is not None:
        return pending
    seen = set(Presentation.objects.filter(responder=responder, question_id__in=ids)
               .values_list("question_id", flat=True))
    for question_id in ids:
        if question_id not in seen:
            question = Question.objects.get(pk=question_id)
            modes = studies.design_modes(study, None)
            mode = studies.mode_for_new(study=study, responder=responder, question=question, modes=modes,
                                        rng=random.SystemRandom())
            return studies.Serving(question, mode, 1)
    return None


# --- what the player sees after answering --------------------------------------------


def _effective(qs):
    from judging.selectors import effective_verdicts

    return effective_verdicts(queryset=qs)


def machines_visible(study: QuizStudy, response: Response) -> bool:
    """May the player see the machines' results and the players' share on this question now?

    Only after they answered it, never under the *none* policy (until the study
    ends), and never while the question may still be served to them in another
    mode (the MCQ stage of *free then MCQ*), whatever the policy.
    """
    if response is None or not studies.results_visible(study):
        return False
    return not studies.may_still_be_served(study, response)


def machine_results(*, question_id: int, mode: str) -> list[dict]:
    """Each model system's verdict on one question in one mode: right or wrong, per condition.

    Only the verdict: a machine's answer text would give the answer away in the
    other mode. Effective verdicts (a researcher's ruling wins).
    """
    rows = (_effective(Response.objects.filter(question_id=question_id, mode=mode, responder__kind="model"))
            .values_list("responder__system__name", "responder__condition", "effective_correct")
            .order_by("responder__system__name", "responder__condition"))
    return [{"system": s, "condition": c, "correct": bool(k)} for s, c, k in rows]


def players_share(*, question_id: int, mode: str) -> dict:
    """How many human players answered (stage 1, in ``mode``) and what share got it right."""
    row = (_effective(Response.objects.filter(question_id=question_id, mode=mode, responder__kind="human",
                                              stage=1))
           .aggregate(n=Count("id"), k=Count("id", filter=Q(effective_correct=True))))
    n = row["n"] or 0
    return {"n": n, "n_correct": row["k"] or 0, "share": (row["k"] or 0) / n if n else None}


def player_streaks(responder: Responder) -> scoring.Streaks:
    """The player's current and best runs of correct stage-1 answers (effective verdicts)."""
    results = (_effective(Response.objects.filter(responder=responder, stage=1))
               .order_by("created_at", "id").values_list("effective_correct", flat=True))
    return scoring.streaks(bool(r) for r in results)


def round_summary(*, study: QuizStudy, play_round: PlayRound) -> dict:
    """A finished round: score, points, streaks, accuracy by category, each machine on the same questions.

    Questions that may still be served in another mode are left out of the machine
    comparison. Under the *none* policy only the number answered is returned.
    """
    responses = list(
        _effective(Response.objects.filter(round=play_round))
        .select_related("question", "question__category", "responder").order_by("created_at", "id")
    )
    visible = studies.results_visible(study)
    items = [scoring.RoundItem(r.question.category.name, r.outcome, bool(r.effective_correct) if visible else False,
                               response_points(study, r, r.effective_correct) if visible else 0)
             for r in responses]
    summary = scoring.summarise(items)
    machines: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    compared = [r for r in responses if machines_visible(study, r)]
    by_mode: dict[str, list[int]] = defaultdict(list)
    for r in compared:
        by_mode[r.mode].append(r.question_id)
    you = sum(1 for r in compared if r.effective_correct)
    for mode, ids in by_mode.items():
        for s, c, k in (_effective(Response.objects.filter(question_id__in=ids, mode=mode, responder__kind="model"))
                        .values_list("responder__system__name", "responder__condition", "effective_correct")):
            machines[(s, c)][0] += 1
            machines[(s, c)][1] += int(bool(k))
    return {
        "round": play_round,
        "visible": visible,
        "summary": summary,
        "rows": [{"response": r, "points": it.points, "level": studies.feedback_level(study, r)}
                 for r, it in zip(responses, items, strict=True)],
        "compared": len(compared),
        "you_correct": you,
        "machines": [{"system": s, "condition": c, "n": n, "n_correct": k, "accuracy": k / n if n else None}
                     for (s, c), (n, k) in sorted(machines.items())],
    }


# --- leaderboards with the machines -----------------------------------------------------


def board(
    *, project: Project, study: QuizStudy, mode: str | None = None, category: Category | None = None,
    daily: date | None = None, limit: int = 50,
) -> list[dict]:
    """People and model systems in one table: accuracy, answered, points, per mode and category.

    People need the study's ``leaderboard_min_answers`` stage-1 answers to be ranked
    (not in the daily board: everyone answers the same few). Model systems appear
    as rows with their verdicts on the same kind of questions (in the daily board:
    on the day's set, one verdict per question: their free answers, or their
    MCQ answers when the study serves MCQ only). Ranked by points, then accuracy. Skips and time-outs count as
    answered and not correct.
    """
    from .selectors import handle_change_flags

    qs = Response.objects.filter(project=project, stage=1)
    if mode:
        qs = qs.filter(mode=mode)
    if category is not None:
        qs = qs.filter(question__category=category)
    if daily is not None:
        ids = daily_question_ids(project=project, day=daily, size=study.daily_size, study=study)
        # One verdict per machine and question: free answers (recall), unless the study is MCQ only.
        machine_mode = Mode.MCQ if studies.design_modes(study, None) == (Mode.MCQ,) else Mode.FREE
        qs = qs.filter(Q(responder__kind="model", question_id__in=ids, mode=mode or machine_mode)
                       | Q(responder__kind="human", round__kind=PlayRound.Kind.DAILY, round__day=daily))
    rule = points_rule(study)
    rows: dict[int, dict] = {}
    for rid, label, kind, bh, created, outcome, position, ok in _effective(qs).values_list(
        "responder_id", "responder__label", "responder__kind", "responder__browser_hash",
        "responder__created_at", "outcome", "buzz_position", "effective_correct",
    ):
        row = rows.setdefault(rid, {"responder_id": rid, "label": label, "kind": kind, "n": 0, "n_correct": 0,
                                    "points": 0, "responder__browser_hash": bh, "responder__created_at": created})
        row["n"] += 1
        row["n_correct"] += int(bool(ok))
        row["points"] += scoring.points(rule, outcome=outcome, correct=bool(ok), position=position)
    humans = [r for r in rows.values() if r["kind"] == "human"]
    flags = handle_change_flags(humans)
    minimum = 1 if daily is not None else study.leaderboard_min_answers
    ranked = [r for r in rows.values() if r["kind"] == "model" or r["n"] >= minimum]
    ranked.sort(key=lambda r: (-r["points"], -(r["n_correct"] / r["n"]), -r["n"], r["responder_id"]))
    return [
        {"label": r["label"], "machine": r["kind"] == "model", "n": r["n"], "n_correct": r["n_correct"],
         "accuracy": r["n_correct"] / r["n"], "points": r["points"], "flag": flags.get(r["responder_id"], "")}
        for r in ranked[:limit]
    ]


def versus(*, study: QuizStudy, responder: Responder) -> dict:
    """You vs the machines: on the questions you answered, how each model system did on the same ones.

    Per model system and condition, in the mode you met each question in: both
    right, only you, only the machine, neither. Questions you may still meet in
    another mode are left out.
    """
    mine = [r for r in _effective(Response.objects.filter(responder=responder, stage=1)).select_related("question")
            if machines_visible(study, r)]
    mine_by = {(r.question_id, r.mode): bool(r.effective_correct) for r in mine}
    table: dict[tuple[str, str], dict] = {}
    if mine_by:
        ids = {q for q, _m in mine_by}
        for s, c, qid, m, ok in (
            _effective(Response.objects.filter(question_id__in=ids, responder__kind="model",
                                               project_id=responder.project_id))
            .values_list("responder__system__name", "responder__condition", "question_id", "mode",
                         "effective_correct")
        ):
            if (qid, m) not in mine_by:
                continue
            row = table.setdefault((s, c), {"system": s, "condition": c, "n": 0, "both": 0, "you": 0,
                                            "machine": 0, "neither": 0, "you_correct": 0, "machine_correct": 0})
            you, it = mine_by[(qid, m)], bool(ok)
            row["n"] += 1
            row["you_correct"] += int(you)
            row["machine_correct"] += int(it)
            key = "both" if you and it else "you" if you else "machine" if it else "neither"
            row[key] += 1
    return {"n": len(mine_by), "n_correct": sum(mine_by.values()),
            "rows": [table[k] for k in sorted(table)]}


def daily_result(*, study: QuizStudy, play_round: PlayRound) -> dict:
    """A player's daily round in question order: marks (right / wrong / pass) and points."""
    ids = daily_question_ids(project=play_round.responder.project, day=play_round.day, size=play_round.size,
                             study=study)
    by_question = {r.question_id: r for r in _effective(Response.objects.filter(round=play_round))}
    visible = studies.results_visible(study)
    marks: list[bool | None] = []
    total = 0
    for qid in ids:
        r = by_question.get(qid)
        if r is None or not visible or r.outcome == "skip":
            marks.append(None)  # not served (met before), not shown, or a pass
        else:
            marks.append(bool(r.effective_correct))
        if r is not None and visible:
            total += response_points(study, r, r.effective_correct)
    return {"ids": ids, "answered": len(by_question), "marks": marks, "points": total if visible else None,
            "visible": visible}
