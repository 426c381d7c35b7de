"""Normalized exact match: the baseline judge the agreement report compares against.

Pure (no Django): an answer is correct when its normalized form equals the
normalized form of one acceptable answer of the answerline (main answers, ``or``
alternatives and ``[accept ...]`` directives). Same normalization as the rule
engine (Unicode folding, case, punctuation, leading articles, number words).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from judging.answerline import parse_answerline
from judging.normalize import normalize

__all__ = ["exact_match"]


@lru_cache(maxsize=65536)
def _acceptable(answerline: str | tuple[str, ...]) -> frozenset[str]:
    if isinstance(answerline, tuple):
        return frozenset(n for n in (normalize(a) for a in answerline) if n)
    parsed = parse_answerline(answerline)
    return frozenset(n for n in (normalize(a.text) for a in parsed.acceptable) if n)


def exact_match(candidate: str, answerline: str | Sequence[str]) -> bool:
    """True when ``candidate`` normalizes to one of the answerline's acceptable answers."""
    key = answerline if isinstance(answerline, str) else tuple(answerline)
    norm = normalize(candidate or "")
    return bool(norm) and norm in _acceptable(key)
