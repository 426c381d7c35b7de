"""Judge identities (pure: no Django): what makes two automatic judges the same judge.

A judge is the rule engine at a version (``rules@4``), the exact-match baseline, or
an LLM judge as (model, prompt label, prompt version, purpose, parameters, and the
project rubric it used, if any). :func:`judge_key` hashes that identity, so
registering the same judge twice finds the existing row
(``judging.services.judge_register``), and a prompt edit or another temperature is
a different judge whose verdicts sit next to the old one's.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

__all__ = ["DEFAULT_LLM_PARAMETERS", "JudgeIdentity", "judge_key", "judge_name"]

#: The parameters every LLM call used before judges had their own.
DEFAULT_LLM_PARAMETERS = {"temperature": 0.0, "max_tokens": 200}


@dataclass(frozen=True)
class JudgeIdentity:
    """Everything that determines an automatic judge's verdicts."""

    kind: str                       # "rules", "exact" or "llm"
    purpose: str = "verdict"        # "verdict", "quality" or "score"
    version: str = ""               # rule engine version (rules)
    model: str = ""                 # LLM model name
    prompt_id: str = ""             # prompt label, e.g. "verdict-v1"
    prompt_version: str = ""
    rubric_id: int | None = None    # a project rubric (None: a built-in prompt)
    parameters: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        """JSON-ready form (the hashed content)."""
        return asdict(self)


def judge_key(identity: JudgeIdentity) -> str:
    """sha256 of the identity's canonical JSON: same judge, same key."""
    blob = json.dumps(identity.as_dict(), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def judge_name(identity: JudgeIdentity) -> str:
    """Readable label for reports: ``rules@4``, ``exact``, ``llm:gpt-4o/verdict-v1``.

    Parameters other than the defaults are appended (``[temperature=0.7]``), so two
    judges that differ only there stay apart in a report.
    """
    if identity.kind == "rules":
        return f"rules@{identity.version}"
    if identity.kind == "exact":
        return "exact"
    name = f"llm:{identity.model}/{identity.prompt_id}"
    extra = {
        k: v for k, v in sorted(identity.parameters.items())
        if DEFAULT_LLM_PARAMETERS.get(k, object()) != v
    }
    if extra:
        name += "[" + ",".join(f"{k}={v}" for k, v in extra.items()) + "]"
    return name[:200]
