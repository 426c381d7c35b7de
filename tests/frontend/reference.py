"""Reference implementation of the dashboard: one ORM ``GROUP BY`` per table.

This is how the dashboard was computed before the tallies and the one-pass scan
(straightforward, slow on a million responses): every aggregate groups
``responses_filtered`` -- effective verdicts through ``with_verdict`` -- with
``values().annotate(Count(...))``. The tests check that the fast path gives
exactly these numbers on random data, under every filter and with overrides.
"""

from __future__ import annotations

import pandas as pd
from django.db.models import Case, CharField, Count, F, Q, QuerySet, Value, When

from accounts.models import Project
from frontend import dashboard as core
from frontend import diagnostics
from frontend.dashboard import Filters
from frontend.selectors import (
    TABLES,
    DashboardData,
    project_counts,
    responses_filtered,
    theta_fits,
    uses_overrides,
)
from quiz.models import Category, Question, Responder


def _counted(qs: QuerySet, *fields: str) -> pd.DataFrame:
    """``GROUP BY fields`` with ``n`` and ``correct`` counts, as a DataFrame."""
    rows = qs.values(*fields).annotate(n=Count("id"), correct=Count("id", filter=Q(verdict=True))).order_by()
    return pd.DataFrame.from_records(list(rows), columns=[*fields, "n", "correct"])


# ------------------------------------------------------------------------ aggregates


def cube(project: Project, filters: Filters) -> pd.DataFrame:
    """Counts by kind, condition, category, source, mode, pyramidal and clue index.

    A few hundred rows at most; every breakdown is a sum over them.
    """
    frame = _counted(
        responses_filtered(project, filters),
        "responder__kind", "responder__condition", "question__category_id", "question__source",
        "mode", "question__pyramidal", "clue_index",
    )
    frame = frame.rename(columns={
        "responder__kind": "kind", "responder__condition": "condition",
        "question__category_id": "category_id", "question__source": "source",
        "question__pyramidal": "pyramidal",
    })
    categories = {c.pk: (c.slug, c.name) for c in Category.objects.filter(project=project)}
    frame["category"] = [categories.get(cid, ("", ""))[0] for cid in frame["category_id"]]
    frame["category_name"] = [categories.get(cid, ("", ""))[1] for cid in frame["category_id"]]
    frame["source"] = frame["source"].fillna("").replace("", "(none)")
    return core.qtype_rows(frame)


def per_responder(project: Project, filters: Filters) -> pd.DataFrame:
    """Counts per responder and mode, with kind and pseudonymous label."""
    frame = _counted(responses_filtered(project, filters), "responder_id", "mode")
    ids = frame["responder_id"].unique().tolist()
    people = Responder.objects.filter(project=project)
    if len(ids) <= 500:  # a long IN list costs more than reading the project's responders
        people = people.filter(pk__in=ids)
    info = {r["id"]: (r["kind"], r["label"]) for r in people.values("id", "kind", "label")}
    frame["kind"] = [info.get(i, ("", ""))[0] for i in frame["responder_id"]]
    frame["label"] = [info.get(i, ("", ""))[1] for i in frame["responder_id"]]
    return frame


def human_items(project: Project, filters: Filters, responder_ids: tuple[int, ...] | None = None) -> pd.DataFrame:
    """Human answers per item (question × mode): ``n`` and ``correct``."""
    qs = responses_filtered(project, filters).filter(responder__kind=core.HUMAN)
    if responder_ids is not None:
        qs = qs.filter(responder_id__in=responder_ids)
    return _counted(qs, "question_id", "mode")


def _mcq_group() -> Case:
    return Case(
        When(responder__kind=core.HUMAN, then=Value("humans")),
        default=F("responder__label"),
        output_field=CharField(),
    )


def mcq_position_rows(project: Project, filters: Filters) -> pd.DataFrame:
    """MCQ answers counted by group (humans / model label), chosen position and verdict."""
    qs = responses_filtered(project, filters).filter(mode="mcq").annotate(group=_mcq_group())
    rows = qs.values("group", "responder__kind", "choice_position", "verdict").annotate(n=Count("id")).order_by()
    frame = pd.DataFrame.from_records(list(rows), columns=["group", "responder__kind", "choice_position", "verdict", "n"])
    return frame.rename(columns={"responder__kind": "kind", "verdict": "correct"})


def mcq_distractor_rows(project: Project, filters: Filters) -> pd.DataFrame:
    """Wrong MCQ answers counted by group, question and chosen option."""
    qs = responses_filtered(project, filters).filter(mode="mcq", verdict=False).annotate(group=_mcq_group())
    rows = qs.values("group", "responder__kind", "question_id", "choice").annotate(n=Count("id")).order_by()
    frame = pd.DataFrame.from_records(list(rows), columns=["group", "responder__kind", "question_id", "choice", "n"])
    return frame.rename(columns={"responder__kind": "kind"})


def dashboard_compute(project: Project, filters: Filters, *, only: set[str] | None = None) -> DashboardData:
    """The dashboard as it was computed before the tallies: one ORM GROUP BY per table."""
    want = set(TABLES) if only is None else set(only)
    # Decide once per dashboard whether overrides must be looked up (see with_verdict).
    project._earshot_overrides = uses_overrides(project)
    per_resp = per_responder(project, filters)
    counts = project_counts(project, filters, per_resp)
    head = core.headline(per_resp, counts=counts)
    tables: dict[str, pd.DataFrame] = {}
    if "headline" in want:
        tables["headline"] = core.headline_table(head)
    if want & {"category", "source", "qtype", "condition"}:
        c = cube(project, filters)
        if "category" in want:
            tables["category"] = core.breakdown(c, index="category", label="category_name")
        if "source" in want:
            tables["source"] = core.breakdown(c, index="source")
        if "qtype" in want:
            tables["qtype"] = core.breakdown(c, index="qtype")
        if "condition" in want:
            tables["condition"] = core.condition_table(c)
    theta = theta_fits(project, filters) if "models" in want else {}
    if "models" in want:
        tables["models"] = core.model_ranking(per_resp, theta)
    if "mcq_positions" in want:
        tables["mcq_positions"] = diagnostics.mcq_positions(mcq_position_rows(project, filters))
    if "mcq_distractors" in want:
        tables["mcq_distractors"] = mcq_distractors_loop(mcq_distractor_rows(project, filters))
    if want & {"agreement", "unsolved"}:
        items = human_items(project, filters)
        if "agreement" in want:
            top = human_items(project, filters, head.topline.responder_ids)
            tables["agreement"] = diagnostics.agreement_table(items, top)
        if "unsolved" in want:
            unsolved_ids = (
                items.groupby("question_id")[["n", "correct"]].sum().query("n > 0 and correct == 0").index.tolist()
                if not items.empty else []
            )
            info = {
                q["id"]: q for q in Question.objects.filter(pk__in=unsolved_ids).values("id", "external_id", "prompt")
            }
            rows = items[items["question_id"].isin(unsolved_ids)].assign(
                external_id=lambda f: f["question_id"].map(lambda i: info[i]["external_id"]),
                prompt=lambda f: f["question_id"].map(lambda i: info[i]["prompt"]),
            ) if unsolved_ids else items.iloc[0:0]
            tables["unsolved"] = diagnostics.no_human_correct(rows)
    return DashboardData(filters=filters, head=head, tables=tables, theta=theta)


def mcq_distractors_loop(rows: pd.DataFrame) -> pd.DataFrame:
    """``diagnostics.mcq_distractors`` as a plain loop over the rows (its former implementation)."""
    frame = core._frame(rows, ["group", "kind", "question_id", "choice", "n"])
    counts: dict[str, dict] = {}
    for group, kind, qid, choice, n in zip(frame["group"], frame["kind"], frame["question_id"], frame["choice"],
                                           frame["n"], strict=True):
        for g in diagnostics._pooled_groups(group, kind):
            per_q = counts.setdefault(g, {}).setdefault(qid, {})
            per_q[choice] = per_q.get(choice, 0) + int(n)
    out = []
    for group, per_q in diagnostics._ordered(counts):
        ranks = [0, 0, 0]
        for choices in per_q.values():
            for rank, value in enumerate(sorted(choices.values(), reverse=True)[:3]):
                ranks[rank] += value
        errors = sum(sum(c.values()) for c in per_q.values())
        out.append({"group": group, "errors": errors, "questions": len(per_q),
                    "top_share": core.accuracy(ranks[0], errors), "second_share": core.accuracy(ranks[1], errors),
                    "third_share": core.accuracy(ranks[2], errors)})
    return pd.DataFrame(out, columns=["group", "errors", "questions", "top_share", "second_share", "third_share"])
