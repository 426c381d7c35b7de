"""Researcher pages for IRT: list and start fits, follow progress, read and export reports.

Thin: authorize, call a selector or service, render. Fits never run inside a
request; the start button only records a queued fit (see :mod:`irt.services`).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Project
from accounts.permissions import can_research, role_in
from frontend.csv_safety import escape_frame, raw_requested
from irt import plots, report, selectors, services
from irt.models import Fit, FitStatus

#: columns shown on the page (exports keep every column)
DISPLAY_COLUMNS: dict[str, list[str]] = {
    "humans_vs_models": [
        "mode", "kind", "n_responders", "n_responses", "accuracy", "mean_theta", "sd_theta",
        "mean_theta_lo", "mean_theta_hi",
    ],
    "ranking": ["rank", "entry", "kind", "condition", "n_answered", "accuracy", "theta", "theta_lo", "theta_hi"],
    "top_items": ["external_id", "category", "question", "answer", "correct_choice", "a", "a_sd", "b", "b_sd"],
    "bottom_items": ["external_id", "category", "question", "answer", "correct_choice", "a", "a_sd", "b", "b_sd"],
    "flags": ["external_id", "question", "answer", "a", "b", "n_human_answers", "n_human_correct", "reasons"],
    "responders": ["name", "kind", "condition", "n_answered", "accuracy", "theta", "theta_sd", "theta_lo", "theta_hi"],
}
#: tables shown on the report page, in order (the rest are downloads only)
PAGE_TABLES = ["humans_vs_models", "ranking", "model_comparison", "by_source", "by_kind", "top_items", "bottom_items",
               "flags", "categories"]
PLOTS = ("abilities", "categories", "icc", "information")
ICC_ITEMS = 4
#: rows of a table shown on the page; the downloads have them all
PAGE_ROWS = 50


def _project_for_research(request: HttpRequest, slug: str) -> Project:
    """The project if the user may research it; participants get 403, others 404."""
    project = get_object_or_404(Project, slug=slug)
    if can_research(request.user, project):
        return project
    if role_in(request.user, project) is not None:
        raise PermissionDenied(_("Your role in this project does not allow this."))
    raise Http404("No such project")


def _fit_or_404(project: Project, fit_id: int) -> Fit:
    fit = selectors.fit_get(project, fit_id)
    if fit is None:
        raise Http404("No such fit")
    return fit


def _cell(value) -> tuple[str, bool]:
    """Display text and whether the value is numeric (right-aligned)."""
    if value is None:
        return "—", True
    if isinstance(value, (bool, np.bool_)):
        return ("✓" if value else ""), False
    if isinstance(value, (int, np.integer)):
        return str(int(value)), True
    if isinstance(value, (float, np.floating)):
        return ("—" if math.isnan(value) else f"{float(value):.3f}"), True
    return str(value), False


def _table_context(key: str, df: pd.DataFrame, limit: int | None = None) -> dict:
    cols = [c for c in DISPLAY_COLUMNS.get(key, list(df.columns)) if c in df.columns and c != "ci_method"]
    shown = df if limit is None else df.head(limit)
    rows = [[_cell(v) for v in rec] for rec in shown[cols].itertuples(index=False, name=None)]
    title, ref = selectors.REPORT_TABLES.get(key, (key, ""))
    return {
        "key": key, "title": title, "ref": ref, "columns": cols, "rows": rows, "n_rows": len(df),
        "truncated": len(rows) < len(df),
    }


def _export(df: pd.DataFrame, name: str, fmt: str, *, raw: bool = False) -> HttpResponse:
    if fmt == "json":
        body = df.to_json(orient="records", indent=1, force_ascii=False)
        resp = HttpResponse(body, content_type="application/json; charset=utf-8")
        resp["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return resp
    # formula-like text cells quoted unless ?raw=1 (frontend.csv_safety)
    resp = HttpResponse((df if raw else escape_frame(df)).to_csv(index=False), content_type="text/csv; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return resp


def _svg_inline(svg: bytes) -> str:
    """Matplotlib's SVG without the XML prolog/doctype and its CSP-blocked <style>, ready to inline in HTML."""
    from frontend.charts import svg_for_html

    return svg_for_html(svg)


def _plot_bytes(fit: Fit, tables: dict[str, pd.DataFrame] | None, name: str, fmt: str) -> bytes:
    """A report figure rendered once per fit and format (a succeeded fit never changes,
    so the bytes are cached for a day under the fit's id and finish time)."""
    key = f"irt:plot:{fit.pk}:{fit.finished_at.timestamp() if fit.finished_at else 0}:{name}:{fmt}"
    data = cache.get(key)
    if data is None:
        data = plots.to_bytes(_figure(fit, tables if tables is not None else selectors.fit_report(fit), name), fmt)
        cache.set(key, data, 24 * 3600)
    return data


def _figure(fit: Fit, tables: dict[str, pd.DataFrame], name: str):
    if name == "abilities":
        return plots.ability_distributions(tables["responders"])
    if name == "categories":
        return plots.category_accuracy_vs_difficulty(tables["categories"])
    if name == "information":
        return plots.test_information_plot(tables["test_information"])
    if name == "icc":
        d = selectors.fit_data(fit)
        items = tables["items"].sort_values("a", ascending=False, kind="mergesort")
        picks = list(items["item_id"].head(ICC_ITEMS)) + list(items["item_id"].tail(ICC_ITEMS))
        picks = list(dict.fromkeys(picks))
        idx = d.item_map.index(picks)
        ext = dict(zip(tables["items"]["item_id"], tables["items"]["external_id"], strict=False))
        labels = {int(i): str(ext.get(q, q)) for i, q in zip(idx, picks, strict=True)}
        return plots.icc_plot(report.item_characteristic_curves(d.result, idx), labels=labels)
    raise Http404("No such plot")


# --------------------------------------------------------------------------- pages


@login_required
@require_GET
def fit_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Fits of the project with live status, the start form and Table 2 across modes."""
    project = _project_for_research(request, slug)
    services.irt_fits_reap_stale(project)
    fits = list(selectors.fit_list(project)[:100])
    sources, categories = selectors.fit_sources_and_categories(project)
    table2 = selectors.humans_vs_models_by_mode(project)
    return render(request, "irt/fit_list.html", {
        "project": project,
        "fits": fits,
        "sources": sources,
        "categories": categories,
        "models": services.MODELS,
        "methods": services.METHODS,
        "table2": _table_context("humans_vs_models", table2) if not table2.empty else None,
        "broker": services.broker_configured(),
    })


@login_required
@require_POST
def fit_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Record a queued fit (it runs in the background) and go back to the list."""
    project = _project_for_research(request, slug)
    options = {k: request.POST.get(k, "") for k in ("mode", "model", "method", "source", "category", "seed")}
    try:
        fit = services.irt_fit_create(project=project, options=options, by=request.user)
    except services.FitOptionsError as exc:
        messages.error(request, str(exc))
    else:
        if fit.dispatch_error:
            messages.warning(request, _(
                "Background workers unavailable: the task broker did not answer. Fit #%(id)s is "
                "recorded and starts when the workers are back."
            ) % {"id": fit.pk})
        else:
            messages.success(request, _("Fit #%(id)s queued.") % {"id": fit.pk})
    return redirect("irt:fit_list", slug=project.slug)


@login_required
@require_GET
def fit_status_json(request: HttpRequest, slug: str) -> JsonResponse:
    """Status of the project's fits (``?ids=1,2`` to restrict), for the page's poll."""
    project = _project_for_research(request, slug)
    services.irt_fits_reap_stale(project)
    qs = selectors.fit_list(project)
    ids = [int(x) for x in re.findall(r"\d+", request.GET.get("ids", ""))]
    if ids:
        qs = qs.filter(pk__in=ids)
    return JsonResponse({"fits": [selectors.fit_status(f) for f in qs[:100]]})


@login_required
@require_GET
def fit_detail(request: HttpRequest, slug: str, fit_id: int) -> HttpResponse:
    """A fit's report: tables (with CSV/JSON links) and inline SVG plots."""
    project = _project_for_research(request, slug)
    fit = _fit_or_404(project, fit_id)
    context: dict = {"project": project, "fit": fit, "options": fit.options}
    if fit.status == FitStatus.SUCCEEDED:
        tables = selectors.fit_report(fit)
        context["tables"] = [_table_context(k, tables[k], PAGE_ROWS) for k in PAGE_TABLES]
        context["responders"] = _table_context(
            "responders", tables["responders"].sort_values("theta", ascending=False), PAGE_ROWS * 10
        )
        context["downloads"] = [(k, selectors.REPORT_TABLES[k][0]) for k in tables]
        context["comparison_note"] = ((fit.result or {}).get("model_comparison") or {}).get("note", "")
        context["figures"] = {name: _svg_inline(_plot_bytes(fit, tables, name, "svg")) for name in PLOTS}
        context["ci_method"] = report.MEAN_CI_METHOD
    return render(request, "irt/fit_detail.html", context)


@login_required
@require_GET
def fit_table(request: HttpRequest, slug: str, fit_id: int, key: str) -> HttpResponse:
    """One report table as CSV (default) or JSON (``?format=json``)."""
    project = _project_for_research(request, slug)
    fit = _fit_or_404(project, fit_id)
    if key not in selectors.REPORT_TABLES:
        raise Http404("No such table")
    if fit.status != FitStatus.SUCCEEDED:
        raise Http404("This fit has no report")
    fmt = request.GET.get("format", "csv")
    if fmt not in ("csv", "json"):
        return JsonResponse({"error": {"field": "format", "message": "use csv or json"}}, status=400)
    df = selectors.fit_report(fit)[key]
    return _export(df, f"{project.slug}-irt-fit{fit.pk}-{key}", fmt, raw=raw_requested(request.GET))


@login_required
@require_GET
def fit_plot(request: HttpRequest, slug: str, fit_id: int, name: str, fmt: str) -> HttpResponse:
    """One figure as PNG or SVG."""
    project = _project_for_research(request, slug)
    fit = _fit_or_404(project, fit_id)
    if name not in PLOTS or fmt not in ("png", "svg") or fit.status != FitStatus.SUCCEEDED:
        raise Http404("No such plot")
    data = _plot_bytes(fit, None, name, fmt)
    resp = HttpResponse(data, content_type="image/png" if fmt == "png" else "image/svg+xml")
    resp["Content-Disposition"] = f'attachment; filename="{project.slug}-irt-fit{fit.pk}-{name}.{fmt}"'
    return resp


@login_required
@require_GET
def table2(request: HttpRequest, slug: str) -> HttpResponse:
    """Audita Table 2 (humans vs models, free-form and MCQ) from the newest fits."""
    project = _project_for_research(request, slug)
    fmt = request.GET.get("format", "csv")
    if fmt not in ("csv", "json"):
        return JsonResponse({"error": {"field": "format", "message": "use csv or json"}}, status=400)
    return _export(selectors.humans_vs_models_by_mode(project), f"{project.slug}-irt-humans-vs-models", fmt,
                   raw=raw_requested(request.GET))
