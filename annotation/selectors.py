"""Reads for annotation campaigns: progress, the blind item payload, ratings and reports.

``ratings_frame`` is the one place ratings leave the database for statistics: it reads
four narrow columns per rating (on PostgreSQL as one server-built text parsed by
pyarrow, on SQLite with a plain cursor) and joins item metadata and pseudonymous rater
ids in pandas as categoricals, so a million ratings load in a couple of seconds.
"""

from __future__ import annotations

import functools
import io
import json
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import gettext

from accounts.models import Project

from . import prepared
from .models import (
    CONTROL_KINDS,
    MULTI_STIMULUS,
    Annotator,
    Assignment,
    AssignmentStatus,
    Campaign,
    CampaignStatus,
    ItemKind,
    Outcome,
    PolicyKind,
    Qualification,
    Rating,
)
from .report import CampaignReport, campaign_report
from .scales import choices_for, numeric_bounds

META = ("system", "condition", "task", "source", "batch")
ORDINAL_SCALES = ("acr5", "score0_5", "ccr7", "dcr5", "smos5", "rank")
#: scales whose distances are meaningful (MUSHRA's 0-100 slider)
INTERVAL_SCALES = ("mushra100",)


def campaigns_for_project(project: Project) -> QuerySet[Campaign]:
    """A project's campaigns with item and rating counts."""
    return project.campaigns.annotate(
        n_items=Count("items", distinct=True),
        n_annotators=Count("annotators", distinct=True),
    ).order_by("-created_at")


def campaign_get(project: Project, slug: str) -> Campaign | None:
    """A campaign by slug within a project."""
    return Campaign.objects.filter(project=project, slug=slug).select_related("project").first()


def campaign_progress(campaign: Campaign) -> dict[str, Any]:
    """Items by kind, assignments by status, ratings, annotators, coverage of regular items."""
    by_kind = dict(campaign.items.values("kind").annotate(n=Count("pk")).values_list("kind", "n"))
    by_status = dict(campaign.assignments.values("status").annotate(n=Count("pk"))
                     .values_list("status", "n"))
    done = list(campaign.items.filter(kind=ItemKind.REGULAR).values_list("n_done", flat=True))
    coverage = dict(sorted(pd.Series(done, dtype=int).value_counts().items())) if done else {}
    annotators = campaign.annotators.aggregate(
        total=Count("pk"), completed=Count("pk", filter=Q(outcome=Outcome.COMPLETED)),
        no_work=Count("pk", filter=Q(outcome=Outcome.NO_WORK)),
        screened_out=Count("pk", filter=Q(outcome=Outcome.SCREENED_OUT)),
        failed=Count("pk", filter=Q(qualification=Qualification.FAILED)))
    target = campaign.policy_k if campaign.policy in (PolicyKind.OVERLAP, PolicyKind.AUDIT_SAMPLE) else (
        1 if campaign.policy == PolicyKind.PARTITION else None)
    complete = sum(1 for d in done if target and d >= target)
    return {
        "items_by_kind": by_kind,
        "n_items": sum(by_kind.values()),
        "n_regular": by_kind.get(ItemKind.REGULAR, 0),
        "assignments": by_status,
        "n_ratings": campaign.ratings.count(),
        "n_submissions": by_status.get(AssignmentStatus.SUBMITTED, 0),
        "annotators": annotators,
        "coverage": {int(k): int(v) for k, v in coverage.items()},
        "target_per_item": target,
        "items_complete": complete,
        "items_rated": sum(1 for d in done if d >= 1),
        "percent_complete": (100.0 * complete / len(done)) if done and target else None,
    }


def annotator_progress(annotator: Annotator) -> tuple[int, int]:
    """(items submitted, expected total) for the annotator's progress bar."""
    done, quota = annotator_quota(annotator)
    return done, max(quota, done)


def annotator_quota(annotator: Annotator) -> tuple[int, int]:
    """(items submitted, the annotator's quota): what they must rate to earn the code.

    The quota is every item the policy gives one annotator: listener sample ``n``
    (at most the regular items), audit sample ``n`` per batch, otherwise all regular
    items capped by ``policy_quota`` (partition: ceil(items / annotators)); plus every
    gold/trap control, plus the qualification items when the campaign has any.
    """
    campaign = annotator.campaign
    counts = dict(campaign.items.values("kind").annotate(n=Count("pk")).values_list("kind", "n"))
    n_regular = counts.get(ItemKind.REGULAR, 0)
    n_control = counts.get(ItemKind.GOLD, 0) + counts.get(ItemKind.TRAP, 0)
    n_qual = counts.get(ItemKind.QUALIFICATION, 0)
    if campaign.policy == PolicyKind.LISTENER_SAMPLE and campaign.policy_n:
        regular = min(campaign.policy_n, n_regular)
    elif campaign.policy == PolicyKind.AUDIT_SAMPLE and campaign.policy_n:
        batches = campaign.items.filter(kind=ItemKind.REGULAR).values("batch").distinct().count()
        regular = min(n_regular, campaign.policy_n * max(batches, 1))
    else:
        regular = n_regular
        from .services import policy_for  # a read of the configuration only

        quota = policy_for(campaign, n_regular=n_regular).quota
        if quota is not None:
            regular = min(regular, quota)
    done = annotator.assignments.filter(status=AssignmentStatus.SUBMITTED).count()
    total = regular + n_control + (n_qual if annotator.qualification != Qualification.NOT_REQUIRED else 0)
    return done, total


@dataclass(frozen=True)
class AnnotatorContext:
    """Who is calling, in which campaign, as which annotator: one row, one query.

    ``campaign`` is ``None`` when the project does not exist, the caller may not play it,
    or the campaign does not exist or is a draft (the API answers 404 for all of them);
    ``annotator`` is ``None`` until they are enrolled.
    """

    user_id: int
    campaign: Campaign | None
    annotator: Annotator | None


def _columns(model, alias: str) -> str:
    return ", ".join(f"{alias}.{f.column}" for f in model._meta.concrete_fields)


def instance_from_row(model, values: tuple | list):
    """A model instance from a raw row of all its concrete columns (in field order).

    Applies the fields' database converters (JSON columns arrive as text), as the ORM
    does; ``None`` when the row is empty (an outer join that matched nothing).
    """
    if values[0] is None:
        return None
    fields = model._meta.concrete_fields
    loaded = [f.from_db_value(v, None, connection) if v is not None and hasattr(f, "from_db_value") else v
              for f, v in zip(fields, values, strict=True)]
    return model.from_db(connection.alias, [f.attname for f in fields], loaded)


def _instance(model, row: tuple, start: int):
    return instance_from_row(model, row[start:start + len(model._meta.concrete_fields)])


_CONTEXT_SQL = f"""
SELECT u.id, u.is_active, u.is_staff, m.role, {_columns(Project, "p")}, {_columns(Campaign, "c")},
       {_columns(Annotator, "a")}, t.created
FROM authtoken_token t
JOIN accounts_user u ON u.id = t.user_id
LEFT JOIN accounts_project p ON p.slug = %s
LEFT JOIN accounts_membership m ON m.project_id = p.id AND m.user_id = u.id
LEFT JOIN annotation_campaign c ON c.project_id = p.id AND c.slug = %s
LEFT JOIN annotation_annotator a ON a.campaign_id = c.id AND a.user_id = u.id
WHERE t.key = %s
"""


def annotator_context(token: str, project_slug: str, campaign_slug: str) -> AnnotatorContext | None:
    """Resolve an API token, the project, the campaign and the caller's annotator at once.

    The annotation API's hot path (``next``, ``submit``) runs this one query instead of
    DRF's token lookup, the project and role checks, the campaign and the annotator
    lookups (five queries). ``None``: unknown token or inactive user (the API answers
    401). Access is :class:`annotation.apis.CampaignAccess`'s: a public project, any
    membership, staff, or an annotator of this campaign; a test compares both.
    """
    with prepared.cursor() as cursor:
        cursor.execute(_CONTEXT_SQL, [project_slug, campaign_slug, token])
        row = cursor.fetchone()
    if row is None or not row[1]:
        return None
    from accounts.authentication import token_expired

    if token_expired(SimpleNamespace(created=row[-1])):
        return None  # the same age limit as DRF's token authentication (401)
    user_id, _active, is_staff, role = row[:4]
    project = _instance(Project, row, 4)
    start = 4 + len(Project._meta.concrete_fields)
    campaign = _instance(Campaign, row, start)
    annotator = _instance(Annotator, row, start + len(Campaign._meta.concrete_fields))
    # play access, or an annotator of this campaign (a campaign link enrolled them)
    may_play = project is not None and (project.is_public or role is not None or is_staff
                                        or annotator is not None)
    if not may_play or campaign is None or campaign.status == CampaignStatus.DRAFT:
        return AnnotatorContext(user_id, None, None)
    campaign.project = project
    if annotator is not None:
        annotator.campaign = campaign
    return AnnotatorContext(user_id, campaign, annotator)


_SLOT = "assignment-slot"


def _audio_url(slug: str, cslug: str) -> str:
    """The clip URL of a campaign, with the marker ``_SLOT`` where each assignment's
    public id goes (``item_payload`` swaps it in).

    Resolving the URL pattern is a noticeable share of a ``next`` call; the result only
    depends on the slugs, the URLconf and the script prefix, so it is kept per process.
    Public ids are URL-safe (``secrets.token_urlsafe``) and need no quoting.
    """
    return _audio_url_cached(get_urlconf(), get_script_prefix(), slug, cslug)


@functools.lru_cache(maxsize=1024)
def _audio_url_cached(urlconf: str | None, prefix: str, slug: str, cslug: str) -> str:
    return reverse("annotation:audio", args=[slug, cslug, _SLOT], urlconf=urlconf)


def item_payload(assignment: Assignment) -> dict[str, Any]:
    """What an annotator may see of an assigned item: texts, an audio URL, the scales.

    Blind by construction: system, task, condition, source, batch, metadata, the
    item's kind and its expected (gold/trap) answers are never included.
    """
    item = assignment.item
    campaign = assignment.campaign
    slug, cslug = campaign.project.slug, campaign.slug
    if campaign.template in MULTI_STIMULUS:
        return _multi_payload(assignment, slug, cslug)
    return {
        "assignment": assignment.public_id,
        "served_at": assignment.served_at.isoformat(),
        "expires_at": assignment.expires_at.isoformat(),
        "audio_url": (_audio_url(slug, cslug).replace(_SLOT, assignment.public_id)
                      if item.clip_id else None),
        "duration_s": item.clip.duration_s if item.clip_id else None,
        "context": item.context,
        "question": item.question,
        "reference": item.reference,
        "response": item.response,
        "criteria": [
            {"key": c["key"], "label": _shown(c["label"]), "comment": c.get("comment", False),
             "choices": [{"value": ch.value, "label": _shown(ch.label), "key": ch.key} for ch in choices_for(c)]}
            for c in campaign.criteria
        ],
    }


def _shown(label: str) -> str:
    """A scale or criterion label in the viewer's language.

    The defaults of ``annotation.scales`` are in the catalogs; a campaign's own labels
    (any language) come back unchanged. An empty label stays empty (``gettext("")``
    would return the catalog's header).
    """
    return gettext(label) if label else label


def _criteria_payload(campaign: Campaign) -> list[dict[str, Any]]:
    out = []
    for c in campaign.criteria:
        if c["scale"] == "mushra100":  # a slider, not 101 buttons
            choices: list[dict[str, Any]] = []
        else:
            choices = [{"value": ch.value, "label": _shown(ch.label), "key": ch.key} for ch in choices_for(c)]
        entry = {"key": c["key"], "label": _shown(c["label"]), "comment": c.get("comment", False),
                 "scale": c["scale"], "choices": choices}
        if c["scale"] == "mushra100":
            entry["min"], entry["max"] = 0, 100
        out.append(entry)
    return out


def _multi_payload(assignment: Assignment, slug: str, cslug: str) -> dict[str, Any]:
    """A listening-test item: its texts, the scales and its stimuli, blind
    (:func:`annotation.services_listening.stimuli_payload`)."""
    from .services_listening import stimuli_payload

    item, campaign = assignment.item, assignment.campaign
    url = reverse("annotation:stimulus_audio", args=[slug, cslug, assignment.public_id, "{id}"])
    test = stimuli_payload(campaign, assignment, url.replace("%7Bid%7D", "{id}"))
    criteria = _criteria_payload(campaign)
    if test["mode"] == "choice":
        # the answer names a stimulus: "A" / "B" are on-screen places, so each button
        # carries the opaque id of the stimulus shown there ("none" stays "none")
        place = {"A": 0, "B": 1}
        for crit in criteria:
            for ch in crit["choices"]:
                if ch["value"] in place:
                    ch["value"] = test["stimuli"][place[ch["value"]]]["id"]
    return {
        "assignment": assignment.public_id,
        "served_at": assignment.served_at.isoformat(),
        "expires_at": assignment.expires_at.isoformat(),
        "audio_url": None, "duration_s": None,
        "context": item.context, "question": item.question, "reference": item.reference,
        "response": item.response,
        "criteria": criteria,
        "test": test,
    }


def training_items(campaign: Campaign) -> list[dict[str, Any]]:
    """Training / anchor items with their reference answers (shown before the work)."""
    out = []
    for item in campaign.items.filter(kind=ItemKind.TRAINING).select_related("clip"):
        labels = []
        for crit in campaign.criteria:
            value = item.expected.get(crit["key"])
            if value is not None:
                label = {c.value: _shown(c.label) for c in choices_for(crit)}.get(value, value)
                labels.append({"criterion": _shown(crit["label"]), "value": value, "label": label})
        out.append({"item": item, "expected": labels})
    return out


# ----------------------------------------------------------------------------- ratings


def parse_min_heard(raw: str | None) -> float | None:
    """The ``min_heard`` filter of the report and exports: a share in [0, 1] or ``None``.

    Bad values raise :class:`ValueError` naming the parameter (pages answer 400).
    """
    if raw is None or str(raw).strip() == "":
        return None
    try:
        value = float(raw)
    except ValueError:
        raise ValueError("min_heard: must be a number between 0 and 1") from None
    if not 0 <= value <= 1:
        raise ValueError("min_heard: must be a number between 0 and 1")
    return value


def listening_summary(campaign: Campaign) -> dict[str, Any]:
    """How much of their clips the raters heard: submissions with evidence, below 100%, mean."""
    rows = campaign.ratings.filter(heard_fraction__isnull=False).values("assignment_id", "heard_fraction")
    fractions = pd.Series({r["assignment_id"]: r["heard_fraction"] for r in rows}, dtype=float)
    return {"n_with_evidence": len(fractions),
            "n_partial": int((fractions < 0.98).sum()) if len(fractions) else 0,
            "mean": float(fractions.mean()) if len(fractions) else None}


def _ratings_columns(campaign: Campaign, min_heard: float | None = None, *,
                     with_stimulus: bool = False) -> pd.DataFrame:
    """(item_id, annotator_id, criterion, value) of every rating of the campaign, fast.

    PostgreSQL: the server joins the rows into one tab-separated text (``string_agg``)
    that pyarrow parses (no Python object per row; text columns arrive as pandas
    categoricals). Values never contain tabs or newlines (:mod:`annotation.scales`
    forbids them). Elsewhere: a plain cursor. ``with_stimulus`` adds ``stimulus_id``
    (0 for a rating without a stimulus) for multi-stimulus campaigns.
    """
    table = Rating._meta.db_table
    where = "campaign_id = %s"
    params: list[Any] = [campaign.pk]
    if min_heard is not None:
        where += " AND (heard_fraction IS NULL OR heard_fraction >= %s)"
        params.append(min_heard)
    extra = ", COALESCE(stimulus_id, 0)" if with_stimulus else ""
    sql = f"SELECT item_id, annotator_id, criterion, value{extra} FROM {table} WHERE {where}"
    names = ["item_id", "annotator_id", "criterion", "value", *(["stimulus_id"] if with_stimulus else [])]
    if connection.vendor == "postgresql":
        import pyarrow as pa
        from pyarrow import csv as pa_csv

        # one text value built by the server (tab-separated lines), parsed once by pyarrow:
        # ~3x faster than COPY, whose client yields one Python object per row
        agg = (f"SELECT string_agg(concat_ws(E'\\t', item_id, annotator_id, criterion, value{extra}), E'\\n') "
               f"FROM {table} WHERE {where}")
        with connection.cursor() as cursor:
            cursor.execute(agg, params)
            text = cursor.fetchone()[0]
        if not text:
            return pd.DataFrame(columns=names)
        arrow = pa_csv.read_csv(
            io.BytesIO(text.encode("utf-8")),
            read_options=pa_csv.ReadOptions(column_names=names),
            parse_options=pa_csv.ParseOptions(delimiter="\t", quote_char=False, double_quote=False),
            convert_options=pa_csv.ConvertOptions(
                column_types={"item_id": pa.int64(), "annotator_id": pa.int64(),
                              "criterion": pa.dictionary(pa.int32(), pa.string()),
                              "value": pa.dictionary(pa.int32(), pa.string()),
                              **({"stimulus_id": pa.int64()} if with_stimulus else {})},
                strings_can_be_null=False))
        return arrow.to_pandas()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return pd.DataFrame.from_records(rows, columns=names)


def _codes(values: pd.Series) -> tuple[np.ndarray, pd.Index]:
    codes, uniques = pd.factorize(values.fillna(""))
    return codes, pd.Index(uniques)


def ratings_frame(campaign: Campaign, *, min_heard: float | None = None) -> pd.DataFrame:
    """One row per rating for :mod:`annotation.report`, raters pseudonymous.

    Columns: ``item_id`` (external id), ``rater_id`` (annotator public id), ``criterion``,
    ``value``, item metadata (system, condition, task, source, batch — empty ones
    dropped), ``gold_value`` / ``trap_value`` for control items. Training and
    qualification ratings are left out. Text columns are categoricals built from the
    small item and annotator tables (integer codes per rating, no per-row strings).
    ``min_heard``: leave out ratings whose clip was heard less than this share.

    Listening tests whose stimuli are rated (CCR, DCR, SMOS, MUSHRA, ranking): the unit
    is the stimulus, ``item_id`` is ``<item>#<stimulus position>`` and ``system`` /
    ``condition`` are the stimulus' (its system, else condition, else role; the hidden
    reference is ``hidden_reference``), so agreement and the per-system table treat
    each stimulus as one rated thing. AB/ABX choices stay one unit per item.
    """
    from .listening_selectors import per_stimulus_units, stimulus_units

    per_stimulus = per_stimulus_units(campaign)
    raw = _ratings_columns(campaign, min_heard, with_stimulus=per_stimulus)
    items = pd.DataFrame.from_records(
        list(campaign.items.values_list("pk", "external_id", "kind", *META)),
        columns=["pk", "external_id", "kind", *META])
    annotators = pd.DataFrame.from_records(list(campaign.annotators.values_list("pk", "public_id")),
                                           columns=["pk", "public_id"])
    if raw.empty:
        return pd.DataFrame(columns=["item_id", "rater_id", "criterion", "value"])
    item_pos = pd.Index(items["pk"]).get_indexer(raw["item_id"].to_numpy())
    kinds = items["kind"].to_numpy(dtype=object)
    counted = np.isin(kinds, [ItemKind.REGULAR, *CONTROL_KINDS])
    keep = counted[item_pos]
    if not keep.all():
        raw = raw.loc[keep].reset_index(drop=True)
        item_pos = item_pos[keep]
    rater_pos = pd.Index(annotators["pk"]).get_indexer(raw["annotator_id"].to_numpy())
    out = pd.DataFrame({
        "item_id": pd.Categorical.from_codes(item_pos, categories=pd.Index(items["external_id"])),
        "rater_id": pd.Categorical.from_codes(rater_pos, categories=pd.Index(annotators["public_id"])),
        "criterion": raw["criterion"].astype("category"),
        "value": raw["value"].astype("category"),
    })
    for col in META:
        codes, uniques = _codes(items[col])
        if len(uniques) > 1 or (len(uniques) == 1 and uniques[0] != ""):
            out[col] = pd.Categorical.from_codes(codes[item_pos], categories=uniques)
    if per_stimulus:
        out = stimulus_units(campaign, out, raw["stimulus_id"].to_numpy())
    item_kind = kinds[item_pos]
    item_pks = items["pk"].to_numpy()
    expected = dict(campaign.items.filter(kind__in=CONTROL_KINDS).values_list("pk", "expected"))
    for name, ctl in (("gold_value", ItemKind.GOLD), ("trap_value", ItemKind.TRAP)):
        rows = np.flatnonzero(item_kind == ctl)
        column = np.full(len(out), np.nan, dtype=object)
        if len(rows):
            crit = np.asarray(out["criterion"].cat.categories, dtype=object)[out["criterion"].cat.codes.to_numpy()[rows]]
            column[rows] = [expected[item_pks[item_pos[i]]].get(c, np.nan) for i, c in zip(rows, crit, strict=True)]
        out[name] = pd.Series(column, dtype=object, index=out.index)  # no str inference
    return out


def criterion_levels(campaign: Campaign) -> dict[str, str]:
    """Krippendorff level per criterion: ordinal for rating scales (ACR, CCR, DCR, SMOS,
    ranks), interval for MUSHRA's 0-100 slider, nominal for labels (AB/ABX choices)."""
    return {c["key"]: ("interval" if c["scale"] in INTERVAL_SCALES else
                       "ordinal" if c["scale"] in ORDINAL_SCALES else "nominal") for c in campaign.criteria}


def criterion_scales(campaign: Campaign) -> dict[str, tuple[float, float]]:
    """(lowest, highest) score of each numeric criterion: MOS intervals stay inside it."""
    bounds = {c["key"]: numeric_bounds(c) for c in campaign.criteria}
    return {k: b for k, b in bounds.items() if b is not None}


def report_for(campaign: Campaign, frame: pd.DataFrame | None = None, *,
               min_heard: float | None = None) -> CampaignReport:
    """The full campaign report (QC, agreement, MOS/KoALa, decisions) over stored ratings."""
    from .services import qc_config_for

    frame = ratings_frame(campaign, min_heard=min_heard) if frame is None else frame
    levels = {k: v for k, v in criterion_levels(campaign).items()}
    return campaign_report(frame, levels=levels, qc=qc_config_for(campaign),
                           scales=criterion_scales(campaign))


def ratings_export_frame(campaign: Campaign, *, min_heard: float | None = None) -> pd.DataFrame:
    """Ratings for export: pseudonymous rater ids, item ids, metadata, time and listening fields.

    ``heard_fraction``: share of the clip the player reported as heard (0-1, empty for
    items without audio or when no report was required); ``played``: the merged played
    intervals as JSON ``[[start, end], ...]`` in clip seconds; ``elapsed_ms``: server
    time from serving the item to the submission.
    """
    qs = campaign.ratings.order_by("pk")
    if min_heard is not None:
        qs = qs.filter(Q(heard_fraction__isnull=True) | Q(heard_fraction__gte=min_heard))
    rows = list(qs.values_list(
        "item__external_id", "item__kind", "annotator__public_id", "criterion", "value", "comment",
        "submitted_at", "elapsed_ms", "heard_fraction", "played", *[f"item__{m}" for m in META]))
    frame = pd.DataFrame.from_records(rows, columns=[
        "item_id", "item_kind", "rater_id", "criterion", "value", "comment", "submitted_at",
        "elapsed_ms", "heard_fraction", "played", *META])
    frame["played"] = [json.dumps(p) for p in frame["played"]]
    return frame
