"""The seed-paper tables page (``/p/<slug>/seeds/``) and its CSV/JSON exports.

Thin: check the research role, call :func:`frontend.seed_selectors.seed_tables`,
format. Every table's CSV and JSON carry the raw column keys; the page shows the
readable labels of :mod:`frontend.seed_columns`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from . import exports
from .csv_safety import raw_requested
from .seed_columns import seed_cell, seed_label
from .seed_selectors import SEED_TABLES, seed_tables, variant_answers_table
from .views import _research_project

#: Rows shown per table on the page (the downloads hold them all).
PAGE_ROWS = 200


def _field(request: HttpRequest) -> str:
    return str(request.GET.get("field", "") or "").strip()[:120]


@login_required
def seed_tables_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every seed-paper table of the project, grouped by paper; ``?format=json`` for all of them."""
    project = _research_project(request, slug)
    result = seed_tables(project, field=_field(request))
    if request.GET.get("format") == "json":
        return JsonResponse({"project": project.slug, "metadata_field": result.metadata_field,
                             "tables": {k: exports.table_records(t) for k, t in result.tables.items()},
                             "notes": result.notes})
    suffix = "?" + urlencode({"field": result.metadata_field}) if result.metadata_field else ""
    papers: dict[str, list[dict]] = {}
    for key, (paper, ref, title) in SEED_TABLES.items():
        table = result.tables[key]
        columns = [str(c) for c in table.columns]
        rows = [[seed_cell(c, v) for c, v in zip(columns, values, strict=True)]
                for values in table.head(PAGE_ROWS).itertuples(index=False, name=None)]
        papers.setdefault(paper, []).append({
            "key": key, "ref": ref, "title": _(title),
            "columns": [(seed_label(c, _), c) for c in columns], "rows": rows, "n_rows": len(table),
            "truncated": len(table) > PAGE_ROWS, "note": _(result.notes[key]) if key in result.notes else "",
            "csv": reverse("frontend:seed_table", args=[slug, key, "csv"]) + suffix,
            "json": reverse("frontend:seed_table", args=[slug, key, "json"]) + suffix,
        })
    return render(request, "frontend/seed_tables.html", {
        "project": project, "papers": list(papers.items()), "fields": result.metadata_fields,
        "field": result.metadata_field,
    })


@login_required
def seed_table(request: HttpRequest, slug: str, name: str, fmt: str) -> HttpResponse:
    """One seed table as CSV or JSON (raw column keys)."""
    project = _research_project(request, slug)
    if name not in SEED_TABLES or fmt not in ("csv", "json"):
        raise Http404("No such table")
    table = seed_tables(project, field=_field(request), only=name).tables[name]
    response = HttpResponse(exports.table_bytes(table, fmt, raw=raw_requested(request.GET)),
                            content_type=exports.CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{project.slug}-seed-{name}.{fmt}"'
    return response


@login_required
def seed_variant_answers(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """Every variant model answer (counterfactual, per clue, prompt variant or language) as CSV or JSON."""
    project = _research_project(request, slug)
    if fmt not in ("csv", "json"):
        raise Http404("No such format")
    table = variant_answers_table(project)
    if "judged_at" in table:
        table["judged_at"] = table["judged_at"].map(lambda v: v.isoformat() if v is not None else None)
    response = HttpResponse(exports.table_bytes(table, fmt, raw=raw_requested(request.GET)),
                            content_type=exports.CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{project.slug}-variant-answers.{fmt}"'
    return response
