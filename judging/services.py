"""Writes for judging: overrides, challenges, re-scoring, label imports.

The judge registry, rubrics and LLM judge runs are in ``judging.judge_services``;
their names are re-exported here, so ``services.llm_judge_run`` keeps working.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts.models import Project
from quiz.importing import ImportFailed, Problem
from quiz.models import Mode, ModelSystem, Question, Responder, ResponderKind, Response

from . import selectors
from .equivalence import EQUIVALENCE_VERSION, judge_many
from .errors import JudgingError
from .judge_services import (
    LLM_SCOPES,
    LlmRunReport,
    judge_register,
    llm_config,
    llm_judge_run,
    prompt_resolve,
    rubric_save,
    rules_judge,
)
from .models import (
    Challenge,
    ChallengeStatus,
    HumanJudgement,
    JudgementSource,
    VerdictEvent,
    VerdictRecord,
)

__all__ = [  # the judge registry, rubrics and LLM runs live in judging.judge_services
    "LLM_SCOPES",
    "JudgingError",
    "LlmRunReport",
    "challenge_resolve",
    "challenge_submit",
    "human_labels_from_campaign",
    "human_labels_import",
    "judge_register",
    "llm_config",
    "llm_judge_run",
    "override_set",
    "prompt_resolve",
    "responses_rescore",
    "rubric_save",
    "rules_judge",
]


# --------------------------------------------------------------------- overrides


def override_set(
    *,
    response: Response,
    correct: bool,
    by=None,
    note: str = "",
    quality: int | None = None,
    source: str = JudgementSource.ADJUDICATION,
    annotator: str = "",
) -> HumanJudgement:
    """Record a human judgement on ``response``; it wins over every automatic verdict.

    Open challenges of the response are resolved by it: upheld when the human says
    correct, rejected otherwise. The automatic verdict on the response is untouched.
    """
    if quality is not None and not 0 <= int(quality) <= 5:
        raise JudgingError("quality", "must be between 0 and 5")
    with transaction.atomic():
        judgement = HumanJudgement.objects.create(
            response=response,
            correct=bool(correct),
            quality=quality,
            by=by,
            annotator=annotator[:120],
            source=source,
            note=(note or "").strip()[:2000],
        )
        now = timezone.now()
        Challenge.objects.filter(response=response, status=ChallengeStatus.OPEN).update(
            status=ChallengeStatus.UPHELD if correct else ChallengeStatus.REJECTED,
            resolved_by=by,
            resolved_at=now,
            judgement=judgement,
        )
    return judgement


# -------------------------------------------------------------------- challenges


def challenge_submit(*, response: Response, by, text: str = "") -> tuple[Challenge, bool]:
    """A player asks that their (wrongly judged) answer count; idempotent per response.

    Only the human player who gave the answer may challenge it, and only while its
    effective verdict is *wrong*. Returns ``(challenge, created)``.
    """
    responder = response.responder
    if responder.kind != ResponderKind.HUMAN or responder.user_id != getattr(by, "pk", None):
        raise JudgingError("response_id", "you can only challenge your own answers")
    existing = Challenge.objects.filter(response=response).first()
    if existing:
        return existing, False
    if response.outcome != "answer":
        raise JudgingError("response_id", "a pass or a time-out has no answer to challenge")
    if selectors.effective_correct(response):
        raise JudgingError("response_id", "this answer was already judged correct")
    text = (text or "").strip()
    if len(text) > 1000:
        raise JudgingError("text", "is longer than 1000 characters")
    try:
        with transaction.atomic():
            return Challenge.objects.create(response=response, by=by, text=text), True
    except IntegrityError:
        return Challenge.objects.get(response=response), False


def challenge_resolve(*, challenge: Challenge, by, upheld: bool, note: str = "") -> Challenge:
    """Resolve a challenge by recording the researcher's judgement (see override_set)."""
    if challenge.status != ChallengeStatus.OPEN:
        raise JudgingError("challenge", f"is already {challenge.status}")
    override_set(
        response=challenge.response, correct=upheld, by=by, note=note,
        source=JudgementSource.CHALLENGE,
    )
    challenge.refresh_from_db()
    return challenge


# ---------------------------------------------------------------------- rescore


@dataclass(frozen=True)
class RescoreChange:
    """One verdict that a re-score changed (or would change, in a dry run)."""

    response_id: int
    question_id: str
    responder: str
    answer: str
    old_correct: bool
    old_prompt: bool
    old_score: float
    old_rule: str
    old_version: str
    new_correct: bool
    new_prompt: bool
    new_score: float
    new_rule: str
    overridden: bool

    @property
    def flipped(self) -> bool:
        """The decision changed (not only score, rule or version)."""
        return (self.old_correct, self.old_prompt) != (self.new_correct, self.new_prompt)


@dataclass
class RescoreReport:
    """What a re-score looked at and did."""

    version: str
    dry_run: bool
    examined: int = 0
    updated: int = 0
    unchanged: int = 0
    overridden: int = 0
    changes: list[RescoreChange] = field(default_factory=list)

    @property
    def flipped(self) -> int:
        return sum(1 for c in self.changes if c.flipped)


def _verdict_fields(v) -> dict:
    return {
        "correct": bool(v.correct),
        "prompt": bool(v.prompt),
        "score": float(v.score),
        "rule": v.rule[:60],
        "rule_version": EQUIVALENCE_VERSION,
        "matched": v.matched or "",
        "explanation": v.explanation,
    }


_VERDICT_FIELDS = ("correct", "prompt", "score", "rule", "rule_version", "matched", "explanation")


def responses_rescore(
    *, project: Project | None = None, all_versions: bool = False, dry_run: bool = False,
    batch_size: int = 2000,
) -> RescoreReport:
    """Re-judge stored free answers whose rule version is not the current one.

    With ``all_versions`` every free answer is re-judged (e.g. after answerlines
    changed). For a response without a human judgement the old verdict is kept as a
    ``superseded`` :class:`VerdictRecord` and the new one replaces it on the
    response. A response with a human judgement is never touched: the new
    automatic verdict is only recorded as ``shadowed`` (once per rule version and
    answer). Running it twice changes nothing the second time.
    """
    report = RescoreReport(version=EQUIVALENCE_VERSION, dry_run=dry_run)
    # Skips and time-outs (quiz.models.Outcome) have no answer to judge.
    qs = Response.objects.filter(mode=Mode.FREE, outcome="answer")
    if project is not None:
        qs = qs.filter(project=project)
    if not all_versions:
        qs = qs.exclude(rule_version=EQUIVALENCE_VERSION)
    qs = qs.annotate(
        overridden=Exists(HumanJudgement.objects.filter(response=OuterRef("pk"))),
        shadow_done=Exists(
            VerdictRecord.objects.filter(
                response=OuterRef("pk"), judge="rules", event=VerdictEvent.SHADOWED,
                rule_version=EQUIVALENCE_VERSION, answer_text=OuterRef("answer_text"),
            )
        ),
    ).select_related("question", "responder").order_by("id")
    last_id = 0
    while True:
        batch = list(qs.filter(id__gt=last_id)[:batch_size])
        if not batch:
            break
        last_id = batch[-1].pk
        verdicts = judge_many(
            [r.answer_text for r in batch],
            [r.question.answerline for r in batch],
            [r.question.prompt for r in batch],
        )
        records: list[VerdictRecord] = []
        updates: list[Response] = []
        current = rules_judge()
        for response, verdict in zip(batch, verdicts, strict=True):
            report.examined += 1
            new = _verdict_fields(verdict)
            old = {f: getattr(response, f) for f in _VERDICT_FIELDS}
            if response.overridden:
                report.overridden += 1
                if response.shadow_done:
                    continue
                records.append(VerdictRecord(
                    response=response, judge="rules", judge_ref=current, event=VerdictEvent.SHADOWED,
                    answer_text=response.answer_text, **new,
                ))
            elif new == old:
                report.unchanged += 1
                continue
            else:
                report.updated += 1
                records.append(VerdictRecord(
                    response=response, judge="rules", judge_ref=rules_judge(old["rule_version"]),
                    event=VerdictEvent.SUPERSEDED, answer_text=response.answer_text, **old,
                ))
                for key, value in new.items():
                    setattr(response, key, value)
                response.judged_at = timezone.now()
                updates.append(response)
            decision_changed = (old["correct"], old["prompt"], old["rule"]) != (
                new["correct"], new["prompt"], new["rule"]
            ) or abs(old["score"] - new["score"]) > 1e-9
            if decision_changed:
                report.changes.append(RescoreChange(
                    response_id=response.pk,
                    question_id=response.question.external_id,
                    responder=response.responder.label,
                    answer=response.answer_text,
                    old_correct=old["correct"], old_prompt=old["prompt"], old_score=old["score"],
                    old_rule=old["rule"], old_version=old["rule_version"],
                    new_correct=new["correct"], new_prompt=new["prompt"], new_score=new["score"],
                    new_rule=new["rule"], overridden=bool(response.overridden),
                ))
        if dry_run:
            continue
        with transaction.atomic():
            VerdictRecord.objects.bulk_create(records)
            Response.objects.bulk_update(updates, [*_VERDICT_FIELDS, "judged_at"])
    return report


# ----------------------------------------------------------------- label import


@dataclass
class LabelImportSummary:
    """What a label import did."""

    created: int = 0
    unchanged: int = 0


def _label_rows(path: Path, project: Project) -> list[tuple[int, Response, bool, int | None, str]]:
    file = path.name
    problems: list[Problem] = []
    rows: list[tuple[int, Response, bool, int | None, str]] = []
    if not path.exists():
        raise ImportFailed([Problem(file, 0, "", "file not found")])
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:
        raise ImportFailed([Problem(file, 0, "", f"file is not UTF-8 text ({exc.reason})")]) from exc
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            problems.append(Problem(file, number, "", f"malformed JSON ({exc.msg} at column {exc.colno})"))
            continue
        if not isinstance(record, dict):
            problems.append(Problem(file, number, "", "each line must be a JSON object"))
            continue
        before = len(problems)
        response = _label_response(record, project, problems, file, number)
        correct = record.get("human_correct")
        if not isinstance(correct, bool):
            problems.append(Problem(file, number, "human_correct", "is required and must be true or false"))
        score = record.get("human_score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 5):
            problems.append(Problem(file, number, "human_score", "must be an integer from 0 to 5"))
        annotator = record.get("annotator") or ""
        if not isinstance(annotator, str) or len(annotator) > 120:
            problems.append(Problem(file, number, "annotator", "must be a string of at most 120 characters"))
        if len(problems) == before and response is not None:
            rows.append((number, response, bool(correct), score, annotator))
    if not problems and not rows:
        problems.append(Problem(file, 0, "", "no rows found"))
    if problems:
        raise ImportFailed(problems)
    return rows


def _label_response(record: dict, project: Project, problems: list[Problem], file: str,
                    line: int) -> Response | None:
    if record.get("response_id") not in (None, ""):
        try:
            rid = int(record["response_id"])
        except (TypeError, ValueError):
            problems.append(Problem(file, line, "response_id", "must be an integer"))
            return None
        response = Response.objects.filter(project=project, pk=rid).first()
        if response is None:
            problems.append(Problem(file, line, "response_id", f"no response #{rid} in project {project.slug!r}"))
        return response
    missing = [k for k in ("question_id", "system") if not record.get(k)]
    if missing:
        problems.append(Problem(file, line, missing[0], "is required (or give response_id)"))
        return None
    question = Question.objects.filter(project=project, external_id=str(record["question_id"])).first()
    if question is None:
        problems.append(Problem(file, line, "question_id", f"unknown question {record['question_id']!r}"))
        return None
    system = ModelSystem.objects.filter(project=project, name=str(record["system"])).first()
    condition = str(record.get("condition") or "default")
    responder = (
        Responder.objects.filter(project=project, system=system, condition=condition).first()
        if system else None
    )
    if responder is None:
        problems.append(Problem(file, line, "system", f"no responder {record['system']!r} ({condition})"))
        return None
    mode = str(record.get("mode") or Mode.FREE)
    response = Response.objects.filter(responder=responder, question=question, mode=mode).first()
    if response is None:
        problems.append(Problem(file, line, "question_id", f"{record['system']} has no {mode} answer to {question.external_id!r}"))
    return response


def human_labels_import(*, project: Project, path: Path, by=None) -> LabelImportSummary:
    """Import human labels (JSONL) as human judgements; all rows valid or nothing written.

    Rows: ``{"response_id": 12, "human_correct": true, "human_score": 4, "annotator": "a1"}``
    or ``{"question_id", "system", "condition", "mode"}`` instead of ``response_id``.
    Re-importing the same file adds nothing (an identical latest judgement is kept).
    """
    rows = _label_rows(Path(path), project)
    summary = LabelImportSummary()
    with transaction.atomic():
        for _line, response, correct, score, annotator in rows:
            latest = HumanJudgement.objects.filter(response=response).order_by("-id").first()
            if latest and (latest.correct, latest.quality, latest.annotator, latest.source) == (
                correct, score, annotator, JudgementSource.IMPORT
            ):
                summary.unchanged += 1
                continue
            override_set(response=response, correct=correct, quality=score, by=by,
                         annotator=annotator, source=JudgementSource.IMPORT)
            summary.created += 1
    return summary


# ------------------------------------------------------- labels from a campaign


@dataclass
class CampaignLabelSummary:
    """What turning a campaign's ratings into human judgements did."""

    created: int = 0
    unchanged: int = 0
    undecided: list[str] = field(default_factory=list)  # "item: reason"


def human_labels_from_campaign(*, project: Project, campaign_slug: str, by=None) -> CampaignLabelSummary:
    """Human judgements from an annotation campaign's ratings of responses.

    Each regular item must name its response in ``metadata.response_id`` (a free
    answer of this project). Its ratings (criterion ``correct`` yes/no and/or
    ``quality`` 0-5) are aggregated by :func:`judging.human_labels.aggregate_item`;
    items with a tie or no usable rating are reported as undecided and left out.
    Any item naming no or an unknown response aborts the whole run (every problem
    listed, nothing written). Running it again adds nothing unless ratings changed.
    """
    from annotation.selectors import campaign_get, ratings_frame

    from .human_labels import aggregate_item

    campaign = campaign_get(project, campaign_slug)
    if campaign is None:
        raise ImportFailed([Problem(campaign_slug, 0, "campaign", f"no campaign {campaign_slug!r} in {project.slug!r}")])
    items = list(campaign.items.filter(kind="regular").values_list("external_id", "metadata"))
    problems: list[Problem] = []
    wanted: dict[str, int] = {}
    for external_id, metadata in items:
        raw = (metadata or {}).get("response_id")
        try:
            wanted[external_id] = int(raw)
        except (TypeError, ValueError):
            problems.append(Problem(campaign.slug, 0, f"item {external_id}",
                                    "metadata.response_id is required (an integer)"))
    responses = Response.objects.in_bulk(list(wanted.values()))
    for external_id, rid in wanted.items():
        response = responses.get(rid)
        if response is None or response.project_id != project.pk:
            problems.append(Problem(campaign.slug, 0, f"item {external_id}",
                                    f"no response #{rid} in project {project.slug!r}"))
    if problems:
        raise ImportFailed(problems)
    frame = ratings_frame(campaign)
    votes: dict[str, tuple[list[str], list[str]]] = {}
    if not frame.empty:
        for item_id, criterion, value in zip(frame["item_id"].astype(str), frame["criterion"].astype(str),
                                             frame["value"].astype(str), strict=True):
            if criterion in ("correct", "quality") and item_id in wanted:
                votes.setdefault(item_id, ([], []))[0 if criterion == "correct" else 1].append(value)
    summary = CampaignLabelSummary()
    annotator = f"campaign:{campaign.slug}"[:120]
    with transaction.atomic():
        for external_id, rid in wanted.items():
            label = aggregate_item(*votes.get(external_id, ([], [])))
            if label.correct is None:
                summary.undecided.append(f"{external_id}: {label.reason}")
                continue
            response = responses[rid]
            latest = HumanJudgement.objects.filter(response=response).order_by("-id").first()
            if latest and (latest.correct, latest.quality, latest.annotator, latest.source) == (
                label.correct, label.quality, annotator, JudgementSource.CAMPAIGN
            ):
                summary.unchanged += 1
                continue
            override_set(response=response, correct=label.correct, quality=label.quality, by=by,
                         annotator=annotator, source=JudgementSource.CAMPAIGN,
                         note=f"{label.reason} (campaign {campaign.slug})")
            summary.created += 1
    return summary
