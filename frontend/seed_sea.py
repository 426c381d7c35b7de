"""SEA-SpeechBench's model tables from Earshot's data (pure pandas, no Django).

* :func:`duration_bins` — accuracy by clip-duration bin (Table 9);
* :func:`prompt_advantage` — the Prompt Advantage Score across prompt languages
  (App. C), as Earshot computes it: the accuracy with the prompt in language L minus
  the accuracy with the prompt in the reference language (English by default), with
  Newcombe's interval for the difference, and the same relative to the reference.

The QA-audit loop of App. B.3 runs on annotation ratings: :mod:`annotation.seed_audit`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .seed_stats import NEWCOMBE, newcombe, with_wilson

#: Default bin edges in seconds: [0, 5), [5, 10), [10, 20), [20, 30), [30, ∞).
DURATION_EDGES: tuple[float, ...] = (0.0, 5.0, 10.0, 20.0, 30.0, math.inf)


def bin_label(low: float, high: float) -> str:
    """``"5–10 s"``, or ``"≥ 30 s"`` for the open last bin."""
    def fmt(v: float) -> str:
        return f"{v:g}"
    return f"≥ {fmt(low)} s" if math.isinf(high) else f"{fmt(low)}–{fmt(high)} s"


def duration_bins(rows: pd.DataFrame, edges: Sequence[float] = DURATION_EDGES,
                  by: Sequence[str] = ("kind", "label")) -> pd.DataFrame:
    """Accuracy per clip-duration bin (SEA-SpeechBench Table 9).

    ``rows``: one answer per row with the ``by`` columns, ``duration_s`` and ``correct``.
    Bins are half-open ``[low, high)``; ``bin`` is the readable label and ``bin_low``
    its lower edge (for sorting). Empty bins are left out.
    """
    edges = list(edges)
    if any(b <= a for a, b in itertools.pairwise(edges)):
        raise ValueError(f"bin edges must increase, got {edges}")
    keys = [*by, "bin_low", "bin"]
    if rows.empty:
        return with_wilson(pd.DataFrame(columns=[*keys, "n", "correct"]))
    d = rows["duration_s"].to_numpy(dtype=float)
    idx = np.searchsorted(np.asarray(edges), d, side="right") - 1
    ok = (idx >= 0) & (idx < len(edges) - 1)
    frame = rows[ok].assign(
        bin_low=[edges[i] for i in idx[ok]],
        bin=[bin_label(edges[i], edges[i + 1]) for i in idx[ok]],
    )
    table = frame.groupby(keys, as_index=False, sort=True).agg(n=("correct", "size"),
                                                                correct=("correct", "sum"))
    return with_wilson(table)


def prompt_advantage(rows: pd.DataFrame, *, reference: str = "en") -> pd.DataFrame:
    """Prompt Advantage Score per model and prompt language against ``reference``.

    ``rows``: ``label``, ``prompt_language``, ``correct``. Columns: ``label``,
    ``prompt_language``, ``n``/``accuracy`` in that language, ``reference_n``/
    ``reference_accuracy``, ``pas`` (difference of accuracies, points as a 0-1 share)
    with ``pas_ci_low``/``pas_ci_high`` (Newcombe, treating the two prompt runs as
    independent samples) and ``pas_relative`` (``pas / reference_accuracy``). Models
    without answers under the reference prompt get no rows.
    """
    cols = ["label", "prompt_language", "n", "correct", "accuracy", "reference", "reference_n",
            "reference_accuracy", "pas", "pas_ci_low", "pas_ci_high", "pas_relative", "interval"]
    if rows.empty:
        return pd.DataFrame(columns=cols)
    per = rows.groupby(["label", "prompt_language"], as_index=False, sort=True).agg(
        n=("correct", "size"), correct=("correct", "sum"))
    out = []
    for label, group in per.groupby("label", sort=True):
        ref = group[group["prompt_language"] == reference]
        if ref.empty:
            continue
        rn, rk = int(ref["n"].iloc[0]), int(ref["correct"].iloc[0])
        for r in group.itertuples(index=False):
            if r.prompt_language == reference:
                continue
            d, lo, hi = newcombe(r.correct, r.n, rk, rn)
            out.append({"label": label, "prompt_language": r.prompt_language, "n": int(r.n),
                        "correct": int(r.correct), "accuracy": r.correct / r.n,
                        "reference": reference, "reference_n": rn, "reference_accuracy": rk / rn,
                        "pas": d, "pas_ci_low": lo, "pas_ci_high": hi,
                        "pas_relative": d / (rk / rn) if rk else math.nan, "interval": NEWCOMBE})
    return pd.DataFrame(out, columns=cols)
