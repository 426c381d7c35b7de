"""LLM judge: versioned prompts, one OpenAI-compatible chat call, reply parsing.

This module does not touch the database: ``judging.services.llm_judge_run`` picks
the responses (grey-zone verdicts only), looks each request up in the
:class:`~judging.models.LlmCall` cache by :func:`cache_key`, spends the run's
budget on the misses and stores the results. Calls go through the ``openai``
client against any OpenAI-compatible endpoint (``OPENAI_BASE_URL``). Retries are the
SDK's own (``max_retries``): timeouts, connection errors, 408/409/429 and 5xx are
retried with exponential backoff and jitter, and a server's ``Retry-After`` (or
``retry-after-ms``) is honoured; other 4xx fail at once.

Built-in prompts live in ``judging/prompts/<name>.txt``: a header (``id``,
``version``, ``purpose``), then ``--- system`` and ``--- user`` sections with
``$placeholders``. Changing a prompt means bumping its ``version``: the version is
part of the cache key and of every stored verdict. Projects write their own rubrics
(``judging.models.Rubric``, versioned in the database); :func:`prompt_from_rubric`
turns one into the same :class:`Prompt`.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Template

import openai

from .registry import DEFAULT_LLM_PARAMETERS

PROMPTS_DIR = Path(__file__).with_name("prompts")

__all__ = [
    "BUILTIN_PROMPTS",
    "PLACEHOLDERS",
    "PURPOSES",
    "LlmConfig",
    "LlmError",
    "LlmJudgeClient",
    "LlmResult",
    "Prompt",
    "cache_key",
    "load_prompt",
    "parse_reply",
    "prompt_from_rubric",
    "template_problems",
]

#: Built-in prompt names (files in judging/prompts/), the defaults a project starts from.
BUILTIN_PROMPTS = ("verdict", "quality", "score")
#: What a judge is asked for: a binary verdict, a 0-5 quality, a 0.0-1.0 score.
PURPOSES = ("verdict", "quality", "score")
#: Placeholders a user template may use; ``answer`` is required.
PLACEHOLDERS = ("question", "answerline", "answer")


@dataclass(frozen=True)
class Prompt:
    """A versioned prompt template."""

    id: str
    version: str
    purpose: str
    system: str
    user: str

    @property
    def label(self) -> str:
        """``"verdict-v1"``: what stored verdicts name as their rule."""
        return f"{self.id}-v{self.version}"

    def messages(self, **fields: str) -> list[dict[str, str]]:
        """Chat messages with the placeholders filled (missing ones left as is)."""
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": Template(self.user).safe_substitute(**fields)},
        ]


@lru_cache(maxsize=16)
def load_prompt(name: str) -> Prompt:
    """Read ``judging/prompts/<name>.txt``."""
    text = (PROMPTS_DIR / f"{name}.txt").read_text(encoding="utf-8")
    header, _, body = text.partition("--- system")
    system, _, user = body.partition("--- user")
    meta = dict(
        (k.strip(), v.strip())
        for k, _, v in (line.partition(":") for line in header.splitlines() if ":" in line)
    )
    for key in ("id", "version", "purpose"):
        if key not in meta:
            raise ValueError(f"prompt {name}: header lacks {key!r}")
    if meta["purpose"] not in PURPOSES:
        raise ValueError(f"prompt {name}: purpose must be one of {', '.join(PURPOSES)}")
    return Prompt(meta["id"], meta["version"], meta["purpose"], system.strip(), user.strip())


def prompt_from_rubric(name: str, version: int | str, purpose: str, system: str, user: str) -> Prompt:
    """A project rubric (one stored version) as a :class:`Prompt`."""
    return Prompt(str(name), str(version), purpose, system.strip(), user.strip())


_PLACEHOLDER = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def template_problems(purpose: str, system: str, user: str) -> list[tuple[str, str]]:
    """What is wrong with a rubric, as ``(field, message)`` pairs (empty: fine)."""
    problems: list[tuple[str, str]] = []
    if purpose not in PURPOSES:
        problems.append(("purpose", f"must be one of {', '.join(PURPOSES)}"))
    if not (system or "").strip():
        problems.append(("system", "is required"))
    if not (user or "").strip():
        problems.append(("user", "is required"))
        return problems
    used = {a or b for a, b in _PLACEHOLDER.findall(user)}
    unknown = sorted(used - set(PLACEHOLDERS))
    if unknown:
        problems.append(("user", f"unknown placeholder ${unknown[0]} (use $question, $answerline, $answer)"))
    if "answer" not in used:
        problems.append(("user", "must contain $answer"))
    for label, text in (("system", system), ("user", user)):
        if len(text or "") > 20000:
            problems.append((label, "is longer than 20000 characters"))
    return problems


def cache_key(
    prompt: Prompt, model: str, messages: list[dict[str, str]], parameters: dict | None = None
) -> str:
    """sha256 of (prompt id and version, model, exact messages[, parameters]).

    Same inputs, same key. ``parameters`` (temperature, max_tokens) enter the key
    only when they differ from the defaults every call used before judges had
    their own, so caches stored before that stay valid.
    """
    content: dict = {"prompt": prompt.label, "model": model, "messages": messages}
    if parameters and parameters != DEFAULT_LLM_PARAMETERS:
        content["parameters"] = parameters
    blob = json.dumps(content, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LlmConfig:
    """Where and how to call: endpoint, model, timeout, attempts, sampling parameters.

    ``max_attempts`` counts the first try: the SDK gets ``max_retries =
    max_attempts - 1`` and chooses the waits (exponential with jitter, or the
    server's ``Retry-After``).
    """

    base_url: str | None
    api_key: str
    model: str
    timeout_s: float = 30.0
    max_attempts: int = 4
    temperature: float = 0.0
    max_tokens: int = 200

    @property
    def parameters(self) -> dict:
        """The sampling parameters that make part of a judge's identity."""
        return {"temperature": float(self.temperature), "max_tokens": int(self.max_tokens)}


@dataclass(frozen=True)
class LlmResult:
    """A completed call."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_ms: int
    attempts: int


class LlmError(Exception):
    """The call failed after every allowed attempt (or with a non-retryable error)."""

    def __init__(self, message: str, attempts: int):
        self.attempts = attempts
        super().__init__(message)


def _attempts(exc: openai.APIError) -> int:
    """How many requests the SDK sent before giving up (its retry-count header + 1)."""
    request = getattr(exc, "request", None)
    try:
        return int(request.headers.get("x-stainless-retry-count", "0")) + 1 if request is not None else 1
    except (AttributeError, ValueError):
        return 1


class LlmJudgeClient:
    """A chat-completions client; retries, backoff and Retry-After are the SDK's."""

    def __init__(self, config: LlmConfig):
        self.config = config
        self._client = openai.OpenAI(
            base_url=config.base_url or None,
            api_key=config.api_key or "not-needed",
            timeout=config.timeout_s,
            max_retries=max(int(config.max_attempts) - 1, 0),
        )

    def complete(self, messages: list[dict[str, str]]) -> LlmResult:
        """Send ``messages``; raise :class:`LlmError` once the SDK has given up."""
        cfg = self.config
        started = time.perf_counter()
        try:
            raw = self._client.chat.completions.with_raw_response.create(
                model=cfg.model,
                messages=messages,
                temperature=cfg.temperature,
                max_tokens=cfg.max_tokens,
            )
            reply = raw.parse()
        except openai.APIError as exc:
            attempts = _attempts(exc)
            retried = f" after {attempts} attempts" if attempts > 1 else ""
            raise LlmError(f"{type(exc).__name__}{retried}: {exc}", attempts) from exc
        usage = getattr(reply, "usage", None)
        choices = reply.choices or []
        text = (choices[0].message.content or "") if choices else ""
        return LlmResult(
            text=text,
            prompt_tokens=getattr(usage, "prompt_tokens", None),
            completion_tokens=getattr(usage, "completion_tokens", None),
            latency_ms=int((time.perf_counter() - started) * 1000),
            attempts=int(getattr(raw, "retries_taken", 0)) + 1,
        )


_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def parse_reply(text: str, purpose: str) -> dict | None:
    """The judge's decision from its reply, or None if it cannot be read.

    ``verdict`` replies give ``{"correct": bool, "reason": str}``; ``quality``
    replies give ``{"quality": 0..5, "reason": str}``; ``score`` replies give
    ``{"score": 0.0..1.0, "reason": str}``. A JSON object is expected (also inside
    a code fence); a bare CORRECT/INCORRECT or number is tolerated.
    """
    data: dict | None = None
    match = _JSON_OBJECT.search(text or "")
    if match:
        try:
            loaded = json.loads(match.group(0))
            data = loaded if isinstance(loaded, dict) else None
        except json.JSONDecodeError:
            data = None
    reason = str((data or {}).get("reason") or (data or {}).get("explanation") or "").strip()
    if purpose == "verdict":
        value = (data or {}).get("correct")
        if isinstance(value, str):
            value = {"true": True, "false": False, "yes": True, "no": False}.get(value.lower())
        if not isinstance(value, bool):
            words = re.findall(r"[a-z]+", (text or "").lower())
            if "incorrect" in words or "wrong" in words:
                value = False
            elif "correct" in words:
                value = True
            else:
                return None
        return {"correct": value, "reason": reason[:500]}
    if purpose == "score":
        value = (data or {}).get("score")
        if value is None:
            numbers = re.findall(r"(?<![\d.])(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)(?![\d.])", text or "")
            value = numbers[0] if numbers else None
        try:
            score = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None
        if isinstance(value, bool) or not 0.0 <= score <= 1.0:
            return None
        return {"score": score, "reason": reason[:500]}
    value = (data or {}).get("quality")
    if value is None:
        digits = re.findall(r"\b[0-5]\b", text or "")
        value = digits[0] if digits else None
    try:
        quality = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if not 0 <= quality <= 5:
        return None
    return {"quality": quality, "reason": reason[:500]}
