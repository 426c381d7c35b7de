"""Judge-human agreement statistics (pure: numpy and scipy only, no Django).

Given human judgements for a sample of responses and the verdicts of several
automatic judges on the same responses, report for each judge: accuracy against
the humans, Cohen's kappa, the Matthews correlation coefficient (binary verdicts),
Spearman's rho between the judge's score and the human 0-5 quality score, and the
2x2 confusion matrix -- overall and within groups (category, language).

Conventions: "positive" is *correct*. In the confusion matrix ``tp`` counts
responses both the human and the judge call correct, ``fp`` those the judge calls
correct and the human wrong, ``fn`` the reverse, ``tn`` both wrong. Statistics that
are undefined for a sample (kappa when both raters are constant and agree, MCC
when a margin is empty, rho with fewer than two distinct values) are ``None``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy.stats import rankdata

__all__ = [
    "AgreementReport",
    "JudgeAgreement",
    "agreement_report",
    "cohen_kappa",
    "confusion",
    "judge_agreement",
    "matthews",
    "report_rows",
    "spearman",
]


def _as_bool(values: Iterable) -> np.ndarray:
    return np.asarray(list(values), dtype=bool)


def confusion(human: Sequence[bool], judge: Sequence[bool]) -> dict[str, int]:
    """The 2x2 table of ``judge`` against ``human`` (positive = correct)."""
    h, j = _as_bool(human), _as_bool(judge)
    if h.shape != j.shape:
        raise ValueError("human and judge must have the same length")
    return {
        "tp": int(np.sum(h & j)),
        "fp": int(np.sum(~h & j)),
        "fn": int(np.sum(h & ~j)),
        "tn": int(np.sum(~h & ~j)),
    }


def cohen_kappa(human: Sequence[bool], judge: Sequence[bool]) -> float | None:
    """Cohen's kappa of two binary raters: (p_o - p_e) / (1 - p_e)."""
    c = confusion(human, judge)
    n = sum(c.values())
    if n == 0:
        return None
    p_o = (c["tp"] + c["tn"]) / n
    p_h = (c["tp"] + c["fn"]) / n  # human says correct
    p_j = (c["tp"] + c["fp"]) / n  # judge says correct
    p_e = p_h * p_j + (1 - p_h) * (1 - p_j)
    if math.isclose(p_e, 1.0):
        return None
    return (p_o - p_e) / (1 - p_e)


def matthews(human: Sequence[bool], judge: Sequence[bool]) -> float | None:
    """Matthews correlation (phi coefficient) of the 2x2 table; None if a margin is 0."""
    c = confusion(human, judge)
    tp, fp, fn, tn = c["tp"], c["fp"], c["fn"], c["tn"]
    denom = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    if denom == 0:
        return None
    return (tp * tn - fp * fn) / math.sqrt(denom)


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho: Pearson correlation of average ranks (ties get mean ranks)."""
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape:
        raise ValueError("x and y must have the same length")
    if a.size < 2:
        return None
    ra, rb = rankdata(a) - (a.size + 1) / 2, rankdata(b) - (b.size + 1) / 2
    denom = math.sqrt(float(np.sum(ra * ra)) * float(np.sum(rb * rb)))
    if denom == 0:
        return None
    return float(np.sum(ra * rb)) / denom


@dataclass(frozen=True)
class JudgeAgreement:
    """Agreement of one automatic judge with the humans on one set of responses."""

    judge: str
    n: int
    accuracy: float | None
    kappa: float | None
    mcc: float | None
    spearman: float | None
    n_scored: int
    tp: int
    fp: int
    fn: int
    tn: int


def judge_agreement(
    judge: str,
    human: Sequence[bool],
    verdict: Sequence[bool],
    human_score: Sequence[float | None] | None = None,
    judge_score: Sequence[float | None] | None = None,
) -> JudgeAgreement:
    """All statistics for one judge; rho uses the pairs where both scores are known."""
    c = confusion(human, verdict)
    n = sum(c.values())
    rho, n_scored = None, 0
    if human_score is not None and judge_score is not None:
        pairs = [
            (float(h), float(j))
            for h, j in zip(human_score, judge_score, strict=True)
            if h is not None and j is not None
        ]
        n_scored = len(pairs)
        if pairs:
            rho = spearman([p[0] for p in pairs], [p[1] for p in pairs])
    return JudgeAgreement(
        judge=judge,
        n=n,
        accuracy=(c["tp"] + c["tn"]) / n if n else None,
        kappa=cohen_kappa(human, verdict),
        mcc=matthews(human, verdict),
        spearman=rho,
        n_scored=n_scored,
        **c,
    )


@dataclass(frozen=True)
class AgreementReport:
    """Overall and per-group agreement of each judge with the human judgements."""

    judges: tuple[str, ...]
    n: int
    overall: tuple[JudgeAgreement, ...]
    groups: dict[str, dict[str, tuple[JudgeAgreement, ...]]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "judges": list(self.judges),
            "n": self.n,
            "overall": [asdict(a) for a in self.overall],
            "groups": {
                by: {name: [asdict(a) for a in rows] for name, rows in values.items()}
                for by, values in self.groups.items()
            },
        }


def _for_rows(rows: Sequence[Mapping], judges: Sequence[str]) -> tuple[JudgeAgreement, ...]:
    out = []
    for judge in judges:
        usable = [r for r in rows if r.get(f"{judge}_correct") is not None]
        out.append(
            judge_agreement(
                judge,
                [bool(r["human_correct"]) for r in usable],
                [bool(r[f"{judge}_correct"]) for r in usable],
                [r.get("human_score") for r in usable],
                [r.get(f"{judge}_score") for r in usable],
            )
        )
    return tuple(out)


def agreement_report(
    rows: Sequence[Mapping],
    judges: Sequence[str],
    group_by: Sequence[str] = ("category", "language"),
) -> AgreementReport:
    """Agreement of every judge with the humans, overall and by each ``group_by`` key.

    Each row is a mapping with ``human_correct`` (bool), optional ``human_score``
    (0-5), and for each judge ``<judge>_correct`` (bool, or None when the judge did
    not judge that response) and optional ``<judge>_score``; group keys name the
    row's group (``None`` groups are reported as ``"unknown"``).
    """
    groups: dict[str, dict[str, tuple[JudgeAgreement, ...]]] = {}
    for key in group_by:
        buckets: dict[str, list[Mapping]] = {}
        for row in rows:
            buckets.setdefault(str(row.get(key) or "unknown"), []).append(row)
        groups[key] = {name: _for_rows(bucket, judges) for name, bucket in sorted(buckets.items())}
    return AgreementReport(
        judges=tuple(judges), n=len(rows), overall=_for_rows(rows, judges), groups=groups
    )


CSV_FIELDS = (
    "scope", "group", "judge", "n", "accuracy", "kappa", "mcc", "spearman", "n_scored",
    "tp", "fp", "fn", "tn",
)


def report_rows(report: AgreementReport) -> list[dict]:
    """Flat rows (``CSV_FIELDS``) for a CSV export: overall first, then each group."""
    rows = [{"scope": "overall", "group": "", **asdict(a)} for a in report.overall]
    for by, values in report.groups.items():
        for name, agreements in values.items():
            rows.extend({"scope": by, "group": name, **asdict(a)} for a in agreements)
    return rows
