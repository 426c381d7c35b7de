"""Audita's tables from Earshot's data (pure pandas, no Django).

* :func:`bank_composition` — questions, % of the bank, mean clip duration and mean
  question length per source and/or category (Audita Tables 1, 5 and 6);
* :func:`failure_modes` — each (model, question) classified from its outcomes in the
  audio, transcript and text-only conditions (App. J.2), counted per model;
* :func:`best_per_category` — the best human and the best model in every category;
* :func:`clue_curves` — accuracy after each clue of the pyramidal questions, for
  humans and models.

Every accuracy comes with its Wilson interval and the ``n`` behind it
(:mod:`frontend.seed_stats`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .seed_stats import with_wilson

ALL = "All"

#: Which responder conditions play which role in the failure-mode analysis.
CONDITION_ROLES: dict[str, tuple[str, ...]] = {
    "audio": ("audio+text", "audio", "default"),
    "transcript": ("transcript-only", "transcript", "transcript+text"),
    "text": ("text-only", "text"),
}

#: The failure modes, in the order the table shows them.
FAILURE_MODES = ("solved", "perceptual", "audio-cue", "knowledge", "undetermined")


def _words(text: str) -> int:
    return len(str(text or "").split())


def bank_composition(questions: pd.DataFrame, by: Sequence[str] = ("source",)) -> pd.DataFrame:
    """Bank composition per group (Audita Tables 1, 5, 6).

    ``questions``: one row per question with ``question_id``, ``prompt``,
    ``duration_s`` (total audio of the question), ``n_clips`` and the ``by`` columns.
    Columns out: the ``by`` keys, ``questions``, ``share_of_bank`` (0-1),
    ``clips``, ``mean_clip_duration_s`` (audio seconds / clips), ``mean_question_words``
    and ``mean_question_chars``; a last row ``All`` sums the bank.
    """
    keys = list(by)
    cols = ["questions", "share_of_bank", "clips", "mean_clip_duration_s",
            "mean_question_words", "mean_question_chars"]
    if questions.empty:
        return pd.DataFrame(columns=[*keys, *cols])
    q = questions.assign(
        _words=[_words(p) for p in questions["prompt"]],
        _chars=[len(str(p or "")) for p in questions["prompt"]],
        _dur=questions["duration_s"].astype(float),
        _clips=questions["n_clips"].astype(float),
    )
    total = len(q)

    def summarise(frame: pd.DataFrame) -> dict:
        clips = float(frame["_clips"].sum())
        return {
            "questions": len(frame),
            "share_of_bank": len(frame) / total,
            "clips": int(clips),
            "mean_clip_duration_s": float(frame["_dur"].sum()) / clips if clips else math.nan,
            "mean_question_words": float(frame["_words"].mean()),
            "mean_question_chars": float(frame["_chars"].mean()),
        }

    rows = []
    for key, frame in q.groupby(keys, sort=True, dropna=False):
        values = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(keys, values, strict=True)), **summarise(frame)})
    rows.append({**dict.fromkeys(keys, ALL), **summarise(q)})
    return pd.DataFrame(rows, columns=[*keys, *cols])


def classify(audio: bool | None, transcript: bool | None, text: bool | None) -> str:
    """The failure mode of one question for one model, from its three outcomes.

    * ``solved``: right with the audio;
    * ``perceptual``: wrong with the audio, right with the transcript (the words were
      enough: the model did not perceive what was said or played);
    * ``audio-cue``: wrong with the audio and the transcript, right from the question
      text alone (what it heard led it away from an answer it knew);
    * ``knowledge``: wrong in all three (no input helped: it does not know);
    * ``undetermined``: a condition needed to decide is missing.
    """
    if audio is None:
        return "undetermined"
    if audio:
        return "solved"
    if transcript is None:
        return "undetermined"
    if transcript:
        return "perceptual"
    if text is None:
        return "undetermined"
    return "audio-cue" if text else "knowledge"


def _role_of(roles: Mapping[str, Sequence[str]]) -> dict[str, str]:
    return {cond: role for role, conds in roles.items() for cond in conds}


def failure_items(outcomes: pd.DataFrame,
                  roles: Mapping[str, Sequence[str]] = CONDITION_ROLES) -> pd.DataFrame:
    """One row per (``system``, ``question_id``): its outcome per role and its failure mode.

    ``outcomes``: ``system``, ``question_id``, ``condition``, ``correct`` (0/1; several
    answers in one condition are pooled by majority, a tie counting as wrong).
    Conditions outside ``roles`` are ignored.
    """
    role_of = _role_of(roles)
    out_cols = ["system", "question_id", "audio", "transcript", "text", "failure_mode"]
    if outcomes.empty:
        return pd.DataFrame(columns=out_cols)
    frame = outcomes.assign(role=outcomes["condition"].map(role_of)).dropna(subset=["role"])
    if frame.empty:
        return pd.DataFrame(columns=out_cols)
    agg = frame.groupby(["system", "question_id", "role"], sort=True)["correct"].mean()
    wide = (agg > 0.5).unstack("role")
    for role in ("audio", "transcript", "text"):
        if role not in wide:
            wide[role] = np.nan
    wide = wide.reset_index()

    def val(v) -> bool | None:
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else bool(v)

    wide["failure_mode"] = [classify(val(a), val(t), val(x)) for a, t, x in
                            zip(wide["audio"], wide["transcript"], wide["text"], strict=True)]
    for role in ("audio", "transcript", "text"):
        wide[role] = [val(v) for v in wide[role]]
    return wide[out_cols]


def failure_modes(outcomes: pd.DataFrame,
                  roles: Mapping[str, Sequence[str]] = CONDITION_ROLES) -> pd.DataFrame:
    """Failure modes counted per model system and over all models (App. J.2).

    Columns: ``system``, ``failure_mode``, ``n`` (questions of that model),
    ``correct`` (questions in this mode), ``accuracy`` (the share), its Wilson
    ``ci_low``/``ci_high`` and ``interval``.
    """
    items = failure_items(outcomes, roles)
    cols = ["system", "failure_mode", "n", "correct"]
    if items.empty:
        return with_wilson(pd.DataFrame(columns=cols))
    rows = []
    for system, frame in [*items.groupby("system", sort=True), (ALL, items)]:
        counts = frame["failure_mode"].value_counts()
        for mode in FAILURE_MODES:
            rows.append({"system": system, "failure_mode": mode, "n": len(frame),
                         "correct": int(counts.get(mode, 0))})
    return with_wilson(pd.DataFrame(rows, columns=cols)).rename(columns={"correct": "questions"})


def best_per_category(per_responder: pd.DataFrame, *, min_answers: int = 1,
                      rank_by: str = "wilson_low") -> pd.DataFrame:
    """The best human and the best model of every category, with Wilson intervals.

    ``per_responder``: ``category``, ``kind``, ``responder_id``, ``label``, ``n``,
    ``correct``. Only responders with at least ``min_answers`` answers in the category
    compete. ``rank_by="wilson_low"`` (default) ranks by the lower end of the Wilson
    interval, so one lucky answer (1/1) does not beat 9/10; ``"accuracy"`` ranks by the
    share. Ties go to more answers, then the lower responder id. ``candidates`` says
    how many competed; ``ranked_by`` how the winner was chosen.
    """
    if rank_by not in ("wilson_low", "accuracy"):
        raise ValueError(f"rank_by must be 'wilson_low' or 'accuracy', got {rank_by!r}")
    cols = ["category", "kind", "label", "responder_id", "n", "correct", "candidates"]
    if per_responder.empty:
        return with_wilson(pd.DataFrame(columns=cols))
    frame = per_responder.groupby(["category", "kind", "responder_id", "label"], as_index=False)[
        ["n", "correct"]].sum()
    frame = frame[frame["n"] >= min_answers]
    frame = with_wilson(frame)
    key = "ci_low" if rank_by == "wilson_low" else "accuracy"
    rows = []
    for (category, kind), group in frame.groupby(["category", "kind"], sort=True):
        top = group.sort_values([key, "n", "responder_id"], ascending=[False, False, True]).iloc[0]
        rows.append({"category": category, "kind": kind, "label": top["label"],
                     "responder_id": int(top["responder_id"]), "n": int(top["n"]),
                     "correct": int(top["correct"]), "candidates": len(group)})
    return with_wilson(pd.DataFrame(rows, columns=cols)).assign(ranked_by=rank_by)


def clue_outcomes(rows: pd.DataFrame) -> pd.DataFrame:
    """Expand answers to one outcome per clue: ``kind``, ``label``, ``responder_id``,
    ``question_id``, ``clue`` (1-based), ``correct``.

    ``rows``: ``kind``, ``label``, ``responder_id``, ``question_id``, ``clue_index``
    (0-based; missing: after the last clue), ``n_clues``, ``correct`` and ``per_clue``.
    A *per-clue* answer (a model given the first ``clue_index + 1`` clues) is one
    outcome at its clue. A *buzz* (a player who answered once, after the server had
    revealed ``clue_index + 1`` clues) is right at every clue from that one on when it
    was right, and wrong at every clue otherwise: before the buzz they had not
    answered, and a wrong buzz ends the question.
    """
    out: list[tuple] = []
    for r in rows.itertuples(index=False):
        n_clues = int(r.n_clues)
        ci = r.clue_index
        at = n_clues if ci is None or (isinstance(ci, float) and math.isnan(ci)) else int(ci) + 1
        at = min(max(at, 1), n_clues)
        if r.per_clue:
            out.append((r.kind, r.label, r.responder_id, r.question_id, at, int(bool(r.correct))))
        else:
            for k in range(1, n_clues + 1):
                out.append((r.kind, r.label, r.responder_id, r.question_id, k,
                            int(bool(r.correct) and at <= k)))
    return pd.DataFrame(out, columns=["kind", "label", "responder_id", "question_id", "clue", "correct"])


def clue_curves(rows: pd.DataFrame, by: Sequence[str] = ("kind",)) -> pd.DataFrame:
    """Accuracy after each clue of the pyramidal questions, per ``by`` (humans and models).

    Columns: the ``by`` keys, ``clue`` (1-based), ``n`` (answers counted at that clue),
    ``correct``, ``accuracy`` with its Wilson interval. See :func:`clue_outcomes`.
    """
    keys = [*by, "clue"]
    if rows.empty:
        return with_wilson(pd.DataFrame(columns=[*keys, "n", "correct"]))
    long = clue_outcomes(rows)
    table = long.groupby(keys, as_index=False, sort=True).agg(n=("correct", "size"),
                                                               correct=("correct", "sum"))
    return with_wilson(table)
