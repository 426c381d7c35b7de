"""Reads for the quiz: a player's history and accuracy, the leaderboard, who may hear a clip.

What to serve next lives in :mod:`quiz.study` (it depends on the study design).
Accuracies here count independent (stage 1) answers only: the multiple-choice
answer given after a free answer to the same question is not an independent one.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from accounts.models import Project

from .models import Clip, Presentation, PresentationEvent, QuizStudy, Responder, Response


def _effective(queryset: QuerySet[Response]) -> QuerySet[Response]:
    """Annotate ``effective_correct``: an adjudicator's ruling wins over the automatic one."""
    from judging.selectors import effective_verdicts

    return effective_verdicts(queryset=queryset)


def responder_history(*, responder: Responder, limit: int = 200) -> QuerySet[Response]:
    """A responder's latest responses, newest first, with their effective verdicts."""
    return (
        _effective(Response.objects.filter(responder=responder))
        .select_related("question", "question__category", "challenge")
        .order_by("-created_at", "-id")[:limit]
    )


def responder_history_for_player(*, study: QuizStudy, responder: Responder, limit: int = 200) -> list[dict]:
    """The player's own history, each row cut to what the feedback policy lets them see.

    ``level`` is ``"full"`` (verdict and why), ``"correctness"`` (right or wrong) or
    ``"none"`` (only that an answer was recorded). An answer given while the
    question could still be served in another mode never shows more than right or
    wrong, whatever the policy says now.
    """
    from . import study as studies
    from .rulings import player_ruling

    rows = []
    for response in responder_history(responder=responder, limit=limit):
        level = studies.feedback_level(study, response)
        challenge = getattr(response, "challenge", None)
        status = challenge.status if challenge is not None else ""
        overruled = response.effective_correct != response.correct
        rows.append({
            "response": response,
            "level": level,
            "correct": response.effective_correct if level != "none" else None,
            "overruled": overruled,
            "challenge_status": status if level != "none" else "",
            # One plain sentence (D12); the judge's own explanation is for researchers.
            "ruling": player_ruling(outcome=response.outcome, correct=bool(response.effective_correct),
                                    mode=response.mode, prompted=response.prompted, overruled=overruled,
                                    challenge_status=status) if level != "none" else "",
            "explanation": response.explanation if level == "full" else "",
        })
    return rows


def responder_accuracy_by_category(*, responder: Responder) -> list[dict]:
    """Per category and mode: number answered, number correct and accuracy (stage 1 answers)."""
    rows = (
        _effective(Response.objects.filter(responder=responder, stage=1))
        .values("question__category__name", "mode")
        .annotate(n=Count("id"), n_correct=Count("id", filter=Q(effective_correct=True)))
        .order_by("question__category__name", "mode")
    )
    return [
        {
            "category": row["question__category__name"],
            "mode": row["mode"],
            "n": row["n"],
            "n_correct": row["n_correct"],
            "accuracy": row["n_correct"] / row["n"] if row["n"] else 0.0,
        }
        for row in rows
    ]


#: A later player in the same browser whose accuracy is this much higher than an
#: earlier one's is flagged (a handle change after learning the answers).
JUMP_FLAG = 0.3


def leaderboard(
    *, project: Project, study: QuizStudy | None = None, mode: str | None = None, limit: int = 20
) -> list[dict]:
    """Human players ranked by number correct (then accuracy); pseudonymous labels only.

    Only players with at least the study's ``leaderboard_min_answers`` stage-1
    answers are ranked. A player is ``flagged`` when an earlier player in the same
    browser had a much lower accuracy: the pattern of learning answers under one
    handle and scoring under another.
    """
    minimum = study.leaderboard_min_answers if study is not None else 1
    qs = _effective(Response.objects.filter(project=project, responder__kind="human", stage=1))
    if mode:
        qs = qs.filter(mode=mode)
    stats = list(
        qs.values("responder_id", "responder__label", "responder__browser_hash", "responder__created_at")
        .annotate(n=Count("id"), n_correct=Count("id", filter=Q(effective_correct=True)))
    )
    flagged = handle_change_flags(stats)
    ranked = sorted(
        (row for row in stats if row["n"] >= minimum),
        key=lambda r: (-r["n_correct"], r["n"], r["responder_id"]),
    )[:limit]
    return [
        {
            "label": row["responder__label"],
            "n": row["n"],
            "n_correct": row["n_correct"],
            "accuracy": row["n_correct"] / row["n"] if row["n"] else 0.0,
            "flag": flagged.get(row["responder_id"], ""),
        }
        for row in ranked
    ]


def handle_change_flags(stats: list[dict]) -> dict[int, str]:
    """Responder id -> why it is flagged: a later player in the same browser scoring much higher.

    ``stats`` rows carry ``responder_id``, ``responder__browser_hash``,
    ``responder__created_at``, ``n`` and ``n_correct``.
    """
    by_browser: dict[str, list[dict]] = defaultdict(list)
    for row in stats:
        if row["responder__browser_hash"]:
            by_browser[row["responder__browser_hash"]].append(row)
    flagged: dict[int, str] = {}
    for rows in by_browser.values():
        rows.sort(key=lambda r: (r["responder__created_at"], r["responder_id"]))
        for earlier_index, earlier in enumerate(rows):
            for later in rows[earlier_index + 1:]:
                jump = later["n_correct"] / later["n"] - earlier["n_correct"] / earlier["n"]
                if jump >= JUMP_FLAG:
                    flagged[later["responder_id"]] = (
                        f"accuracy rose by {jump:.0%} after a new name in the same browser"
                    )
    return flagged


def clip_presentation_for_player(*, user, clip: Clip) -> Presentation | None:
    """The presentation through which ``user`` may hear ``clip`` now, if any.

    A clip is audible once it was served: any clip of a non-pyramidal question, a
    pyramidal clue whose position the server has revealed, or every clue of a
    question the player has answered.
    """
    if not user.is_authenticated:
        return None
    from .models import QuestionClip

    positions = dict(
        QuestionClip.objects.filter(clip=clip, question__project_id=clip.project_id)
        .values_list("question_id", "position")
    )
    presentations = Presentation.objects.filter(
        responder__user=user, question_id__in=list(positions)
    ).select_related("question").order_by("-id")
    answered = set(
        Response.objects.filter(responder__user=user, question_id__in=list(positions))
        .values_list("question_id", "mode")
    )
    for presentation in presentations:
        if (
            not presentation.question.pyramidal
            or positions[presentation.question_id] < presentation.clues_revealed
            or (presentation.question_id, presentation.mode) in answered
        ):
            return presentation
    return None


def audio_fetch_record(*, presentation: Presentation, clip: Clip, range_header: str) -> None:
    """Note the first fetch of each clip of a presentation (the server-side listening timeline)."""
    from .models import QuestionClip

    position = (
        QuestionClip.objects.filter(question_id=presentation.question_id, clip=clip)
        .values_list("position", flat=True).first()
    )
    if PresentationEvent.objects.filter(
        presentation=presentation, kind=PresentationEvent.Kind.AUDIO, clue_index=position
    ).exists():
        return
    PresentationEvent.objects.create(
        presentation=presentation, kind=PresentationEvent.Kind.AUDIO, clue_index=position,
        detail={"range": range_header[:60]}, at=timezone.now(),
    )
