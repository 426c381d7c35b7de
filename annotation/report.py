"""Campaign report computations over a long ratings DataFrame (pure pandas/numpy, no Django).

Input: one row per rating with columns ``item_id``, ``rater_id``, ``criterion``,
``value`` and any item metadata (``system``, ``condition``, ``task``, ``source``, ...);
control rows carry ``gold_value`` / ``trap_value`` (optionally ``is_gold`` /
``is_trap``). The report:

1. screens raters (:mod:`annotation.quality`) and drops the excluded ones, reporting it;
2. drops control (gold/trap) rows from the statistics;
3. per criterion: Fleiss' kappa when every item has the same number (>= 2) of ratings,
   otherwise Krippendorff's alpha; percent agreement; Landis–Koch label (alpha is
   always computed too, at the criterion's level);
4. MOS ± CI per criterion and system/condition/task (and the KoALa-style table);
5. the majority decision per item for label criteria (keep/discard), ties flagged.

Everything is vectorised (``pd.factorize``, ``np.bincount``, groupby), so a report
over a million ratings takes a couple of seconds (see ``docs/benchmarks.md``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from annotation.agreement import (
    LEVELS,
    MIN_N_CI,
    TOO_FEW,
    alpha_from_value_counts,
    bounded_t_interval,
    fleiss_kappa,
    landis_koch,
    percent_agreement,
)
from annotation.quality import (
    ExclusionReport,
    QcConfig,
    apply_exclusions,
    control_mask,
    factorize_values,
    numeric_values,
    rater_quality,
)

__all__ = [
    "DEFAULT_GROUPS",
    "KEEP_VALUES",
    "CampaignReport",
    "agreement_table",
    "campaign_report",
    "koala_table",
    "majority_decisions",
    "mos_table",
]

DEFAULT_GROUPS: tuple[str, ...] = ("system", "condition", "task")
#: labels meaning "keep" in a majority decision (compared as lower-case text, so True and 1
#: match too); anything else means "discard"
KEEP_VALUES: frozenset[object] = frozenset({"keep", "yes", "natural", "accept", "true", "1"})


@dataclass(frozen=True)
class CampaignReport:
    """All tables of a campaign report; each is a plain DataFrame ready to export."""

    agreement: pd.DataFrame
    mos: pd.DataFrame
    koala: pd.DataFrame
    decisions: pd.DataFrame
    rater_quality: pd.DataFrame
    exclusions: ExclusionReport
    counts: Mapping[str, int] = field(default_factory=dict)


def _criterion_codes(ratings: pd.DataFrame) -> tuple[np.ndarray, pd.Index]:
    if "criterion" in ratings:
        codes, names = pd.factorize(ratings["criterion"], sort=True)
        return codes, pd.Index(names)
    return np.zeros(len(ratings), dtype=np.int64), pd.Index(["value"])


def _value_table(items: pd.Series, values: pd.Series) -> tuple[np.ndarray, np.ndarray, bool]:
    """(units x values) count table, the sorted value domain, and whether it is numeric."""
    i_codes, i_uniq = pd.factorize(items)
    codes, uniq, x = factorize_values(values)
    numeric = not np.isnan(x).any()  # callers drop missing values first
    if numeric:
        keys = np.zeros(len(uniq))
        keys[codes] = x  # the parsed number of each distinct value
    else:
        keys = np.array([str(u) for u in uniq], dtype=object)
    order = np.argsort(keys, kind="stable")
    domain = keys[order]
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    v_codes = rank[codes]
    n_u, n_v = len(i_uniq), len(domain)
    table = np.bincount(i_codes * n_v + v_codes, minlength=n_u * n_v).reshape(n_u, n_v)
    return table, domain, numeric


def agreement_table(
    ratings: pd.DataFrame,
    *,
    levels: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Agreement per criterion: Fleiss' kappa or Krippendorff's alpha, % agreement, label.

    ``statistic`` is ``"fleiss_kappa"`` when every rated item has the same number
    (>= 2) of ratings, otherwise ``"krippendorff_alpha"``; ``value``/``label`` are that
    statistic and its Landis–Koch label. ``alpha`` is always given at ``alpha_level``:
    ``levels[criterion]`` if set, else ``"interval"`` for numeric criteria and
    ``"nominal"`` for labels. Fleiss' kappa treats values as nominal categories.
    Rows with missing values are ignored. Expects control rows already removed.
    """
    levels = dict(levels or {})
    c_codes, names = _criterion_codes(ratings)
    ok = ratings["value"].notna().to_numpy()
    rows = []
    for j, name in enumerate(names):
        sel = (c_codes == j) & ok
        sub_items, sub_vals = ratings["item_id"][sel], ratings["value"][sel]
        table, domain, numeric = _value_table(sub_items, sub_vals)
        level = levels.get(name, "interval" if numeric else "nominal")
        if level not in LEVELS:
            raise ValueError(f"criterion {name!r}: level must be one of {LEVELS}, got {level!r}")
        if not numeric and level in ("interval", "ratio"):
            raise ValueError(f"criterion {name!r} has non-numeric values; {level} needs numbers")
        m = table.sum(axis=1)
        alpha = alpha_from_value_counts(table, domain if numeric else None, level)  # type: ignore[arg-type]
        kappa_val, reason = math.nan, ""
        if len(m) and m.min() == m.max() and m.min() >= 2:
            k = fleiss_kappa(table)
            statistic, value, reason = "fleiss_kappa", k.kappa, k.reason
            kappa_val = k.kappa
        else:
            statistic, value, reason = "krippendorff_alpha", alpha.alpha, alpha.reason
        rows.append({
            "criterion": name,
            "n_items": len(m),
            "n_ratings": int(m.sum()),
            "n_raters": int(ratings["rater_id"][sel].nunique()),
            "raters_per_item_min": int(m.min()) if len(m) else 0,
            "raters_per_item_max": int(m.max()) if len(m) else 0,
            "statistic": statistic,
            "value": value,
            "label": landis_koch(value),
            "percent_agreement": percent_agreement(table) if len(m) else math.nan,
            "fleiss_kappa": kappa_val,
            "alpha": alpha.alpha,
            "alpha_level": level,
            "reason": reason,
        })
    return pd.DataFrame(rows)


def mos_table(
    ratings: pd.DataFrame,
    by: Sequence[str] = DEFAULT_GROUPS,
    *,
    confidence: float = 0.95,
    method: str = "t",
    scales: Mapping[str, tuple[float, float]] | None = None,
    min_n: int = MIN_N_CI,
) -> pd.DataFrame:
    """MOS, SD, n and CI per criterion and group (numeric criteria only), vectorised.

    ``by`` columns missing from ``ratings`` are skipped; groups with missing metadata
    are kept (NaN key). CI: Student t (``method="t"``) or the P.808 normal form
    (``"normal"``: 1.96·sd/√n at 95 %). Groups with fewer than ``min_n`` ratings get no
    interval and ``ci_note`` "too few ratings". ``scales`` maps a criterion to its
    ``(lowest, highest)`` possible score: an interval reaching past an end is cut there,
    ``ci_clipped`` is true and ``ci_note`` says so (and ``half_width`` is NaN, as the
    interval is no longer symmetric), so no reported bound lies outside the scale (D21).
    The result matches :func:`annotation.agreement.mos_summary` per group. Expects
    control rows removed.
    """
    if method not in ("t", "normal"):
        raise ValueError(f"method must be 't' or 'normal', got {method!r}")
    scales = dict(scales or {})
    keys = [c for c in ("criterion", *by) if c in ratings]
    x = numeric_values(ratings["value"])
    use = ~np.isnan(x)
    if "criterion" in keys:  # keep numeric criteria only (every value parses as a number)
        c_codes, _ = _criterion_codes(ratings)
        not_number = np.isnan(x) & ratings["value"].notna().to_numpy()
        bad = np.zeros(int(c_codes.max()) + 2 if len(c_codes) else 1, dtype=bool)
        bad[c_codes[not_number]] = True
        use &= ~bad[c_codes]
    frame = ratings.loc[use, keys].assign(_x=x[use])
    if not keys:
        frame = frame.assign(_all="all")
        keys = ["_all"]
    g = frame.groupby(keys, dropna=False, sort=True, observed=True)["_x"]
    out = g.agg(n="count", mos="mean", sd="std").reset_index()
    for c in keys:  # categorical keys back to plain columns, as in the input's categories
        if isinstance(out[c].dtype, pd.CategoricalDtype):
            out[c] = out[c].astype(out[c].cat.categories.dtype)
    crit_names = out["criterion"] if "criterion" in out else pd.Series("value", index=out.index)
    lo = np.array([scales.get(c, (math.nan, math.nan))[0] for c in crit_names], dtype=float)
    hi = np.array([scales.get(c, (math.nan, math.nan))[1] for c in crit_names], dtype=float)
    n = out["n"].to_numpy(dtype=float)
    low, high, half, clipped = bounded_t_interval(
        out["mos"].to_numpy(), out["sd"].to_numpy(), n, confidence=confidence, method=method,
        scale=(lo, hi), min_n=min_n)
    out["ci_low"] = low
    out["ci_high"] = high
    out["half_width"] = half
    out["method"] = method
    out["ci_clipped"] = clipped
    note = np.full(len(out), "", dtype=object)
    note[clipped] = [f"t interval cut to the scale {_num(a)}–{_num(b)}"
                     for a, b in zip(lo[clipped], hi[clipped], strict=True)]
    note[n < max(min_n, 2)] = TOO_FEW
    out["ci_note"] = note
    return out.drop(columns=["_all"], errors="ignore")


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def koala_table(mos: pd.DataFrame, *, decimals: int = 2) -> pd.DataFrame:
    """Format a :func:`mos_table` as the paper table: group columns, n and "MOS ± CI".

    A symmetric interval prints as ``4.10 ± 0.21``; one cut to the scale as
    ``4.80 [4.52, 5.00]``; a group below the minimum n as ``2.00 (too few ratings)``.
    """
    keys = [c for c in mos.columns if c not in
            ("n", "mos", "sd", "ci_low", "ci_high", "half_width", "method", "ci_clipped", "ci_note")]
    f = f"{{:.{decimals}f}}"
    text = []
    for m, h, lo, hi in zip(mos["mos"], mos["half_width"], mos["ci_low"], mos["ci_high"], strict=True):
        if not math.isnan(h):
            text.append(f"{f.format(m)} ± {f.format(h)}")
        elif not math.isnan(lo):
            text.append(f"{f.format(m)} [{f.format(lo)}, {f.format(hi)}]")
        else:
            text.append(f"{f.format(m)} ({TOO_FEW})")
    return mos[keys].assign(n=mos["n"], **{"MOS ± CI": text}).reset_index(drop=True)


def majority_decisions(
    ratings: pd.DataFrame,
    *,
    criteria: Collection[str] | None = None,
    keep_values: Collection[object] = KEEP_VALUES,
) -> pd.DataFrame:
    """Majority label per item and criterion, with ties flagged (never broken silently).

    ``criteria`` defaults to the label criteria: non-numeric ones and numeric ones with
    two distinct values (yes/no as 1/0). Columns: ``criterion, item_id, n, majority,
    votes, share, tie, decision`` where ``decision`` is ``"keep"`` when the majority
    label is in ``keep_values``, ``"discard"`` otherwise and ``"tie"`` on a tie (then
    ``majority`` is missing). Expects control rows removed.
    """
    c_codes, names = _criterion_codes(ratings)
    ok = ratings["value"].notna().to_numpy()
    keep_set = {str(v).lower() for v in keep_values}
    parts = []
    for j, name in enumerate(names):
        sel = (c_codes == j) & ok
        items, vals = ratings["item_id"][sel], ratings["value"][sel]
        table, domain, numeric = _value_table(items, vals)
        if criteria is None:
            if numeric and len(domain) != 2:
                continue
        elif name not in criteria:
            continue
        i_uniq = pd.unique(items)
        top = table.max(axis=1)
        arg = table.argmax(axis=1)
        tie = (table == top[:, None]).sum(axis=1) > 1
        n = table.sum(axis=1)
        labels = np.asarray(domain, dtype=object)[arg]
        if numeric:  # show 1 instead of 1.0 for integral labels
            labels = np.array([int(v) if float(v).is_integer() else v for v in labels],
                              dtype=object)
        majority = np.where(tie, None, labels)
        is_keep = np.array([str(v).lower() in keep_set for v in labels])
        parts.append(pd.DataFrame({
            "criterion": name,
            "item_id": i_uniq,
            "n": n,
            "majority": majority,
            "votes": top,
            "share": top / n,
            "tie": tie,
            "decision": np.where(tie, "tie", np.where(is_keep, "keep", "discard")),
        }))
    if not parts:
        return pd.DataFrame(columns=["criterion", "item_id", "n", "majority", "votes",
                                     "share", "tie", "decision"])
    return pd.concat(parts, ignore_index=True)


def campaign_report(
    ratings: pd.DataFrame,
    *,
    by: Sequence[str] = DEFAULT_GROUPS,
    koala_by: Sequence[str] = ("task",),
    levels: Mapping[str, str] | None = None,
    confidence: float = 0.95,
    ci_method: str = "t",
    scales: Mapping[str, tuple[float, float]] | None = None,
    min_n: int = MIN_N_CI,
    qc: QcConfig | None = None,
    apply_qc: bool = True,
    decision_criteria: Collection[str] | None = None,
    keep_values: Collection[object] = KEEP_VALUES,
) -> CampaignReport:
    """The full report: QC and exclusions, agreement, MOS tables and item decisions.

    Raters failing the rules in ``qc.exclude_on`` are dropped first (``apply_qc=False``
    keeps everyone but still reports the quality table); control rows never enter the
    statistics. ``counts`` records the ratings in, excluded, control and used.
    ``scales`` (criterion -> (lowest, highest) score) and ``min_n`` shape the MOS
    intervals as in :func:`mos_table`.
    """
    for col in ("item_id", "rater_id", "value"):
        if col not in ratings:
            raise ValueError(f"ratings need a {col!r} column")
    # a slim frame: only the columns the report reads, so row filtering stays cheap
    needed = ["item_id", "rater_id", "criterion", "value", "gold_value", "trap_value",
              "is_gold", "is_trap", *by, *koala_by]
    slim = ratings[[c for c in dict.fromkeys(needed) if c in ratings]]
    # label-like columns as categoricals: each later factorize/groupby reuses the codes
    # instead of hashing a million strings again (about half the report's time)
    slim = slim.assign(**{
        c: slim[c].astype("category") for c in ("criterion", "value", *by, *koala_by)
        if c in slim and not isinstance(slim[c].dtype, pd.CategoricalDtype)
        and not pd.api.types.is_numeric_dtype(slim[c].dtype)
    })
    quality = rater_quality(slim, qc)
    gate = quality if apply_qc else quality.assign(excluded=False)
    _, exclusions = apply_exclusions(slim[["rater_id"]], gate)
    dropped = slim["rater_id"].isin(exclusions.excluded.index).to_numpy()
    controls = control_mask(slim) & ~dropped
    scored = slim.loc[~dropped & ~controls, [c for c in slim.columns
                                            if c not in ("gold_value", "trap_value",
                                                         "is_gold", "is_trap")]]
    mos = mos_table(scored, by, confidence=confidence, method=ci_method, scales=scales, min_n=min_n)
    koala_keys = [c for c in koala_by if c in scored]
    koala = koala_table(mos_table(scored, koala_keys, confidence=confidence, method=ci_method,
                                  scales=scales, min_n=min_n))
    return CampaignReport(
        agreement=agreement_table(scored, levels=levels),
        mos=mos,
        koala=koala,
        decisions=majority_decisions(scored, criteria=decision_criteria, keep_values=keep_values),
        rater_quality=quality,
        exclusions=exclusions,
        counts={
            "ratings_in": len(ratings),
            "ratings_excluded": exclusions.n_ratings_dropped,
            "control_ratings": int(controls.sum()),
            "ratings_used": len(scored),
        },
    )
