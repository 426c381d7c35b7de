"""Reads for the researcher workspace: filtered responses and database aggregates.

Every dashboard number starts here as a ``GROUP BY`` in the database
(``values().annotate(Count(...))``), never as a Python loop over responses; the
few hundred count rows that come back are turned into tables by the pure
functions of :mod:`frontend.dashboard`.

Other apps are read through small adapters at the bottom of this module
(``with_verdict``, ``theta_fits``, ``adjudication_trail``, ...):
each degrades to "not available" while that app's side is not there, so the
dashboard works on the quiz alone and fills in as judging, IRT and annotation land.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import logging
from dataclasses import dataclass

import pandas as pd
from django.core.exceptions import EmptyResultSet
from django.db import DatabaseError, connection, transaction
from django.db.models import BigIntegerField, Case, Count, F, Q, QuerySet, Value, When

from accounts.models import Project
from quiz.models import Category, ModelSystem, Question, Responder, Response

from . import dashboard as core
from . import diagnostics
from .dashboard import Filters
from .provenance import ThetaFit

log = logging.getLogger(__name__)

RESPONSE_PARAMS = ("kind", "responder", "question", "correct", "qtype", "position", "group")


@dataclass(frozen=True)
class ResponseFilters:
    """Filters of the responses list: the dashboard filters plus what a cell narrows to."""

    base: Filters
    kind: str = ""
    responder: int | None = None
    question: str = ""
    correct: bool | None = None
    qtype: str = ""
    position: int | None = None
    group: str = ""  # MCQ diagnostics group: "humans", "all models" or a model label

    @classmethod
    def from_query(cls, params) -> ResponseFilters:
        """Parse GET parameters; malformed numbers are ignored rather than failing."""

        def _int(key: str) -> int | None:
            try:
                return int(params.get(key, ""))
            except (TypeError, ValueError):
                return None

        correct = params.get("correct", "")
        kind = params.get("kind", "")
        return cls(
            base=Filters.from_query(params),
            kind=kind if kind in (core.HUMAN, core.MODEL) else "",
            responder=_int("responder"),
            question=str(params.get("question", ""))[:120],
            correct={"1": True, "0": False}.get(correct),
            qtype=str(params.get("qtype", ""))[:40],
            position=_int("position"),
            group=str(params.get("group", ""))[:200],
        )

    def as_query(self) -> dict[str, str]:
        """Non-empty parameters, for pagination links."""
        query = self.base.as_query()
        for key in RESPONSE_PARAMS:
            value = getattr(self, key)
            if value is None or value == "":
                continue
            query[key] = ("1" if value else "0") if isinstance(value, bool) else str(value)
        return query


# ----------------------------------------------------------------------------- base


def responses_filtered(project: Project, filters: Filters) -> QuerySet[Response]:
    """The project's responses under the dashboard filters, with ``verdict`` annotated.

    ``verdict`` is the *effective* correctness (a human override wins when judging
    has one); every aggregate counts ``verdict=True``.
    """
    return with_verdict(responses_scoped(project, filters), project)


def responses_scoped(project: Project, filters: Filters) -> QuerySet[Response]:
    """The project's responses under the dashboard filters (no verdict annotation)."""
    qs = Response.objects.filter(project=project)
    if filters.stage != "all":
        qs = qs.filter(stage=int(filters.stage or 1))
    if filters.min_listened:
        qs = qs.filter(listened_fraction__gte=float(filters.min_listened))
    if filters.mode:
        qs = qs.filter(mode=filters.mode)
    if filters.category:
        qs = qs.filter(question__category__slug=filters.category)
    if filters.source:
        qs = qs.filter(question__source=filters.source)
    if filters.condition:
        qs = qs.filter(Q(responder__kind=core.HUMAN) | Q(responder__condition=filters.condition))
    return qs


def _qtype_q(qtype: str) -> Q | None:
    if qtype == "mcq":
        return Q(mode="mcq")
    if qtype == "free":
        return Q(mode="free") & (Q(question__pyramidal=False) | Q(clue_index__isnull=True))
    if qtype.startswith("pyramidal-") and qtype[10:].isdigit():
        return Q(mode="free", question__pyramidal=True, clue_index=int(qtype[10:]) - 1)
    return None


def responses_list(project: Project, rf: ResponseFilters) -> QuerySet[Response]:
    """Responses behind a dashboard number, newest id last, ready for display."""
    qs = responses_filtered(project, rf.base)
    if rf.kind:
        qs = qs.filter(responder__kind=rf.kind)
    if rf.responder is not None:
        qs = qs.filter(responder_id=rf.responder)
    if rf.question:
        qs = qs.filter(question__external_id=rf.question)
    if rf.correct is not None:
        qs = qs.filter(verdict=rf.correct)
    if rf.qtype and (q := _qtype_q(rf.qtype)) is not None:
        qs = qs.filter(q)
    if rf.position is not None:
        qs = qs.filter(mode="mcq", choice_position=rf.position)
    if rf.group == "humans":
        qs = qs.filter(responder__kind=core.HUMAN)
    elif rf.group == "all models":
        qs = qs.filter(responder__kind=core.MODEL)
    elif rf.group and rf.group != "overall":
        qs = qs.filter(responder__kind=core.MODEL, responder__label=rf.group)
    return qs.select_related("question", "question__category", "responder").order_by("id")


# ------------------------------------------------------------------------ aggregates
#
# The dashboard reads the filtered responses once. Every table is a sum over two
# groupings of them: per responder and mode (headline, topline, model ranking),
# and per "item cell" -- (group, question, mode, clue, chosen position, chosen
# option, verdict) where the group is 0 for all humans together and the responder
# id for a model. Humans collapse into a few thousand cells whatever their number;
# models keep one cell per response (tens of thousands at most). On PostgreSQL one
# statement computes both groupings in one pass (``GROUPING SETS``); elsewhere
# (SQLite, the demo default) the same two ``GROUP BY`` run as two statements over
# the same ORM-built subquery, so the filters are defined in one place
# (:func:`responses_scoped`) for both and for the responses list.
#
# Verdicts: the scan reads the stored rule verdict and then corrects the counts for
# the (few) responses whose *effective* verdict differs -- a human judgement or an
# LLM verdict, read through ``judging.selectors.effective_verdicts`` (human > LLM >
# rules). Counts are sums, so moving each such response from its stored-verdict
# cell to its effective-verdict cell gives exactly the counts of grouping the
# effective verdicts, at the cost of the overridden responses only.

#: Columns of the scan, per response (aliases in the SQL).
SCAN_COLUMNS = ("rid", "grp", "qid", "mode", "clue", "pos", "ch", "v")

_GROUPING_SETS_SQL = """
SELECT GROUPING(s.rid) AS part, s.rid, s.grp, s.qid, s.mode, s.clue, s.pos, s.ch, s.v,
       COUNT(*) AS n, SUM(CASE WHEN s.v THEN 1 ELSE 0 END) AS c
FROM ({source}) s
GROUP BY GROUPING SETS ((s.rid, s.mode), (s.grp, s.qid, s.mode, s.clue, s.pos, s.ch, s.v))
"""
_PER_RESPONDER_SQL = """
SELECT s.rid, s.mode, COUNT(*) AS n, SUM(CASE WHEN s.v THEN 1 ELSE 0 END) AS c
FROM ({source}) s GROUP BY s.rid, s.mode
"""
_CELLS_SQL = """
SELECT s.grp, s.qid, s.mode, s.clue, s.pos, s.ch, s.v, COUNT(*) AS n
FROM ({source}) s GROUP BY s.grp, s.qid, s.mode, s.clue, s.pos, s.ch, s.v
"""


def _scan_values(qs: QuerySet[Response], verdict: str = "correct", *extra: str) -> QuerySet:
    """``qs`` as the scan's rows: :data:`SCAN_COLUMNS` (+ ``extra``), ``v`` read from ``verdict``."""
    return qs.annotate(
        rid=F("responder_id"),
        grp=Case(When(responder__kind=core.HUMAN, then=Value(0)), default=F("responder_id"),
                 output_field=BigIntegerField()),
        qid=F("question_id"), clue=F("clue_index"), pos=F("choice_position"), ch=F("choice"), v=F(verdict),
    ).values(*SCAN_COLUMNS, *extra)


def use_tallies() -> bool:
    """Whether the database keeps the dashboard tallies (PostgreSQL; see :mod:`frontend.models`)."""
    return connection.vendor == "postgresql"


def response_scan(project: Project, filters: Filters, *, method: str | None = None) -> core.Scan:
    """The filtered responses grouped per responder and per item cell, effective verdicts.

    ``method``: ``"tallies"`` (read the trigger-kept counts; PostgreSQL),
    ``"grouping_sets"`` (one pass over the responses; PostgreSQL) or
    ``"statements"`` (two ``GROUP BY``; any database). By default tallies where the
    database keeps them, statements elsewhere. All give the same counts; the tests
    check that they do.
    """
    method = method or ("tallies" if use_tallies() else "statements")
    with _no_gc():
        return _response_scan(project, filters, method)


@contextlib.contextmanager
def _no_gc():
    """Pause the cyclic garbage collector while tens of thousands of row tuples are made.

    They hold no reference cycles, yet their allocation triggers repeated
    collections that cost ~0.1 s per dashboard; reference counting still frees
    everything, and the collector resumes (if it was on) when the block ends.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _response_scan(project: Project, filters: Filters, method: str) -> core.Scan:
    if method == "tallies":
        per_resp, cells = _tally_rows(project, filters)
    else:
        sql, params = _scan_values(responses_scoped(project, filters)).query.sql_with_params()
        with connection.cursor() as cursor:
            if method == "grouping_sets":
                cursor.execute(_GROUPING_SETS_SQL.format(source=sql), params)
                rows = cursor.fetchall()
                per_resp = [(r[1], r[4], r[9], r[10]) for r in rows if r[0] == 0]
                cells = [(r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9]) for r in rows if r[0] == 1]
            else:
                cursor.execute(_PER_RESPONDER_SQL.format(source=sql), params)
                per_resp = cursor.fetchall()
                cursor.execute(_CELLS_SQL.format(source=sql), params)
                cells = cursor.fetchall()
    return core.scan_from_rows(per_resp, cells, verdict_changes(project, filters))


def _tally_rows(project: Project, filters: Filters) -> tuple[list[tuple], list[tuple]]:
    """Per-responder and item-cell rows from the tallies, under the filters.

    Item cells carry the question, so every filter applies to them. The
    per-responder tally has no question: under a category or source filter those
    counts group the responses to the filtered questions instead (read through
    the question index: a fraction of the project's responses).
    """
    from .models import ItemTally, ResponderTally

    cells = ItemTally.objects.filter(project_id=project.pk, n__gt=0)
    people = ResponderTally.objects.filter(project_id=project.pk, n__gt=0)
    if filters.mode:
        cells = cells.filter(mode=filters.mode)
        people = people.filter(mode=filters.mode)
    kept = None
    if filters.condition:
        models = Responder.objects.filter(project=project, kind=core.MODEL, condition=filters.condition)
        cells = cells.filter(Q(grp=0) | Q(grp__in=models.values("id")))
        kept = Responder.objects.filter(project=project).filter(
            Q(kind=core.HUMAN) | Q(condition=filters.condition)).values("id")
        people = people.filter(responder_id__in=kept)
    if filters.category or filters.source:
        questions = Question.objects.filter(project=project)
        if filters.category:
            questions = questions.filter(category__slug=filters.category)
        if filters.source:
            questions = questions.filter(source=filters.source)
        # A literal id list lets PostgreSQL read just those questions' responses
        # through the question index rather than scanning every response.
        qids = list(questions.values_list("id", flat=True))
        cells = cells.filter(question_id__in=qids)
        answers = Response.objects.filter(project=project, question_id__in=qids)
        if filters.mode:
            answers = answers.filter(mode=filters.mode)
        if kept is not None:
            answers = answers.filter(responder_id__in=kept)
        per_resp = list(
            answers.values("responder_id", "mode")
            .annotate(n=Count("id"), c=Count("id", filter=Q(correct=True))).order_by()
            .values_list("responder_id", "mode", "n", "c")
        )
    else:
        per_resp = _fetch(people.values_list("responder_id", "mode", "n", "correct"))
    # The tallies store -1 for "none", as the scan does (core.NONE).
    return per_resp, _fetch(
        cells.values_list("grp", "question_id", "mode", "clue_index", "choice_position", "choice", "correct", "n"))


def _fetch(qs: QuerySet) -> list[tuple]:
    """All rows of a ``values_list`` query as plain tuples, straight from the cursor
    (tens of thousands of rows: skips the ORM's per-row conversion)."""
    try:
        sql, params = qs.query.sql_with_params()
    except EmptyResultSet:  # e.g. ``pk__in=[]``: the ORM knows there is nothing to read
        return []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def verdict_changes(project: Project, filters: Filters) -> list[tuple]:
    """Filtered responses whose effective verdict differs from the stored one.

    Rows: :data:`SCAN_COLUMNS` with ``v`` the effective verdict, then the stored one.
    Only responses with a human judgement or an LLM verdict can differ, so only
    those are read (through ``effective_verdicts``, like every other report).
    """
    if not uses_overrides(project):
        return []
    from judging.models import HumanJudgement, VerdictRecord

    # Ids first, as literal lists: the responses are then fetched by primary key
    # instead of testing every response of the project against two subqueries (that
    # plan took 2.6 s at 1M responses, the id lists 0.1 s). In batches, because each id
    # is one bind parameter (PostgreSQL takes at most 65,535, SQLite 32,766, and an LLM
    # pass over a large project's grey zone can pass that).
    ids = set(HumanJudgement.objects.filter(response__project=project).values_list("response_id", flat=True))
    ids.update(VerdictRecord.objects.filter(response__project=project, judge__startswith="llm:", event="added",
                                            correct__isnull=False).values_list("response_id", flat=True))
    ordered = sorted(ids)
    changes: list[tuple] = []
    for lo in range(0, len(ordered), ID_BATCH):
        scoped = responses_scoped(project, filters).filter(pk__in=ordered[lo:lo + ID_BATCH])
        qs = with_verdict(scoped, project)
        rows = _scan_values(qs.annotate(stored=F("correct")), "verdict", "stored").order_by()
        changes += [tuple(r[c] for c in (*SCAN_COLUMNS, "stored")) for r in rows if bool(r["v"]) != bool(r["stored"])]
    return changes


#: overridden responses fetched per query (bind parameters per statement stay far
#: below PostgreSQL's 65,535 and SQLite's 32,766)
ID_BATCH = 10_000


def responder_info(project: Project, ids: list[int]) -> dict[int, tuple[str, str, str]]:
    """Responder id → (kind, label, condition) for ``ids`` (or the whole project when many)."""
    people = Responder.objects.filter(project=project)
    if len(ids) <= 500:  # a long IN list costs more than reading the project's responders
        people = people.filter(pk__in=ids)
    return {r[0]: (r[1], r[2], r[3]) for r in _fetch(people.values_list("id", "kind", "label", "condition"))}


def per_responder(scan: core.Scan, info: dict[int, tuple[str, str, str]]) -> pd.DataFrame:
    """Counts per responder and mode, with kind and pseudonymous label."""
    frame = scan.per_responder.rename(columns={"rid": "responder_id"})
    frame["kind"] = [info.get(i, ("", "", ""))[0] for i in frame["responder_id"]]
    frame["label"] = [info.get(i, ("", "", ""))[1] for i in frame["responder_id"]]
    return frame


def question_info(project: Project) -> dict[int, tuple[int | None, str, bool]]:
    """Question id → (category id, source, pyramidal) for the project."""
    return {q[0]: (q[1], q[2], q[3])
            for q in Question.objects.filter(project=project).values_list("id", "category_id", "source", "pyramidal")}


def cube(project: Project, scan: core.Scan, info: dict[int, tuple[str, str, str]]) -> pd.DataFrame:
    """Counts by kind, condition, category, source, mode, pyramidal and clue index.

    A few hundred rows at most; every breakdown is a sum over them.
    """
    frame = core.cube_rows(scan, models=info, questions=question_info(project))
    categories = {c.pk: (c.slug, c.name) for c in Category.objects.filter(project=project)}
    frame["category"] = [categories.get(cid, ("", ""))[0] for cid in frame["category_id"]]
    frame["category_name"] = [categories.get(cid, ("", ""))[1] for cid in frame["category_id"]]
    frame["source"] = frame["source"].fillna("").replace("", "(none)")
    return core.qtype_rows(frame)


def top_items(project: Project, filters: Filters, scan: core.Scan, responder_ids: tuple[int, ...]) -> pd.DataFrame:
    """Answers of the given humans per item (question × mode): ``n`` and ``correct``.

    The item cells pool all humans, so the topline's own counts need one more
    (narrow) query: the stored verdicts of those responders' answers, grouped,
    then corrected by the scan's verdict changes like everything else.
    """
    columns = ["question_id", "mode", "n", "correct"]
    if not responder_ids:
        return pd.DataFrame(columns=columns)
    rows = (
        responses_scoped(project, filters).filter(responder_id__in=responder_ids)
        .values("question_id", "mode").annotate(n=Count("id"), correct=Count("id", filter=Q(correct=True)))
        .order_by()
    )
    frame = pd.DataFrame.from_records(list(rows), columns=columns)
    return core.items_with_changes(frame, scan.changes, set(responder_ids))


def project_counts(project: Project, filters: Filters, per_resp: pd.DataFrame) -> dict[str, int]:
    """Questions (under the filters), humans, model systems and responses."""
    questions = Question.objects.filter(project=project)
    if filters.category:
        questions = questions.filter(category__slug=filters.category)
    if filters.source:
        questions = questions.filter(source=filters.source)
    if filters.mode == "mcq":
        questions = questions.filter(correct_choice__isnull=False)
    model_ids = per_resp.loc[per_resp["kind"] == core.MODEL, "responder_id"].unique().tolist()
    systems = (
        Responder.objects.filter(pk__in=model_ids).values("system_id").distinct().count()
        if model_ids else 0
    )
    return {
        "questions": questions.count(),
        "humans": int(per_resp.loc[per_resp["kind"] == core.HUMAN, "responder_id"].nunique()),
        "model_systems": systems,
        "model_responders": len(model_ids),
        "responses": int(per_resp["n"].sum()) if not per_resp.empty else 0,
    }


def filter_choices(project: Project) -> dict[str, list[tuple[str, str]]]:
    """Values offered by the filter form (categories, sources, model conditions)."""
    return {
        "category": [(c.slug, c.name) for c in Category.objects.filter(project=project)],
        "source": [
            (s, s) for s in Question.objects.filter(project=project).exclude(source="")
            .values_list("source", flat=True).distinct().order_by("source")
        ],
        "condition": [
            (c, c) for c in Responder.objects.filter(project=project, kind=core.MODEL)
            .values_list("condition", flat=True).distinct().order_by("condition")
        ],
    }


# ------------------------------------------------------------------------- dashboard


@dataclass
class DashboardData:
    """Everything the dashboard page, its charts and its exports show."""

    filters: Filters
    head: core.Headline
    tables: dict[str, pd.DataFrame]
    #: per mode of the view, the fit behind the model ranking's θ (see :func:`theta_fits`)
    theta: dict[str, ThetaFit] = dataclasses.field(default_factory=dict)


#: Table name → (title, chart kind). Order is the page order.
TABLES: dict[str, tuple[str, str]] = {
    "headline": ("Humans vs models", "headline"),
    "category": ("By category", "humans-models"),
    "source": ("By source dataset", "humans-models"),
    "qtype": ("By question type", "humans-models"),
    "condition": ("By model condition (modality ablation)", "modes"),
    "models": ("Model ranking", "modes"),
    "mcq_positions": ("MCQ: chosen option by position", "positions"),
    "mcq_distractors": ("MCQ: errors across distractors", "distractors"),
    "agreement": ("Inter-human agreement", "agreement"),
    "unsolved": ("Questions no human answered correctly", None),
}


def data_version(project: Project) -> str:
    """A fingerprint of everything the dashboard reads; changes whenever a number could.

    Responses: on PostgreSQL the tallies' change counter (its sum over the project
    only grows: every inserted, updated or deleted response adds to it, in the same
    transaction) and their newest row id (a rebuild gives new ids) -- a sum over
    one row per responder and mode instead of an aggregate over every response.
    Elsewhere: count, newest id and newest ``judged_at``. Then human judgements and
    LLM verdicts: newest id; questions: newest ``updated_at`` and count;
    responders: newest id and count; IRT: succeeded fits' count, newest id and latest
    finish (a fit queued earlier can finish later). All index look-ups or small
    aggregates.
    """
    from django.db.models import Max, Sum

    if use_tallies():
        from .models import ResponderTally

        r = ResponderTally.objects.filter(project_id=project.pk).aggregate(
            changes=Sum("changes"), n=Sum("n"), last=Max("id"))
    else:
        r = Response.objects.filter(project=project).aggregate(n=Count("id"), last=Max("id"), judged=Max("judged_at"))
    q = Question.objects.filter(project=project).aggregate(u=Max("updated_at"), n=Count("id"))
    people = Responder.objects.filter(project=project).aggregate(last=Max("id"), n=Count("id"))

    def _others() -> tuple:
        from judging.models import HumanJudgement, VerdictRecord

        return (HumanJudgement.objects.aggregate(m=Max("id"))["m"], VerdictRecord.objects.aggregate(m=Max("id"))["m"])

    parts = (sorted(r.items()), q["u"], q["n"], people["last"], people["n"], _guarded(_others, ()),
             fits_version(project))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


#: Dashboard results are cached per (project, filters, tables, data version) this long.
CACHE_SECONDS = 3600


def dashboard_data(project: Project, filters: Filters, *, only: set[str] | None = None,
                   use_cache: bool = True) -> DashboardData:
    """The dashboard tables (all, or just ``only`` for a chart/CSV download), cached.

    The cache key includes :func:`data_version`, so any new or re-judged response,
    override, question edit or fit gives fresh numbers on the next request.
    """
    if not use_cache:
        return _dashboard_compute(project, filters, only=only)
    from django.core.cache import cache

    version = data_version(project)

    def key_for(tables) -> str:
        return "earshot:dashboard:" + hashlib.sha256(repr(
            (project.pk, sorted(filters.as_query().items()), sorted(tables), version)
        ).encode()).hexdigest()

    key = key_for(only or TABLES)
    # A chart or table download right after the page reuses the page's full result.
    cached = cache.get(key) or (cache.get(key_for(TABLES)) if only else None)
    if cached is not None:
        return cached
    data = _dashboard_compute(project, filters, only=only)
    cache.set(key, data, CACHE_SECONDS)
    return data


def _dashboard_compute(project: Project, filters: Filters, *, only: set[str] | None = None,
                       method: str | None = None) -> DashboardData:
    """Compute the dashboard tables from the database (no cache): one scan, one narrow query.

    ``method``: how the responses are counted (see :func:`response_scan`).
    """
    want = set(TABLES) if only is None else set(only)
    # Decide once per dashboard whether overrides must be looked up (see with_verdict).
    project._earshot_overrides = uses_overrides(project)
    scan = response_scan(project, filters, method=method)
    info = responder_info(project, scan.per_responder["rid"].unique().tolist())
    per_resp = per_responder(scan, info)
    counts = project_counts(project, filters, per_resp)
    head = core.headline(per_resp, counts=counts)
    tables: dict[str, pd.DataFrame] = {}
    if "headline" in want:
        tables["headline"] = core.headline_table(head)
    if want & {"category", "source", "qtype", "condition"}:
        c = cube(project, scan, info)
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
        tables["mcq_positions"] = diagnostics.mcq_positions(core.mcq_position_rows(scan, info))
    if "mcq_distractors" in want:
        tables["mcq_distractors"] = diagnostics.mcq_distractors(core.mcq_distractor_rows(scan, info))
    if want & {"agreement", "unsolved"}:
        items = core.human_item_rows(scan)
        if "agreement" in want:
            top = top_items(project, filters, scan, head.topline.responder_ids)
            tables["agreement"] = diagnostics.agreement_table(items, top)
        if "unsolved" in want:
            unsolved_ids = (
                items.groupby("question_id")[["n", "correct"]].sum().query("n > 0 and correct == 0").index.tolist()
                if not items.empty else []
            )
            info_q = {
                q["id"]: q for q in Question.objects.filter(pk__in=unsolved_ids).values("id", "external_id", "prompt")
            }
            rows = items[items["question_id"].isin(unsolved_ids)].assign(
                external_id=lambda f: f["question_id"].map(lambda i: info_q[i]["external_id"]),
                prompt=lambda f: f["question_id"].map(lambda i: info_q[i]["prompt"]),
            ) if unsolved_ids else items.iloc[0:0]
            tables["unsolved"] = diagnostics.no_human_correct(rows)
    return DashboardData(filters=filters, head=head, tables=tables, theta=theta)


def question_responses(question: Question) -> QuerySet[Response]:
    """Every response to a question with its responder (label only) for the question page."""
    return (
        with_verdict(Response.objects.filter(question=question), question.project)
        .select_related("responder", "responder__system")
        .order_by("responder__kind", "mode", "responder__label", "id")
    )


def data_hash(project: Project) -> str:
    """SHA-256 over (response id, responder, question, mode, verdict, rule version).

    Streams through the database in chunks; identical data gives an identical
    hash, so a report's numbers can be tied to the data they came from.
    """
    digest = hashlib.sha256()
    qs = (
        with_verdict(Response.objects.filter(project=project), project)
        .order_by("id")
        .values_list("id", "responder_id", "question_id", "mode", "verdict", "rule_version")
    )
    for row in qs.iterator(chunk_size=5000):
        digest.update(("|".join(str(v) for v in row) + "\n").encode())
    return digest.hexdigest()


def rule_versions(project: Project) -> list[str]:
    """The judging rule versions of the stored verdicts."""
    return sorted(
        Response.objects.filter(project=project).values_list("rule_version", flat=True).distinct().order_by()
    )


def model_systems(project: Project) -> QuerySet[ModelSystem]:
    """The project's model systems."""
    return ModelSystem.objects.filter(project=project)


# ------------------------------------------------------------ adapters to other apps


def _guarded(func, default):
    """Run a read against another app's tables; missing tables give ``default``."""
    try:
        with transaction.atomic():
            return func()
    except (DatabaseError, LookupError, ImportError, AttributeError) as exc:
        log.debug("optional read failed: %s", exc)
        return default


def uses_overrides(project: Project) -> bool:
    """Whether any response of the project has a human judgement or an LLM verdict.

    Judging's effective verdict (human > LLM > rules, ``judging.selectors``) costs
    correlated subqueries per response; when the project has no override at all,
    the stored rule verdict *is* the effective one and a plain column is read.
    """
    cached = getattr(project, "_earshot_overrides", None)
    if cached is not None:
        return cached

    def _has() -> bool:
        from judging.models import HumanJudgement, VerdictRecord

        return (
            HumanJudgement.objects.filter(response__project=project).exists()
            or VerdictRecord.objects.filter(response__project=project, judge__startswith="llm:",
                                            event="added", correct__isnull=False).exists()
        )

    return bool(_guarded(_has, False))


def with_verdict(qs: QuerySet[Response], project: Project) -> QuerySet[Response]:
    """``qs`` annotated with ``verdict``: the effective verdict (human > LLM > rules)."""
    if not uses_overrides(project):
        return qs.annotate(verdict=F("correct"))
    from judging.selectors import effective_verdicts

    return effective_verdicts(queryset=qs).annotate(verdict=F("effective_correct"))


def theta_fits(project: Project, filters: Filters) -> dict[str, ThetaFit]:
    """Per mode of the view, the IRT fit whose θ may stand beside its accuracies.

    The newest succeeded fit over that mode's responses with the view's category and
    source filters (:func:`irt.selectors.fit_matching`), with its abilities; a
    :class:`ThetaFit` without ``fit_id`` when there is none (or no IRT app). A view
    filtered to one mode gets only that mode.
    """
    out: dict[str, ThetaFit] = {}
    for mode in ((filters.mode,) if filters.mode else core.MODES):
        empty = ThetaFit(mode=mode, category=filters.category, source=filters.source, condition=filters.condition)

        def _get(empty: ThetaFit = empty) -> ThetaFit:
            from irt.selectors import fit_abilities_map, fit_matching

            fit = fit_matching(project, empty.mode, category=empty.category, source=empty.source)
            if fit is None:
                return empty
            return dataclasses.replace(
                empty, fit_id=fit.pk, model=fit.model, method=fit.method, n_responses=fit.n_responses,
                finished_at=fit.finished_at.strftime("%Y-%m-%d %H:%M UTC") if fit.finished_at else "",
                abilities=fit_abilities_map(fit),
            )

        out[mode] = _guarded(_get, empty)
    return out


def fits_version(project: Project) -> tuple:
    """Changes whenever a fit succeeds (or a succeeded one is deleted): count, newest id, latest finish."""

    def _get() -> tuple:
        from django.db.models import Max

        from irt.models import Fit

        r = Fit.objects.filter(project=project, status="succeeded").aggregate(
            n=Count("id"), last=Max("id"), finished=Max("finished_at"))
        return (r["n"], r["last"], r["finished"])

    return _guarded(_get, ())


def fit_items(fit_id: int | None) -> pd.DataFrame | None:
    """Question id → a, b (and category name) in one fit, or ``None`` (no fit, or no IRT app)."""
    if fit_id is None:
        return None

    def _get() -> pd.DataFrame:
        from irt.models import FitItem

        rows = FitItem.objects.filter(fit_id=fit_id).values("question_id", "a", "b", "question__category__name")
        return pd.DataFrame.from_records(list(rows), columns=["question_id", "a", "b", "question__category__name"])

    return _guarded(_get, None)


def question_irt(question: Question) -> dict | None:
    """IRT parameters of a question in the latest fit that includes it, or ``None``."""

    def _get():
        from irt.models import FitItem

        item = (
            FitItem.objects.filter(question=question, fit__status="succeeded")
            .select_related("fit").order_by("-fit__created_at", "-fit_id").first()
        )
        if item is None:
            return None
        return {"fit_id": item.fit_id, "model": item.fit.model, "mode": item.fit.mode,
                "a": item.a, "a_sd": item.a_sd, "b": item.b, "b_sd": item.b_sd, "c": item.c,
                "p_correct": item.p_correct, "n_answered": item.n_answered}

    return _guarded(_get, None)


def adjudication_trail(question: Question) -> list[dict]:
    """Human judgements on a question's responses, oldest first (empty without judging)."""

    def _get() -> list[dict]:
        from judging.selectors import human_judgements_list

        rows = (
            human_judgements_list(project=question.project).filter(response__question=question)
            .select_related("response__responder", "by").order_by("created_at", "id")
        )
        return [
            {"response_id": j.response_id, "responder": j.response.responder.label,
             "correct": j.correct, "source": j.source, "note": j.note,
             "by": getattr(j.by, "handle", "") or j.annotator, "at": j.created_at}
            for j in rows
        ]

    return _guarded(_get, [])


def annotation_reports(project: Project) -> list[dict] | None:
    """MOS ± CI and agreement (with Landis–Koch labels) of each campaign with ratings, or ``None``;
    listening tests also carry their :class:`annotation.listening_selectors.ListeningSummary`."""

    def _get():
        from annotation.selectors import campaigns_for_project, report_for

        out = []
        from annotation.listening_selectors import listening_report_for

        for campaign in campaigns_for_project(project):
            report = report_for(campaign)
            listening = listening_report_for(campaign, report) if report.counts.get("ratings_in") else None
            if (report.mos is not None and len(report.mos)) or listening is not None:
                out.append({"campaign": campaign.slug, "mos": report.mos, "agreement": report.agreement,
                            "listening": listening})
        return out or None

    return _guarded(_get, None)


def judge_human_agreement(project: Project) -> pd.DataFrame | None:
    """Agreement of each automatic judge with human judgements (overall), or ``None`` when none."""

    def _get():
        from dataclasses import asdict

        from judging.agreement import agreement_report
        from judging.selectors import AGREEMENT_JUDGES, agreement_rows

        rows = agreement_rows(project=project)
        if not rows:
            return None
        report = agreement_report(rows, AGREEMENT_JUDGES)
        return pd.DataFrame([asdict(a) for a in report.overall])

    return _guarded(_get, None)
