"""Judging pages: adjudication queue and trail, player challenges, judge-human agreement, rubrics.

Researcher pages answer 404 to people who are not members of the project and 403
to members without a research role (participants), like the REST API.
"""

from __future__ import annotations

import csv
import json

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import Project
from accounts.permissions import can_play, can_research, role_in
from frontend.csv_safety import escape_mapping, raw_requested
from quiz.models import Response
from quiz.rendering import answerline_html

from . import selectors, services
from .agreement_report import CELL_CSV_FIELDS
from .apis import agreement_params, builtin_data
from .llm import BUILTIN_PROMPTS
from .models import RubricPurpose


class _Login(Exception):
    pass


def _research_project(request: HttpRequest, slug: str) -> Project:
    if not request.user.is_authenticated:
        raise _Login
    project = get_object_or_404(Project, slug=slug)
    if can_research(request.user, project):
        return project
    if role_in(request.user, project) is not None:
        raise PermissionDenied
    raise Http404("No such project")


def _zone(request: HttpRequest) -> tuple[float, float]:
    low, high = selectors.grey_zone()
    try:
        low = float(request.GET.get("low", low))
        high = float(request.GET.get("high", high))
    except ValueError:
        pass
    low, high = max(0.0, min(low, 1.0)), max(0.0, min(high, 1.0))
    return (low, high) if low <= high else (high, low)


@require_GET
def adjudicate(request: HttpRequest, slug: str) -> HttpResponse:
    """The adjudication queue: open challenges, then grey-zone verdicts; recent trail."""
    try:
        project = _research_project(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    low, high = _zone(request)
    queue = selectors.adjudication_queue(project=project, low=low, high=high)
    return render(
        request,
        "judging/adjudicate.html",
        {
            "project": project,
            "low": low,
            "high": high,
            "queue": [
                {"item": item, "answerline_html": answerline_html(item.response.question.answerline)}
                for item in queue
            ],
            "trail": selectors.human_judgements_list(project=project, limit=50),
            "next": request.get_full_path(),
        },
    )


@require_http_methods(["GET", "POST"])
def response_adjudicate(request: HttpRequest, slug: str, response_id: int) -> HttpResponse:
    """One response's trail (GET) or a researcher's override (POST correct=1|0, note)."""
    try:
        project = _research_project(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    response = get_object_or_404(
        Response.objects.select_related("question", "question__category", "responder"),
        pk=response_id, project=project,
    )
    if request.method == "POST":
        decision = request.POST.get("correct")
        if decision not in ("1", "0"):
            messages.error(request, _("Choose correct or wrong."))
        else:
            services.override_set(
                response=response, correct=decision == "1", by=request.user,
                note=request.POST.get("note", ""),
            )
            messages.success(request, _("Saved: response #%(id)s is now judged %(v)s.") % {
                "id": response.pk, "v": _("correct") if decision == "1" else _("wrong"),
            })
        target = request.POST.get("next") or ""
        if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
            target = reverse("judging:adjudicate", args=[project.slug])
        return redirect(target)
    return render(
        request,
        "judging/response_trail.html",
        {
            "project": project,
            "trail": selectors.response_trail(response),
            "answerline_html": answerline_html(response.question.answerline),
            "next": request.get_full_path(),
        },
    )


def _json_error(field: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"field": field, "message": message}}, status=status)


@require_POST
def challenge_submit(request: HttpRequest, slug: str) -> JsonResponse:
    """A player challenges their own judged answer: JSON ``{response_id, text}``."""
    project = get_object_or_404(Project, slug=slug)
    if not can_play(request.user, project):
        raise Http404("No such quiz")
    if not request.user.is_authenticated:
        return _json_error("user", "start a game first", status=403)
    try:
        payload = json.loads(request.body or b"{}")
    except json.JSONDecodeError:
        return _json_error("body", "must be JSON")
    if not isinstance(payload, dict):
        return _json_error("body", "must be a JSON object")
    try:
        response_id = int(payload.get("response_id"))
    except (TypeError, ValueError):
        return _json_error("response_id", "is required")
    response = Response.objects.select_related("responder").filter(pk=response_id, project=project).first()
    if response is None or response.responder.user_id != request.user.pk:
        return _json_error("response_id", "unknown or not yours", status=404)
    try:
        challenge, created = services.challenge_submit(
            response=response, by=request.user, text=str(payload.get("text") or "")
        )
    except services.JudgingError as exc:
        return _json_error(exc.field, str(exc))
    return JsonResponse(
        {
            "id": challenge.pk,
            "status": challenge.status,
            "created": created,
            "message": _("Thanks! A researcher will look at your answer."),
        },
        status=201 if created else 200,
    )


def _table5(report: dict) -> dict:
    """SEA Table 5's shape: languages x (judge, condition) -> the cell (pooled over tasks)."""
    cells = [c for c in report["cells"] if c["task"] == "all"]
    languages = [*sorted({c["language"] for c in cells if c["language"] != "all"}), "all"]
    conditions = [*sorted({c["condition"] for c in cells if c["condition"] != "all"}), "all"]
    index = {(c["judge"], c["language"], c["condition"]): c for c in cells}
    return {
        "conditions": conditions,
        "judges": report["judges"],
        "rows": [
            {"language": lang,
             "groups": [{"judge": j, "cells": [index.get((j, lang, cond)) for cond in conditions]}
                        for j in report["judges"]]}
            for lang in languages
        ],
    }


def _csv(name: str, fields: list[str] | tuple[str, ...], rows: list[dict], *, raw: bool = False) -> HttpResponse:
    """A CSV download; formula-like text cells quoted unless ``raw`` (frontend.csv_safety)."""
    out = HttpResponse(content_type="text/csv; charset=utf-8")
    out["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    writer = csv.DictWriter(out, fieldnames=list(fields), extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows if raw else [escape_mapping(r) for r in rows])
    return out


@require_GET
def agreement(request: HttpRequest, slug: str) -> HttpResponse:
    """Several judges against humans: page, ``?format=json`` or ``?format=csv``.

    CSV tables: ``?table=cells`` (default: judge x language x condition x task with
    intervals), ``ranking`` (systems' scores and ranks under each judge), ``pairs``
    (ranking agreement between judges), ``refusals``. ``?n_boot=`` and ``?seed=``
    set the bootstrap (see the API).
    """
    try:
        project = _research_project(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    try:
        n_boot, seed = agreement_params(request.GET)
    except services.JudgingError as exc:
        return _json_error(exc.field, str(exc))
    report = selectors.agreement_study_report(project=project, n_boot=n_boot, seed=seed)
    fmt = request.GET.get("format", "")
    if fmt == "json":
        return JsonResponse(report)
    if fmt == "csv":
        table = request.GET.get("table", "cells")
        raw = raw_requested(request.GET)
        base = f"{project.slug}-judge-agreement"
        if table == "cells":
            return _csv(base, CELL_CSV_FIELDS, [_flat_cell(c) for c in report["cells"]], raw=raw)
        if table == "ranking":
            judges = report["ranking"]["judges"]
            fields = ["system"] + [f"{k}:{j}" for j in judges for k in ("score", "rank", "n")]
            rows = [{"system": s["system"], **{f"{k}:{j}": s[f"{k}s" if k != "n" else "n"][j]
                                                 for j in judges for k in ("score", "rank", "n")}}
                    for s in report["ranking"]["systems"]]
            return _csv(f"{base}-ranking", fields, rows, raw=raw)
        if table == "pairs":
            return _csv(f"{base}-ranking-pairs", ["judge_a", "judge_b", "n_systems", "spearman", "kendall"],
                        report["ranking"]["pairs"], raw=raw)
        if table == "refusals":
            fields = ["system", "condition", "n", "refused", "refusal_rate", "accuracy", "accuracy_answered",
                      "examples"]
            rows = [r | {"examples": " | ".join(r["examples"])} for r in report["refusals"]]
            return _csv(f"{base}-refusals", fields, rows, raw=raw)
        return _json_error("table", "must be cells, ranking, pairs or refusals")
    cells = report["cells"]
    return render(
        request,
        "judging/agreement.html",
        {
            "project": project,
            "report": report,
            "overall": [c for c in cells if (c["language"], c["condition"], c["task"]) == ("all",) * 3],
            "table5": _table5(report),
            "detail": [c for c in cells if "all" not in (c["language"], c["condition"], c["task"])],
            "ranking_rows": [
                {"system": s["system"],
                 "by_judge": [(s["scores"][j], s["ranks"][j], s["n"][j]) for j in report["ranking"]["judges"]]}
                for s in report["ranking"]["systems"]
            ],
        },
    )


def _flat_cell(cell: dict) -> dict:
    row = {k: v for k, v in cell.items() if not k.endswith("_ci")}
    for stat in ("accuracy", "kappa", "mcc", "spearman"):
        ci = cell[f"{stat}_ci"]
        row[f"{stat}_low"], row[f"{stat}_high"] = ci if ci else ("", "")
    return row


@require_http_methods(["GET", "POST"])
def rubrics(request: HttpRequest, slug: str) -> HttpResponse:
    """The project's rubric prompts: list, version history, and a form that saves a version.

    ``?from=<built-in or rubric name>`` fills the form from that prompt. POST saves
    (an edit of an existing name adds its next version).
    """
    try:
        project = _research_project(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    form: dict = {"name": "", "purpose": "verdict", "system": "", "user": "", "note": "", "based_on": ""}
    errors: dict[str, str] = {}
    if request.method == "POST":
        form = {k: request.POST.get(k, "") for k in form}
        try:
            rubric, created = services.rubric_save(project=project, by=request.user, **form)
        except services.JudgingError as exc:
            errors[exc.field] = str(exc)
        else:
            if created:
                messages.success(request, _("Saved %(label)s.") % {"label": rubric.label})
            else:
                messages.info(request, _("Nothing changed: %(label)s is the latest version.") % {"label": rubric.label})
            return redirect(reverse("judging:rubrics", args=[project.slug]))
    else:
        source = request.GET.get("from", "")
        if source:
            try:
                prompt, row = services.prompt_resolve(project=project, name=source)
            except services.JudgingError:
                prompt, row = None, None
            if prompt is not None:
                form.update(purpose=prompt.purpose, system=prompt.system, user=prompt.user,
                            name=row.name if row else "", based_on="" if row else source)
                if row is not None:
                    form["based_on"] = row.based_on
    project_rubrics = selectors.rubrics_list(project=project)
    return render(
        request,
        "judging/rubrics.html",
        {
            "project": project,
            "builtins": [builtin_data(n) for n in BUILTIN_PROMPTS],
            "rubrics": [
                {"latest": r, "versions": list(selectors.rubric_versions(project=project, name=r.name))}
                for r in project_rubrics
            ],
            "form": form,
            "errors": errors,
            "purposes": RubricPurpose.choices,
        },
    )
