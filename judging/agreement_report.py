"""Several judges side by side (pure: numpy and scipy only, no Django).

The report SEA-SpeechBench's judge-human study needs (its Table 5, Table 14, Fig. 4):

* **agreement cells** -- for every judge and every combination of language,
  condition and task (and their margins): n, accuracy, Cohen's kappa, Matthews
  correlation (binary verdicts), Spearman rho of the judge's score against the
  human 0-5 score, the 2x2 confusion matrix, and percentile bootstrap intervals
  of accuracy, kappa, MCC and rho (seeded: the same rows and seed give the same
  intervals, whatever the order of the cells);
* **ranking agreement** -- each system's score (share judged correct) and rank
  under each judge, and for each pair of judges Spearman rho and Kendall tau-b of
  the systems' scores;
* **refusals** -- each system's refusal rate and its accuracy on all answers and
  on the answers it did not refuse.

Input rows (one per response) are plain mappings::

    {"response_id": 1, "system": "alm-large", "condition": "native-prompt",
     "language": "th", "task": "trivia", "answer": "...",
     "human_correct": True | None, "human_score": 0-5 | None,
     "effective_correct": True,
     "verdicts": {"rules@4": {"correct": True, "score": 0.83}, "llm:a/verdict-v1": {...}}}

Scored judges (0-5 quality, 0.0-1.0 score) also give a binary verdict for the
binary statistics: quality >= 3, score >= 0.5 (``binary_from_score``).
Statistics that are undefined for a sample are None (see judging/agreement.py).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy.stats import rankdata

from .agreement import cohen_kappa, confusion, matthews, spearman
from .refusal import detect_refusal

__all__ = [
    "CELL_CSV_FIELDS",
    "GROUP_KEYS",
    "AgreementCell",
    "JudgeComparison",
    "RankingReport",
    "SystemRefusals",
    "agreement_cells",
    "binary_from_score",
    "bootstrap_intervals",
    "kendall_tau_b",
    "ranking_agreement",
    "refusal_report",
    "study_report",
]

#: The dimensions of a cell, in report order.
GROUP_KEYS = ("language", "condition", "task")
ALL = "all"


def binary_from_score(score: float | None, scale: str) -> bool | None:
    """A scored judge's binary verdict: quality >= 3 of 5, or score >= 0.5 of 1."""
    if score is None:
        return None
    return float(score) >= (3.0 if scale == "quality" else 0.5)


# ------------------------------------------------------------------ bootstrap


def _vector_stats(cells: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """Accuracy, kappa and MCC from (B, 4) counts [tn, fn, fp, tp] of B resamples; NaN if undefined.

    Column order follows the pair code ``2 * judge + human``.
    """
    tn, fn, fp, tp = (cells[:, i].astype(float) for i in range(4))
    acc = (tp + tn) / n
    p_h, p_j = (tp + fn) / n, (tp + fp) / n
    p_e = p_h * p_j + (1 - p_h) * (1 - p_j)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = np.where(np.isclose(p_e, 1.0), np.nan, (acc - p_e) / (1 - p_e))
        denom = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        mcc = np.where(denom == 0, np.nan, (tp * tn - fp * fn) / np.where(denom == 0, 1, denom))
    return {"accuracy": acc, "kappa": kappa, "mcc": mcc}


def _weighted_ranks(weights: np.ndarray, codes: np.ndarray, k: int) -> np.ndarray:
    """Average ranks (ties: mean rank) of each distinct pair's value in each resample.

    ``weights``: (B, d) how often each of the d distinct (x, y) pairs was drawn;
    ``codes``: (d,) the pair's value code 0..k-1. A value's rank is (values drawn
    below it) + (its draws + 1) / 2.
    """
    per_value = np.zeros((weights.shape[0], k))
    np.add.at(per_value.T, codes, weights.T)
    below = np.cumsum(per_value, axis=1) - per_value
    return (below + (per_value + 1) / 2.0)[:, codes]


def _weighted_spearman(weights: np.ndarray, x_codes: np.ndarray, kx: int, y_codes: np.ndarray,
                       ky: int) -> np.ndarray:
    """Spearman rho of each resample, given as (B, d) draw counts of the distinct pairs."""
    m = weights.sum(axis=1, keepdims=True)
    rx = _weighted_ranks(weights, x_codes, kx)
    ry = _weighted_ranks(weights, y_codes, ky)
    rx -= np.sum(weights * rx, axis=1, keepdims=True) / m
    ry -= np.sum(weights * ry, axis=1, keepdims=True) / m
    sxy = np.sum(weights * rx * ry, axis=1)
    denom = np.sqrt(np.sum(weights * rx * rx, axis=1) * np.sum(weights * ry * ry, axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denom <= 1e-12, np.nan, sxy / np.where(denom <= 1e-12, 1, denom))


def _interval(values: np.ndarray, level: float) -> tuple[float, float] | None:
    finite = values[np.isfinite(values)]
    if finite.size < max(10, values.size // 2):  # mostly undefined: no honest interval
        return None
    alpha = (1 - level) / 2
    low, high = np.quantile(finite, [alpha, 1 - alpha])
    return float(low), float(high)


def bootstrap_intervals(
    human: Sequence[bool],
    verdict: Sequence[bool],
    human_score: Sequence[float] | None = None,
    judge_score: Sequence[float] | None = None,
    *,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int | Sequence[int] = 0,
) -> dict[str, tuple[float, float] | None]:
    """Percentile bootstrap intervals of accuracy, kappa, MCC (and rho of the scores).

    Responses are resampled with replacement ``n_boot`` times (pairs stay
    together). A resample is drawn as its counts of each distinct (human, judge)
    pair -- multinomial with the observed shares, which is exactly the distribution
    of resampling rows with replacement -- so a resample costs O(distinct pairs),
    not O(n). ``human_score``/``judge_score`` are the pairs with both scores known,
    resampled on their own (ties get average ranks, as in scipy's ``spearmanr``). An interval is None when the sample is empty or the
    statistic is undefined in most resamples (e.g. kappa when everyone agrees), and
    every interval is None when ``n_boot`` is 0.
    """
    rng = np.random.default_rng(seed)
    h, j = np.asarray(human, dtype=bool), np.asarray(verdict, dtype=bool)
    out: dict[str, tuple[float, float] | None] = {"accuracy": None, "kappa": None, "mcc": None,
                                                   "spearman": None}
    if n_boot <= 0:
        return out
    if h.size:
        observed = np.bincount(2 * j.astype(np.int64) + h.astype(np.int64), minlength=4)  # tn fn fp tp
        tables = rng.multinomial(h.size, observed / h.size, size=n_boot)
        for name, values in _vector_stats(tables, h.size).items():
            out[name] = _interval(values, level)
    if human_score is not None and judge_score is not None and len(human_score) >= 3:
        x, y = np.asarray(human_score, dtype=float), np.asarray(judge_score, dtype=float)
        ux, xc = np.unique(x, return_inverse=True)
        uy, yc = np.unique(y, return_inverse=True)
        pairs, counts = np.unique(np.stack([xc, yc], axis=1), axis=0, return_counts=True)
        rhos = []
        for rows in _chunks(n_boot, len(pairs)):
            weights = rng.multinomial(x.size, counts / x.size, size=rows).astype(float)
            rhos.append(_weighted_spearman(weights, pairs[:, 0], ux.size, pairs[:, 1], uy.size))
        out["spearman"] = _interval(np.concatenate(rhos), level)
    return out


#: At most this many resampled weights in memory at once (bootstrap in blocks of resamples).
_BLOCK = 2_000_000


def _chunks(n_boot: int, n: int) -> list[int]:
    """Resamples per block, so a block holds at most ``_BLOCK`` weights (>= 1 resample)."""
    per = max(1, _BLOCK // max(n, 1))
    return [min(per, n_boot - start) for start in range(0, n_boot, per)]


# ------------------------------------------------------------- agreement cells


@dataclass(frozen=True)
class AgreementCell:
    """One judge's agreement with the humans on one language x condition x task cell."""

    judge: str
    language: str
    condition: str
    task: str
    n: int
    accuracy: float | None
    accuracy_ci: tuple[float, float] | None
    kappa: float | None
    kappa_ci: tuple[float, float] | None
    mcc: float | None
    mcc_ci: tuple[float, float] | None
    spearman: float | None
    spearman_ci: tuple[float, float] | None
    n_scored: int
    tp: int
    fp: int
    fn: int
    tn: int

    def as_dict(self) -> dict:
        """JSON-ready form (intervals as two-element lists)."""
        data = asdict(self)
        for key in ("accuracy_ci", "kappa_ci", "mcc_ci", "spearman_ci"):
            data[key] = list(data[key]) if data[key] is not None else None
        return data


CELL_CSV_FIELDS = (
    "judge", "language", "condition", "task", "n", "accuracy", "accuracy_low", "accuracy_high",
    "kappa", "kappa_low", "kappa_high", "mcc", "mcc_low", "mcc_high", "spearman", "spearman_low",
    "spearman_high", "n_scored", "tp", "fp", "fn", "tn",
)


def cell_csv_row(cell: AgreementCell) -> dict:
    """A flat CSV row (``CELL_CSV_FIELDS``) of a cell."""
    row = {k: v for k, v in asdict(cell).items() if not k.endswith("_ci")}
    for stat in ("accuracy", "kappa", "mcc", "spearman"):
        ci = getattr(cell, f"{stat}_ci")
        row[f"{stat}_low"], row[f"{stat}_high"] = ci if ci is not None else ("", "")
    return row


def _judge_pairs(rows: Iterable[Mapping], judge: str, scales: Mapping[str, str]):
    """(human bool, judge bool, human score, judge score) of rows the judge and a human judged."""
    scale = scales.get(judge, "verdict")
    for row in rows:
        if row.get("human_correct") is None:
            continue
        v = (row.get("verdicts") or {}).get(judge)
        if not v:
            continue
        score = v.get("score")
        correct = v.get("correct")
        if correct is None and scale != "verdict":
            correct = binary_from_score(score, scale)
        if correct is None:
            continue
        yield bool(row["human_correct"]), bool(correct), row.get("human_score"), score


def _cell(judge: str, key: tuple[str, str, str], rows: Sequence[Mapping], scales: Mapping[str, str],
          n_boot: int, seed: int) -> AgreementCell:
    # Rows in a canonical order (by response id), so resamples do not depend on input order.
    ordered = sorted(rows, key=lambda r: (str(type(r.get("response_id"))), r.get("response_id") or 0))
    pairs = list(_judge_pairs(ordered, judge, scales))
    human = [p[0] for p in pairs]
    verdict = [p[1] for p in pairs]
    scored = [(float(p[2]), float(p[3])) for p in pairs if p[2] is not None and p[3] is not None]
    c = confusion(human, verdict)
    n = len(pairs)
    rho = spearman([s[0] for s in scored], [s[1] for s in scored]) if scored else None
    # The cell's own seed: independent of which other cells are computed, and of their order.
    cell_seed = [int(seed), zlib.crc32("\x1f".join((judge, *key)).encode("utf-8"))]
    ci = bootstrap_intervals(
        human, verdict, [s[0] for s in scored], [s[1] for s in scored], n_boot=n_boot, seed=cell_seed
    ) if n else dict.fromkeys(("accuracy", "kappa", "mcc", "spearman"))
    return AgreementCell(
        judge=judge, language=key[0], condition=key[1], task=key[2], n=n,
        accuracy=(c["tp"] + c["tn"]) / n if n else None, accuracy_ci=ci["accuracy"],
        kappa=cohen_kappa(human, verdict) if n else None, kappa_ci=ci["kappa"],
        mcc=matthews(human, verdict) if n else None, mcc_ci=ci["mcc"],
        spearman=rho, spearman_ci=ci["spearman"], n_scored=len(scored), **c,
    )


def agreement_cells(
    rows: Sequence[Mapping],
    judges: Sequence[str],
    *,
    scales: Mapping[str, str] | None = None,
    margins: bool = True,
    n_boot: int = 1000,
    seed: int = 0,
) -> list[AgreementCell]:
    """Agreement of every judge with the humans in every language x condition x task cell.

    With ``margins`` the cells where one or more keys are pooled (``"all"``) come
    too, from the overall ``(all, all, all)`` down. ``scales`` names each judge's
    output (``verdict``, ``quality``, ``score``; default ``verdict``). Cells without
    a labelled row of any judge are left out.
    """
    scales = scales or {}
    keyed = [
        (tuple(str(r.get(k) or "unknown") for k in GROUP_KEYS), r)
        for r in rows if r.get("human_correct") is not None
    ]
    buckets: dict[tuple[str, str, str], list[Mapping]] = {}
    for key, row in keyed:
        variants = [key]
        if margins:
            variants = {
                tuple(key[i] if mask >> i & 1 else ALL for i in range(3)) for mask in range(8)
            }
        for variant in variants:
            buckets.setdefault(variant, []).append(row)

    def order(key: tuple[str, str, str]) -> tuple:
        return (sum(part != ALL for part in key), *[(part != ALL, part) for part in key])

    cells = []
    for key in sorted(buckets, key=order):
        for judge in judges:
            cell = _cell(judge, key, buckets[key], scales, n_boot, seed)
            if cell.n:
                cells.append(cell)
    return cells


# ------------------------------------------------------------------- rankings


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b (ties in either variable corrected); None if undefined."""
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape:
        raise ValueError("x and y must have the same length")
    if a.size < 2:
        return None
    i, j = np.triu_indices(a.size, k=1)
    da, db = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
    n0 = i.size
    ties_a, ties_b = int(np.sum(da == 0)), int(np.sum(db == 0))
    denom = math.sqrt((n0 - ties_a) * (n0 - ties_b))
    if denom == 0:
        return None
    return float(np.sum(da * db)) / denom


@dataclass(frozen=True)
class JudgeComparison:
    """How two judges rank the same systems."""

    judge_a: str
    judge_b: str
    n_systems: int
    spearman: float | None
    kendall: float | None


@dataclass(frozen=True)
class RankingReport:
    """Systems' scores and ranks under each judge, and pairwise ranking agreement."""

    judges: tuple[str, ...]
    systems: tuple[str, ...]
    scores: dict[str, dict[str, float | None]]   # judge -> system -> share judged correct
    n: dict[str, dict[str, int]]                 # judge -> system -> responses judged
    ranks: dict[str, dict[str, float | None]]    # judge -> system -> rank (1 = best; ties: min)
    pairs: tuple[JudgeComparison, ...]

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "judges": list(self.judges),
            "systems": [
                {
                    "system": s,
                    "scores": {j: self.scores[j].get(s) for j in self.judges},
                    "n": {j: self.n[j].get(s, 0) for j in self.judges},
                    "ranks": {j: self.ranks[j].get(s) for j in self.judges},
                }
                for s in self.systems
            ],
            "pairs": [asdict(p) for p in self.pairs],
        }


def ranking_agreement(
    rows: Sequence[Mapping],
    judges: Sequence[str],
    *,
    scales: Mapping[str, str] | None = None,
    include_human: bool = True,
    system_key: str = "system",
) -> RankingReport:
    """Each system's score and rank under each judge; Spearman and Kendall between judges.

    A system's score under a judge is the share of its responses that judge called
    correct, over the responses that judge judged (n reported). ``human`` (the human
    labels) is a judge too when ``include_human`` and labels exist. Pairwise
    statistics use the systems both judges scored.
    """
    scales = scales or {}
    names = list(judges)
    calls: dict[str, dict[str, list[bool]]] = {j: {} for j in names}
    if include_human and any(r.get("human_correct") is not None for r in rows):
        names = ["human", *names]
        calls["human"] = {}
    for row in rows:
        system = str(row.get(system_key) or "unknown")
        if "human" in calls and row.get("human_correct") is not None:
            calls["human"].setdefault(system, []).append(bool(row["human_correct"]))
        for judge in judges:
            v = (row.get("verdicts") or {}).get(judge)
            if not v:
                continue
            correct = v.get("correct")
            if correct is None and scales.get(judge, "verdict") != "verdict":
                correct = binary_from_score(v.get("score"), scales[judge])
            if correct is not None:
                calls[judge].setdefault(system, []).append(bool(correct))
    systems = sorted({s for per in calls.values() for s in per})
    scores = {j: {s: (float(np.mean(calls[j][s])) if calls[j].get(s) else None) for s in systems}
              for j in names}
    counts = {j: {s: len(calls[j].get(s, [])) for s in systems} for j in names}
    ranks: dict[str, dict[str, float | None]] = {}
    for j in names:
        known = [s for s in systems if scores[j][s] is not None]
        order = rankdata([-scores[j][s] for s in known], method="min") if known else []
        ranks[j] = {s: None for s in systems} | {s: float(r) for s, r in zip(known, order, strict=True)}
    pairs = []
    for a_index, a in enumerate(names):
        for b in names[a_index + 1:]:
            both = [s for s in systems if scores[a][s] is not None and scores[b][s] is not None]
            xa, xb = [scores[a][s] for s in both], [scores[b][s] for s in both]
            pairs.append(JudgeComparison(a, b, len(both), spearman(xa, xb) if len(both) >= 2 else None,
                                         kendall_tau_b(xa, xb)))
    return RankingReport(tuple(names), tuple(systems), scores, counts, ranks, tuple(pairs))


# ------------------------------------------------------------------- refusals


@dataclass(frozen=True)
class SystemRefusals:
    """One system's refusals (SEA-SpeechBench Fig. 4)."""

    system: str
    condition: str
    n: int
    refused: int
    refusal_rate: float | None
    accuracy: float | None               # effective verdicts, every answer
    accuracy_answered: float | None      # effective verdicts, answers not refused
    examples: tuple[str, ...]            # up to three refusal phrases seen


def refusal_report(rows: Sequence[Mapping]) -> list[SystemRefusals]:
    """Refusal rate and accuracy (all / not refused) per system and condition.

    Accuracy uses each row's ``effective_correct`` (human > LLM > rules); a
    row's ``refusal`` (a :class:`~judging.refusal.Refusal` or None) is detected
    from ``answer`` when absent.
    """
    groups: dict[tuple[str, str], list[tuple[bool, object]]] = {}
    for row in rows:
        refusal = row["refusal"] if "refusal" in row else detect_refusal(str(row.get("answer") or ""))
        key = (str(row.get("system") or "unknown"), str(row.get("condition") or ""))
        groups.setdefault(key, []).append((bool(row.get("effective_correct")), refusal))
    out = []
    for (system, condition), items in sorted(groups.items()):
        n = len(items)
        answered = [c for c, r in items if r is None]
        phrases = []
        for _c, r in items:
            if r is not None and r.phrase not in phrases and len(phrases) < 3:
                phrases.append(r.phrase)
        out.append(SystemRefusals(
            system=system, condition=condition, n=n, refused=n - len(answered),
            refusal_rate=(n - len(answered)) / n if n else None,
            accuracy=sum(c for c, _r in items) / n if n else None,
            accuracy_answered=sum(answered) / len(answered) if answered else None,
            examples=tuple(phrases),
        ))
    return out


# --------------------------------------------------------------------- report


def study_report(
    rows: Sequence[Mapping],
    judges: Sequence[str],
    *,
    scales: Mapping[str, str] | None = None,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict:
    """The whole report (JSON-ready): agreement cells, rankings and refusals.

    Rankings and refusals are over model systems' answers (rows with a ``model``)
    when there are any, else over every row.
    """
    model_rows = [r for r in rows if r.get("model")] or list(rows)
    cells = agreement_cells(rows, judges, scales=scales, n_boot=n_boot, seed=seed)
    ranking = ranking_agreement(model_rows, judges, scales=scales)
    refusals = refusal_report(model_rows)
    return {
        "judges": list(judges),
        "scales": {j: (scales or {}).get(j, "verdict") for j in judges},
        "n": len(rows),
        "n_labelled": sum(1 for r in rows if r.get("human_correct") is not None),
        "bootstrap": {"n_boot": n_boot, "seed": seed, "level": 0.95, "method": "percentile"},
        "cells": [c.as_dict() for c in cells],
        "ranking": ranking.as_dict(),
        "refusals": [asdict(r) | {"examples": list(r.examples)} for r in refusals],
    }
