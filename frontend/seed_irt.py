"""θ summaries from one IRT fit, for Audita Tables 10 and 3 (pure numpy/pandas, no Django).

One fit gives every item its 2PL parameters ``a``, ``b`` (P(right) = σ(a(θ − b))).
A responder's ability on a *part* of the bank — one source, one category, or the
free-answer or multiple-choice items of a joint free+MCQ fit — is scored here with
those parameters held fixed: the posterior mean (EAP) and SD of θ under the fit's
N(0, 1) prior, by :mod:`irt.bank` (the project's scorer). No refit, so the parts share one scale
and can be compared side by side.

* :func:`eap` — EAP θ and posterior SD per (group, responder);
* :func:`theta_by_subset` — Table 10: θ per source, per category (every model, and
  the mean over humans) and per condition (the fit's θ, grouped);
* :func:`joint_modes_table` — Table 3: accuracy, θ and rank of every model in both
  modes, side by side, from one joint fit whose items are (question, mode) pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from irt.bank import Bank, score_many

from .seed_stats import STUDENT_T, mean_t, wilson

POSTERIOR = "posterior 95% (EAP ± 1.96 SD)"
HUMANS = "Humans (mean)"


def eap(frame: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """EAP θ and posterior SD per ``keys`` group, item parameters fixed.

    ``frame``: one response per row with the ``keys`` columns, ``a``, ``b`` and
    ``correct`` (0/1). Returns the ``keys``, ``n`` (responses), ``theta`` and ``theta_sd``.
    Scored by the project's scorer (:func:`irt.bank.score_many`) under N(0, 1), the
    items as known and no anchor term: each response row is its own bank item.
    """
    keys = list(keys)
    if frame.empty:
        return pd.DataFrame(columns=[*keys, "n", "theta", "theta_sd"])
    codes, uniq = pd.factorize(pd.MultiIndex.from_frame(frame[keys]))
    bank = Bank(item_ids=tuple(range(len(frame))), a=frame["a"].to_numpy(dtype=float),
                b=frame["b"].to_numpy(dtype=float))
    scores = score_many(bank, codes, np.arange(len(frame)), frame["correct"].to_numpy(dtype=int),
                        item_draws=0, include_anchor=False)
    out = uniq.to_frame(index=False)
    out.columns = keys
    out["n"] = np.bincount(codes, minlength=len(uniq))
    out["theta"] = [sc.theta for sc in scores]
    out["theta_sd"] = [sc.sd for sc in scores]
    return out


def _with_items(responses: pd.DataFrame, items: pd.DataFrame, item_key: Sequence[str]) -> pd.DataFrame:
    return responses.merge(items[[*item_key, "a", "b"]], on=list(item_key), how="inner")


def theta_by_subset(responses: pd.DataFrame, items: pd.DataFrame, abilities: pd.DataFrame,
                    *, dimensions: Sequence[str] = ("source", "category")) -> pd.DataFrame:
    """Audita Table 10: θ per source and per category, and per condition.

    ``responses``: ``responder_id``, ``kind``, ``label``, ``question_id``, ``correct``
    and the ``dimensions`` columns; ``items``: ``question_id``, ``a``, ``b`` of the fit;
    ``abilities``: the fit's ``responder_id``, ``kind``, ``label``, ``condition``,
    ``theta``. For a source or category, each model's θ is its EAP on those items with
    a posterior interval, and the human row is the mean of the humans' EAPs with a
    Student-t interval (``n`` humans). For ``condition``, the fit's own θ of the models
    under each condition (and of all humans) are averaged, Student-t interval.
    """
    cols = ["dimension", "value", "group", "responders", "n", "theta", "theta_low", "theta_high",
            "interval"]
    rows: list[dict] = []
    scored = _with_items(responses, items, ["question_id"])
    for dim in dimensions:
        if dim not in scored or scored.empty:
            continue
        per = eap(scored, [dim, "responder_id", "kind", "label"])
        for value, group in per.groupby(dim, sort=True):
            for r in group[group["kind"] == "model"].sort_values("label").itertuples(index=False):
                rows.append({"dimension": dim, "value": value, "group": r.label, "responders": 1,
                             "n": int(r.n), "theta": r.theta, "theta_low": r.theta - 1.96 * r.theta_sd,
                             "theta_high": r.theta + 1.96 * r.theta_sd, "interval": POSTERIOR})
            humans = group[group["kind"] == "human"]
            if len(humans):
                k, m, _, lo, hi = mean_t(humans["theta"].to_numpy())
                rows.append({"dimension": dim, "value": value, "group": HUMANS, "responders": k,
                             "n": int(humans["n"].sum()), "theta": m, "theta_low": lo, "theta_high": hi,
                             "interval": STUDENT_T})
    if not abilities.empty:
        ab = abilities.assign(condition=[c if k == "model" else "human" for k, c in
                                         zip(abilities["kind"], abilities["condition"], strict=True)])
        counts = responses.groupby("responder_id").size()
        for value, group in ab.groupby("condition", sort=True):
            k, m, _, lo, hi = mean_t(group["theta"].to_numpy())
            rows.append({"dimension": "condition", "value": value,
                         "group": HUMANS if value == "human" else f"models ({k})", "responders": k,
                         "n": int(counts.reindex(group["responder_id"]).fillna(0).sum()),
                         "theta": m, "theta_low": lo, "theta_high": hi, "interval": STUDENT_T})
    return pd.DataFrame(rows, columns=cols)


def joint_modes_table(responses: pd.DataFrame, items: pd.DataFrame, abilities: pd.DataFrame,
                      modes: Sequence[str] = ("free", "mcq")) -> pd.DataFrame:
    """Audita Table 3: per model, accuracy, θ and rank in each mode, from one joint fit.

    ``responses``: ``responder_id``, ``kind``, ``label``, ``question_id``, ``mode``,
    ``correct``; ``items``: the joint fit's ``question_id``, ``mode``, ``a``, ``b``;
    ``abilities``: ``responder_id`` and the fit's joint ``theta``. Per mode: ``n``,
    accuracy with its Wilson interval, θ (EAP on that mode's items) with its posterior
    interval and the rank by θ among the models (1 = highest). A last row gives the
    humans' means. ``joint_theta`` is the fit's θ over both modes.
    """
    models = responses[responses["kind"] == "model"]
    if models.empty:
        return pd.DataFrame(columns=["label"])
    scored = _with_items(responses, items, ["question_id", "mode"])
    theta = eap(scored, ["mode", "responder_id", "kind", "label"])
    acc = responses.groupby(["mode", "responder_id", "kind", "label"], as_index=False).agg(
        n=("correct", "size"), correct=("correct", "sum"))
    joint = dict(zip(abilities["responder_id"], abilities["theta"], strict=True))
    labels = sorted(models.groupby("responder_id")["label"].first().items(), key=lambda kv: kv[1])
    table = pd.DataFrame({"responder_id": [r for r, _ in labels], "label": [lab for _, lab in labels]})
    table["joint_theta"] = [joint.get(r, math.nan) for r in table["responder_id"]]
    human_row: dict = {"responder_id": None, "label": HUMANS, "joint_theta": math.nan}
    humans = abilities[abilities["kind"] == "human"] if "kind" in abilities else abilities.iloc[0:0]
    if len(humans):
        human_row["joint_theta"] = float(humans["theta"].mean())
    for mode in modes:
        a_m = acc[acc["mode"] == mode].set_index("responder_id")
        t_m = theta[theta["mode"] == mode].set_index("responder_id")
        n = [int(a_m["n"].get(r, 0)) for r in table["responder_id"]]
        k = [int(a_m["correct"].get(r, 0)) for r in table["responder_id"]]
        ci = [wilson(ki, ni) for ki, ni in zip(k, n, strict=True)]
        th = np.array([float(t_m["theta"].get(r, math.nan)) for r in table["responder_id"]])
        sd = np.array([float(t_m["theta_sd"].get(r, math.nan)) for r in table["responder_id"]])
        table[f"{mode}_n"] = n
        table[f"{mode}_accuracy"] = [ki / ni if ni else math.nan for ki, ni in zip(k, n, strict=True)]
        table[f"{mode}_ci_low"] = [c[0] for c in ci]
        table[f"{mode}_ci_high"] = [c[1] for c in ci]
        table[f"{mode}_theta"] = th
        table[f"{mode}_theta_low"] = th - 1.96 * sd
        table[f"{mode}_theta_high"] = th + 1.96 * sd
        table[f"{mode}_rank"] = pd.Series(th).rank(ascending=False, method="min").to_numpy()
        h_a = a_m[a_m["kind"] == "human"]
        h_t = t_m[t_m["kind"] == "human"]
        hn, hk = int(h_a["n"].sum()), int(h_a["correct"].sum())
        hlo, hhi = wilson(hk, hn)
        _, hm, _, tlo, thi = mean_t(h_t["theta"].to_numpy())
        human_row.update({f"{mode}_n": hn, f"{mode}_accuracy": hk / hn if hn else math.nan,
                          f"{mode}_ci_low": hlo, f"{mode}_ci_high": hhi, f"{mode}_theta": hm,
                          f"{mode}_theta_low": tlo, f"{mode}_theta_high": thi, f"{mode}_rank": math.nan})
    table = pd.concat([table, pd.DataFrame([human_row])], ignore_index=True)
    table["interval"] = "accuracy: Wilson 95%; model θ: " + POSTERIOR + "; humans' θ: " + STUDENT_T
    return table
