"""Agreement and MOS statistics for annotation campaigns (pure: no Django).

Everything here takes plain arrays and returns floats or frozen dataclasses, so the
same numbers come out of a notebook, a Celery task or a test. The heavy functions are
vectorised (``np.bincount`` and matrix products over a units x values count table),
so a campaign with a million ratings is summarised without a Python loop over items.

Conventions
-----------
* A *count table* is an ``(items, categories)`` array whose cell ``[i, c]`` is how many
  raters put item ``i`` in category ``c`` (Fleiss' input, and Krippendorff's
  ``value_counts``).
* *Reliability data* is a ``(raters, units)`` array with ``NaN`` (or ``None``) where a
  rater did not rate a unit (Krippendorff's input).
* Undefined statistics (one category only, nothing pairable) come back as ``NaN`` with
  a ``reason``; malformed input (negative counts, wrong shape) raises ``ValueError``.

References: Fleiss (1971) "Measuring nominal scale agreement among many raters";
Krippendorff (2011) "Computing Krippendorff's alpha-reliability"; Cohen (1960, 1968);
Landis & Koch (1977); ITU-T P.808 (2021) for the MOS confidence interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import sparse, stats

Level = Literal["nominal", "ordinal", "interval", "ratio"]
LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")

__all__ = [
    "LEVELS",
    "MIN_N_CI",
    "TOO_FEW",
    "AlphaResult",
    "BootstrapResult",
    "KappaResult",
    "MosSummary",
    "alpha_from_value_counts",
    "bootstrap_units",
    "bounded_t_interval",
    "cohen_kappa",
    "fleiss_kappa",
    "fleiss_kappa_bootstrap",
    "krippendorff_alpha",
    "krippendorff_alpha_bootstrap",
    "landis_koch",
    "mos_summary",
    "percent_agreement",
    "rater_mos_correlation",
    "reliability_to_value_counts",
]


# --------------------------------------------------------------------------- labels

#: Landis & Koch (1977) benchmarks: (upper bound inclusive, label). Below 0 is "poor".
LANDIS_KOCH: tuple[tuple[float, str], ...] = (
    (0.20, "slight"),
    (0.40, "fair"),
    (0.60, "moderate"),
    (0.80, "substantial"),
    (1.00, "almost perfect"),
)


def landis_koch(kappa: float) -> str:
    """Landis & Koch (1977) strength-of-agreement label for a kappa-like value.

    ``< 0`` poor, ``0–0.20`` slight, ``0.21–0.40`` fair, ``0.41–0.60`` moderate,
    ``0.61–0.80`` substantial, ``0.81–1.00`` almost perfect. Upper bounds are
    inclusive (0.20 is "slight", 0.2000001 is "fair"). ``NaN`` gives ``"undefined"``.
    The labels were proposed for kappa; we apply the same table to Krippendorff's
    alpha so reports read uniformly, which is a convention, not Krippendorff's advice
    (he suggests alpha >= 0.800 to rely on data, >= 0.667 for tentative conclusions).
    """
    k = float(kappa)
    if math.isnan(k):
        return "undefined"
    if k < 0:
        return "poor"
    for upper, label in LANDIS_KOCH:
        if k <= upper:
            return label
    return "almost perfect"  # tolerate rounding above 1


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class KappaResult:
    """A kappa statistic with the agreement terms it was computed from.

    ``p_observed`` / ``p_expected`` are the observed and chance agreement (for weighted
    Cohen's kappa: 1 minus the weighted disagreement, weights scaled to [0, 1]), so
    ``kappa == (p_observed - p_expected) / (1 - p_expected)``. ``reason`` is empty
    unless ``kappa`` is NaN, then it says why.
    """

    kappa: float
    label: str
    n_items: int
    n_raters: int
    p_observed: float
    p_expected: float
    reason: str = ""


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha with its disagreement terms.

    ``n_units`` counts pairable units (two or more values); ``n_pairable`` is the total
    number of pairable values (Krippendorff's ``n..``). ``alpha = 1 - d_observed /
    d_expected``. ``reason`` is empty unless ``alpha`` is NaN.
    """

    alpha: float
    level: str
    label: str
    n_units: int
    n_pairable: int
    d_observed: float
    d_expected: float
    reason: str = ""


@dataclass(frozen=True)
class MosSummary:
    """Mean opinion score with a confidence interval.

    ``method`` is ``"t"`` (Student t with n-1 df) or ``"normal"`` (the ITU-T P.808
    form ``z * sd / sqrt(n)``, z = 1.96 at 95 %). ``sd`` uses ``ddof=1``. Below
    ``min_n`` scores the interval is NaN and ``reason`` is ``"too few ratings"``. With a
    ``scale`` the interval is cut to the scale's ends and ``clipped`` says whether that
    happened (then ``half_width`` is NaN: the interval is no longer symmetric).
    """

    mean: float
    sd: float
    n: int
    ci_low: float
    ci_high: float
    half_width: float
    method: str
    confidence: float = 0.95
    reason: str = ""
    clipped: bool = False


@dataclass(frozen=True)
class BootstrapResult:
    """Percentile bootstrap interval of a statistic, resampling units (items).

    ``n_valid`` is the number of resamples whose statistic was defined (not NaN); the
    interval is taken over those only.
    """

    estimate: float
    ci_low: float
    ci_high: float
    confidence: float
    n_boot: int
    n_valid: int
    seed: int
    method: str = "percentile bootstrap over units"


# --------------------------------------------------------------------------- helpers


def _as_count_table(counts: Any) -> np.ndarray:
    table = np.asarray(counts, dtype=float)
    if table.ndim != 2:
        raise ValueError(f"count table must be 2-D (items x categories), got shape {table.shape}")
    if table.size and (np.isnan(table).any() or (table < 0).any()):
        raise ValueError("count table must hold non-negative counts without NaN")
    if table.size and not np.allclose(table, np.round(table)):
        raise ValueError("count table must hold whole numbers")
    return table


# --------------------------------------------------------------------------- Fleiss


def fleiss_kappa(counts: Any) -> KappaResult:
    """Fleiss' kappa for an ``(items, categories)`` count table.

    Every item must have the same number ``n >= 2`` of ratings (Fleiss' design; use
    :func:`krippendorff_alpha` otherwise). With ``N`` items and ``p_j`` the share of
    all ratings in category ``j``::

        P_i = (sum_j n_ij**2 - n) / (n (n - 1))      agreement on item i
        P_o = mean_i P_i,   P_e = sum_j p_j**2
        kappa = (P_o - P_e) / (1 - P_e)

    If every rating falls in one category, ``P_e == 1`` and kappa is undefined: the
    result is NaN with a reason (agreement is perfect but uninformative).
    """
    table = _as_count_table(counts)
    n_items, n_cat = table.shape
    if n_items == 0 or n_cat == 0:
        raise ValueError("count table is empty: Fleiss' kappa needs at least one item")
    row = table.sum(axis=1)
    n = row[0]
    if not np.all(row == n):
        raise ValueError(
            "Fleiss' kappa needs the same number of ratings per item "
            f"(found {int(row.min())}..{int(row.max())}); use krippendorff_alpha instead"
        )
    if n < 2:
        raise ValueError(f"Fleiss' kappa needs at least 2 ratings per item, got {int(n)}")
    p_j = table.sum(axis=0) / (n_items * n)
    p_i = ((table**2).sum(axis=1) - n) / (n * (n - 1))
    p_o = float(p_i.mean())
    p_e = float((p_j**2).sum())
    if math.isclose(p_e, 1.0):
        return KappaResult(
            math.nan, "undefined", n_items, int(n), p_o, p_e,
            reason="all ratings fall in one category: chance agreement is 1, kappa undefined",
        )
    kappa = (p_o - p_e) / (1.0 - p_e)
    return KappaResult(kappa, landis_koch(kappa), n_items, int(n), p_o, p_e)


def percent_agreement(counts: Any) -> float:
    """Mean pairwise percent agreement over items with two or more ratings.

    For item ``i`` with ``m_i`` ratings the share of agreeing rater pairs is
    ``sum_c n_ic (n_ic - 1) / (m_i (m_i - 1))``; the result is the plain mean over those
    items (equal to Fleiss' ``P_o`` when every item has the same ``m``). Items with
    fewer than two ratings have no pairs and are skipped; NaN if none is left.
    """
    table = _as_count_table(counts)
    m = table.sum(axis=1)
    keep = m >= 2
    if not keep.any():
        return math.nan
    t, m = table[keep], m[keep]
    return float(((t * (t - 1)).sum(axis=1) / (m * (m - 1))).mean())


# --------------------------------------------------------------------------- Cohen


def cohen_kappa(
    a: Sequence[Any],
    b: Sequence[Any],
    weights: Literal["linear", "quadratic"] | None = None,
    *,
    categories: Sequence[Any] | None = None,
) -> KappaResult:
    """Cohen's kappa between two raters' labels on the same items (optionally weighted).

    ``a[i]`` and ``b[i]`` are the two labels of item ``i``; pairs where either is missing
    (None/NaN) are dropped. ``weights``: ``None`` (every disagreement counts 1),
    ``"linear"`` (``|i - j| / (k - 1)``) or ``"quadratic"`` (``(i - j)**2 / (k - 1)**2``),
    where ``i, j`` are *positions* in ``categories`` (default: the sorted union of the
    observed labels), as in statsmodels and scikit-learn. With ``w`` the disagreement
    weights, ``o`` the observed and ``e`` the chance joint proportions::

        kappa = 1 - sum(w * o) / sum(w * e)

    Undefined (NaN + reason) when the chance disagreement is 0 (both raters used one
    and the same category only).
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    sa, sb = pd.Series(list(a), dtype=object), pd.Series(list(b), dtype=object)
    if len(sa) != len(sb):
        raise ValueError(f"a and b must have the same length ({len(sa)} != {len(sb)})")
    keep = ~(sa.isna() | sb.isna())
    sa, sb = sa[keep], sb[keep]
    n = len(sa)
    if n == 0:
        raise ValueError("cohen_kappa needs at least one item rated by both raters")
    if categories is None:
        cats = sorted(set(sa) | set(sb))
    else:
        cats = list(categories)
        unknown = (set(sa) | set(sb)) - set(cats)
        if unknown:
            raise ValueError(f"labels not in categories: {sorted(map(str, unknown))}")
    index = {c: i for i, c in enumerate(cats)}
    k = len(cats)
    ia = np.fromiter((index[x] for x in sa), dtype=np.int64, count=n)
    ib = np.fromiter((index[x] for x in sb), dtype=np.int64, count=n)
    obs = np.bincount(ia * k + ib, minlength=k * k).reshape(k, k) / n
    exp = np.outer(obs.sum(axis=1), obs.sum(axis=0))
    pos = np.arange(k, dtype=float)
    diff = np.abs(pos[:, None] - pos[None, :])
    if weights is None:
        w = (diff > 0).astype(float)
    elif weights == "linear":
        w = diff / max(k - 1, 1)
    else:
        w = (diff / max(k - 1, 1)) ** 2
    d_o, d_e = float((w * obs).sum()), float((w * exp).sum())
    p_o, p_e = 1.0 - d_o, 1.0 - d_e
    if d_e == 0.0:
        return KappaResult(
            math.nan, "undefined", n, 2, p_o, p_e,
            reason="both raters used a single, identical category: chance agreement is 1",
        )
    kappa = 1.0 - d_o / d_e
    return KappaResult(kappa, landis_koch(kappa), n, 2, p_o, p_e)


# --------------------------------------------------------------------------- Krippendorff


def reliability_to_value_counts(
    reliability_data: Any, value_domain: Sequence[Any] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Turn ``(raters, units)`` reliability data into a ``(units, values)`` count table.

    Missing entries are ``NaN`` or ``None``. Returns ``(value_counts, values)`` where
    ``values`` is ``value_domain`` if given (its order is the ordinal order) or else the
    sorted distinct observed values.
    """
    try:
        data = np.asarray(reliability_data, dtype=float)
    except (TypeError, ValueError):
        data = np.asarray(reliability_data, dtype=object)  # string labels; None/NaN missing
    if value_domain is not None:
        data = data.astype(object)
    if data.ndim != 2:
        raise ValueError(f"reliability data must be 2-D (raters x units), got shape {data.shape}")
    n_units = data.shape[1]
    flat = pd.Series(data.T.ravel())  # unit-major, so position // n_raters is the unit
    unit = np.repeat(np.arange(n_units), data.shape[0])
    present = ~flat.isna().to_numpy()
    vals = flat[present]
    unit = unit[present]
    if value_domain is not None:
        domain = list(value_domain)
        lookup = {v: i for i, v in enumerate(domain)}
        try:
            codes = np.fromiter((lookup[v] for v in vals), dtype=np.int64, count=len(vals))
        except KeyError as exc:
            raise ValueError(f"value {exc.args[0]!r} is not in value_domain") from None
        values = np.asarray(domain, dtype=object)
    else:
        try:
            numeric = vals.to_numpy(dtype=float)
            values, codes = np.unique(numeric, return_inverse=True)
        except (TypeError, ValueError):
            codes, uniq = pd.factorize(vals, sort=True)
            values = np.asarray(uniq, dtype=object)
    n_val = len(values)
    counts = np.bincount(unit * n_val + codes, minlength=n_units * n_val).reshape(n_units, n_val)
    return counts, values


def _ordinal_delta2(n_c: np.ndarray) -> np.ndarray:
    # delta^2_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2, symmetric.
    cum = np.concatenate(([0.0], np.cumsum(n_c)))
    c = np.arange(len(n_c))
    lo, hi = np.minimum.outer(c, c), np.maximum.outer(c, c)
    s = cum[hi + 1] - cum[lo]
    return (s - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2


def alpha_from_value_counts(
    value_counts: Any,
    values: Sequence[Any] | None = None,
    level: Level = "nominal",
) -> AlphaResult:
    """Krippendorff's alpha from a ``(units, values)`` count table (vectorised).

    ``values`` are the numeric values of the columns (needed for interval and ratio;
    their order is the ordinal order; default ``0..V-1``). Only pairable units (two or
    more values) count. With ``n_uc`` the counts, ``m_u`` the unit totals and
    ``w_u = 1 / (m_u - 1)``, the coincidence matrix is
    ``o = N^T diag(w) N - diag(sum_u w_u n_uc)`` (one sparse/dense product, no loop over
    units), ``n_c`` its margins, and::

        alpha = 1 - (n - 1) * sum(o * delta2) / sum(n_c n_k delta2)

    with Krippendorff's metrics: nominal ``[c != k]``, ordinal
    ``(sum_{g=c..k} n_g - (n_c + n_k)/2)^2``, interval ``(c - k)^2``, ratio
    ``((c - k)/(c + k))^2``. Nominal and interval use closed forms that never build a
    V x V matrix, so continuous interval data with many distinct values is fine.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    counts = value_counts if sparse.issparse(value_counts) else _as_count_table(value_counts)
    _n_units_all, n_val = counts.shape
    if values is None:
        vals = np.arange(n_val, dtype=float)
    else:
        if len(values) != n_val:
            raise ValueError(f"values has {len(values)} entries for {n_val} count columns")
        if level in ("interval", "ratio"):
            try:
                vals = np.asarray(values, dtype=float)
            except (TypeError, ValueError):
                raise ValueError(f"{level} alpha needs numeric values") from None
        else:
            vals = np.arange(n_val, dtype=float)
    m = np.asarray(counts.sum(axis=1)).ravel()
    pair = m >= 2
    n_units = int(pair.sum())
    if n_units == 0:
        return AlphaResult(math.nan, level, "undefined", 0, 0, math.nan, math.nan,
                           reason="no unit has two or more values: nothing is pairable")
    if sparse.issparse(counts):
        cnt = sparse.csr_matrix(counts)[np.flatnonzero(pair)]
    else:
        cnt = counts[pair]
    m = m[pair]
    w = 1.0 / (m - 1.0)
    n_c = np.asarray(cnt.sum(axis=0)).ravel() if sparse.issparse(cnt) else cnt.sum(axis=0)
    n = float(n_c.sum())

    if level == "nominal":
        # sum_ck o_ck [c != k] = n - trace(o); trace(o) = sum_u w_u sum_c n_uc (n_uc - 1)
        if sparse.issparse(cnt):
            sq = np.asarray(cnt.multiply(cnt).sum(axis=1)).ravel()
        else:
            sq = (cnt * cnt).sum(axis=1)
        trace = float((w * (sq - m)).sum())
        num = n - trace
        den = n * n - float((n_c**2).sum())
    elif level == "interval":
        if sparse.issparse(cnt):
            s1 = np.asarray(cnt @ vals).ravel()
            s2 = np.asarray(cnt @ (vals**2)).ravel()
        else:
            s1, s2 = cnt @ vals, cnt @ (vals**2)
        # sum_ck o_ck (c-k)^2 = 2 sum_u w_u (m_u s2_u - s1_u^2)
        num = float(2.0 * (w * (m * s2 - s1**2)).sum())
        den = float(2.0 * n * (n_c @ vals**2) - 2.0 * (n_c @ vals) ** 2)
    else:
        if n_val > 20_000:
            raise ValueError(f"{level} alpha builds a V x V matrix; {n_val} distinct values is too many")
        if sparse.issparse(cnt):
            o = (cnt.T @ sparse.diags(w) @ cnt).toarray()
            diag = np.asarray(cnt.T @ w).ravel()
        else:
            o = (cnt * w[:, None]).T @ cnt
            diag = w @ cnt
        o = o - np.diag(diag)
        if level == "ordinal":
            d2 = _ordinal_delta2(n_c)
        else:
            total = vals[:, None] + vals[None, :]
            with np.errstate(divide="ignore", invalid="ignore"):
                d2 = np.where(total == 0, 0.0, ((vals[:, None] - vals[None, :]) / total) ** 2)
        num = float((o * d2).sum())
        den = float((np.outer(n_c, n_c) * d2).sum())
    d_o = num / n
    d_e = den / (n * (n - 1.0))
    if den <= 0.0:
        return AlphaResult(math.nan, level, "undefined", n_units, int(n), d_o, d_e,
                           reason="all pairable values are identical: expected disagreement is 0")
    alpha = 1.0 - d_o / d_e
    return AlphaResult(alpha, level, landis_koch(alpha), n_units, int(n), d_o, d_e)


def krippendorff_alpha(
    reliability_data: Any,
    level: Level = "nominal",
    *,
    value_domain: Sequence[Any] | None = None,
) -> AlphaResult:
    """Krippendorff's alpha for ``(raters, units)`` reliability data with NaN for missing.

    ``level`` is ``"nominal"``, ``"ordinal"``, ``"interval"`` or ``"ratio"``. String
    labels work for nominal; for ordinal strings pass ``value_domain`` in order. The
    data is first turned into a units x values count table
    (:func:`reliability_to_value_counts`) and then handled by
    :func:`alpha_from_value_counts`, which never loops over units in Python.
    Units with fewer than two values are not pairable and are ignored; if none is left
    (e.g. all missing) the result is NaN with a reason.
    """
    counts, values = reliability_to_value_counts(reliability_data, value_domain)
    if level in ("interval", "ratio"):
        return alpha_from_value_counts(counts, values, level)
    return alpha_from_value_counts(counts, None, level)


# --------------------------------------------------------------------------- bootstrap


def bootstrap_units(
    statistic: Callable[[np.ndarray], float],
    table: np.ndarray,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> BootstrapResult:
    """Percentile bootstrap of ``statistic(table)`` resampling rows (units) with replacement.

    Seeded (``numpy.random.default_rng(seed)``), so the interval is reproducible.
    Resamples where the statistic is undefined (NaN) are left out and counted in
    ``n_valid``. This is the plain unit bootstrap (items are the sampling unit), not
    Krippendorff's own resampling of pairable values.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    table = np.asarray(table)
    estimate = float(statistic(table))
    rng = np.random.default_rng(seed)
    n = table.shape[0]
    out = np.empty(n_boot)
    for b in range(n_boot):  # loop over resamples, each one fully vectorised
        out[b] = statistic(table[rng.integers(0, n, size=n)])
    valid = out[~np.isnan(out)]
    if len(valid) == 0:
        lo = hi = math.nan
    else:
        tail = (1.0 - confidence) / 2.0
        lo, hi = (float(x) for x in np.quantile(valid, [tail, 1.0 - tail]))
    return BootstrapResult(estimate, lo, hi, confidence, n_boot, len(valid), seed)


def fleiss_kappa_bootstrap(
    counts: Any, *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> BootstrapResult:
    """Seeded percentile bootstrap CI of Fleiss' kappa, resampling items."""
    return bootstrap_units(lambda t: fleiss_kappa(t).kappa, _as_count_table(counts),
                           n_boot=n_boot, confidence=confidence, seed=seed)


def krippendorff_alpha_bootstrap(
    reliability_data: Any,
    level: Level = "nominal",
    *,
    value_domain: Sequence[Any] | None = None,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> BootstrapResult:
    """Seeded percentile bootstrap CI of Krippendorff's alpha, resampling units."""
    counts, values = reliability_to_value_counts(reliability_data, value_domain)
    vals = values if level in ("interval", "ratio") else None
    return bootstrap_units(lambda t: alpha_from_value_counts(t, vals, level).alpha, counts,
                           n_boot=n_boot, confidence=confidence, seed=seed)


# --------------------------------------------------------------------------- MOS


#: fewest scores for which a report shows a MOS confidence interval; below it the
#: interval is "too few ratings" (a t interval from 2-4 scores spans most of a 1-5 scale)
MIN_N_CI = 5

#: the reason given for a missing interval below :data:`MIN_N_CI`
TOO_FEW = "too few ratings"


def bounded_t_interval(
    mean: np.ndarray,
    sd: np.ndarray,
    n: np.ndarray,
    *,
    confidence: float = 0.95,
    method: str = "t",
    scale: tuple[Any, Any] | None = None,
    min_n: int = MIN_N_CI,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised ``mean ± c·sd/√n`` cut to a bounded scale (D21).

    Returns ``(low, high, half_width, clipped)``. Groups with ``n < max(min_n, 2)`` get
    NaN bounds (the caller reports "too few ratings"). With ``scale = (lo, hi)`` (numbers,
    or arrays of one bound per row with NaN for "no bound") each bound is clipped to the
    scale; ``clipped`` marks rows where that changed a bound,
    and there ``half_width`` is NaN because the interval is no longer ``mean ± h``. A
    zero SD gives the degenerate interval ``[mean, mean]`` (not clipped).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if method not in ("t", "normal"):
        raise ValueError(f"method must be 't' or 'normal', got {method!r}")
    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    n = np.asarray(n, dtype=float)
    q = (1.0 + confidence) / 2.0
    enough = n >= max(min_n, 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        crit = stats.t.ppf(q, n - 1) if method == "t" else np.full(n.shape, stats.norm.ppf(q))
        half = np.where(enough, crit * sd / np.sqrt(n), np.nan)
    low, high = mean - half, mean + half
    clipped = np.zeros(mean.shape, dtype=bool)
    if scale is not None:
        lo = np.broadcast_to(np.asarray(scale[0], dtype=float), mean.shape)
        hi = np.broadcast_to(np.asarray(scale[1], dtype=float), mean.shape)
        if np.any(lo >= hi):
            raise ValueError(f"scale must be (low, high) with low < high, got {scale}")
        clipped = enough & ((low < lo) | (high > hi))  # NaN bounds compare False: no clip
        low = np.where(clipped, np.fmax(low, lo), low)
        high = np.where(clipped, np.fmin(high, hi), high)
        half = np.where(clipped, np.nan, half)
    return low, high, half, clipped


def mos_summary(
    scores: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
    method: Literal["t", "normal"] = "t",
    *,
    scale: tuple[float, float] | None = None,
    min_n: int = MIN_N_CI,
) -> MosSummary:
    """Mean opinion score, SD (ddof=1), n and a two-sided confidence interval.

    ``method="t"``: ``mean ± t_{(1+c)/2, n-1} * sd / sqrt(n)`` (Student t, the right
    choice for small n). ``method="normal"``: ``mean ± z_{(1+c)/2} * sd / sqrt(n)``,
    i.e. ``1.96 * sd / sqrt(n)`` at 95 %, the form ITU-T P.808 reports. NaN scores are
    dropped. No scores raises ``ValueError``. Fewer than ``min_n`` scores (default
    :data:`MIN_N_CI`) give a NaN interval with ``reason="too few ratings"``; one score
    also has a NaN SD. ``scale=(low, high)`` cuts the interval to the scale
    (``clipped=True`` when it did), so no bound lies outside the possible scores.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if method not in ("t", "normal"):
        raise ValueError(f"method must be 't' or 'normal', got {method!r}")
    x = np.asarray(scores, dtype=float).ravel()
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        raise ValueError("mos_summary needs at least one non-missing score")
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    low, high, half, clipped = bounded_t_interval(
        np.array([mean]), np.array([sd]), np.array([n]), confidence=confidence, method=method,
        scale=scale, min_n=min_n)
    reason = TOO_FEW if n < max(min_n, 2) else ""
    return MosSummary(mean, sd, n, float(low[0]), float(high[0]), float(half[0]), method,
                      confidence, reason=reason, clipped=bool(clipped[0]))


def rater_mos_correlation(
    rater_ids: Sequence[Any] | np.ndarray,
    item_ids: Sequence[Any] | np.ndarray,
    values: Sequence[float] | np.ndarray,
    *,
    leave_one_out: bool = True,
    min_items: int = 3,
) -> pd.DataFrame:
    """Pearson correlation of each rater's scores with the item MOS (vectorised).

    For each rating, the reference is the mean of the *other* ratings of the same item
    (``leave_one_out=True``, so a rater is not correlated with themselves; ratings of
    items nobody else rated are skipped) or of all ratings of the item. Returns a
    DataFrame indexed by rater with ``n_items`` (ratings used) and ``r`` (NaN when fewer
    than ``min_items`` ratings or when the rater's scores or the references are
    constant). P.808 screens raters whose correlation with MOS is low.
    """
    r_codes, r_uniq = pd.factorize(pd.Series(rater_ids))
    i_codes, _ = pd.factorize(pd.Series(item_ids))
    x = np.asarray(values, dtype=float)
    ok = ~np.isnan(x) & (r_codes >= 0) & (i_codes >= 0)
    r_codes, i_codes, x = r_codes[ok], i_codes[ok], x[ok]
    n_item = int(i_codes.max()) + 1 if len(i_codes) else 0
    s = np.bincount(i_codes, weights=x, minlength=n_item)
    c = np.bincount(i_codes, minlength=n_item).astype(float)
    if leave_one_out:
        cnt = c[i_codes] - 1.0
        use = cnt > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            y = (s[i_codes] - x) / cnt
    else:
        use = np.ones(len(x), dtype=bool)
        y = s[i_codes] / c[i_codes]
    rc, x, y = r_codes[use], x[use], y[use]
    n_r = len(r_uniq)
    k = np.bincount(rc, minlength=n_r).astype(float)
    sx = np.bincount(rc, weights=x, minlength=n_r)
    sy = np.bincount(rc, weights=y, minlength=n_r)
    with np.errstate(divide="ignore", invalid="ignore"):
        mx, my = sx / k, sy / k
        # centred sums: second pass keeps precision for large n
        dx, dy = x - mx[rc], y - my[rc]
        sxx = np.bincount(rc, weights=dx * dx, minlength=n_r)
        syy = np.bincount(rc, weights=dy * dy, minlength=n_r)
        sxy = np.bincount(rc, weights=dx * dy, minlength=n_r)
        r = sxy / np.sqrt(sxx * syy)
    tiny = 1e-12
    r = np.where((k >= max(min_items, 2)) & (sxx > tiny) & (syy > tiny), np.clip(r, -1, 1), np.nan)
    return pd.DataFrame({"n_items": k.astype(int), "r": r}, index=pd.Index(r_uniq, name="rater_id"))
