"""Rater quality control in the spirit of ITU-T P.808 (pure: no Django).

Four rules screen raters of a listening test; each one is reported per rater, and a
rater is excluded only by the rules named in ``QcConfig.exclude_on`` (the others are
flags). Nothing is dropped silently: :func:`rater_quality` returns a table with every
rule's outcome and a readable reason, and :func:`apply_exclusions` returns the kept
ratings together with a report of who and what was dropped.

=================  ==========================================================  ==========
rule               fails when                                                  default
=================  ==========================================================  ==========
``gold``           more than ``max_gold_failures`` gold answers are farther     excludes
                   than ``gold_tolerance`` from the gold score (non-numeric
                   gold labels must match exactly)
``trap``           more than ``max_trap_failures`` trapping items ("please      excludes
                   select 2") are not answered exactly as instructed
``flat``           on some rating-scale criterion (``>= flat_min_scale_values``   excludes
                   distinct values campaign-wide) with ``>= min_items_flat``
                   ratings, the rater's SD is below ``min_sd`` or one answer
                   makes up ``>= max_modal_share`` of their ratings
``correlation``    Pearson r with the leave-one-out item MOS is below           flag only
                   ``min_correlation`` (``>= min_items_correlation`` ratings)
=================  ==========================================================  ==========

Input is a long ratings DataFrame with ``item_id``, ``rater_id``, ``value`` and
optionally ``criterion``; gold items carry ``gold_value`` (and optionally ``is_gold``),
trapping items carry ``trap_value`` (and optionally ``is_trap``). Control rows (gold and
trap) are not used for the flatness and correlation rules.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from annotation.agreement import rater_mos_correlation

__all__ = [
    "RULES",
    "ExclusionReport",
    "QcConfig",
    "apply_exclusions",
    "control_mask",
    "factorize_values",
    "numeric_values",
    "rater_quality",
]

RULES: tuple[str, ...] = ("gold", "trap", "flat", "correlation")
PASS, FAIL, NOT_EVALUATED = "pass", "fail", "not evaluated"


@dataclass(frozen=True)
class QcConfig:
    """Thresholds of the quality rules; defaults suit a 1–5 ACR (MOS) scale.

    ``exclude_on`` lists the rules whose failure excludes a rater; failures of the
    other rules appear as flags only. The defaults exclude on gold, trap and flat and
    flag low correlation, because a low correlation also happens to honest raters on a
    campaign with little true variance between items.
    """

    gold_tolerance: float = 1.0
    max_gold_failures: int = 0
    max_trap_failures: int = 0
    min_sd: float = 0.25
    max_modal_share: float = 0.9
    min_items_flat: int = 10
    flat_min_scale_values: int = 3
    min_correlation: float = 0.25
    min_items_correlation: int = 10
    exclude_on: frozenset[str] = field(default_factory=lambda: frozenset({"gold", "trap", "flat"}))

    def __post_init__(self) -> None:
        unknown = set(self.exclude_on) - set(RULES)
        if unknown:
            raise ValueError(f"unknown QC rules in exclude_on: {sorted(unknown)}; known: {RULES}")
        if self.gold_tolerance < 0:
            raise ValueError("gold_tolerance must be >= 0")
        if not 0 < self.max_modal_share <= 1:
            raise ValueError("max_modal_share must be in (0, 1]")


@dataclass(frozen=True)
class ExclusionReport:
    """What :func:`apply_exclusions` dropped, and why.

    ``excluded`` has one row per excluded rater (index ``rater_id``) with the
    ``reasons`` text and ``n_ratings_dropped``.
    """

    excluded: pd.DataFrame
    n_raters_excluded: int
    n_raters_kept: int
    n_ratings_dropped: int
    n_ratings_kept: int

    def summary(self) -> str:
        """One line for logs and report headers."""
        return (f"excluded {self.n_raters_excluded} of "
                f"{self.n_raters_excluded + self.n_raters_kept} raters "
                f"({self.n_ratings_dropped} of {self.n_ratings_dropped + self.n_ratings_kept} "
                "ratings)")


def factorize_values(values: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(codes, uniques, floats)`` of a value column; ``floats`` is NaN where not numeric.

    ``pd.to_numeric`` on a million-row object column parses every cell; factorizing
    first parses each distinct value once (a rating scale has a handful).
    """
    codes, uniq = pd.factorize(values)
    uniq = np.asarray(uniq, dtype=object)
    parsed = pd.to_numeric(pd.Series(uniq, dtype=object), errors="coerce")
    lookup = np.append(parsed.to_numpy(dtype=float, na_value=np.nan), np.nan)
    return codes, uniq, lookup[codes]  # code -1 (missing) picks the trailing NaN


def numeric_values(values: pd.Series) -> np.ndarray:
    """Values as floats (NaN where missing or not a number), fast for object columns."""
    if pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        return values.to_numpy(dtype=float, na_value=np.nan)
    return factorize_values(values)[2]


def _flag_column(ratings: pd.DataFrame, flag: str, value_col: str) -> np.ndarray:
    """Rows that are controls of a kind: ``<kind>_value`` present (and ``is_<kind>`` if given)."""
    n = len(ratings)
    mask = ratings[value_col].notna().to_numpy() if value_col in ratings else np.zeros(n, bool)
    if flag in ratings:
        marked = ratings[flag].fillna(False).astype(bool).to_numpy()
        if value_col not in ratings and marked.any():
            raise ValueError(f"rows marked {flag} need a {value_col!r} column")
        mask = mask & marked
    return mask


def control_mask(ratings: pd.DataFrame) -> np.ndarray:
    """Boolean mask of gold and trapping rows (to leave out of MOS and agreement)."""
    return _flag_column(ratings, "is_gold", "gold_value") | _flag_column(
        ratings, "is_trap", "trap_value"
    )


def _matches(values: pd.Series, target: pd.Series, tol: float) -> np.ndarray:
    """Answer == target (numeric: within ``tol``; otherwise exact string equality)."""
    xv = numeric_values(values)
    tv = numeric_values(target)
    numeric = ~np.isnan(xv) & ~np.isnan(tv)
    ok = np.zeros(len(values), dtype=bool)
    ok[numeric] = np.abs(xv[numeric] - tv[numeric]) <= tol + 1e-9
    other = ~numeric
    if other.any():
        ok[other] = values.astype(str).to_numpy()[other] == target.astype(str).to_numpy()[other]
    return ok


def rater_quality(ratings: pd.DataFrame, config: QcConfig | None = None) -> pd.DataFrame:
    """Per-rater quality table with every rule's outcome and the reasons for exclusion.

    Returns a DataFrame indexed by ``rater_id`` with columns::

        n_ratings, n_gold, gold_failures, gold, n_trap, trap_failures, trap,
        n_scored, sd_min, modal_share_max, flat, r_mos, correlation,
        excluded, reasons, flags

    ``gold`` / ``trap`` / ``flat`` / ``correlation`` are ``"pass"``, ``"fail"`` or
    ``"not evaluated"`` (no control items answered, too few ratings). ``reasons`` joins
    the failures that exclude (``exclude_on``), ``flags`` the ones that only flag.
    ``sd_min`` and ``modal_share_max`` are the worst values over criteria; ``r_mos``
    pools criteria (each rating against the leave-one-out mean of its item and
    criterion). Vectorised with ``np.bincount``; no Python loop over ratings.
    """
    cfg = config or QcConfig()
    for col in ("item_id", "rater_id", "value"):
        if col not in ratings:
            raise ValueError(f"ratings need a {col!r} column")
    r_codes, raters = pd.factorize(ratings["rater_id"])
    if (r_codes < 0).any():
        raise ValueError("rater_id must not be missing")
    n_r = len(raters)
    value = ratings["value"]

    def per_rater(mask: np.ndarray) -> np.ndarray:
        return np.bincount(r_codes[mask], minlength=n_r)

    out = pd.DataFrame(index=pd.Index(raters, name="rater_id"))
    out["n_ratings"] = np.bincount(r_codes, minlength=n_r)

    # --- gold and trap ------------------------------------------------------------
    for kind, target_col, tol, limit in (
        ("gold", "gold_value", cfg.gold_tolerance, cfg.max_gold_failures),
        ("trap", "trap_value", 0.0, cfg.max_trap_failures),
    ):
        mask = _flag_column(ratings, f"is_{kind}", target_col)
        n_ctl = per_rater(mask)
        fail = np.zeros(len(ratings), dtype=bool)
        if mask.any():
            fail[mask] = ~_matches(value[mask].reset_index(drop=True),
                                   ratings[target_col][mask].reset_index(drop=True), tol)
        n_fail = per_rater(fail)
        out[f"n_{kind}"] = n_ctl
        out[f"{kind}_failures"] = n_fail
        out[kind] = np.where(n_ctl == 0, NOT_EVALUATED, np.where(n_fail > limit, FAIL, PASS))

    # --- flatness per (rater, criterion) on non-control ratings -------------------
    scored = ~control_mask(ratings)
    crit = ratings["criterion"] if "criterion" in ratings else pd.Series(0, index=ratings.index)
    c_codes, crits = pd.factorize(crit)
    c_codes = np.where(c_codes < 0, len(crits), c_codes)  # missing criterion: own group
    n_c = len(crits) + 1
    v_codes, v_uniq, x = factorize_values(value)
    keep = scored & (v_codes >= 0)
    rc = r_codes[keep] * n_c + c_codes[keep]
    n_rc = n_r * n_c
    cnt = np.bincount(rc, minlength=n_rc).astype(float)
    n_v = max(len(v_uniq), 1)
    joint = np.bincount(rc * n_v + v_codes[keep], minlength=n_rc * n_v).reshape(n_rc, n_v)
    with np.errstate(divide="ignore", invalid="ignore"):
        modal = joint.max(axis=1) / cnt
    xk = x[keep]
    num = ~np.isnan(xk)
    k_num = np.bincount(rc[num], minlength=n_rc).astype(float)
    s1 = np.bincount(rc[num], weights=xk[num], minlength=n_rc)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = s1 / k_num
        dev = xk[num] - mean[rc[num]]
        var = np.bincount(rc[num], weights=dev * dev, minlength=n_rc) / (k_num - 1.0)
    sd = np.where(k_num == cnt, np.sqrt(var), np.nan)  # SD only for fully numeric groups
    # the flat rule is for rating scales: criteria with fewer distinct values in the
    # whole campaign (yes/no, keep/discard) are skipped, since 90 % "yes" can be honest
    crit_vals = np.bincount(c_codes[keep] * n_v + v_codes[keep], minlength=n_c * n_v)
    scale = (crit_vals.reshape(n_c, n_v) > 0).sum(axis=1) >= cfg.flat_min_scale_values
    evaluated = (cnt >= cfg.min_items_flat) & np.tile(scale, n_r)
    low_sd = evaluated & (sd < cfg.min_sd)
    one_answer = evaluated & (modal >= cfg.max_modal_share)
    flat_rc = low_sd | one_answer
    shape = (n_r, n_c)
    ev_r = evaluated.reshape(shape).any(axis=1)
    sd_eval = np.where(evaluated, sd, np.nan).reshape(shape)
    modal_eval = np.where(evaluated, modal, np.nan).reshape(shape)
    out["n_scored"] = cnt.reshape(shape).sum(axis=1).astype(int)
    with warnings.catch_warnings():  # all-NaN rows (nothing evaluated) give NaN, as wanted
        warnings.simplefilter("ignore", RuntimeWarning)
        out["sd_min"] = np.nanmin(sd_eval, axis=1)
        out["modal_share_max"] = np.nanmax(modal_eval, axis=1)
    flat_r = flat_rc.reshape(shape).any(axis=1)
    out["flat"] = np.where(~ev_r, NOT_EVALUATED, np.where(flat_r, FAIL, PASS))

    # flat reason text: the first flat criterion of each flat rater (loop over raters only)
    flat_text = np.full(n_r, "", dtype=object)
    idx = np.flatnonzero(flat_rc)
    crit_names = [*map(str, crits), "(none)"]
    for code in idx[::-1]:  # reversed so the first criterion wins
        r, c = divmod(int(code), n_c)
        label = "" if "criterion" not in ratings else f" on {crit_names[c]}"
        if one_answer[code]:
            flat_text[r] = (f"flat: one answer in {modal[code]:.0%} of {int(cnt[code])} "
                            f"ratings{label} (limit {cfg.max_modal_share:.0%})")
        else:
            flat_text[r] = (f"flat: SD {sd[code]:.2f} over {int(cnt[code])} ratings{label} "
                            f"(min {cfg.min_sd})")

    # --- correlation with the item MOS (criterion x item), numeric scored ratings -----
    use = scored & ~np.isnan(x)
    i_codes, i_uniq = pd.factorize(ratings["item_id"])
    # len(i_uniq) + 1 == i_codes.max() + 2 (codes run 0..len-1, -1 for a missing id),
    # and it is defined for a campaign with no ratings yet (F-9: max() of nothing raised).
    unit = c_codes.astype(np.int64) * (len(i_uniq) + 1) + i_codes
    corr = rater_mos_correlation(r_codes[use], unit[use], x[use],
                                 min_items=cfg.min_items_correlation)
    r_mos = np.full(n_r, np.nan)
    r_mos[corr.index.to_numpy(dtype=np.int64)] = corr["r"].to_numpy()
    out["r_mos"] = r_mos
    out["correlation"] = np.where(np.isnan(r_mos), NOT_EVALUATED,
                                  np.where(r_mos < cfg.min_correlation, FAIL, PASS))

    # --- reasons --------------------------------------------------------------------
    texts = {
        "gold": [f"gold: {f} of {n} answers farther than ±{cfg.gold_tolerance:g} from the gold score"
                 for f, n in zip(out["gold_failures"], out["n_gold"], strict=True)],
        "trap": [f"trap: {f} of {n} trapping items not answered as instructed"
                 for f, n in zip(out["trap_failures"], out["n_trap"], strict=True)],
        "flat": list(flat_text),
        "correlation": [f"correlation: r = {r:.2f} with item MOS (min {cfg.min_correlation:g})"
                        for r in r_mos],
    }
    failed = {rule: (out[rule] == FAIL).to_numpy() for rule in RULES}
    reasons, flags = [], []
    for i in range(n_r):
        reasons.append("; ".join(texts[rule][i] for rule in RULES
                                 if failed[rule][i] and rule in cfg.exclude_on))
        flags.append("; ".join(texts[rule][i] for rule in RULES
                               if failed[rule][i] and rule not in cfg.exclude_on))
    out["excluded"] = np.array([bool(s) for s in reasons])
    out["reasons"] = reasons
    out["flags"] = flags
    return out


def apply_exclusions(
    ratings: pd.DataFrame,
    quality: pd.DataFrame,
    *,
    also_exclude: Iterable[object] = (),
) -> tuple[pd.DataFrame, ExclusionReport]:
    """Drop every rating of the raters marked ``excluded`` in ``quality``.

    ``also_exclude`` adds rater ids by hand (e.g. after a researcher's review); they
    appear in the report with the reason ``"excluded by hand"``. Returns the kept
    ratings (a filtered copy, original index kept) and an :class:`ExclusionReport`.
    """
    manual = set(also_exclude)
    bad = quality.loc[quality["excluded"], ["reasons"]].copy()
    extra = [r for r in manual if r not in bad.index]
    if extra:
        bad = pd.concat([bad, pd.DataFrame({"reasons": "excluded by hand"},
                                           index=pd.Index(extra, name=bad.index.name))])
    drop = ratings["rater_id"].isin(bad.index).to_numpy()
    dropped_counts = ratings.loc[drop, "rater_id"].value_counts()
    bad["n_ratings_dropped"] = dropped_counts.reindex(bad.index).fillna(0).astype(int)
    kept = ratings.loc[~drop]
    report = ExclusionReport(
        excluded=bad,
        n_raters_excluded=len(bad),
        n_raters_kept=int(kept["rater_id"].nunique()),
        n_ratings_dropped=int(drop.sum()),
        n_ratings_kept=len(kept),
    )
    return kept, report
