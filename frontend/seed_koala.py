"""KoALa's model tables from Earshot's data (pure pandas, no Django).

* :func:`faithfulness` and :func:`faithfulness_cases` — speech faithfulness from
  counterfactual answer keys (KoALa Table 4, Fig. 2): each question is asked once with
  its factual speech and once with a counterfactual one, whose key is the question's
  counterfactual answerline;
* :func:`accuracy_by` — accuracy by any question metadata field (e.g. evidence
  position, Table 3);
* :func:`prompt_variants` — several prompts per model, reported as the mean over the
  prompts, the best prompt and best-of-k (Tables 2, 17, 18).

The annotation side of KoALa (pooled κ, keep-if-every-criterion-passes) is in
:mod:`annotation.seed_audit`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from .seed_stats import STUDENT_T, mean_t, wilson, with_wilson

#: The four cases of a (factual, counterfactual) pair, keyed by
#: (right on the factual speech, followed the counterfactual speech).
CASES = {
    (True, True): "case_1",
    (True, False): "case_2",
    (False, True): "case_3",
    (False, False): "case_4",
}
CASE_TEXT = {
    "case_1": "right on the factual speech, follows the counterfactual speech",
    "case_2": "right on the factual speech, ignores the counterfactual speech",
    "case_3": "wrong on the factual speech, follows the counterfactual speech",
    "case_4": "wrong on the factual speech, does not follow the counterfactual speech",
}


def _pairs(pairs: pd.DataFrame) -> pd.DataFrame:
    need = ["system", "question_id", "factual_correct", "cf_follows", "cf_says_factual"]
    missing = [c for c in need if c not in pairs]
    if missing:
        raise ValueError(f"faithfulness pairs need columns {missing}")
    frame = pairs.dropna(subset=["factual_correct", "cf_follows"]).copy()
    frame["case"] = [CASES[(bool(f), bool(c))] for f, c in
                     zip(frame["factual_correct"], frame["cf_follows"], strict=True)]
    return frame


def faithfulness_cases(pairs: pd.DataFrame) -> pd.DataFrame:
    """Case 1–4 counts per system (KoALa Fig. 2): ``system``, ``case``, ``description``,
    ``n`` (pairs of the system), ``pairs`` (in this case) and the share with its Wilson interval.

    ``pairs``: one row per (``system``, ``question_id``) with ``factual_correct`` (the
    answer to the factual speech matched the answerline), ``cf_follows`` (the answer to
    the counterfactual speech matched the counterfactual answerline) and
    ``cf_says_factual`` (it matched the factual answerline instead).
    """
    frame = _pairs(pairs)
    rows = []
    for system, group in frame.groupby("system", sort=True):
        counts = group["case"].value_counts()
        for case in CASE_TEXT:
            rows.append({"system": system, "case": case, "description": CASE_TEXT[case],
                         "n": len(group), "correct": int(counts.get(case, 0))})
    table = pd.DataFrame(rows, columns=["system", "case", "description", "n", "correct"])
    return with_wilson(table).rename(columns={"correct": "pairs", "accuracy": "share"})


def faithfulness(pairs: pd.DataFrame) -> pd.DataFrame:
    """The speech-faithfulness score per system (KoALa Table 4).

    ``sf_score``: share of counterfactual answers that follow the speech (cases 1 + 3
    over all pairs); ``sf_known``: the same among the questions the model answered
    right from the factual speech (case 1 / (case 1 + case 2)), i.e. how often it lets
    the speech override what it knows; ``override``: counterfactual answers that gave
    the factual answer instead. Each share has its Wilson interval and its ``n``.
    """
    frame = _pairs(pairs)
    rows = []
    for system, g in frame.groupby("system", sort=True):
        n = len(g)
        follows = int(g["cf_follows"].astype(bool).sum())
        known = g[g["factual_correct"].astype(bool)]
        k_follow = int(known["cf_follows"].astype(bool).sum())
        lo, hi = wilson(follows, n)
        klo, khi = wilson(k_follow, len(known))
        rows.append({
            "system": system, "n": n, "followed": follows,
            "sf_score": follows / n if n else math.nan, "sf_ci_low": lo, "sf_ci_high": hi,
            "known_n": len(known), "known_followed": k_follow,
            "sf_known": k_follow / len(known) if len(known) else math.nan,
            "sf_known_ci_low": klo, "sf_known_ci_high": khi,
            "override": int(g["cf_says_factual"].astype(bool).sum()),
            "interval": "Wilson 95%",
        })
    return pd.DataFrame(rows)


def accuracy_by(rows: pd.DataFrame, field: str, by: Sequence[str] = ("kind", "label")) -> pd.DataFrame:
    """Accuracy per value of a question metadata ``field`` (e.g. ``evidence_position``).

    ``rows``: one row per answer with the ``by`` columns, ``field`` and ``correct``.
    Answers whose question has no value for the field are counted under ``(none)``.
    """
    keys = [*by, field]
    if rows.empty or field not in rows:
        return with_wilson(pd.DataFrame(columns=[*keys, "n", "correct"]))
    frame = rows.assign(**{field: rows[field].map(lambda v: "(none)" if v is None or v == "" or
                                                  (isinstance(v, float) and math.isnan(v)) else str(v))})
    table = frame.groupby(keys, as_index=False, sort=True).agg(n=("correct", "size"),
                                                                correct=("correct", "sum"))
    return with_wilson(table)


def prompt_variant_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Accuracy of every (``label``, ``prompt_variant``) with its Wilson interval."""
    if rows.empty:
        return with_wilson(pd.DataFrame(columns=["label", "prompt_variant", "n", "correct"]))
    table = rows.groupby(["label", "prompt_variant"], as_index=False, sort=True).agg(
        n=("correct", "size"), correct=("correct", "sum"))
    return with_wilson(table)


def prompt_variants(rows: pd.DataFrame) -> pd.DataFrame:
    """Per model: the mean over its k prompts, the best prompt, and best-of-k.

    ``rows``: ``label``, ``question_id``, ``prompt_variant``, ``correct``. Columns:
    ``k`` (prompts), ``questions``; ``mean_accuracy`` (mean of the k prompt accuracies)
    with ``sd_accuracy`` and a Student-t interval over the prompts; ``best_prompt``, its
    ``best_n``/``best_accuracy`` and Wilson interval; ``best_of_k`` (share of questions
    answered right by at least one prompt) with its Wilson interval.
    """
    per = prompt_variant_table(rows)
    out = []
    for label, group in per.groupby("label", sort=True):
        n_k, mean, sd, lo, hi = mean_t(group["accuracy"].to_numpy())
        best = group.sort_values(["accuracy", "n", "prompt_variant"],
                                 ascending=[False, False, True]).iloc[0]
        answers = rows[rows["label"] == label]
        solved = answers.groupby("question_id")["correct"].max()
        any_k, any_n = int(solved.sum()), len(solved)
        alo, ahi = wilson(any_k, any_n)
        out.append({
            "label": label, "k": n_k, "questions": any_n,
            "mean_accuracy": mean, "sd_accuracy": sd, "mean_ci_low": lo, "mean_ci_high": hi,
            "mean_interval": STUDENT_T + " over the prompts",
            "best_prompt": best["prompt_variant"], "best_n": int(best["n"]),
            "best_accuracy": float(best["accuracy"]), "best_ci_low": float(best["ci_low"]),
            "best_ci_high": float(best["ci_high"]),
            "best_of_k": any_k / any_n if any_n else math.nan, "best_of_k_ci_low": alo,
            "best_of_k_ci_high": ahi, "interval": "Wilson 95%",
        })
    return pd.DataFrame(out)
