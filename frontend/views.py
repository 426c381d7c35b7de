"""Landing page and the researcher workspace: dashboard, responses, questions, exports.

Views are thin: they check the project role (``accounts.permissions``), parse the
filters, call :mod:`frontend.selectors` and render. Researcher pages answer 404
to people who cannot see the project and 403 to members without a research role.
"""

from __future__ import annotations

import functools
import math
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from accounts.models import Membership, Project
from accounts.permissions import can_research, research_projects
from quiz.models import Question
from quiz.rendering import answerline_html

from . import charts, exports, report_bundle, selectors
from . import dashboard as core
from .columns import column_label
from .csv_safety import raw_requested
from .dashboard import Filters
from .provenance import FIT_COLUMNS, ThetaFit


def home(request: HttpRequest) -> HttpResponse:
    """Public quizzes to play, and the researcher's own projects."""
    return render(
        request,
        "frontend/home.html",
        {
            "public_projects": Project.objects.filter(is_public=True),
            "my_projects": research_projects(request.user),
        },
    )


def _research_project(request: HttpRequest, slug: str) -> Project:
    """The project if the user may research it; 404 if they cannot see it, 403 if a mere member."""
    project = get_object_or_404(Project, slug=slug)
    if can_research(request.user, project):
        return project
    if Membership.objects.filter(project=project, user_id=request.user.pk).exists():
        raise PermissionDenied(_("Your role in this project does not allow this."))
    raise Http404("No such project")


def _fmt_pct(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{100 * value:.1f}%"


@functools.lru_cache(maxsize=256)
def _responses_path(slug: str, prefix: str, urlconf: str | None) -> str:
    """The responses list URL of a project, memoized: a dashboard links hundreds of
    numbers to it and ``reverse`` costs ~0.5 ms each (the key includes what
    ``reverse`` depends on: script prefix and URLconf)."""
    return reverse("frontend:responses", args=[slug], urlconf=urlconf)


def _responses_href(slug: str, filters: Filters, **extra) -> str:
    query = {**filters.as_query(), **{k: v for k, v in extra.items() if v not in (None, "")}}
    path = _responses_path(slug, get_script_prefix(), get_urlconf())
    return path + ("?" + urlencode(query) if query else "")


@login_required
def workspace(request: HttpRequest, slug: str) -> HttpResponse:
    """The project's research home: counts, links, API token."""
    project = _research_project(request, slug)
    token = Token.objects.filter(user=request.user).first()
    counts = {
        "questions": project.questions.count(),
        "responses": project.responses.count(),
        # the dashboard's definition (D19): human players with at least one response, not
        # every player record (a guest who opened the play page and left has one)
        "humans": project.responses.filter(responder__kind="human").values("responder_id").distinct().count(),
        "model_systems": project.model_systems.count(),
    }
    from quiz.study import study_for

    return render(request, "frontend/workspace.html", {
        "project": project, "counts": counts, "token": token, "study": study_for(project),
        "new_token": request.session.pop("earshot_new_token", None),
    })


@login_required
@require_POST
def api_token(request: HttpRequest, slug: str) -> HttpResponse:
    """Create (or replace) the user's API token; it is shown once on the workspace page."""
    project = _research_project(request, slug)
    Token.objects.filter(user=request.user).delete()
    token = Token.objects.create(user=request.user)
    request.session["earshot_new_token"] = token.key
    return redirect("frontend:workspace", project.slug)


def _cells(slug: str, filters: Filters, table_name: str, table) -> list[dict]:
    """Rows of a breakdown table with every number linked to its responses."""
    rows = []
    for record in exports.table_records(table):
        group = record.get("group")
        narrow: dict = {}
        if table_name == "category":
            narrow = {"category": group}
        elif table_name == "source":
            narrow = {"source": "" if group == "(none)" else group}
        elif table_name == "qtype":
            narrow = {"qtype": group}
        elif table_name == "condition":
            narrow = {"kind": "human"} if group == "humans" else {"kind": "model", "condition": group}
        elif table_name == "models":
            narrow = {"kind": "model", "responder": group}
        f = Filters(**{**filters.as_query(), **{k: v for k, v in narrow.items() if k in Filters.KEYS}})
        extra = {k: v for k, v in narrow.items() if k not in Filters.KEYS}
        record["_href"] = {}
        for series in ("human", "model", "free", "mcq", "overall"):
            if f"{series}_n" not in record:
                continue
            params = dict(extra)
            if series in ("human", "model"):
                params["kind"] = series
            f2 = Filters(**{**f.as_query(), "mode": series}) if series in ("free", "mcq") else f
            record["_href"][f"{series}_n"] = _responses_href(slug, f2, **params)
            record["_href"][f"{series}_correct"] = _responses_href(slug, f2, correct="1", **params)
        rows.append(record)
    return rows


HIDDEN = {"group", "topline_n", "topline_correct",
          # the θ columns' fit provenance: one value per column, named in the section's note and header
          *(f"{mode}_{key}" for mode in core.MODES for key in FIT_COLUMNS)}
PCT_SUFFIXES = ("accuracy", "share", "agreement")


def _format_cell(key: str, value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if key.endswith(PCT_SUFFIXES) or key.startswith(("chose_", "error_")):
        return _fmt_pct(value)
    if key in ("gap", "topline_gap"):
        return f"{100 * value:+.1f}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _table_view(name: str, rows: list[dict], columns: list[str], slug: str, filters: Filters,
                theta: dict[str, ThetaFit] | None = None) -> dict:
    """Header and formatted, linked cells of one dashboard table.

    Headers are readable labels (:func:`frontend.columns.column_label`; the key is the
    tooltip); a θ column's header also names its fit, or says there is none.
    """
    shown = [c for c in columns if c not in HIDDEN or (c == "group" and "label" not in columns)]
    body = []
    for row in rows:
        hrefs = row.get("_href", {})
        cells = []
        for key in shown:
            href = hrefs.get(key, "")
            if name in ("mcq_positions",) and key.startswith("chose_"):
                href = _responses_href(slug, Filters(**{**filters.as_query(), "mode": "mcq"}),
                                       group=row["group"], position="ABCD".index(key[-1]))
            if name == "unsolved" and key == "external_id":
                href = reverse("frontend:question", args=[slug, row[key]])
            cells.append({"text": _format_cell(key, row.get(key)), "href": href,
                          "num": isinstance(row.get(key), int | float) and not isinstance(row.get(key), bool)})
        body.append(cells)
    header = []
    for key in shown:
        text = column_label(key, _)
        mode = key[:-len("_theta")] if key.endswith("_theta") else None
        if mode in core.MODES:
            source = (theta or {}).get(mode)
            text += " · " + (_("fit #%(id)s") % {"id": source.fit_id} if source is not None and source.found
                             else _("no fit") if source is not None else _("not in this view"))
        header.append({"key": key, "text": text})
    return {"header": header, "body": body, "body_html": _rows_html(body)}


def _rows_html(body: list[list[dict]]) -> str:
    """The table rows as HTML, escaped as the template would: ~1,400 cells through
    the template engine cost ~0.1 s per dashboard page, this a few milliseconds."""
    rows = []
    for cells in body:
        tds = format_html_join("", "<td{}>{}</td>", (
            (mark_safe(' class="num"') if c["num"] else "",
             format_html('<a href="{}">{}</a>', c["href"], c["text"]) if c["href"] else c["text"])
            for c in cells
        ))
        rows.append(format_html("<tr>{}</tr>\n    ", tds))
    return mark_safe("".join(rows))  # every piece above went through format_html


@login_required
def dashboard_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Model-vs-human dashboard; ``?format=json`` returns the same numbers as JSON."""
    project = _research_project(request, slug)
    filters = Filters.from_query(request.GET)
    data = selectors.dashboard_data(project, filters)
    if request.GET.get("format") == "json":
        return JsonResponse(dashboard_json(project, data))
    if request.GET.get("format") in ("csv", "parquet"):
        table = request.GET.get("table", "headline")
        if table not in data.tables:
            raise Http404("No such table")
        return _table_response(project, table, data.tables[table], request.GET["format"],
                               raw=raw_requested(request.GET))
    query = filters.as_query()
    suffix = ("?" + urlencode(query)) if query else ""
    sections = []
    for name, (title, chart) in selectors.TABLES.items():
        table = data.tables[name]
        sections.append({
            "name": name, "title": _(title), "chart": chart,
            "table": _table_view(name, _cells(slug, filters, name, table), list(table.columns), slug, filters,
                                 data.theta),
            "chart_svg": reverse("frontend:dashboard_chart", args=[slug, name, "svg"]) + suffix if chart else "",
            "chart_size": charts.chart_size(name, table) if chart else None,
            "chart_png": reverse("frontend:dashboard_chart", args=[slug, name, "png"]) + suffix if chart else "",
            "csv": reverse("frontend:dashboard_table", args=[slug, name, "csv"]) + suffix,
            "json": reverse("frontend:dashboard_table", args=[slug, name, "json"]) + suffix,
            "parquet": reverse("frontend:dashboard_table", args=[slug, name, "parquet"]) + suffix,
        })
    head = data.head
    modes = []
    for m in head.modes:
        f = Filters(**{**query, "mode": m.mode})
        modes.append({
            "mode": m.mode, "row": m,
            "human": _fmt_pct(m.human_accuracy), "model": _fmt_pct(m.model_accuracy),
            "topline": _fmt_pct(m.topline_accuracy), "best": _fmt_pct(m.best_model_accuracy),
            "gap": "–" if m.gap is None else f"{100 * m.gap:+.1f}",
            "topline_gap": "–" if m.topline_gap is None else f"{100 * m.topline_gap:+.1f}",
            "human_href": _responses_href(slug, f, kind="human"),
            "model_href": _responses_href(slug, f, kind="model"),
        })
    return render(request, "frontend/dashboard.html", {
        "project": project, "filters": filters, "choices": selectors.filter_choices(project),
        "head": head, "modes": modes, "counts": head.counts, "sections": sections,
        "query": suffix,
        "responses_href": _responses_href(slug, filters),
        "theta": list(data.theta.values()),
    })


def dashboard_json(project: Project, data: selectors.DashboardData) -> dict:
    """The dashboard's numbers as JSON (shared by the page's ``?format=json`` and the API)."""
    head = data.head
    return {
        "project": project.slug,
        "filters": data.filters.as_query(),
        "counts": head.counts,
        "topline": {"responder_ids": list(head.topline.responder_ids), "eligible": head.topline.eligible,
                    "share": head.topline.share, "min_answers": head.topline.min_answers},
        "tables": {name: exports.table_records(table) for name, table in data.tables.items()},
        "theta_fits": {mode: source.as_dict() for mode, source in data.theta.items()},
    }


def _table_response(project: Project, name: str, table, fmt: str, *, raw: bool = False) -> HttpResponse:
    response = HttpResponse(exports.table_bytes(table, fmt, raw=raw), content_type=exports.CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{project.slug}-{name}.{fmt}"'
    return response


@login_required
def dashboard_table(request: HttpRequest, slug: str, name: str, fmt: str) -> HttpResponse:
    """One dashboard table as CSV, JSON or Parquet (same filters as the page)."""
    project = _research_project(request, slug)
    if name not in selectors.TABLES or fmt not in ("csv", "json", "parquet"):
        raise Http404("No such table")
    data = selectors.dashboard_data(project, Filters.from_query(request.GET), only={name})
    return _table_response(project, name, data.tables[name], fmt, raw=raw_requested(request.GET))


@login_required
def dashboard_chart(request: HttpRequest, slug: str, name: str, fmt: str) -> HttpResponse:
    """One dashboard chart as SVG or PNG; ``?download=1`` makes it an attachment."""
    project = _research_project(request, slug)
    if name not in charts.CHARTED or fmt not in ("svg", "png"):
        raise Http404("No such chart")
    data = selectors.dashboard_data(project, Filters.from_query(request.GET), only={name})
    fig = charts.chart_for(name, data.tables[name], str(selectors.TABLES[name][0]))
    response = HttpResponse(charts.render(fig, fmt), content_type=exports.CONTENT_TYPES[fmt])
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{project.slug}-{name}.{fmt}"'
    return response


@login_required
def responses_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The responses behind a dashboard number, paginated."""
    project = _research_project(request, slug)
    rf = selectors.ResponseFilters.from_query(request.GET)
    qs = selectors.responses_list(project, rf)
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    query = rf.as_query()
    return render(request, "frontend/responses.html", {
        "project": project, "page": page, "filters": rf, "query": urlencode(query),
        "active": query,
    })


@login_required
def questions_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The project's questions with answer counts, paginated."""
    from django.db.models import Count, Q

    project = _research_project(request, slug)
    qs = (
        Question.objects.filter(project=project).select_related("category")
        .annotate(n=Count("responses"), n_correct=Count("responses", filter=Q(responses__correct=True)))
        .order_by("external_id")
    )
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    return render(request, "frontend/questions.html", {"project": project, "page": page})


@login_required
def question_page(request: HttpRequest, slug: str, external_id: str) -> HttpResponse:
    """One question: prompt, audio, answerline, every response, IRT parameters, adjudication trail."""
    project = _research_project(request, slug)
    question = get_object_or_404(Question.objects.select_related("category"), project=project,
                                 external_id=external_id)
    clips = [qc.clip for qc in question.question_clips.select_related("clip").order_by("position")]
    responses = list(selectors.question_responses(question))
    n_h = [r for r in responses if r.responder.kind == "human"]
    n_m = [r for r in responses if r.responder.kind == "model"]
    return render(request, "frontend/question.html", {
        "project": project, "question": question, "clips": clips, "responses": responses,
        "human_accuracy": _fmt_pct(core.accuracy(sum(r.verdict for r in n_h), len(n_h))),
        "model_accuracy": _fmt_pct(core.accuracy(sum(r.verdict for r in n_m), len(n_m))),
        "irt": selectors.question_irt(question), "trail": selectors.adjudication_trail(question),
        "letters": "ABCDEFGHIJ",
        # Escaped like the play page's reveal (F-7): a bank file wrote this text.
        "answerline_html": answerline_html(question.answerline),
    })


@login_required
def export_responses(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """Every response (under the dashboard filters) streamed as CSV, JSONL or Parquet."""
    project = _research_project(request, slug)
    filters = Filters.from_query(request.GET)
    rows = exports.responses_rows(project, filters)
    filename = f"{project.slug}-responses.{fmt}"
    if fmt == "csv":
        response = StreamingHttpResponse(exports.csv_export(project, filters, raw=raw_requested(request.GET)),
                                         content_type=exports.CONTENT_TYPES["csv"])
    elif fmt == "jsonl":
        response = StreamingHttpResponse(exports.jsonl_export(project, filters), content_type=exports.CONTENT_TYPES["jsonl"])
    elif fmt == "parquet":
        handle = exports.parquet_file(rows)
        response = FileResponse(handle, content_type=exports.CONTENT_TYPES["parquet"])
    else:
        raise Http404("No such format")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def export_bundle(request: HttpRequest, slug: str) -> HttpResponse:
    """The project's report bundle (HTML report, figures, tables, manifest) as a ZIP."""
    project = _research_project(request, slug)
    handle = report_bundle.bundle_file(project, raw=raw_requested(request.GET))
    response = FileResponse(handle, content_type=exports.CONTENT_TYPES["zip"])
    response["Content-Disposition"] = f'attachment; filename="{project.slug}-report.zip"'
    return response
