"""Dashboard diagnostics on aggregated counts (no Django): MCQ answer positions and
distractors, inter-human agreement, questions nobody solved.

Split from :mod:`frontend.dashboard` (the headline, breakdowns and ranking); same
conventions: count rows in, plain DataFrames out, tested against hand-computed
numbers and, for the vectorised distractor count, against its former loop.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from .dashboard import MODEL, POSITIONS, _frame, accuracy

# ------------------------------------------------------------------- MCQ diagnostics


def _pooled_groups(group: str, kind: str) -> tuple[str, ...]:
    """A row counts for its own group, for "all models" (when a model) and for "overall"."""
    return (group, "all models", "overall") if kind == MODEL else (group, "overall")


def mcq_positions(rows: Iterable[Mapping] | pd.DataFrame) -> pd.DataFrame:
    """Distribution of chosen options by screen position, per group and overall.

    ``rows``: ``group`` (``humans`` or a model label), ``kind``, ``choice_position``
    (0–3), ``correct`` (bool) and ``n``. Columns: ``group``, ``n``, ``accuracy``,
    ``chose_A`` … ``chose_D`` (shares of all answers), ``errors``, ``error_A`` …
    ``error_D`` (shares of wrong answers). Extra groups ``all models`` and
    ``overall`` pool the rows. Under no bias each share is near 0.25.
    """
    frame = _frame(rows, ["group", "kind", "choice_position", "correct", "n"])
    stats: dict[str, dict] = {}
    for group, kind, pos, right, n in zip(frame["group"], frame["kind"], frame["choice_position"],
                                          frame["correct"], frame["n"], strict=True):
        if pos is None or pd.isna(pos) or int(pos) >= len(POSITIONS):
            continue  # positions E-J (questions with 5-10 options) are outside the A-D table
        for g in _pooled_groups(group, kind):
            st = stats.setdefault(g, {"n": 0, "right": 0, "chose": [0] * 4, "err": [0] * 4})
            st["n"] += int(n)
            st["chose"][int(pos)] += int(n)
            if bool(right):
                st["right"] += int(n)
            else:
                st["err"][int(pos)] += int(n)
    out = []
    for group, st in _ordered(stats):
        errors = st["n"] - st["right"]
        row = {"group": group, "n": st["n"], "accuracy": accuracy(st["right"], st["n"])}
        row.update({f"chose_{p}": accuracy(st["chose"][i], st["n"]) for i, p in enumerate(POSITIONS)})
        row["errors"] = errors
        row.update({f"error_{p}": accuracy(st["err"][i], errors) for i, p in enumerate(POSITIONS)})
        out.append(row)
    return pd.DataFrame(out, columns=["group", "n", "accuracy", *[f"chose_{p}" for p in POSITIONS],
                                      "errors", *[f"error_{p}" for p in POSITIONS]])


def _ordered(stats: dict) -> list:
    """Groups in reading order: humans, each model (by name), all models, overall."""
    rank = {"humans": 0, "all models": 2, "overall": 3}
    return sorted(stats.items(), key=lambda kv: (rank.get(kv[0], 1), str(kv[0])))


def mcq_distractors(rows: Iterable[Mapping] | pd.DataFrame) -> pd.DataFrame:
    """How errors spread over each question's three distractors, per group.

    ``rows``: wrong MCQ answers counted per ``group``, ``kind``, ``question_id`` and
    ``choice`` (author's option index) as ``n``. For every question the distractors
    are ranked by how often the group chose them; ``top_share`` is the share of the
    group's errors that went to its most-chosen distractor of each question,
    ``second_share`` and ``third_share`` likewise. Uniform guessing gives about
    1/3 each; plausible distractors concentrate errors (``top_share`` near 1).
    """
    frame = _frame(rows, ["group", "kind", "question_id", "choice", "n"])
    columns = ["group", "errors", "questions", "top_share", "second_share", "third_share"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    # Everything on integer codes (tens of thousands of rows for a million responses):
    # each row counts for its own group, for "all models" (models) and for "overall".
    group_codes, names = pd.factorize(frame["group"].astype(object), use_na_sentinel=False)
    names = [str(n) for n in names]
    code_of = {name: i for i, name in enumerate(names)}
    for pooled in ("all models", "overall"):
        code_of.setdefault(pooled, len(names))
        if len(names) < len(code_of):
            names.append(pooled)
    q_codes, _ = pd.factorize(frame["question_id"].astype(object), use_na_sentinel=False)
    c_codes, _ = pd.factorize(frame["choice"].astype(object), use_na_sentinel=False)
    n = frame["n"].to_numpy(dtype=np.int64)
    is_model = (frame["kind"] == MODEL).to_numpy(dtype=bool)
    groups = np.concatenate([group_codes, np.full(int(is_model.sum()), code_of["all models"]),
                             np.full(len(frame), code_of["overall"])])
    questions = np.concatenate([q_codes, q_codes[is_model], q_codes])
    choices = np.concatenate([c_codes, c_codes[is_model], c_codes])
    counts = np.concatenate([n, n[is_model], n])
    # Sum per (group, question, choice), then rank choices within (group, question).
    n_q, n_c = int(questions.max()) + 1, int(choices.max()) + 1
    cell, inverse = np.unique((groups * n_q + questions) * n_c + choices, return_inverse=True)
    sums = np.bincount(inverse, weights=counts).astype(np.int64)
    group_question = cell // n_c
    order = np.lexsort((-sums, group_question))
    gq_sorted, sums_sorted = group_question[order], sums[order]
    starts = np.flatnonzero(np.r_[True, gq_sorted[1:] != gq_sorted[:-1]])
    rank = np.arange(len(gq_sorted)) - np.repeat(starts, np.diff(np.r_[starts, len(gq_sorted)]))
    group_of = gq_sorted // n_q
    stats = {}
    for code in np.unique(group_of).tolist():
        mine = group_of == code
        total = int(sums_sorted[mine].sum())
        ranks = [int(sums_sorted[mine & (rank == r)].sum()) for r in range(3)]
        stats[names[code]] = (total, int(np.unique(gq_sorted[mine]).size), ranks)
    out = []
    for group, (total, n_questions, ranks) in _ordered(stats):
        out.append({"group": group, "errors": total, "questions": n_questions,
                    "top_share": accuracy(ranks[0], total), "second_share": accuracy(ranks[1], total),
                    "third_share": accuracy(ranks[2], total)})
    return pd.DataFrame(out, columns=columns)


# ------------------------------------------------------------------------- agreement


def pairwise_agreement(rows: Iterable[Mapping] | pd.DataFrame) -> dict[str, float | int | None]:
    """Agreement of verdicts between participants who answered the same item.

    ``rows``: one per item (question × mode) with ``n`` human answers of which
    ``correct`` were judged correct. Over all pairs of participants on the same
    item, ``agreement`` is the share of pairs with the same verdict (both right or
    both wrong): item-wise ``C(k,2) + C(n−k,2)`` agreeing pairs out of ``C(n,2)``.
    ``kappa`` corrects for chance with the pooled correct rate ``p`` over those
    pairs: ``(agreement − (p² + (1−p)²)) / (1 − (p² + (1−p)²))`` (Fleiss-style).
    """
    frame = _frame(rows, ["n", "correct"])
    frame = frame[frame["n"] >= 2]
    pairs = agree = 0
    right_in_pairs = answers = 0
    for n, k in zip(frame["n"].astype(int), frame["correct"].astype(int), strict=True):
        pairs += n * (n - 1) // 2
        agree += k * (k - 1) // 2 + (n - k) * (n - k - 1) // 2
        right_in_pairs += k
        answers += n
    agreement = accuracy(agree, pairs)
    kappa = None
    if agreement is not None and answers:
        p = right_in_pairs / answers
        expected = p * p + (1 - p) * (1 - p)
        kappa = (agreement - expected) / (1 - expected) if expected < 1 else None
    return {"items": len(frame), "pairs": pairs, "agreeing_pairs": agree,
            "agreement": agreement, "kappa": kappa}


def agreement_table(all_rows: pd.DataFrame, top_rows: pd.DataFrame) -> pd.DataFrame:
    """Pairwise agreement for all participants and for the topline, one row each."""
    out = []
    for group, rows in (("all participants", all_rows), ("top participants", top_rows)):
        out.append({"group": group, **pairwise_agreement(rows)})
    return pd.DataFrame(out, columns=["group", "items", "pairs", "agreeing_pairs", "agreement", "kappa"])


def no_human_correct(rows: Iterable[Mapping] | pd.DataFrame) -> pd.DataFrame:
    """Questions that humans answered (any mode) but never correctly.

    ``rows``: per ``question_id`` (+ ``external_id``, ``prompt``) and mode, human
    ``n`` and ``correct``. Returns ``external_id``, ``prompt``, ``human_n``.
    """
    frame = _frame(rows, ["question_id", "external_id", "prompt", "n", "correct"])
    if frame.empty:
        return pd.DataFrame(columns=["external_id", "prompt", "human_n"])
    per_q = frame.groupby(["question_id", "external_id", "prompt"], as_index=False)[["n", "correct"]].sum()
    per_q = per_q[(per_q["n"] > 0) & (per_q["correct"] == 0)]
    per_q = per_q.rename(columns={"n": "human_n"}).sort_values("external_id")
    return per_q[["external_id", "prompt", "human_n"]].reset_index(drop=True)


def landis_koch(kappa: float | None) -> str:
    """Landis & Koch (1977) label of a kappa (annotation's implementation); "" when undefined."""
    if kappa is None or (isinstance(kappa, float) and math.isnan(kappa)):
        return ""
    from annotation.agreement import landis_koch as _label

    return _label(float(kappa))
