"""Statistics of comparative listening tests (pure: numpy/pandas/scipy, no Django).

Per system: mean score with a 95 % CI kept inside the scale (CMOS/CCR, DMOS/DCR, SMOS,
MUSHRA), MUSHRA medians with a distribution-free CI, preference shares with a Wilson
interval and an exact two-sided binomial (sign) test, ABX accuracy against chance,
mean ranks with Friedman's test. Between systems: Wilcoxon signed-rank tests on paired
ratings with Holm's correction and two effect sizes (matched-pairs rank-biserial r and
Cohen's d_z). What each statistic is, when it applies, how ties are handled and its
minimum n: ``docs/annotation-statistics.md``.

The building blocks are scipy's distributions (``binom``, ``norm``, ``chi2``, ``t``);
the tests are computed here and checked in ``tests/annotation/test_listening_stats.py``
against ``scipy.stats.binomtest``/``wilcoxon``/``friedmanchisquare``/``quantile_test``
and ``statsmodels`` (``proportion_confint``, ``multipletests``).

Frame inputs are long tables, one row per rating, with the column names given per
function (``rater_id``, ``item_id``, ``system``, ``value``, ...). Undefined results are
NaN with a ``reason``; malformed input raises ``ValueError``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats

from annotation.agreement import MIN_N_CI, TOO_FEW, bounded_t_interval

__all__ = [
    "MIN_N_CI",
    "MIN_N_MEDIAN",
    "BinomialResult",
    "FriedmanResult",
    "MeanCI",
    "WilcoxonResult",
    "abx_table",
    "binomial_test_half",
    "friedman_test",
    "holm",
    "mean_ci",
    "mean_table",
    "median_ci",
    "mushra_table",
    "pairwise_table",
    "preference",
    "preference_table",
    "rank_table",
    "wilcoxon_signed_rank",
    "wilson_interval",
]

#: fewest scores for a distribution-free median CI at 95 %: with 5 scores the widest
#: order-statistic interval (min, max) already covers 1 - 2/2^5 = 93.75 % < 95 %
MIN_N_MEDIAN = 6

Ties = Literal["exclude", "split"]


# --------------------------------------------------------------------------- means


@dataclass(frozen=True)
class MeanCI:
    """Mean score with a two-sided Student-t interval, cut to the scale if given.

    ``clipped``: a bound was cut to the scale's end; ``reason``: why there is no
    interval (``"too few ratings"`` below ``min_n``).
    """

    mean: float
    sd: float
    n: int
    ci_low: float
    ci_high: float
    confidence: float
    clipped: bool = False
    reason: str = ""


def mean_ci(
    scores: Sequence[float] | np.ndarray,
    *,
    scale: tuple[float, float] | None = None,
    confidence: float = 0.95,
    min_n: int = MIN_N_CI,
) -> MeanCI:
    """Mean, SD (ddof=1) and ``mean ± t·sd/√n`` of ``scores`` (NaN dropped).

    The CMOS (CCR, −3…+3), DMOS (DCR, 1–5), SMOS (1–5) and MUSHRA (0–100) mean per
    system. Below ``min_n`` scores the interval is NaN, ``reason="too few ratings"``;
    with ``scale`` the bounds never leave it (``clipped`` says when they were cut).
    """
    x = np.asarray(scores, dtype=float).ravel()
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return MeanCI(math.nan, math.nan, 0, math.nan, math.nan, confidence, reason="no ratings")
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    low, high, _, clipped = bounded_t_interval(np.array([mean]), np.array([sd]), np.array([n]),
                                               confidence=confidence, scale=scale, min_n=min_n)
    return MeanCI(mean, sd, n, float(low[0]), float(high[0]), confidence, bool(clipped[0]),
                  TOO_FEW if n < max(min_n, 2) else "")


def median_ci(scores: Sequence[float] | np.ndarray, *, confidence: float = 0.95,
              min_n: int = MIN_N_MEDIAN) -> tuple[float, float, float]:
    """``(median, low, high)``: the distribution-free interval of the median.

    The bounds are order statistics ``x_(l) ≤ median ≤ x_(u)``: with ``B ~ Bin(n, ½)``,
    ``l`` is the smallest ``k`` with ``P(B ≤ k) ≥ α/2`` and ``u = n + 1 − l``, so the
    coverage is at least ``confidence`` whatever the distribution, and the interval
    lies inside the observed scores (hence inside the scale). NaN bounds below
    ``min_n`` scores (or when no order statistic reaches the coverage).
    """
    x = np.sort(np.asarray(scores, dtype=float).ravel())
    x = x[~np.isnan(x)]
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    med = float(np.median(x))
    if n < min_n:
        return med, math.nan, math.nan
    alpha = (1.0 - confidence) / 2.0
    lower_rank = int(stats.binom.ppf(alpha, n, 0.5))  # 1-based rank of the lower bound
    upper_rank = n + 1 - lower_rank
    if lower_rank < 1 or upper_rank > n:
        return med, math.nan, math.nan
    return med, float(x[lower_rank - 1]), float(x[upper_rank - 1])


def mean_table(
    frame: pd.DataFrame,
    by: str | Sequence[str] = "system",
    *,
    value: str = "value",
    scale: tuple[float, float] | None = None,
    confidence: float = 0.95,
    min_n: int = MIN_N_CI,
    medians: bool = False,
) -> pd.DataFrame:
    """Mean ± CI per group of a long table (CMOS/DMOS/SMOS per system), vectorised.

    Columns: the ``by`` keys, ``n``, ``mean``, ``sd``, ``ci_low``, ``ci_high``,
    ``ci_clipped``, ``ci_note`` (``"too few ratings"`` or the cut); with
    ``medians=True`` also ``median``, ``median_low``, ``median_high``
    (:func:`median_ci`). Rows whose value is missing are ignored.
    """
    keys = [by] if isinstance(by, str) else list(by)
    data = frame.loc[frame[value].notna(), [*keys, value]].copy()
    data[value] = data[value].astype(float)
    g = data.groupby(keys, sort=True, observed=True, dropna=False)[value]
    out = g.agg(n="count", mean="mean", sd="std").reset_index()
    low, high, _, clipped = bounded_t_interval(
        out["mean"].to_numpy(), out["sd"].to_numpy(), out["n"].to_numpy(),
        confidence=confidence, scale=scale, min_n=min_n)
    out["ci_low"], out["ci_high"], out["ci_clipped"] = low, high, clipped
    note = np.where(clipped, f"t interval cut to the scale {_fmt_scale(scale)}", "").astype(object)
    note[out["n"].to_numpy() < max(min_n, 2)] = TOO_FEW
    out["ci_note"] = note
    if medians:
        meds = [median_ci(v, confidence=confidence) for _, v in g]
        out["median"] = [m[0] for m in meds]
        out["median_low"] = [m[1] for m in meds]
        out["median_high"] = [m[2] for m in meds]
    return out


def _fmt_scale(scale: tuple[float, float] | None) -> str:
    if scale is None:
        return ""
    return "–".join(str(int(v)) if float(v).is_integer() else f"{v:g}" for v in scale)


# --------------------------------------------------------------------------- proportions


def wilson_interval(k: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (Wilson 1927).

    ``(p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)``; stays inside [0, 1] and is
    sensible at 0 and n successes, unlike the Wald interval. ``n == 0`` gives NaN.
    """
    if n <= 0:
        return math.nan, math.nan
    if not 0 <= k <= n:
        raise ValueError(f"successes must be between 0 and n, got {k} of {n}")
    z = float(stats.norm.ppf((1.0 + confidence) / 2.0))
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class BinomialResult:
    """An exact binomial test of ``k`` successes in ``n`` against chance ½."""

    k: int
    n: int
    p_value: float
    alternative: str


def binomial_test_half(k: int, n: int, alternative: str = "two-sided") -> BinomialResult:
    """Exact binomial test of ``H0: p = ½`` (the sign test of a preference or ABX).

    Two-sided: ``min(1, 2·P(B ≤ min(k, n−k)))``, which at p = ½ is the sum of all
    outcomes no more likely than the one seen; ``"greater"``: ``P(B ≥ k)``;
    ``"less"``: ``P(B ≤ k)``, with ``B ~ Bin(n, ½)``. ``n == 0`` gives NaN.
    """
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(f"alternative must be two-sided, greater or less, got {alternative!r}")
    k, n = int(k), int(n)
    if not 0 <= k <= n:
        raise ValueError(f"successes must be between 0 and n, got {k} of {n}")
    if n == 0:
        return BinomialResult(k, n, math.nan, alternative)
    if alternative == "greater":
        p = float(stats.binom.sf(k - 1, n, 0.5))
    elif alternative == "less":
        p = float(stats.binom.cdf(k, n, 0.5))
    else:
        p = min(1.0, 2.0 * float(stats.binom.cdf(min(k, n - k), n, 0.5)))
    return BinomialResult(k, n, p, alternative)


def preference(n_a: int, n_b: int, n_tie: int = 0, *, ties: Ties = "exclude",
               confidence: float = 0.95) -> dict[str, Any]:
    """Share of A over B with a Wilson CI and a two-sided sign test.

    ``ties="exclude"`` (default, the sign test's rule): "no preference" answers are
    reported (``n_tie``, ``tie_share``) but left out of the share and the test, which
    use ``n_a`` of ``n_a + n_b``. ``ties="split"``: each tie counts half to each side;
    the share and its CI use ``n_a + n_tie/2`` of all answers, and the test uses the
    integers ``n_a + ⌊n_tie/2⌋`` (an odd tie goes to the side with fewer wins, so the
    test never gains from it) of ``n_a + n_b + n_tie``.
    """
    if ties not in ("exclude", "split"):
        raise ValueError(f"ties must be 'exclude' or 'split', got {ties!r}")
    if min(n_a, n_b, n_tie) < 0:
        raise ValueError("counts must be non-negative")
    total = n_a + n_b + n_tie
    if ties == "exclude":
        n = n_a + n_b
        share_k: float = n_a
        test_k = n_a
    else:
        n = total
        share_k = n_a + n_tie / 2.0
        half, odd = divmod(n_tie, 2)
        test_k = n_a + half + (odd if n_a < n_b else 0)
    low, high = wilson_interval(share_k, n, confidence) if n else (math.nan, math.nan)
    test = binomial_test_half(test_k, n)
    return {
        "n_a": int(n_a), "n_b": int(n_b), "n_tie": int(n_tie), "n": int(total),
        "share_a": share_k / n if n else math.nan, "ci_low": low, "ci_high": high,
        "tie_share": n_tie / total if total else math.nan, "p_value": test.p_value,
        "ties": ties, "reason": "" if n else "no decisive answers",
    }


def preference_table(
    frame: pd.DataFrame,
    *,
    system_a: str = "system_a",
    system_b: str = "system_b",
    choice: str = "choice",
    ties: Ties = "exclude",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """AB preference per pair of systems, Holm-corrected over the pairs.

    One row per answer: the systems played as A and as B, and ``choice`` ``"A"``,
    ``"B"`` or anything else for "no preference". Pairs are unordered: ``first`` is the
    alphabetically first system and ``share_first`` its share of wins (so A/B position
    is balanced out). Columns: ``first, second, n_first, n_second, n_tie, n,
    share_first, ci_low, ci_high, tie_share, p_value, p_holm, reason``.
    """
    a = frame[system_a].astype(str).to_numpy()
    b = frame[system_b].astype(str).to_numpy()
    c = frame[choice].astype(str).str.upper().to_numpy()
    winner = np.where(c == "A", a, np.where(c == "B", b, ""))
    first = np.minimum(a, b)
    second = np.maximum(a, b)
    data = pd.DataFrame({"first": first, "second": second,
                         "w_first": (winner == first) & (winner != ""),
                         "w_second": (winner == second) & (winner != "") & (first != second),
                         "tie": winner == ""})
    g = data.groupby(["first", "second"], sort=True).sum()
    rows = []
    for (s1, s2), r in g.iterrows():
        res = preference(int(r["w_first"]), int(r["w_second"]), int(r["tie"]), ties=ties,
                         confidence=confidence)
        rows.append({"first": s1, "second": s2, "n_first": res["n_a"], "n_second": res["n_b"],
                     "n_tie": res["n_tie"], "n": res["n"], "share_first": res["share_a"],
                     "ci_low": res["ci_low"], "ci_high": res["ci_high"],
                     "tie_share": res["tie_share"], "p_value": res["p_value"],
                     "reason": res["reason"]})
    out = pd.DataFrame(rows, columns=["first", "second", "n_first", "n_second", "n_tie", "n",
                                      "share_first", "ci_low", "ci_high", "tie_share", "p_value",
                                      "reason"])
    out.insert(len(out.columns) - 1, "p_holm", holm(out["p_value"].to_numpy(dtype=float)))
    return out


def abx_table(frame: pd.DataFrame, by: str | Sequence[str] = "system", *, correct: str = "correct",
              confidence: float = 0.95) -> pd.DataFrame:
    """ABX accuracy per group: share correct, Wilson CI, one-sided binomial test.

    ``correct`` is true when the listener matched X to the right stimulus. The test is
    ``H0: p = ½`` (guessing) against ``p > ½`` (the listener hears a difference).
    Columns: the ``by`` keys, ``n``, ``n_correct``, ``accuracy``, ``ci_low``, ``ci_high``,
    ``p_value``.
    """
    keys = [by] if isinstance(by, str) else list(by)
    data = frame.loc[frame[correct].notna(), keys].assign(_c=frame[correct].astype(bool))
    g = data.groupby(keys, sort=True, observed=True)["_c"].agg(n="count", n_correct="sum").reset_index()
    ci = [wilson_interval(k, n, confidence) for k, n in zip(g["n_correct"], g["n"], strict=True)]
    g["accuracy"] = g["n_correct"] / g["n"]
    g["ci_low"] = [lo for lo, _ in ci]
    g["ci_high"] = [hi for _, hi in ci]
    g["p_value"] = [binomial_test_half(int(k), int(n), "greater").p_value
                    for k, n in zip(g["n_correct"], g["n"], strict=True)]
    return g


# --------------------------------------------------------------------------- MUSHRA


def mushra_table(
    frame: pd.DataFrame,
    *,
    excluded: Collection[Any] = (),
    condition: str = "condition",
    value: str = "value",
    rater: str = "rater_id",
    scale: tuple[float, float] = (0.0, 100.0),
    confidence: float = 0.95,
    min_n: int = MIN_N_CI,
) -> pd.DataFrame:
    """MUSHRA scores per condition after post-screening (ITU-R BS.1534-3 §9).

    ``excluded``: rater ids removed by post-screening (decided elsewhere, e.g. hidden
    reference rated below 90 too often); their scores are dropped first. Per condition:
    ``n`` scores, ``n_listeners``, mean with a t CI inside 0–100, median with the
    distribution-free CI (:func:`median_ci`). Conditions are ordered by mean, best first.
    """
    kept = frame.loc[~frame[rater].isin(list(excluded))]
    out = mean_table(kept, condition, value=value, scale=scale, confidence=confidence,
                     min_n=min_n, medians=True)
    listeners = kept.loc[kept[value].notna()].groupby(condition, observed=True)[rater].nunique()
    out.insert(2, "n_listeners", out[condition].map(listeners).fillna(0).astype(int))
    return out.sort_values("mean", ascending=False, kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------- ranks


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test over ``n_blocks`` complete blocks of ``k`` systems.

    ``kendall_w = statistic / (n_blocks (k − 1))`` is its effect size (0: no agreement
    on an order, 1: every block ranks the systems the same).
    """

    statistic: float
    p_value: float
    df: int
    n_blocks: int
    k: int
    kendall_w: float
    mean_ranks: tuple[float, ...]
    reason: str = ""


def friedman_test(blocks: np.ndarray) -> FriedmanResult:
    """Friedman's χ² over a ``(blocks, systems)`` array, with the tie correction.

    Ranks within each block (average ranks for ties, smaller value → rank 1),
    ``R_j`` rank sums, ``Q = (12 / (n k (k+1)) Σ R_j² − 3 n (k+1)) / C`` with
    ``C = 1 − Σ (t³ − t) / (n k (k² − 1))`` over the tie groups; ``p = P(χ²_{k−1} ≥ Q)``.
    Needs ``k ≥ 3`` systems (scipy's rule; for two use the sign or Wilcoxon test) and
    ``n ≥ 2`` blocks; otherwise NaN with a reason.
    """
    x = np.asarray(blocks, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"blocks must be 2-D (blocks, systems), got shape {x.shape}")
    if np.isnan(x).any():
        raise ValueError("blocks must be complete (no missing values); drop incomplete blocks")
    n, k = x.shape
    ranks = stats.rankdata(x, axis=1) if n else np.zeros((0, k))
    mean_ranks = tuple(float(v) for v in ranks.mean(axis=0)) if n else tuple([math.nan] * k)
    if k < 3 or n < 2:
        return FriedmanResult(math.nan, math.nan, max(k - 1, 0), n, k, math.nan, mean_ranks,
                              reason="needs at least 3 systems and 2 complete blocks")
    r = ranks.sum(axis=0)
    q = 12.0 / (n * k * (k + 1)) * float((r * r).sum()) - 3.0 * n * (k + 1)
    ties = 0.0
    for row in x:
        _, counts = np.unique(row, return_counts=True)
        ties += float((counts ** 3 - counts).sum())
    c = 1.0 - ties / (n * k * (k * k - 1))
    if c <= 0:
        return FriedmanResult(math.nan, math.nan, k - 1, n, k, math.nan, mean_ranks,
                              reason="every block ties all systems")
    q /= c
    return FriedmanResult(q, float(stats.chi2.sf(q, k - 1)), k - 1, n, k, q / (n * (k - 1)),
                          mean_ranks)


def rank_table(
    frame: pd.DataFrame,
    *,
    system: str = "system",
    value: str = "rank",
    block: Sequence[str] = ("rater_id", "item_id"),
    higher_is_better: bool = False,
) -> tuple[pd.DataFrame, FriedmanResult]:
    """Mean rank per system and Friedman's test over complete blocks.

    A block is one listener's answer to one item (``block`` columns); ``value`` is the
    rank given (1 = best, ``higher_is_better=False``) or a score (MUSHRA,
    ``higher_is_better=True``), re-ranked within the block so rank 1 is always best.
    Blocks missing a system are left out of the test (counted in ``n_blocks``).
    Columns: ``system, mean_rank, n_blocks`` sorted best first.
    """
    keys = list(block)
    wide = frame.pivot_table(index=keys, columns=system, values=value, aggfunc="mean",
                             observed=True)
    complete = wide.dropna(axis=0, how="any")
    x = complete.to_numpy(dtype=float)
    result = friedman_test(-x if higher_is_better else x)
    table = pd.DataFrame({
        "system": [str(s) for s in complete.columns],
        "mean_rank": result.mean_ranks,
        "n_blocks": result.n_blocks,
    }).sort_values("mean_rank", kind="stable").reset_index(drop=True)
    return table, result


# --------------------------------------------------------------------------- pairwise


@dataclass(frozen=True)
class WilcoxonResult:
    """Wilcoxon signed-rank test of paired differences ``x − y`` (zeros dropped).

    ``w_plus``/``w_minus``: rank sums of the positive/negative differences;
    ``statistic = min(w_plus, w_minus)``; ``method`` ``"exact"`` (all sign patterns:
    n ≤ 50 pairs without ties or zeros, or n ≤ 13 pairs with them) or ``"normal"``
    (tie-corrected normal approximation, no continuity correction) — the choice
    ``scipy.stats.wilcoxon`` makes by default. Effect sizes: ``rank_biserial = (w_plus − w_minus)/(w_plus + w_minus)``
    (Kerby 2014; +1 when every pair favours x) and ``cohens_dz = mean(d)/sd(d)`` over all
    pairs (zeros included).
    """

    n_pairs: int
    n_zero: int
    w_plus: float
    w_minus: float
    statistic: float
    z: float
    p_value: float
    method: str
    mean_diff: float
    rank_biserial: float
    cohens_dz: float
    reason: str = ""


def wilcoxon_signed_rank(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                         ) -> WilcoxonResult:
    """Two-sided Wilcoxon signed-rank test of paired ratings (pairs with NaN dropped).

    Zero differences are dropped before ranking (Wilcoxon's rule); ranks of equal
    ``|d|`` are averaged. Exact null distribution (every sign pattern of the non-zero
    differences, two-sided ``p = min(1, 2·min(P(W ≥ W+), P(W ≤ W+)))``) for up to 50
    pairs without ties or zeros and up to 13 pairs with them; otherwise ``z = (W+ − n(n+1)/4) / √((n(n+1)(2n+1) − Σ(t³−t)/2) / 24)``.
    Fewer than 1 non-zero pair gives NaN with a reason.
    """
    a = np.asarray(x, dtype=float).ravel()
    b = np.asarray(y, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples need the same length, got {a.size} and {b.size}")
    ok = ~(np.isnan(a) | np.isnan(b))
    d_all = a[ok] - b[ok]
    n_all = d_all.size
    mean_diff = float(d_all.mean()) if n_all else math.nan
    sd = float(d_all.std(ddof=1)) if n_all > 1 else math.nan
    dz = mean_diff / sd if n_all > 1 and sd > 0 else math.nan
    d = d_all[d_all != 0]
    n = d.size
    n_zero = n_all - n
    if n == 0:
        return WilcoxonResult(n_all, n_zero, 0.0, 0.0, math.nan, math.nan, math.nan, "", mean_diff,
                              math.nan, dz, reason="no non-zero differences")
    ranks = stats.rankdata(np.abs(d))
    w_plus = float(ranks[d > 0].sum())
    w_minus = float(ranks[d < 0].sum())
    _, tie_counts = np.unique(np.abs(d), return_counts=True)
    has_ties = bool((tie_counts > 1).any())
    mn = n * (n + 1) / 4.0
    var = (n * (n + 1) * (2 * n + 1) - float((tie_counts ** 3 - tie_counts).sum()) / 2.0) / 24.0
    z = (w_plus - mn) / math.sqrt(var) if var > 0 else math.nan
    if n_all <= 50 and ((not has_ties and n_zero == 0) or n_all <= 13):
        # exact: every sign pattern of the non-zero differences (ranks doubled to integers,
        # so average ranks of ties count exactly); 2^13 patterns at most when ties exist
        doubled = np.rint(2 * ranks).astype(np.int64)
        counts = np.zeros(int(doubled.sum()) + 1)
        counts[0] = 1.0
        for r in doubled:
            counts[r:] = counts[r:] + counts[:-r].copy()
        total = counts.sum()
        cdf = np.cumsum(counts) / total
        sf = np.cumsum(counts[::-1])[::-1] / total  # sf[k] = P(2 W+ >= k)
        wp = round(2 * w_plus)
        p = min(1.0, 2.0 * min(float(sf[wp]), float(cdf[wp])))
        method = "exact"
    else:
        p = float(2.0 * stats.norm.sf(abs(z))) if not math.isnan(z) else math.nan
        method = "normal"
    rb = (w_plus - w_minus) / (w_plus + w_minus)
    return WilcoxonResult(n_all, n_zero, w_plus, w_minus, min(w_plus, w_minus), z, p, method,
                          mean_diff, rb, dz)


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control; NaN kept as NaN).

    Sorted ascending, ``p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j))`` with ``m`` the
    number of non-missing p-values; returned in the input order.
    """
    p = np.asarray(p_values, dtype=float).ravel()
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(adj)
    return out


def pairwise_table(
    frame: pd.DataFrame,
    *,
    system: str = "system",
    value: str = "value",
    block: Sequence[str] = ("rater_id", "item_id"),
    systems: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """Every pair of systems: Wilcoxon signed-rank on paired ratings, Holm-corrected.

    Ratings are paired on ``block`` (one listener's scores of one item, as in MUSHRA,
    or of the same source text): the block's mean per system, and only blocks that
    rated both systems of a pair count for it (``n_pairs``). Columns: ``first,
    second, n_pairs, n_zero, mean_diff`` (first − second), ``w_plus, w_minus, z,
    p_value, p_holm, method, rank_biserial, cohens_dz, reason``; Holm's correction runs
    over all pairs of the table.
    """
    keys = list(block)
    wide = frame.loc[frame[value].notna()].pivot_table(
        index=keys, columns=system, values=value, aggfunc="mean", observed=True)
    names = list(systems) if systems is not None else sorted(wide.columns, key=str)
    rows = []
    for s1, s2 in itertools.combinations(names, 2):
        if s1 not in wide or s2 not in wide:
            continue
        res = wilcoxon_signed_rank(wide[s1].to_numpy(), wide[s2].to_numpy())
        rows.append({"first": s1, "second": s2, "n_pairs": res.n_pairs, "n_zero": res.n_zero,
                     "mean_diff": res.mean_diff, "w_plus": res.w_plus, "w_minus": res.w_minus,
                     "z": res.z, "p_value": res.p_value, "method": res.method,
                     "rank_biserial": res.rank_biserial, "cohens_dz": res.cohens_dz,
                     "reason": res.reason})
    cols = ["first", "second", "n_pairs", "n_zero", "mean_diff", "w_plus", "w_minus", "z",
            "p_value", "p_holm", "method", "rank_biserial", "cohens_dz", "reason"]
    out = pd.DataFrame(rows, columns=[c for c in cols if c != "p_holm"])
    out.insert(9, "p_holm", holm(out["p_value"].to_numpy(dtype=float)))
    return out[cols]
