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

from . import listening_selectors, selectors
from .models import Campaign

#: the listening-test tables (AB … ranking campaigns; empty for other templates), and
#: ``listening``: all of them as one JSON document
LISTENING = (*listening_selectors.LISTENING_TABLES, "listening")
TABLES = ("ratings", "agreement", "mos", "koala", "decisions", "raters", "exclusions", *LISTENING)
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
    if table in listening_selectors.LISTENING_TABLES:
        summary = listening_selectors.listening_report_for(campaign, report, min_heard=min_heard)
        return listening_selectors.listening_tables(summary).get(table, pd.DataFrame())
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


def _clean_tree(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _clean_tree(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean_tree(v) for v in value]
    return _clean(value)


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
        "listening": listening_json(campaign, report),
    }


def listening_json(campaign: Campaign, report: Any = None, *, min_heard: float | None = None) -> dict[str, Any] | None:
    """The listening-test statistics as JSON: per table its records, plus notes; ``None``
    for campaigns that are not listening tests."""
    summary = listening_selectors.listening_report_for(campaign, report, min_heard=min_heard)
    if summary is None:
        return None
    return {"template": summary.template, "notes": list(summary.notes),
            "criteria": {key: {"measure": rep.measure, "notes": list(rep.notes),
                               "counts": {k: int(v) for k, v in rep.counts.items()}}
                         for key, rep in summary.reports.items()},
            "tables": {name: records(t) for name, t in listening_selectors.listening_tables(summary).items()}}


def export_response(campaign: Campaign, table: str, fmt: str, *, raw: bool = False,
                    min_heard: float | None = None) -> HttpResponse:
    """An HTTP download of ``table`` in ``fmt`` (CSV formula cells quoted unless ``raw``)."""
    if table not in TABLES or fmt not in FORMATS or (table == "listening" and fmt != "json"):
        raise Http404("Unknown table or format")
    name = f"{campaign.project.slug}-{campaign.slug}-{table}.{fmt}"
    if table == "listening":
        frame = selectors.ratings_frame(campaign, min_heard=min_heard)
        report = selectors.report_for(campaign, frame) if not frame.empty else None
        doc = listening_json(campaign, report, min_heard=min_heard)
        response = HttpResponse(json.dumps(_clean_tree(doc), ensure_ascii=False, indent=1).encode("utf-8"),
                                content_type=FORMATS["json"])
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    frame = report_table(campaign, table, min_heard=min_heard)
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
