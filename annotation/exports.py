"""Report tables and ratings as CSV / JSON / Parquet (rater ids are pseudonymous).

Raters appear by their annotator ``public_id`` only; user names, handles, e-mails and
platform participant ids are never part of an export.
"""

from __future__ import annotations

import io
import json
import math
from typing import Any

import numpy as np
import pandas as pd
from django.http import Http404, HttpResponse

from frontend.csv_safety import escape_frame
from frontend.exports import parquet_safe

from . import selectors
from .models import Campaign

TABLES = ("ratings", "agreement", "mos", "koala", "decisions", "raters", "exclusions")
FORMATS = {"csv": "text/csv; charset=utf-8", "json": "application/json",
           "parquet": "application/vnd.apache.parquet"}


def report_table(campaign: Campaign, table: str, *, min_heard: float | None = None) -> pd.DataFrame:
    """One named table of the campaign report (or the ratings); ``min_heard`` filters
    ratings on their listening evidence first."""
    if table == "ratings":
        return selectors.ratings_export_frame(campaign, min_heard=min_heard)
    frame = selectors.ratings_frame(campaign, min_heard=min_heard)
    if frame.empty:
        return pd.DataFrame()
    report = selectors.report_for(campaign, frame)
    return {
        "agreement": report.agreement,
        "mos": report.mos,
        "koala": report.koala,
        "decisions": report.decisions,
        "raters": report.rater_quality.reset_index(),
        "exclusions": report.exclusions.excluded.reset_index(),
    }[table]


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, np.generic):
        return _clean(value.item())
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """JSON-safe records (NaN → null, numpy scalars → Python)."""
    return [{str(k): _clean(v) for k, v in row.items()} for row in frame.to_dict("records")]


def report_json(campaign: Campaign) -> dict[str, Any]:
    """The whole report as one JSON-ready dict."""
    frame = selectors.ratings_frame(campaign)
    if frame.empty:
        return {"campaign": campaign.slug, "counts": {"ratings_in": 0}, "agreement": [], "mos": [],
                "koala": [], "decisions": [], "raters": [], "exclusions": {"summary": "no ratings"}}
    report = selectors.report_for(campaign, frame)
    return {
        "campaign": campaign.slug,
        "counts": {k: int(v) for k, v in report.counts.items()},
        "agreement": records(report.agreement),
        "mos": records(report.mos),
        "koala": records(report.koala),
        "decisions": records(report.decisions),
        "raters": records(report.rater_quality.reset_index()),
        "exclusions": {"summary": report.exclusions.summary(),
                       "raters": records(report.exclusions.excluded.reset_index())},
    }


def export_response(campaign: Campaign, table: str, fmt: str, *, raw: bool = False,
                    min_heard: float | None = None) -> HttpResponse:
    """An HTTP download of ``table`` in ``fmt`` (CSV formula cells quoted unless ``raw``)."""
    if table not in TABLES or fmt not in FORMATS:
        raise Http404("Unknown table or format")
    frame = report_table(campaign, table, min_heard=min_heard)
    name = f"{campaign.project.slug}-{campaign.slug}-{table}.{fmt}"
    if fmt == "csv":
        body: bytes = (frame if raw else escape_frame(frame)).to_csv(index=False).encode("utf-8")
    elif fmt == "json":
        body = json.dumps(records(frame), ensure_ascii=False, indent=1).encode("utf-8")
    else:
        buf = io.BytesIO()
        parquet_safe(frame).to_parquet(buf, index=False)  # nulls stay null (not "None")
        body = buf.getvalue()
    response = HttpResponse(body, content_type=FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
