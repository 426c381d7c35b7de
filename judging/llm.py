"""LLM judge: versioned prompts, one OpenAI-compatible chat call, reply parsing.

This module does not touch the database: ``judging.services.llm_judge_run`` picks
the responses (grey-zone verdicts only), looks each request up in the
:class:`~judging.models.LlmCall` cache by :func:`cache_key`, spends the run's
budget on the misses and stores the results. Calls go through the ``openai``
client against any OpenAI-compatible endpoint (``OPENAI_BASE_URL``); the client's
own retries are off and :class:`LlmJudgeClient` retries with exponential backoff
(timeouts, connection errors, 429 and 5xx), so the policy is explicit and tested.

Prompts live in ``judging/prompts/<name>.txt``: a header (``id``, ``version``,
``purpose``), then ``--- system`` and ``--- user`` sections with ``$placeholders``.
Changing a prompt means bumping its ``version``: the version is part of the cache
key and of every stored verdict.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Template

import openai

PROMPTS_DIR = Path(__file__).with_name("prompts")

__all__ = [
    "LlmConfig",
    "LlmError",
    "LlmJudgeClient",
    "LlmResult",
    "Prompt",
    "cache_key",
    "load_prompt",
    "parse_reply",
]


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
    return Prompt(meta["id"], meta["version"], meta["purpose"], system.strip(), user.strip())


def cache_key(prompt: Prompt, model: str, messages: list[dict[str, str]]) -> str:
    """sha256 of (prompt id and version, model, exact messages): same inputs, same key."""
    blob = json.dumps(
        {"prompt": prompt.label, "model": model, "messages": messages},
        sort_keys=True, ensure_ascii=False,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LlmConfig:
    """Where and how to call: endpoint, model, timeout, retry and backoff policy."""

    base_url: str | None
    api_key: str
    model: str
    timeout_s: float = 30.0
    max_attempts: int = 4
    backoff_s: float = 1.0
    backoff_max_s: float = 30.0
    temperature: float = 0.0
    max_tokens: int = 200


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


_RETRYABLE = (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError,
              openai.InternalServerError)


class LlmJudgeClient:
    """A chat-completions client with explicit timeouts, retries and backoff."""

    def __init__(self, config: LlmConfig, *, sleep: Callable[[float], None] = time.sleep):
        self.config = config
        self._sleep = sleep
        self._client = openai.OpenAI(
            base_url=config.base_url or None,
            api_key=config.api_key or "not-needed",
            timeout=config.timeout_s,
            max_retries=0,
        )

    def complete(self, messages: list[dict[str, str]]) -> LlmResult:
        """Send ``messages``; retry retryable failures with exponential backoff."""
        cfg = self.config
        last = ""
        for attempt in range(1, cfg.max_attempts + 1):
            started = time.perf_counter()
            try:
                reply = self._client.chat.completions.create(
                    model=cfg.model,
                    messages=messages,
                    temperature=cfg.temperature,
                    max_tokens=cfg.max_tokens,
                )
            except _RETRYABLE as exc:
                last = f"{type(exc).__name__}: {exc}"
                if attempt < cfg.max_attempts:
                    self._sleep(min(cfg.backoff_s * 2 ** (attempt - 1), cfg.backoff_max_s))
                continue
            except openai.APIError as exc:  # 4xx other than 429: retrying will not help
                raise LlmError(f"{type(exc).__name__}: {exc}", attempt) from exc
            usage = getattr(reply, "usage", None)
            choices = reply.choices or []
            text = (choices[0].message.content or "") if choices else ""
            return LlmResult(
                text=text,
                prompt_tokens=getattr(usage, "prompt_tokens", None),
                completion_tokens=getattr(usage, "completion_tokens", None),
                latency_ms=int((time.perf_counter() - started) * 1000),
                attempts=attempt,
            )
        raise LlmError(f"gave up after {cfg.max_attempts} attempts ({last})", cfg.max_attempts)


_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def parse_reply(text: str, purpose: str) -> dict | None:
    """The judge's decision from its reply, or None if it cannot be read.

    ``verdict`` replies give ``{"correct": bool, "reason": str}``; ``quality``
    replies give ``{"quality": 0..5, "reason": str}``. A JSON object is expected
    (also inside a code fence); a bare CORRECT/INCORRECT or digit is tolerated.
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
