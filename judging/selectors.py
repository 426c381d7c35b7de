"""Reads for judging: effective verdicts, the adjudication queue, trails, agreement rows.

**Effective verdict** -- the one every report should use (IRT fits, dashboards,
exports): the latest human judgement (override) if there is one, else the latest
LLM verdict on the same answer text (only present for grey-zone responses the LLM
judge was run on; pass ``use_llm=False`` to ignore it), else the rule engine's
verdict stored on ``quiz.Response``. See docs/judging-workflow.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import (
    BooleanField,
    Case,
    CharField,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Abs, Coalesce

from accounts.models import Project
from quiz.models import Mode, Response

from .baseline import exact_match
from .models import Challenge, ChallengeStatus, HumanJudgement, LlmCall, VerdictEvent, VerdictRecord

#: Default grey zone of calibrated scores: verdicts in [low, high] are uncertain.
DEFAULT_GREY_ZONE = (0.3, 0.7)


def grey_zone() -> tuple[float, float]:
    """The configured grey zone (``EARSHOT_JUDGE_GREY_ZONE`` setting, default 0.3-0.7)."""
    low, high = getattr(settings, "EARSHOT_JUDGE_GREY_ZONE", DEFAULT_GREY_ZONE)
    return float(low), float(high)


def _latest_human() -> QuerySet[HumanJudgement]:
    return HumanJudgement.objects.filter(response=OuterRef("pk")).order_by("-id")


def _latest_llm(field: str = "correct") -> QuerySet[VerdictRecord]:
    return VerdictRecord.objects.filter(
        response=OuterRef("pk"),
        judge__startswith="llm:",
        event=VerdictEvent.ADDED,
        answer_text=OuterRef("answer_text"),
        **{f"{field}__isnull": False},
    ).order_by("-id")


def effective_verdicts(
    *, project: Project | None = None, mode: str | None = None, use_llm: bool = True,
    queryset: QuerySet[Response] | None = None,
) -> QuerySet[Response]:
    """Responses annotated with their effective verdict (human > LLM > rules).

    Annotations: ``human_correct``, ``human_quality`` (latest human judgement, or
    None), ``llm_correct`` (latest LLM verdict on this answer text, or None),
    ``llm_quality`` (latest LLM 0-5 score, or None), ``effective_correct`` (bool)
    and ``verdict_source`` (``"human"``, ``"llm"`` or ``"rules"``). One query, no N+1.
    """
    qs = queryset if queryset is not None else Response.objects.all()
    if project is not None:
        qs = qs.filter(project=project)
    if mode:
        qs = qs.filter(mode=mode)
    qs = qs.annotate(
        human_correct=Subquery(_latest_human().values("correct")[:1], output_field=BooleanField()),
        human_quality=Subquery(_latest_human().values("quality")[:1]),
        llm_quality=Subquery(_latest_llm("quality").values("quality")[:1]),
    )
    if use_llm:
        qs = qs.annotate(
            llm_correct=Subquery(_latest_llm().values("correct")[:1], output_field=BooleanField())
        )
    else:
        qs = qs.annotate(llm_correct=Value(None, output_field=BooleanField()))
    return qs.annotate(
        effective_correct=Coalesce("human_correct", "llm_correct", "correct", output_field=BooleanField()),
        verdict_source=Case(
            When(human_correct__isnull=False, then=Value("human")),
            When(llm_correct__isnull=False, then=Value("llm")),
            default=Value("rules"),
            output_field=CharField(),
        ),
    )


def effective_correct(response: Response, *, use_llm: bool = True) -> bool:
    """The effective verdict of one response (human > LLM > rules)."""
    human = HumanJudgement.objects.filter(response=response).order_by("-id").first()
    if human is not None:
        return human.correct
    if use_llm:
        llm = (
            VerdictRecord.objects.filter(
                response=response, judge__startswith="llm:", event=VerdictEvent.ADDED,
                answer_text=response.answer_text, correct__isnull=False,
            ).order_by("-id").first()
        )
        if llm is not None:
            return bool(llm.correct)
    return response.correct


def has_override(response: Response) -> bool:
    """Whether a human judgement exists for the response."""
    return HumanJudgement.objects.filter(response=response).exists()


def grey_zone_responses(
    *, project: Project | None, low: float, high: float, include_overridden: bool = False
) -> QuerySet[Response]:
    """Free-answer responses whose rule score lies in ``[low, high]``."""
    qs = Response.objects.filter(mode=Mode.FREE, score__gte=low, score__lte=high)
    if project is not None:
        qs = qs.filter(project=project)
    if not include_overridden:
        qs = qs.exclude(Exists(HumanJudgement.objects.filter(response=OuterRef("pk"))))
    return qs.order_by("id")


@dataclass(frozen=True)
class QueueItem:
    """One row of the adjudication queue."""

    response: Response
    challenge: Challenge | None
    reason: str  # "challenge" or "grey-zone"


def adjudication_queue(
    *, project: Project, low: float, high: float, limit: int = 200
) -> list[QueueItem]:
    """Open challenges first, then grey-zone free answers nobody has judged yet.

    Grey-zone answers come least confident first (score closest to 0.5).
    """
    related = ("question", "question__category", "responder")
    challenges = list(
        Challenge.objects.filter(response__project=project, status=ChallengeStatus.OPEN)
        .select_related(*(f"response__{r}" for r in related))
        .order_by("created_at", "id")[:limit]
    )
    items = [QueueItem(c.response, c, "challenge") for c in challenges]
    seen = {c.response_id for c in challenges}
    grey = (
        effective_verdicts(project=project, queryset=grey_zone_responses(project=project, low=low, high=high))
        .select_related(*related)
        .annotate(confidence=Abs(F("score") - 0.5))
        .order_by("confidence", "id")[: max(limit - len(items), 0)]
    )
    items.extend(QueueItem(r, None, "grey-zone") for r in grey if r.pk not in seen)
    return items


def human_judgements_list(*, project: Project, limit: int | None = None) -> QuerySet[HumanJudgement]:
    """Human judgements of a project, newest first (the adjudication trail)."""
    qs = (
        HumanJudgement.objects.filter(response__project=project)
        .select_related("response", "response__question", "response__responder", "by")
        .order_by("-id")
    )
    return qs[:limit] if limit else qs


def challenges_list(*, project: Project, status: str | None = None) -> QuerySet[Challenge]:
    """Challenges of a project (optionally by status), oldest first."""
    qs = Challenge.objects.filter(response__project=project).select_related(
        "response", "response__question", "response__responder", "resolved_by"
    )
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("created_at", "id")


@dataclass(frozen=True)
class Trail:
    """Everything recorded about one response's verdict, oldest first."""

    response: Response
    verdicts: list[VerdictRecord]
    judgements: list[HumanJudgement]
    challenge: Challenge | None
    effective: bool


def response_trail(response: Response) -> Trail:
    """The adjudication trail of one response."""
    return Trail(
        response=response,
        verdicts=list(response.verdict_records.order_by("id")),
        judgements=list(response.human_judgements.select_related("by").order_by("id")),
        challenge=Challenge.objects.filter(response=response).first(),
        effective=effective_correct(response),
    )


AGREEMENT_JUDGES = ("exact", "rules", "llm", "rules+llm")


def agreement_rows(*, project: Project) -> list[dict]:
    """One row per free answer with a human judgement: the human's and each judge's call.

    Judges: ``exact`` (normalized exact match, the baseline), ``rules`` (the stored
    rule verdict; score = calibrated probability), ``llm`` (latest LLM verdict on
    the same answer, None when the LLM did not judge it; score = its 0-5 quality),
    ``rules+llm`` (the LLM verdict where there is one, else the rules).
    """
    qs = (
        effective_verdicts(project=project, mode=Mode.FREE)
        .filter(human_correct__isnull=False)
        .select_related("question", "question__category", "responder")
        .order_by("id")
    )
    rows = []
    for r in qs:
        llm = r.llm_correct
        rows.append(
            {
                "response_id": r.pk,
                "question_id": r.question.external_id,
                "category": r.question.category.name,
                "language": (r.question.metadata or {}).get("language") or "unknown",
                "human_correct": bool(r.human_correct),
                "human_score": r.human_quality,
                "exact_correct": exact_match(r.answer_text, r.question.answerline),
                "exact_score": None,
                "rules_correct": r.correct,
                "rules_score": r.score,
                "llm_correct": llm,
                "llm_score": r.llm_quality,
                "rules+llm_correct": llm if llm is not None else r.correct,
                "rules+llm_score": r.score,
            }
        )
    for row in rows:
        row["exact_score"] = 1.0 if row["exact_correct"] else 0.0
    return rows


def llm_calls_summary() -> dict[str, int]:
    """How many LLM calls are cached (ok / failed) -- for the docs and the admin."""
    return {
        "ok": LlmCall.objects.filter(parsed__isnull=False, error="").count(),
        "failed": LlmCall.objects.filter(~Q(error="")).count(),
    }
