"""Intervals shared by the seed-paper tables (pure: numpy/scipy only, no Django).

Every accuracy in those tables carries a **Wilson score interval** (Wilson 1927;
``statsmodels.stats.proportion.proportion_confint(method="wilson")``), every
difference of two accuracies a **Newcombe hybrid score interval** built from the two
Wilson intervals (Newcombe 1998, method 10; ``confint_proportions_2indep(method=
"newcomb")``), and every mean (MOS, θ) a Student-t interval. The tables name the
method in an ``interval`` column so a reader never has to guess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

WILSON = "Wilson 95%"
NEWCOMBE = "Newcombe 95% (difference of Wilson intervals)"
STUDENT_T = "Student t 95%"


def _z(confidence: float) -> float:
    return float(stats.norm.ppf((1.0 + confidence) / 2.0))


def wilson(k: float, n: float, *, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes out of ``n``; NaNs when ``n`` is 0."""
    if not n:
        return math.nan, math.nan
    z = _z(confidence)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k <= 0 else max(0.0, centre - half)  # exact ends, not a rounding residue
    high = 1.0 if k >= n else min(1.0, centre + half)
    return low, high


def newcombe(k1: float, n1: float, k2: float, n2: float, *,
             confidence: float = 0.95) -> tuple[float, float, float]:
    """``p1 - p2`` with Newcombe's hybrid score interval (independent samples).

    Returns ``(difference, low, high)``; NaNs when either ``n`` is 0.
    """
    if not n1 or not n2:
        return math.nan, math.nan, math.nan
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, confidence=confidence)
    l2, u2 = wilson(k2, n2, confidence=confidence)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


def mean_t(values: Sequence[float] | np.ndarray, *,
           confidence: float = 0.95) -> tuple[int, float, float, float, float]:
    """``(n, mean, sd, low, high)`` of the finite values; the interval is NaN below n = 2."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return 0, math.nan, math.nan, math.nan, math.nan
    mean = float(x.mean())
    if n < 2:
        return n, mean, math.nan, math.nan, math.nan
    sd = float(x.std(ddof=1))
    half = float(stats.t.ppf((1.0 + confidence) / 2.0, n - 1)) * sd / math.sqrt(n)
    return n, mean, sd, mean - half, mean + half


def with_wilson(frame: pd.DataFrame, *, k: str = "correct", n: str = "n",
                prefix: str = "") -> pd.DataFrame:
    """``frame`` plus ``<prefix>accuracy``, ``<prefix>ci_low``, ``<prefix>ci_high`` and ``interval``."""
    out = frame.copy()
    ks = out[k].to_numpy(dtype=float) if len(out) else np.array([])
    ns = out[n].to_numpy(dtype=float) if len(out) else np.array([])
    intervals = [wilson(a, b) for a, b in zip(ks, ns, strict=True)]
    out[f"{prefix}accuracy"] = [a / b if b else math.nan for a, b in zip(ks, ns, strict=True)]
    out[f"{prefix}ci_low"] = [i[0] for i in intervals]
    out[f"{prefix}ci_high"] = [i[1] for i in intervals]
    out["interval"] = WILSON
    return out
