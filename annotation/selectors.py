"""Reads for annotation campaigns: progress, the blind item payload, ratings and reports.

``ratings_frame`` is the one place ratings leave the database for statistics: it reads
four narrow columns per rating (PostgreSQL ``COPY … TO STDOUT`` into pandas, or a
plain cursor on SQLite) and joins item metadata and pseudonymous rater ids in pandas,
so a million ratings load in about a second.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pandas as pd
from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.urls import reverse

from accounts.models import Project

from .models import (
    CONTROL_KINDS,
    Annotator,
    Assignment,
    AssignmentStatus,
    Campaign,
    Item,
    ItemKind,
    PolicyKind,
    Qualification,
    Rating,
)
from .report import CampaignReport, campaign_report
from .scales import choices_for

META = ("system", "condition", "task", "source", "batch")
ORDINAL_SCALES = ("acr5", "score0_5")


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
        total=Count("pk"), completed=Count("pk", filter=Q(completed_at__isnull=False)),
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
        "percent_complete": (100.0 * complete / len(done)) if done and target else None,
    }


def annotator_progress(annotator: Annotator) -> tuple[int, int]:
    """(items submitted, expected total) for the annotator's progress bar."""
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
    return done, max(total, done)


def item_payload(assignment: Assignment) -> dict[str, Any]:
    """What an annotator may see of an assigned item: texts, an audio URL, the scales.

    Blind by construction: system, task, condition, source, batch, metadata, the
    item's kind and its expected (gold/trap) answers are never included.
    """
    item = assignment.item
    campaign = assignment.campaign
    slug, cslug = campaign.project.slug, campaign.slug
    return {
        "assignment": assignment.public_id,
        "served_at": assignment.served_at.isoformat(),
        "expires_at": assignment.expires_at.isoformat(),
        "audio_url": (reverse("annotation:audio", args=[slug, cslug, assignment.public_id])
                      if item.clip_id else None),
        "duration_s": item.clip.duration_s if item.clip_id else None,
        "context": item.context,
        "question": item.question,
        "reference": item.reference,
        "response": item.response,
        "criteria": [
            {"key": c["key"], "label": c["label"], "comment": c.get("comment", False),
             "choices": [{"value": ch.value, "label": ch.label, "key": ch.key} for ch in choices_for(c)]}
            for c in campaign.criteria
        ],
    }


def training_items(campaign: Campaign) -> list[dict[str, Any]]:
    """Training / anchor items with their reference answers (shown before the work)."""
    out = []
    for item in campaign.items.filter(kind=ItemKind.TRAINING).select_related("clip"):
        labels = []
        for crit in campaign.criteria:
            value = item.expected.get(crit["key"])
            if value is not None:
                label = {c.value: c.label for c in choices_for(crit)}.get(value, value)
                labels.append({"criterion": crit["label"], "value": value, "label": label})
        out.append({"item": item, "expected": labels})
    return out


# ----------------------------------------------------------------------------- ratings


def _ratings_columns(campaign: Campaign) -> pd.DataFrame:
    """(item_id, annotator_id, criterion, value) of the campaign's ratings, fast."""
    table, item_table = Rating._meta.db_table, Item._meta.db_table
    kinds = (ItemKind.REGULAR, *CONTROL_KINDS)
    sql = (f"SELECT r.item_id, r.annotator_id, r.criterion, r.value FROM {table} r "
           f"JOIN {item_table} i ON i.id = r.item_id "
           f"WHERE r.campaign_id = %s AND i.kind IN ({', '.join(['%s'] * len(kinds))}) ORDER BY r.id")
    params = [campaign.pk, *kinds]
    names = ["item_id", "annotator_id", "criterion", "value"]
    if connection.vendor == "postgresql":
        buf = io.BytesIO()
        with connection.cursor() as cursor:
            raw = cursor.cursor  # psycopg 3 cursor: COPY streams CSV without Python rows
            query = connection.ops.compose_sql(sql, params)
            with raw.copy(f"COPY ({query}) TO STDOUT WITH (FORMAT csv)") as copy:
                for chunk in copy:
                    buf.write(chunk)
        buf.seek(0)
        return pd.read_csv(buf, names=names, header=None,
                           dtype={"item_id": np.int64, "annotator_id": np.int64, "criterion": "category",
                                  "value": str}, keep_default_na=False)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return pd.DataFrame.from_records(rows, columns=names)


def ratings_frame(campaign: Campaign) -> pd.DataFrame:
    """One row per rating for :mod:`annotation.report`, raters pseudonymous.

    Columns: ``item_id`` (external id), ``rater_id`` (annotator public id), ``criterion``,
    ``value``, item metadata (system, condition, task, source, batch — empty ones
    dropped), ``gold_value`` / ``trap_value`` for control items. Training and
    qualification ratings are left out.
    """
    raw = _ratings_columns(campaign)
    items = pd.DataFrame.from_records(
        list(campaign.items.values_list("pk", "external_id", "kind", *META, "expected")),
        columns=["pk", "external_id", "kind", *META, "expected"])
    annotators = pd.DataFrame.from_records(list(campaign.annotators.values_list("pk", "public_id")),
                                           columns=["pk", "public_id"])
    if raw.empty:
        return pd.DataFrame(columns=["item_id", "rater_id", "criterion", "value"])
    item_pos = pd.Index(items["pk"]).get_indexer(raw["item_id"].to_numpy())
    rater_pos = pd.Index(annotators["pk"]).get_indexer(raw["annotator_id"].to_numpy())
    out = pd.DataFrame({
        "item_id": pd.Categorical.from_codes(item_pos, categories=items["external_id"]),
        "rater_id": pd.Categorical.from_codes(rater_pos, categories=annotators["public_id"]),
        "criterion": raw["criterion"].astype(str) if raw["criterion"].dtype != "category" else raw["criterion"],
        "value": raw["value"].astype(object),
    })
    for col in META:
        values = items[col].fillna("")
        if (values != "").any():
            out[col] = values.to_numpy(dtype=object)[item_pos]
    kind = items["kind"].to_numpy(dtype=object)[item_pos]
    for name, ctl in (("gold_value", ItemKind.GOLD), ("trap_value", ItemKind.TRAP)):
        rows = np.flatnonzero(kind == ctl)
        column = np.full(len(out), np.nan, dtype=object)
        if len(rows):
            expected = items["expected"].to_numpy(dtype=object)
            crit = out["criterion"].to_numpy(dtype=object)
            column[rows] = [expected[item_pos[i]].get(crit[i], np.nan) for i in rows]
        out[name] = column
    return out


def criterion_levels(campaign: Campaign) -> dict[str, str]:
    """Krippendorff level per criterion: ordinal for rating scales, nominal for labels."""
    return {c["key"]: ("ordinal" if c["scale"] in ORDINAL_SCALES else "nominal") for c in campaign.criteria}


def report_for(campaign: Campaign, frame: pd.DataFrame | None = None) -> CampaignReport:
    """The full campaign report (QC, agreement, MOS/KoALa, decisions) over stored ratings."""
    from .services import qc_config_for

    frame = ratings_frame(campaign) if frame is None else frame
    levels = {k: v for k, v in criterion_levels(campaign).items()}
    return campaign_report(frame, levels=levels, qc=qc_config_for(campaign))


def ratings_export_frame(campaign: Campaign) -> pd.DataFrame:
    """Ratings for export: pseudonymous rater ids, item ids, metadata, time fields."""
    rows = list(campaign.ratings.order_by("pk").values_list(
        "item__external_id", "item__kind", "annotator__public_id", "criterion", "value", "comment",
        "submitted_at", "elapsed_ms", *[f"item__{m}" for m in META]))
    return pd.DataFrame.from_records(rows, columns=[
        "item_id", "item_kind", "rater_id", "criterion", "value", "comment", "submitted_at",
        "elapsed_ms", *META])
