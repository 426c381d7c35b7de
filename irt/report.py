"""Report tables for a fitted IRT model (pure pandas/numpy; no Django).

The Django side loads rows and calls these; each returns a tidy ``DataFrame`` ready
to render or export.  Inputs, all plain:

* ``result``: an :class:`irt.fit.IrtResult`
* ``subject_map`` / ``item_map``: :class:`irt.ids.IndexMap` from external ids to the
  fit's indices
* ``responders``: DataFrame with ``responder_id``, ``kind`` (``"human"``/``"model"``),
  ``name`` and optionally ``condition``
* ``items``: DataFrame with ``item_id`` and optionally ``category``, ``source``,
  ``question``, ``answer``
* ``responses``: DataFrame with ``responder_id``, ``item_id``, ``correct`` (0/1)
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from irt.ids import IndexMap
from irt.result import IrtResult

__all__ = [
    "A_LOW",
    "B_EXTREME",
    "by_source_and_kind",
    "category_difficulty",
    "discriminating_items",
    "humans_vs_models",
    "item_characteristic_curves",
    "item_flags",
    "item_table",
    "ranking",
    "responder_table",
    "test_information",
]

#: thresholds for :func:`item_flags`
A_LOW = 0.3
B_EXTREME = 3.0

MEAN_CI_METHOD = "t-interval over responders: mean(theta) +- t(0.975, n-1) * SD / sqrt(n)"


def _p(result: IrtResult, theta: np.ndarray, idx: np.ndarray) -> np.ndarray:
    a = result.a[idx]
    b = result.b[idx]
    c = np.zeros_like(a) if result.c is None else result.c[idx]
    return c[None, :] + (1 - c[None, :]) / (1 + np.exp(-a[None, :] * (theta[:, None] - b[None, :])))


def responder_table(
    result: IrtResult, subject_map: IndexMap, responders: pd.DataFrame, responses: pd.DataFrame
) -> pd.DataFrame:
    """One row per fitted responder: metadata, answers, accuracy, theta with SD and CI."""
    acc = responses.groupby("responder_id")["correct"].agg(n_answered="size", accuracy="mean")
    df = pd.DataFrame({
        "responder_id": list(subject_map.ids),
        "theta": result.theta,
        "theta_sd": result.theta_sd,
        "theta_lo": result.theta_ci[:, 0],
        "theta_hi": result.theta_ci[:, 1],
    })
    meta_cols = [c for c in ("responder_id", "kind", "name", "condition") if c in responders.columns]
    df = df.merge(responders[meta_cols], on="responder_id", how="left")
    df = df.merge(acc, left_on="responder_id", right_index=True, how="left")
    df["n_answered"] = df["n_answered"].fillna(0).astype(int)
    return df


def item_table(result: IrtResult, item_map: IndexMap, items: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per item: a, b (with SDs), c, plus metadata when given."""
    df = pd.DataFrame({
        "item_id": list(item_map.ids),
        "a": result.a, "a_sd": result.a_sd, "b": result.b, "b_sd": result.b_sd,
    })
    if result.c is not None:
        df["c"] = result.c
    if items is not None:
        df = df.merge(items, on="item_id", how="left")
    return df


def _mean_ci(x: np.ndarray) -> tuple[float, float, float, float]:
    x = np.asarray(x, dtype=float)
    n = x.size
    if n == 0:
        return (np.nan,) * 4  # type: ignore[return-value]
    m = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else np.nan
    if n < 2:
        return m, sd, np.nan, np.nan
    lo, hi = stats.t.interval(0.95, n - 1, loc=m, scale=sd / np.sqrt(n))
    return m, sd, float(lo), float(hi)


def humans_vs_models(
    result: IrtResult, subject_map: IndexMap, responders: pd.DataFrame, responses: pd.DataFrame
) -> pd.DataFrame:
    """Per responder kind: responders, responses, pooled accuracy, mean/SD of theta and
    a 95 % CI of the mean theta (``ci_method`` names it: a t-interval over responders,
    i.e. it describes the population the responders were drawn from, not one
    responder)."""
    rt = responder_table(result, subject_map, responders, responses)
    resp = responses.merge(responders[["responder_id", "kind"]], on="responder_id", how="left")
    rows = []
    for kind, grp in rt.groupby("kind", sort=True):
        m, sd, lo, hi = _mean_ci(grp["theta"].to_numpy())
        r = resp[resp["kind"] == kind]
        rows.append({
            "kind": kind, "n_responders": len(grp), "n_responses": len(r),
            "accuracy": float(r["correct"].mean()) if len(r) else np.nan,
            "mean_theta": m, "sd_theta": sd, "mean_theta_lo": lo, "mean_theta_hi": hi,
            "ci_method": MEAN_CI_METHOD,
        })
    return pd.DataFrame(rows)


def ranking(
    result: IrtResult, subject_map: IndexMap, responders: pd.DataFrame, responses: pd.DataFrame
) -> pd.DataFrame:
    """Every model system plus the human population, ranked by theta (1 = best).

    Models keep their own theta and 95 % interval; the human population row carries
    the mean human theta with the t-interval of the mean and pooled human accuracy.
    """
    rt = responder_table(result, subject_map, responders, responses)
    rows = []
    for _, r in rt[rt["kind"] == "model"].iterrows():
        rows.append({
            "entry": r.get("name", r["responder_id"]), "kind": "model",
            "condition": r.get("condition", None), "n_answered": int(r["n_answered"]),
            "accuracy": r["accuracy"], "theta": r["theta"], "theta_lo": r["theta_lo"], "theta_hi": r["theta_hi"],
        })
    hum = rt[rt["kind"] == "human"]
    if len(hum):
        m, _sd, lo, hi = _mean_ci(hum["theta"].to_numpy())
        hresp = responses[responses["responder_id"].isin(hum["responder_id"])]
        rows.append({
            "entry": "human population", "kind": "human", "condition": None,
            "n_answered": len(hresp), "accuracy": float(hresp["correct"].mean()) if len(hresp) else np.nan,
            "theta": m, "theta_lo": lo, "theta_hi": hi,
        })
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    df = df.sort_values("theta", ascending=False, kind="mergesort").reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df


def by_source_and_kind(
    result: IrtResult, item_map: IndexMap, items: pd.DataFrame, responders: pd.DataFrame,
    responses: pd.DataFrame,
) -> pd.DataFrame:
    """Accuracy by source dataset x responder kind, with the mean item difficulty."""
    it = item_table(result, item_map, items)
    resp = responses.merge(responders[["responder_id", "kind"]], on="responder_id", how="left")
    resp = resp.merge(it[["item_id", "source", "b"]], on="item_id", how="left")
    out = resp.groupby(["source", "kind"], dropna=False).agg(
        n_responses=("correct", "size"), n_items=("item_id", "nunique"), accuracy=("correct", "mean"),
    ).reset_index()
    mean_b = it.groupby("source", dropna=False)["b"].mean().rename("mean_b")
    return out.merge(mean_b, left_on="source", right_index=True, how="left")


def discriminating_items(
    result: IrtResult, item_map: IndexMap, items: pd.DataFrame | None = None, n: int = 10
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``n`` most and least discriminating items (by ``a``)."""
    it = item_table(result, item_map, items)
    top = it.sort_values("a", ascending=False, kind="mergesort").head(n).reset_index(drop=True)
    bottom = it.sort_values("a", ascending=True, kind="mergesort").head(n).reset_index(drop=True)
    return top, bottom


def item_flags(
    result: IrtResult, item_map: IndexMap, items: pd.DataFrame | None, responders: pd.DataFrame,
    responses: pd.DataFrame, *, a_low: float = A_LOW, b_extreme: float = B_EXTREME,
) -> pd.DataFrame:
    """Items worth a look: low discrimination (``a < a_low``), extreme difficulty
    (``|b| > b_extreme``), never answered correctly by any human who saw it
    (``no_human_correct``; ``n_human_answers`` says how many saw it).  Only flagged
    items are returned, with a ``reasons`` column."""
    it = item_table(result, item_map, items)
    hum_ids = set(responders.loc[responders["kind"] == "human", "responder_id"])
    hr = responses[responses["responder_id"].isin(hum_ids)]
    hstat = hr.groupby("item_id")["correct"].agg(n_human_answers="size", n_human_correct="sum")
    it = it.merge(hstat, left_on="item_id", right_index=True, how="left")
    it[["n_human_answers", "n_human_correct"]] = it[["n_human_answers", "n_human_correct"]].fillna(0).astype(int)
    it["low_a"] = it["a"] < a_low if result.model != "1pl" else False
    it["extreme_b"] = it["b"].abs() > b_extreme
    it["no_human_correct"] = (it["n_human_answers"] > 0) & (it["n_human_correct"] == 0)
    flags = ["low_a", "extreme_b", "no_human_correct"]
    it["reasons"] = it[flags].apply(lambda r: ", ".join(f for f in flags if r[f]), axis=1)
    return it[it[flags].any(axis=1)].reset_index(drop=True)


def category_difficulty(
    result: IrtResult, item_map: IndexMap, items: pd.DataFrame, responders: pd.DataFrame,
    responses: pd.DataFrame,
) -> pd.DataFrame:
    """Per category: accuracy overall / humans / models beside the mean item ``b``."""
    it = item_table(result, item_map, items)
    resp = responses.merge(responders[["responder_id", "kind"]], on="responder_id", how="left")
    resp = resp.merge(it[["item_id", "category"]], on="item_id", how="left")
    acc = resp.groupby("category", dropna=False)["correct"].agg(n_responses="size", accuracy="mean")
    by_kind = resp.pivot_table(index="category", columns="kind", values="correct", aggfunc="mean", dropna=False)
    by_kind.columns = [f"accuracy_{k}" for k in by_kind.columns]
    diff = it.groupby("category", dropna=False).agg(n_items=("item_id", "size"), mean_b=("b", "mean"), mean_a=("a", "mean"))
    return diff.join(acc, how="left").join(by_kind, how="left").reset_index()


def item_characteristic_curves(
    result: IrtResult, item_idx: np.ndarray | list[int] | None = None, grid: np.ndarray | None = None
) -> pd.DataFrame:
    """P(correct | theta) on a grid (default -4..4, 161 points): long format with
    ``item``, ``theta``, ``p``."""
    grid = np.linspace(-4, 4, 161) if grid is None else np.asarray(grid, dtype=float)
    idx = np.arange(result.n_items) if item_idx is None else np.asarray(item_idx, dtype=int)
    p = _p(result, grid, idx)
    return pd.DataFrame({
        "item": np.tile(idx, grid.size), "theta": np.repeat(grid, idx.size), "p": p.ravel(),
    })


def test_information(
    result: IrtResult, item_idx: np.ndarray | list[int] | None = None, grid: np.ndarray | None = None
) -> pd.DataFrame:
    """Test information ``I(theta) = sum_j I_j(theta)`` and the implied SE
    ``1 / sqrt(I)`` on a grid.  2PL: ``I_j = a^2 p (1 - p)``; 3PL (fixed c):
    ``a^2 (p - c)^2 (1 - p) / ((1 - c)^2 p)``."""
    grid = np.linspace(-4, 4, 161) if grid is None else np.asarray(grid, dtype=float)
    idx = np.arange(result.n_items) if item_idx is None else np.asarray(item_idx, dtype=int)
    p = _p(result, grid, idx)
    a = result.a[idx][None, :]
    c = (np.zeros(idx.size) if result.c is None else result.c[idx])[None, :]
    info = (a**2 * (p - c) ** 2 * (1 - p) / ((1 - c) ** 2 * p)).sum(axis=1)
    with np.errstate(divide="ignore"):
        se = 1.0 / np.sqrt(info)
    return pd.DataFrame({"theta": grid, "information": info, "se": se})
