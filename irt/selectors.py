"""Reads for IRT: the response matrix a fit is built from, stored fits and their reports.

Everything here is read-only. The pure core (:mod:`irt.fit`, :mod:`irt.report`,
:mod:`irt.plots`) does the statistics; these functions only load rows (one query
per table, ``values_list``, no N+1) and hand plain arrays/DataFrames over.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from django.db.models import QuerySet

from accounts.models import Project
from irt import report
from irt.ids import IndexMap
from irt.models import Fit, FitStatus
from irt.result import IrtResult
from judging.selectors import effective_verdicts
from quiz.models import Question, Responder, Response

HUMAN, MODEL = "human", "model"


# --------------------------------------------------------------------------- matrix


@dataclass(frozen=True)
class ResponseMatrix:
    """Long-format responses ready for :func:`irt.fit.fit`.

    ``subjects``/``items`` index into ``subject_map``/``item_map`` (responder and
    question primary keys, ascending); ``correct`` is 0/1; rows are sorted by
    (responder, question). ``kinds[k]`` is ``"human"`` or ``"model"`` for subject k.
    """

    subjects: np.ndarray
    items: np.ndarray
    correct: np.ndarray
    subject_map: IndexMap
    item_map: IndexMap
    kinds: tuple[str, ...]
    rule_versions: tuple[str, ...] = field(default_factory=tuple)
    verdict_sources: dict[str, int] = field(default_factory=dict)

    @property
    def n_obs(self) -> int:
        return int(self.correct.shape[0])

    @property
    def responder_ids(self) -> np.ndarray:
        return np.asarray(self.subject_map.ids, dtype=np.int64)[self.subjects]

    @property
    def question_ids(self) -> np.ndarray:
        return np.asarray(self.item_map.ids, dtype=np.int64)[self.items]

    @property
    def data_hash(self) -> str:
        """SHA-256 of the sorted (responder_id, question_id, correct) triples."""
        return triples_hash(self.responder_ids, self.question_ids, self.correct)

    def groups(self) -> np.ndarray | None:
        """Population of each subject for the fit: 0 = humans (anchor), 1 = models.

        ``None`` when only one kind answered (one population, nothing to separate).
        """
        g = np.asarray([0 if k == HUMAN else 1 for k in self.kinds], dtype=np.int64)
        if g.size == 0 or g.min() == g.max():
            return None
        return g


def triples_hash(responder_ids: np.ndarray, question_ids: np.ndarray, correct: np.ndarray) -> str:
    """SHA-256 over the (responder_id, question_id, correct) triples sorted by
    (responder, question), each row three little-endian int64 (order-independent of
    the query, so the same data always gives the same hash)."""
    r = np.asarray(responder_ids, dtype="<i8")
    q = np.asarray(question_ids, dtype="<i8")
    c = np.asarray(correct, dtype="<i8")
    order = np.lexsort((q, r))
    rows = np.stack([r[order], q[order], c[order]], axis=1)
    return hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest()


def _effective_correct_rows(
    project: Project, mode: str, *, source: str | None = None, category: str | None = None
) -> Iterable[tuple[int, int, bool, str, str, str]]:
    """``(responder_id, question_id, correct, rule_version, responder_kind, verdict_source)``
    per response.

    The one place that decides which verdict counts: the *effective* verdict of
    :func:`judging.selectors.effective_verdicts` (latest human judgement > LLM verdict
    on the same answer > the rule engine's verdict). One query.
    """
    # Independent answers only: the MCQ second stage of a free-then-MCQ study is not one.
    qs = Response.objects.filter(project=project, mode=mode, question__is_active=True, stage=1)
    if source:
        qs = qs.filter(question__source=source)
    if category:
        qs = qs.filter(question__category__slug=category)
    return effective_verdicts(queryset=qs).values_list(
        "responder_id", "question_id", "effective_correct", "rule_version", "responder__kind",
        "verdict_source",
    )


def response_matrix(
    project: Project, mode: str, source: str | None = None, category: str | None = None
) -> ResponseMatrix:
    """All stored responses of a project in one mode (humans and models together).

    ``source`` filters on ``Question.source``; ``category`` on the category slug.
    Uses the effective verdict, human adjudication first (see
    :func:`_effective_correct_rows`).
    """
    rows = list(_effective_correct_rows(project, mode, source=source, category=category))
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return ResponseMatrix(empty, empty, empty.astype(np.int8), IndexMap(()), IndexMap(()), ())
    resp = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    ques = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
    corr = np.fromiter((bool(r[2]) for r in rows), dtype=np.int8, count=len(rows))
    kind_of = {r[0]: r[4] for r in rows}
    versions = tuple(sorted({r[3] for r in rows}))
    sources: dict[str, int] = {}
    for r in rows:
        sources[r[5]] = sources.get(r[5], 0) + 1
    order = np.lexsort((ques, resp))
    resp, ques, corr = resp[order], ques[order], corr[order]
    r_ids, subjects = np.unique(resp, return_inverse=True)
    q_ids, items = np.unique(ques, return_inverse=True)
    subject_map = IndexMap(tuple(int(x) for x in r_ids))
    return ResponseMatrix(
        subjects=subjects.astype(np.int64),
        items=items.astype(np.int64),
        correct=corr,
        subject_map=subject_map,
        item_map=IndexMap(tuple(int(x) for x in q_ids)),
        kinds=tuple(kind_of[i] for i in subject_map.ids),
        rule_versions=versions,
        verdict_sources=dict(sorted(sources.items())),
    )


def snapshot_dump(matrix: ResponseMatrix) -> bytes:
    """The fitted triples as a compressed ``.npz`` (stored on the fit)."""
    buf = io.BytesIO()
    np.savez_compressed(
        buf, responder_id=matrix.responder_ids, question_id=matrix.question_ids,
        correct=matrix.correct.astype(np.int8),
    )
    return buf.getvalue()


def snapshot_load(data: bytes | memoryview) -> pd.DataFrame:
    """``responder_id, item_id, correct`` rows from :func:`snapshot_dump` bytes."""
    with np.load(io.BytesIO(bytes(data))) as z:
        return pd.DataFrame({
            "responder_id": z["responder_id"].astype(np.int64),
            "item_id": z["question_id"].astype(np.int64),
            "correct": z["correct"].astype(np.int64),
        })


# --------------------------------------------------------------------------- fits


def fit_list(project: Project) -> QuerySet[Fit]:
    """The project's fits, newest first, without the heavy result/snapshot columns."""
    return (
        Fit.objects.filter(project=project)
        .defer("result", "snapshot")
        .select_related("created_by")
    )


def fit_get(project: Project, fit_id: int) -> Fit | None:
    """One fit of the project, or ``None`` (never another project's)."""
    return Fit.objects.filter(project=project, pk=fit_id).first()


def fit_status(fit: Fit) -> dict[str, Any]:
    """The JSON the list page polls: status, progress, message, timings, error."""
    return {
        "id": fit.pk,
        "status": fit.status,
        "progress": round(float(fit.progress), 4),
        "progress_message": fit.progress_message,
        "mode": fit.mode,
        "model": fit.model,
        "method": fit.method,
        "n_responders": fit.n_responders,
        "n_items": fit.n_items,
        "n_responses": fit.n_responses,
        "created_at": fit.created_at.isoformat() if fit.created_at else None,
        "started_at": fit.started_at.isoformat() if fit.started_at else None,
        "finished_at": fit.finished_at.isoformat() if fit.finished_at else None,
        "duration_s": fit.duration_s,
        "error": fit.error,
    }


def fit_sources_and_categories(project: Project) -> tuple[list[str], list[tuple[str, str]]]:
    """Filter choices for the start form: question sources and (slug, name) categories."""
    sources = sorted(
        s for s in Question.objects.filter(project=project).exclude(source="")
        .values_list("source", flat=True).distinct() if s
    )
    cats = list(project.categories.values_list("slug", "name"))
    return sources, cats


# --------------------------------------------------------------------------- reports


@dataclass(frozen=True)
class FitData:
    """A stored fit read back: the result, its id maps and the plain input frames."""

    result: IrtResult
    subject_map: IndexMap
    item_map: IndexMap
    responders: pd.DataFrame
    items: pd.DataFrame
    responses: pd.DataFrame


def fit_data(fit: Fit) -> FitData:
    """Rebuild what :mod:`irt.report` needs from a succeeded fit (three queries).

    Responders carry only their pseudonymous ``label`` (never a user's name or
    e-mail); items carry the question text and answer (researchers only).
    """
    if fit.status != FitStatus.SUCCEEDED or not fit.result:
        raise ValueError(f"fit #{fit.pk} has no result (status {fit.status})")
    result = IrtResult.from_dict(fit.result["irt"])
    subject_map = IndexMap(tuple(fit.result["responder_ids"]))
    item_map = IndexMap(tuple(fit.result["question_ids"]))
    responders = pd.DataFrame(
        list(Responder.objects.filter(pk__in=subject_map.ids).values_list("id", "kind", "label", "condition")),
        columns=["responder_id", "kind", "name", "condition"],
    )
    qrows = list(
        Question.objects.filter(pk__in=item_map.ids).values_list(
            "id", "external_id", "prompt", "answerline", "category__name", "source", "choices", "correct_choice"
        )
    )
    items = pd.DataFrame(
        [
            {
                "item_id": q[0], "external_id": q[1], "question": q[2], "answer": q[3],
                "category": q[4], "source": q[5] or "(none)",
                "correct_choice": _choice_text(q[6], q[7]),
            }
            for q in qrows
        ],
        columns=["item_id", "external_id", "question", "answer", "category", "source", "correct_choice"],
    )
    responses = snapshot_load(fit.snapshot) if fit.snapshot else pd.DataFrame(
        columns=["responder_id", "item_id", "correct"]
    )
    return FitData(result, subject_map, item_map, responders, items, responses)


def _choice_text(choices: Any, correct: int | None) -> str:
    if correct is None or not isinstance(choices, list) or not 0 <= correct < len(choices):
        return ""
    choice = choices[correct]
    return str(choice.get("text", "")) if isinstance(choice, dict) else str(choice)


#: report tables, in page order: key -> (title, Audita reference)
REPORT_TABLES: dict[str, tuple[str, str]] = {
    "humans_vs_models": ("Humans vs models", "Audita Table 2"),
    "ranking": ("Model systems and the human population", "Audita Table 3"),
    "by_source": ("By source dataset and responder kind", "Audita Table 10"),
    "by_kind": ("By responder kind and condition", "Audita Table 10"),
    "top_items": ("Most discriminating items", "Audita Table 14"),
    "bottom_items": ("Least discriminating items", "Audita Table 14"),
    "flags": ("Uninformative items", ""),
    "categories": ("Category accuracy and mean difficulty", "Audita Figure 2"),
    "model_comparison": ("Model comparison: 1PL-4PL by marginal likelihood", ""),
    "asymptotes": ("Guessing and feasibility per item (3PL/4PL)", ""),
    "responders": ("Every responder", ""),
    "items": ("Every item", ""),
    "test_information": ("Test information", ""),
}


def by_kind_and_condition(data: FitData) -> pd.DataFrame:
    """Per responder kind and condition: responders, responses, accuracy, mean/SD θ."""
    rt = report.responder_table(data.result, data.subject_map, data.responders, data.responses)
    rt["condition"] = rt["condition"].fillna("").replace("", "—")
    rows = []
    for (kind, cond), grp in rt.groupby(["kind", "condition"], sort=True):
        n_resp = int(grp["n_answered"].sum())
        acc = float((grp["accuracy"] * grp["n_answered"]).sum() / n_resp) if n_resp else np.nan
        rows.append({
            "kind": kind, "condition": cond, "n_responders": len(grp), "n_responses": n_resp,
            "accuracy": acc, "mean_theta": float(grp["theta"].mean()),
            "sd_theta": float(grp["theta"].std(ddof=1)) if len(grp) > 1 else np.nan,
        })
    return pd.DataFrame(rows)


def fit_report(fit: Fit, *, n_items: int = 10) -> dict[str, pd.DataFrame]:
    """Every report table of a succeeded fit, keyed as in :data:`REPORT_TABLES`."""
    d = fit_data(fit)
    r, sm, im = d.result, d.subject_map, d.item_map
    hvm = report.humans_vs_models(r, sm, d.responders, d.responses)
    hvm.insert(0, "mode", fit.mode)
    top, bottom = report.discriminating_items(r, im, d.items, n=n_items)
    info = report.test_information(r)
    return {
        "humans_vs_models": hvm,
        "ranking": report.ranking(r, sm, d.responders, d.responses),
        "by_source": report.by_source_and_kind(r, im, d.items, d.responders, d.responses),
        "by_kind": by_kind_and_condition(d),
        "top_items": top,
        "bottom_items": bottom,
        "flags": report.item_flags(r, im, d.items, d.responders, d.responses),
        "categories": report.category_difficulty(r, im, d.items, d.responders, d.responses),
        "responders": report.responder_table(r, sm, d.responders, d.responses),
        "items": report.item_table(r, im, d.items),
        "test_information": info,
        "model_comparison": model_comparison_table(fit),
        "asymptotes": asymptotes_table(fit, d),
    }


COMPARISON_COLUMNS = ["model", "log_lik", "n_params", "aic", "bic", "delta_aic", "delta_bic", "converged"]


def model_comparison_table(fit: Fit) -> pd.DataFrame:
    """The fit's 1PL-4PL comparison (log-likelihood, AIC, BIC and their distance to
    the best), as computed by the worker; no rows when it was skipped."""
    stored = (fit.result or {}).get("model_comparison") or {}
    return pd.DataFrame(stored.get("rows") or [], columns=COMPARISON_COLUMNS)


def asymptotes_table(fit: Fit, data: FitData) -> pd.DataFrame:
    """Per item: the 3PL's guessing c and the 4PL's guessing c and feasibility d."""
    stored = ((fit.result or {}).get("model_comparison") or {}).get("items") or {}
    cols = ["item_id", "external_id", "question", "c_3pl", "c_4pl", "d_4pl"]
    if not stored:
        return pd.DataFrame(columns=cols)
    df = pd.DataFrame({
        "item_id": list(data.item_map.ids),
        "c_3pl": stored.get("3pl", {}).get("c"), "c_4pl": stored.get("4pl", {}).get("c"),
        "d_4pl": stored.get("4pl", {}).get("d"),
    })
    df = df.merge(data.items[["item_id", "external_id", "question"]], on="item_id", how="left")
    return df[cols].sort_values("d_4pl", kind="mergesort").reset_index(drop=True)


def latest_fits_by_mode(project: Project, model: str | None = None) -> dict[str, Fit]:
    """The newest succeeded fit per mode (for the free-form vs MCQ Table 2)."""
    out: dict[str, Fit] = {}
    qs = Fit.objects.filter(project=project, status=FitStatus.SUCCEEDED)
    if model:
        qs = qs.filter(model=model)
    for fit in qs.order_by("-finished_at", "-id"):
        out.setdefault(fit.mode, fit)
    return out


def humans_vs_models_by_mode(project: Project) -> pd.DataFrame:
    """Audita Table 2 across modes: the newest succeeded fit of each mode, stacked."""
    frames = []
    for mode, fit in sorted(latest_fits_by_mode(project).items()):
        d = fit_data(fit)
        t = report.humans_vs_models(d.result, d.subject_map, d.responders, d.responses)
        t.insert(0, "fit", fit.pk)
        t.insert(0, "mode", mode)
        frames.append(t)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def fit_filters(fit: Fit) -> dict[str, str]:
    """The data filters a fit was run with: ``category`` (slug) and ``source``; ``""`` = all.

    Fits have no model-condition filter: every fit covers every condition.
    """
    options = fit.options or {}
    return {"category": str(options.get("category") or ""), "source": str(options.get("source") or "")}


def fit_matching(project: Project, mode: str, *, category: str = "", source: str = "") -> Fit | None:
    """The newest succeeded fit over ``mode`` responses run with exactly these filters.

    Why: a θ shown beside an accuracy must come from the same responses, so a view
    filtered to one category may use only a fit over that category (never the
    project's newest fit of whatever mode or filter). "Newest" is the latest to
    finish. Without the heavy result/snapshot columns; a project has few fits, so
    the filters (stored in ``options``) are compared here rather than by JSON
    lookups that differ between databases.
    """
    wanted = {"category": category or "", "source": source or ""}
    qs = (
        Fit.objects.filter(project=project, status=FitStatus.SUCCEEDED, mode=mode)
        .defer("result", "snapshot").order_by("-finished_at", "-id")
    )
    return next((fit for fit in qs if fit_filters(fit) == wanted), None)


def fit_abilities_map(fit: Fit) -> dict[int, float]:
    """Responder id → θ in one fit."""
    return dict(fit.abilities.values_list("responder_id", "theta"))
