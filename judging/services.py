"""Writes for judging: overrides, challenges, re-scoring, the judge registry, rubrics,
LLM judge runs, label imports."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts.models import Project
from quiz.importing import ImportFailed, Problem
from quiz.models import Mode, ModelSystem, Question, Responder, ResponderKind, Response

from . import selectors
from .equivalence import EQUIVALENCE_VERSION, judge_many
from .llm import (
    BUILTIN_PROMPTS,
    PURPOSES,
    LlmConfig,
    LlmError,
    LlmJudgeClient,
    Prompt,
    cache_key,
    load_prompt,
    parse_reply,
    prompt_from_rubric,
    template_problems,
)
from .models import (
    Challenge,
    ChallengeStatus,
    HumanJudgement,
    Judge,
    JudgementSource,
    LlmCall,
    Rubric,
    VerdictEvent,
    VerdictRecord,
)
from .registry import JudgeIdentity, judge_key, judge_name

_RUBRIC_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


class JudgingError(ValueError):
    """A request that cannot be carried out (names the offending field)."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


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
    qs = Response.objects.filter(mode=Mode.FREE)
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


# ------------------------------------------------------------------ judge registry


def judge_register(identity: JudgeIdentity, *, rubric: Rubric | None = None) -> Judge:
    """The registered judge of ``identity`` (created on first use; idempotent)."""
    key = judge_key(identity)
    judge = Judge.objects.filter(key=key).first()
    if judge is not None:
        return judge
    try:
        with transaction.atomic():
            return Judge.objects.create(
                key=key, name=judge_name(identity), kind=identity.kind, purpose=identity.purpose,
                version=identity.version, model=identity.model, prompt_id=identity.prompt_id,
                prompt_version=identity.prompt_version, rubric=rubric,
                parameters=identity.parameters,
            )
    except IntegrityError:  # registered concurrently
        return Judge.objects.get(key=key)


def rules_judge(version: str = EQUIVALENCE_VERSION) -> Judge:
    """The rule engine at ``version`` as a registered judge (``rules@<version>``)."""
    return judge_register(JudgeIdentity(kind="rules", version=str(version)))


# ------------------------------------------------------------------------ rubrics


def rubric_save(
    *, project: Project, name: str, purpose: str, system: str, user: str, by=None,
    note: str = "", based_on: str = "",
) -> tuple[Rubric, bool]:
    """Save a project rubric; an edit adds the next version. Returns ``(rubric, created)``.

    Saving text identical to the latest version adds nothing. A rubric keeps its
    purpose across versions (a verdict rubric cannot become a 0-5 one: pick a new
    name). Verdicts made with an older version keep pointing at it.
    """
    name = (name or "").strip()
    if not _RUBRIC_NAME.fullmatch(name):
        raise JudgingError("name", "must be 1-40 lowercase letters, digits or hyphens")
    if name in BUILTIN_PROMPTS:
        raise JudgingError("name", f"{name!r} is a built-in prompt; choose another name")
    for field_name, message in template_problems(purpose, system, user):
        raise JudgingError(field_name, message)
    if based_on and based_on not in BUILTIN_PROMPTS:
        raise JudgingError("based_on", f"must be one of {', '.join(BUILTIN_PROMPTS)}")
    system, user = system.strip(), user.strip()
    with transaction.atomic():
        latest = (
            Rubric.objects.select_for_update().filter(project=project, name=name).order_by("-version").first()
        )
        if latest is not None:
            if latest.purpose != purpose:
                raise JudgingError(
                    "purpose", f"rubric {name!r} is a {latest.purpose} rubric; save under a new name"
                )
            if (latest.system, latest.user) == (system, user):
                return latest, False
        rubric = Rubric.objects.create(
            project=project, name=name, version=(latest.version + 1) if latest else 1,
            purpose=purpose, system=system, user=user, note=(note or "").strip()[:200],
            based_on=based_on or (latest.based_on if latest else ""), created_by=by,
        )
    return rubric, True


def prompt_resolve(*, project: Project | None, name: str) -> tuple[Prompt, Rubric | None]:
    """The prompt called ``name``: the project's latest rubric version, else a built-in."""
    if project is not None:
        rubric = selectors.rubric_latest(project=project, name=name)
        if rubric is not None:
            return prompt_from_rubric(rubric.name, rubric.version, rubric.purpose, rubric.system,
                                      rubric.user), rubric
    if name in BUILTIN_PROMPTS:
        return load_prompt(name), None
    raise JudgingError("rubric", f"no rubric {name!r}" + (f" in project {project.slug!r}" if project else ""))


# ---------------------------------------------------------------------- LLM judge


def llm_config(**overrides) -> LlmConfig:
    """The LLM judge's configuration from settings (``OPENAI_*``, ``EARSHOT_LLM_*``)."""
    values = {
        "base_url": settings.OPENAI_BASE_URL or None,
        "api_key": settings.OPENAI_API_KEY,
        "model": settings.EARSHOT_LLM_JUDGE_MODEL,
        "timeout_s": float(getattr(settings, "EARSHOT_LLM_JUDGE_TIMEOUT_S", 30.0)),
        "max_attempts": int(getattr(settings, "EARSHOT_LLM_JUDGE_MAX_ATTEMPTS", 4)),
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    return LlmConfig(**values)


@dataclass
class LlmRunReport:
    """What one LLM judge run did."""

    purpose: str
    model: str
    prompt: str
    judge: str = ""
    scope: str = "grey"
    candidates: int = 0
    cached: int = 0
    called: int = 0
    failed: int = 0
    unreadable: int = 0
    skipped_budget: int = 0
    recorded: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    errors: list[str] = field(default_factory=list)


#: Which responses a run asks about: grey-zone verdicts (routing), human-labelled
#: answers (an agreement study), or every free answer.
LLM_SCOPES = ("grey", "labelled", "all")


def _llm_candidates(*, project: Project | None, scope: str, low: float, high: float) -> Iterable[Response]:
    """Responses to send, those without a human ruling first.

    Answers a human already ruled on are still sent (their LLM verdicts are what the
    judge-human agreement report compares), but after every unruled one: a run cut
    short by its budget spends it where the LLM verdict can change results.
    """
    ruled = Exists(HumanJudgement.objects.filter(response=OuterRef("pk")))
    if scope == "grey":
        qs = selectors.grey_zone_responses(project=project, low=low, high=high, include_overridden=True)
    else:
        qs = Response.objects.filter(mode=Mode.FREE).exclude(answer_text="")
        if project is not None:
            qs = qs.filter(project=project)
        if scope == "labelled":
            qs = qs.filter(ruled)
    return (
        qs.select_related("question").alias(ruled=ruled).order_by("ruled", "id").iterator(chunk_size=500)
    )


def llm_judge_run(
    *,
    project: Project | None = None,
    purpose: str = "verdict",
    rubric: str | None = None,
    scope: str | None = None,
    budget: int | None = None,
    grey_zone: tuple[float, float] | None = None,
    config: LlmConfig | None = None,
    client: LlmJudgeClient | None = None,
) -> LlmRunReport:
    """Ask an LLM judge about uncertain verdicts, or score answers for a study.

    The prompt is ``rubric`` (a project rubric's latest version, or a built-in:
    ``verdict``, ``quality``, ``score``), by default the built-in for ``purpose``.
    ``scope="grey"`` (the default for verdicts) sends only free answers whose rule
    score lies in the grey zone, and those verdicts count in the effective verdict
    (``added``); ``"labelled"`` (answers with a human judgement) and ``"all"``
    (every free answer, the default for quality and score rubrics) are agreement
    studies: their binary verdicts are stored as ``study`` records that never change
    a result. Each request is looked up in the :class:`LlmCall` cache first (same
    prompt version, model, parameters and inputs: no second call); at most ``budget``
    uncached requests are sent (the SDK's retries of one request do not count).
    Every record names its registered :class:`Judge`. Runs in a Celery task or a
    management command, never in a web request.
    """
    if rubric is None:
        if purpose not in PURPOSES:
            raise JudgingError("purpose", f"must be one of {', '.join(PURPOSES)}")
        rubric = purpose
    prompt, rubric_row = prompt_resolve(project=project, name=rubric)
    purpose = prompt.purpose
    scope = scope or ("grey" if purpose == "verdict" else "all")
    if scope not in LLM_SCOPES:
        raise JudgingError("scope", f"must be one of {', '.join(LLM_SCOPES)}")
    config = config or llm_config()
    low, high = grey_zone or selectors.grey_zone()
    judge = judge_register(
        JudgeIdentity(
            kind="llm", purpose=purpose, model=config.model, prompt_id=prompt.label,
            prompt_version=prompt.version, rubric_id=rubric_row.pk if rubric_row else None,
            parameters=config.parameters,
        ),
        rubric=rubric_row,
    )
    event = VerdictEvent.STUDY if purpose == "verdict" and scope != "grey" else VerdictEvent.ADDED
    family = f"llm:{config.model}"[:80]
    report = LlmRunReport(purpose=purpose, model=config.model, prompt=prompt.label, judge=judge.name,
                          scope=scope)
    for response in _llm_candidates(project=project, scope=scope, low=low, high=high):
        report.candidates += 1
        question = response.question
        messages = prompt.messages(
            question=question.prompt, answerline=question.answerline, answer=response.answer_text
        )
        key = cache_key(prompt, config.model, messages, config.parameters)
        call = LlmCall.objects.filter(key=key).first()
        if call is not None and call.ok:
            report.cached += 1
        else:
            if budget is not None and report.called >= budget:
                report.skipped_budget += 1
                continue
            if client is None:
                client = LlmJudgeClient(config)
            report.called += 1
            call = _llm_call(client, key=key, purpose=purpose, prompt_label=prompt.label,
                             model=config.model, messages=messages)
            report.prompt_tokens += call.prompt_tokens or 0
            report.completion_tokens += call.completion_tokens or 0
            if call.error:
                report.failed += 1
                report.errors.append(f"response #{response.pk}: {call.error}")
                continue
            if call.parsed is None:
                report.unreadable += 1
                continue
        if _llm_record(response, call, judge=judge, family=family, prompt=prompt, event=event):
            report.recorded += 1
    return report


def _llm_call(client: LlmJudgeClient, *, key: str, purpose: str, prompt_label: str, model: str,
              messages: list[dict]) -> LlmCall:
    """Make one call (outside any transaction) and store it in the cache."""
    started = time.perf_counter()
    values: dict = {"purpose": purpose, "prompt_id": prompt_label[:80], "model": model,
                    "request": {"messages": messages}}
    try:
        result = client.complete(messages)
    except LlmError as exc:
        values.update(error=str(exc)[:2000], attempts=exc.attempts, parsed=None, response_text="",
                      latency_ms=int((time.perf_counter() - started) * 1000))
    else:
        values.update(
            response_text=result.text, parsed=parse_reply(result.text, purpose), error="",
            prompt_tokens=result.prompt_tokens, completion_tokens=result.completion_tokens,
            latency_ms=result.latency_ms, attempts=result.attempts,
        )
    try:
        with transaction.atomic():
            call, _ = LlmCall.objects.update_or_create(key=key, defaults=values)
    except IntegrityError:  # another worker stored the same request meanwhile
        call = LlmCall.objects.get(key=key)
    return call


def _llm_record(response: Response, call: LlmCall, *, judge: Judge, family: str, prompt: Prompt,
                event: str) -> bool:
    """Store the LLM's decision as a verdict record (once per judge, call, answer and event)."""
    parsed = call.parsed
    wanted = {"verdict": "correct", "quality": "quality", "score": "score"}[prompt.purpose]
    if parsed is None or wanted not in parsed:  # e.g. a cached reply read for another purpose
        return False
    if VerdictRecord.objects.filter(response=response, judge_ref=judge, llm_call=call, event=event,
                                    answer_text=response.answer_text).exists():
        return False
    values = {
        "response": response,
        "judge": family,
        "judge_ref": judge,
        "event": event,
        "answer_text": response.answer_text,
        "rule": prompt.label[:80],
        "rule_version": prompt.version[:40],
        "explanation": parsed.get("reason", ""),
        "llm_call": call,
    }
    if prompt.purpose == "verdict":
        values.update(correct=bool(parsed["correct"]), score=1.0 if parsed["correct"] else 0.0)
    elif prompt.purpose == "quality":
        values.update(correct=None, quality=int(parsed["quality"]))
    else:
        values.update(correct=None, score=float(parsed["score"]))
    VerdictRecord.objects.create(**values)
    return True


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
