"""Judging pages: adjudication queue and trail, player challenges, judge-human agreement.

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
from .agreement import CSV_FIELDS, agreement_report, report_rows


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


@require_GET
def agreement(request: HttpRequest, slug: str) -> HttpResponse:
    """Judge-human agreement: page, or ``?format=json`` / ``?format=csv`` export."""
    try:
        project = _research_project(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    rows = selectors.agreement_rows(project=project)
    report = agreement_report(rows, selectors.AGREEMENT_JUDGES)
    fmt = request.GET.get("format", "")
    if fmt == "json":
        return JsonResponse({"project": project.slug, **report.as_dict()})
    if fmt == "csv":
        out = HttpResponse(content_type="text/csv; charset=utf-8")
        out["Content-Disposition"] = f'attachment; filename="{project.slug}-judge-agreement.csv"'
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        rows = report_rows(report)
        writer.writerows(rows if raw_requested(request.GET) else [escape_mapping(r) for r in rows])
        return out
    return render(
        request,
        "judging/agreement.html",
        {
            "project": project,
            "report": report,
            "groups": [
                (by, sorted(values.items())) for by, values in report.groups.items()
            ],
        },
    )
