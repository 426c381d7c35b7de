"""Writes for the judge registry, project rubrics and LLM judge runs.

Split from ``judging.services`` (which re-exports every name here): registering a
judge, saving a rubric version, resolving a prompt, and running an LLM judge over
grey-zone verdicts or over answers for an agreement study.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from accounts.models import Project
from quiz.models import Mode, Response

from . import selectors
from .equivalence import EQUIVALENCE_VERSION
from .errors import JudgingError
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
from .models import HumanJudgement, Judge, LlmCall, Rubric, VerdictEvent, VerdictRecord
from .registry import JudgeIdentity, judge_key, judge_name

__all__ = [
    "LLM_SCOPES",
    "LlmRunReport",
    "judge_register",
    "llm_config",
    "llm_judge_run",
    "prompt_resolve",
    "rubric_save",
    "rules_judge",
]

_RUBRIC_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


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
