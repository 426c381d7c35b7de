"""Reads for judging: effective verdicts, the adjudication queue, trails, judges, rubrics,
agreement rows.

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

from .agreement_report import study_report
from .baseline import exact_match
from .models import (
    Challenge,
    ChallengeStatus,
    HumanJudgement,
    Judge,
    JudgeKind,
    LlmCall,
    Rubric,
    VerdictEvent,
    VerdictRecord,
)
from .refusal import detect_refusal

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
        verdicts=list(response.verdict_records.select_related("judge_ref").order_by("id")),
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


# ------------------------------------------------------- several judges side by side


def rubric_latest(*, project: Project, name: str) -> Rubric | None:
    """The latest version of a project's rubric, or None."""
    return Rubric.objects.filter(project=project, name=name).order_by("-version").first()


def rubrics_list(*, project: Project) -> list[Rubric]:
    """The latest version of each of a project's rubrics (by name)."""
    latest: dict[str, Rubric] = {}
    for rubric in Rubric.objects.filter(project=project).order_by("name", "-version"):
        latest.setdefault(rubric.name, rubric)
    return list(latest.values())


def rubric_versions(*, project: Project, name: str) -> QuerySet[Rubric]:
    """Every version of one rubric, newest first."""
    return Rubric.objects.filter(project=project, name=name).order_by("-version")


def judges_for_project(*, project: Project) -> list[Judge]:
    """Registered LLM judges with at least one verdict on this project's answers."""
    ids = (
        VerdictRecord.objects.filter(response__project=project, judge_ref__kind=JudgeKind.LLM)
        .values_list("judge_ref", flat=True).distinct()
    )
    return list(Judge.objects.filter(pk__in=list(ids)).order_by("name", "id"))


@dataclass(frozen=True)
class StudyRows:
    """Rows for judging.agreement_report and the judges (with their scales) they name."""

    rows: list[dict]
    judges: list[str]
    scales: dict[str, str]


def agreement_study_rows(*, project: Project) -> StudyRows:
    """One row per free answer of the project with every judge's verdict on it.

    Judges: ``exact`` (normalized exact match), ``rules@<version>`` (the rule
    verdict stored on the response, named by its rule version) and each registered
    LLM judge whose latest verdict (grey-zone ``added`` or ``study``) is on the
    same answer text. The human label is the latest human judgement (from
    adjudication, challenges, the API or imported labels); rows without one still
    count for rankings and refusals. Three queries, whatever the number of judges.
    """
    qs = (
        effective_verdicts(project=project, mode=Mode.FREE)
        .select_related("question", "question__category", "responder", "responder__system")
        .order_by("id")
    )
    responses = list(qs)
    by_id = {r.pk: r for r in responses}
    llm_verdicts: dict[int, dict[str, dict]] = {}
    scales: dict[str, str] = {}
    records = (
        VerdictRecord.objects.filter(
            response__project=project, judge_ref__kind=JudgeKind.LLM,
            event__in=[VerdictEvent.ADDED, VerdictEvent.STUDY],
        )
        .select_related("judge_ref")
        .only("response_id", "answer_text", "correct", "score", "quality", "judge_ref__name",
              "judge_ref__purpose")
        .order_by("id")
    )
    for record in records.iterator(chunk_size=2000):
        response = by_id.get(record.response_id)
        if response is None or record.answer_text != response.answer_text:
            continue
        judge = record.judge_ref
        scales[judge.name] = judge.purpose
        score = record.quality if judge.purpose == "quality" else record.score
        llm_verdicts.setdefault(record.response_id, {})[judge.name] = {
            "correct": record.correct if judge.purpose == "verdict" else None,
            "score": None if score is None else float(score),
        }
    rules_names: set[str] = set()
    rows = []
    for r in responses:
        question, responder = r.question, r.responder
        rules = f"rules@{r.rule_version}"
        rules_names.add(rules)
        exact = exact_match(r.answer_text, question.answerline)
        verdicts = {
            "exact": {"correct": exact, "score": 1.0 if exact else 0.0},
            rules: {"correct": bool(r.correct), "score": float(r.score)},
            **llm_verdicts.get(r.pk, {}),
        }
        metadata = question.metadata or {}
        is_model = responder.system_id is not None
        rows.append({
            "response_id": r.pk,
            "question_id": question.external_id,
            "system": responder.label if is_model else "human players",
            "model": responder.system.name if is_model else "",
            "condition": responder.condition or ("human" if not is_model else "default"),
            "language": metadata.get("language") or "unknown",
            "task": metadata.get("task") or question.category.name,
            "answer": r.answer_text,
            "refusal": detect_refusal(r.answer_text),
            "human_correct": r.human_correct,
            "human_score": r.human_quality,
            "effective_correct": bool(r.effective_correct),
            "verdicts": verdicts,
        })
    judges = ["exact", *sorted(rules_names), *sorted(scales)]
    scales.update(dict.fromkeys(["exact", *rules_names], "verdict"))
    return StudyRows(rows=rows, judges=judges, scales=scales)


def agreement_study_report(*, project: Project, n_boot: int = 1000, seed: int = 0) -> dict:
    """The agreement report of a project (what the page, the JSON, the CSV and the API show)."""
    study = agreement_study_rows(project=project)
    return {"project": project.slug,
            **study_report(study.rows, study.judges, scales=study.scales, n_boot=n_boot, seed=seed)}


def llm_calls_summary() -> dict[str, int]:
    """How many LLM calls are cached (ok / failed) -- for the docs and the admin."""
    return {
        "ok": LlmCall.objects.filter(parsed__isnull=False, error="").count(),
        "failed": LlmCall.objects.filter(~Q(error="")).count(),
    }
