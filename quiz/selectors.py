"""Reads for the quiz: what to serve next, a player's history and accuracy."""

from __future__ import annotations

import random

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from accounts.models import Project

from .models import Category, Mode, Presentation, Question, Responder, Response


def playable_questions(*, project: Project, mode: str, category: Category | None = None) -> QuerySet[Question]:
    """Active questions of the project that can be played in ``mode``."""
    qs = Question.objects.filter(project=project, is_active=True, question_clips__isnull=False)
    if mode == Mode.MCQ:
        qs = qs.filter(correct_choice__isnull=False)
    if category is not None:
        qs = qs.filter(category=category)
    return qs.distinct()


def question_next(
    *, responder: Responder, mode: str, category: Category | None = None,
    rng: random.Random | None = None,
) -> Question | None:
    """The next question for a responder: a served-but-unanswered one first, else a random new one."""
    answered = Response.objects.filter(responder=responder, question=OuterRef("pk"), mode=mode)
    remaining = playable_questions(project=responder.project, mode=mode, category=category).exclude(
        Exists(answered)
    )
    served = Presentation.objects.filter(responder=responder, mode=mode, question=OuterRef("pk"))
    pending = remaining.filter(Exists(served)).order_by("id").first()
    if pending:
        return pending
    ids = list(remaining.values_list("id", flat=True))
    if not ids:
        return None
    return Question.objects.get(pk=(rng or random.SystemRandom()).choice(ids))


def questions_remaining(*, responder: Responder, mode: str, category: Category | None = None) -> int:
    """How many playable questions the responder has not answered in ``mode``."""
    answered = Response.objects.filter(responder=responder, question=OuterRef("pk"), mode=mode)
    return (
        playable_questions(project=responder.project, mode=mode, category=category)
        .exclude(Exists(answered))
        .count()
    )


def _effective(queryset: QuerySet[Response]) -> QuerySet[Response]:
    """Annotate ``effective_correct``: an adjudicator's ruling wins over the automatic one."""
    from judging.selectors import effective_verdicts

    return effective_verdicts(queryset=queryset)


def responder_history(*, responder: Responder, limit: int = 200) -> QuerySet[Response]:
    """A responder's latest responses, newest first, with their effective verdicts."""
    return (
        _effective(Response.objects.filter(responder=responder))
        .select_related("question", "question__category")
        .order_by("-created_at", "-id")[:limit]
    )


def responder_accuracy_by_category(*, responder: Responder) -> list[dict]:
    """Per category and mode: number answered, number correct and accuracy."""
    rows = (
        _effective(Response.objects.filter(responder=responder))
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


def leaderboard(*, project: Project, mode: str | None = None, limit: int = 20) -> list[dict]:
    """Human players ranked by number correct (then accuracy); pseudonymous labels only."""
    qs = _effective(Response.objects.filter(project=project, responder__kind="human"))
    if mode:
        qs = qs.filter(mode=mode)
    rows = (
        qs.values("responder_id", "responder__label")
        .annotate(n=Count("id"), n_correct=Count("id", filter=Q(effective_correct=True)))
        .order_by("-n_correct", "n", "responder_id")[:limit]
    )
    return [
        {
            "label": row["responder__label"],
            "n": row["n"],
            "n_correct": row["n_correct"],
            "accuracy": row["n_correct"] / row["n"] if row["n"] else 0.0,
        }
        for row in rows
    ]
