"""Seed-paper tables over annotation ratings (pure pandas/numpy, no Django).

* :func:`pooled_kappa` — Fleiss' κ per criterion and pooled over all criteria (each
  (item, criterion) pair one subject), as KoALa reports beside the per-criterion values;
* :func:`all_pass_decisions` — keep an item only if the majority passes it on every
  criterion, with the counts at each step ("800 → 374");
* :func:`qa_audit_loop` — SEA-SpeechBench App. B.3: per batch and audit round, the
  pass rate on every axis, batches below the threshold flagged for fixing, and the
  re-audit of the fixed items (round 2 and later).

Input is the long ratings frame of :mod:`annotation.report` (``item_id``,
``rater_id``, ``criterion``, ``value``) with control rows removed; the loop needs
``batch`` and ``round`` columns too.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd

from annotation.agreement import fleiss_kappa, landis_koch
from annotation.report import KEEP_VALUES, _value_table, majority_decisions

WILSON = "Wilson 95%"
#: SEA-SpeechBench's bar: a batch passes when at least 90 % of its items pass each axis.
AUDIT_THRESHOLD = 0.9


def _wilson(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    if not n:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _kappa_row(name: str, table: np.ndarray) -> dict:
    row = {"criterion": name, "subjects": int(table.shape[0]),
           "ratings": int(table.sum()), "kappa": math.nan, "label": "", "reason": ""}
    m = table.sum(axis=1)
    if not len(m):
        row["reason"] = "no ratings"
    elif m.min() != m.max() or m.min() < 2:
        row["reason"] = f"ratings per subject vary ({int(m.min())}..{int(m.max())}): Fleiss' κ needs a fixed number >= 2"
    else:
        k = fleiss_kappa(table)
        row.update(kappa=k.kappa, label=landis_koch(k.kappa), reason=k.reason)
    return row


def pooled_kappa(ratings: pd.DataFrame, criteria: Collection[str] | None = None) -> pd.DataFrame:
    """Fleiss' κ per criterion and a last ``pooled`` row over all of them.

    The pooled κ treats every (item, criterion) pair as one subject rated into the
    union of the criteria's values (the usual way to report one κ for a multi-criterion
    yes/no check). ``subjects`` and ``ratings`` give the n behind each value.
    """
    frame = ratings.dropna(subset=["value"])
    if criteria is not None:
        frame = frame[frame["criterion"].isin(list(criteria))]
    rows = []
    for name, group in frame.groupby("criterion", sort=True, observed=True):
        table, _, _ = _value_table(group["item_id"], group["value"].astype(str))
        rows.append(_kappa_row(str(name), table))
    if rows:
        subject = frame["item_id"].astype(str) + "\x00" + frame["criterion"].astype(str)
        table, _, _ = _value_table(subject, frame["value"].astype(str))
        rows.append(_kappa_row("pooled", table))
    return pd.DataFrame(rows, columns=["criterion", "subjects", "ratings", "kappa", "label", "reason"])


def _item_passes(ratings: pd.DataFrame, criteria: Sequence[str] | None,
                 keep_values: Collection[object]) -> pd.DataFrame:
    """(items x criteria) table of True (kept) / False (discarded or tie)."""
    decisions = majority_decisions(ratings, criteria=criteria, keep_values=keep_values)
    if decisions.empty:
        return pd.DataFrame()
    return (decisions.assign(ok=decisions["decision"] == "keep")
            .pivot(index="item_id", columns="criterion", values="ok").fillna(False).astype(bool))


def all_pass_decisions(ratings: pd.DataFrame, criteria: Sequence[str] | None = None,
                       *, keep_values: Collection[object] = KEEP_VALUES) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Keep an item only if its majority label passes on **every** criterion.

    Returns ``(items, funnel)``. ``items``: one row per item, a column per criterion
    (True: the majority kept it; a tie does not keep) and ``keep``. ``funnel``: the
    step counts — ``items`` rated, then items passing each criterion alone, then
    ``all criteria`` — with the share of the rated items (800 → 374 style).
    """
    passes = _item_passes(ratings, criteria, keep_values)
    if passes.empty:
        return pd.DataFrame(columns=["item_id", "keep"]), pd.DataFrame(
            columns=["step", "items", "kept", "share"])
    items = passes.assign(keep=passes.all(axis=1)).reset_index()
    total = len(items)
    funnel = [{"step": "rated", "items": total, "kept": total, "share": 1.0}]
    for name in passes.columns:
        kept = int(passes[name].sum())
        funnel.append({"step": str(name), "items": total, "kept": kept, "share": kept / total})
    kept = int(items["keep"].sum())
    funnel.append({"step": "all criteria", "items": total, "kept": kept, "share": kept / total})
    return items, pd.DataFrame(funnel)


def qa_audit_loop(ratings: pd.DataFrame, criteria: Sequence[str] | None = None, *,
                  threshold: float = AUDIT_THRESHOLD,
                  keep_values: Collection[object] = KEEP_VALUES) -> pd.DataFrame:
    """Per audit round and batch: items, pass rate per axis, and the verdict.

    ``ratings`` carry ``batch`` and ``round`` (1 for the first audit; the re-audit of
    fixed items is round 2, and so on). An item passes an axis when its majority label
    is a keep value. A batch is ``flagged`` when any axis passes fewer than
    ``threshold`` of its items; its fixed items are re-audited in the next round, whose
    rows say ``re-audit passed`` or ``re-audit still below``. Columns per axis ``X``:
    ``X_passed``, ``X_rate``, ``X_ci_low``, ``X_ci_high`` (Wilson), plus ``all_passed``
    and ``all_rate`` (every axis), ``lowest_axis`` and ``status``.
    """
    frame = ratings.assign(round=ratings["round"].fillna(1).astype(int),
                           batch=ratings["batch"].fillna("").astype(str))
    rows = []
    axes: list[str] = []
    for (rnd, batch), group in frame.groupby(["round", "batch"], sort=True):
        passes = _item_passes(group, criteria, keep_values)
        if passes.empty:
            continue
        axes = sorted(set(axes) | set(map(str, passes.columns)))
        n = len(passes)
        row: dict = {"round": int(rnd), "batch": batch, "items": n}
        lowest, lowest_rate = "", math.inf
        for axis in passes.columns:
            k = int(passes[axis].sum())
            lo, hi = _wilson(k, n)
            row.update({f"{axis}_passed": k, f"{axis}_rate": k / n,
                        f"{axis}_ci_low": lo, f"{axis}_ci_high": hi})
            if k / n < lowest_rate:
                lowest, lowest_rate = str(axis), k / n
        k_all = int(passes.all(axis=1).sum())
        row.update(all_passed=k_all, all_rate=k_all / n, lowest_axis=lowest)
        below = lowest_rate < threshold
        if rnd == 1:
            row["status"] = "flagged: fix and re-audit" if below else "passed"
        else:
            row["status"] = "re-audit still below" if below else "re-audit passed"
        row["threshold"] = threshold
        row["interval"] = WILSON
        rows.append(row)
    table = pd.DataFrame(rows)
    if table.empty:
        return pd.DataFrame(columns=["round", "batch", "items", "status"])
    return table
