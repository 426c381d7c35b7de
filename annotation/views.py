"""Pages: the annotator flow and the researcher's campaign pages (thin: parse, call, render).

Annotator flow, under ``p/<project>/c/<campaign>/``: start (Prolific parameters create
or resume a pseudonymous annotator) → consent → instructions → training → work (the
rating page; qualification items come first) → done (completion code, redirect to the
study's completion URL). Item metadata never reaches these templates: they get
:func:`annotation.selectors.item_payload` only.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import Project
from accounts.permissions import can_research
from accounts.services import guest_create
from quiz.http import serve_clip
from quiz.uploads import save_import_uploads
from quiz.validation import unstorable

from . import plots, selectors, services
from .exports import export_response
from .forms import CampaignForm, ItemImportForm
from .importing import ImportFailed
from .models import (
    Annotator,
    Assignment,
    Campaign,
    CampaignStatus,
    ItemKind,
    Platform,
    Qualification,
)

# ------------------------------------------------------------------------ annotator flow


def _campaign(slug: str, campaign: str) -> Campaign:
    found = Campaign.objects.select_related("project").filter(project__slug=slug, slug=campaign).first()
    if found is None or found.status == CampaignStatus.DRAFT:
        raise Http404("No such campaign")
    return found


def _annotator(request: HttpRequest, campaign: Campaign) -> Annotator | None:
    if not request.user.is_authenticated:
        return None
    return Annotator.objects.filter(campaign=campaign, user=request.user).select_related("campaign").first()


def _next_step(annotator: Annotator) -> str:
    """The URL name of the first flow step the annotator has not passed."""
    if annotator.completed_at is not None:
        return "annotation:done"
    if annotator.consent_at is None:
        return "annotation:consent"
    if annotator.instructions_at is None:
        return "annotation:instructions"
    if annotator.training_at is None and annotator.campaign.items.filter(kind=ItemKind.TRAINING).exists():
        return "annotation:training"
    return "annotation:work"


def _go(annotator: Annotator) -> HttpResponse:
    c = annotator.campaign
    return redirect(reverse(_next_step(annotator), args=[c.project.slug, c.slug]))


def _flow_context(campaign: Campaign, **extra) -> dict:
    return {"campaign": campaign, "project": campaign.project, **extra}


@require_http_methods(["GET", "POST"])
def start(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Entry link. ``?PROLIFIC_PID=&STUDY_ID=&SESSION_ID=`` create or resume an annotator."""
    c = _campaign(slug, campaign)
    pid = (request.GET.get("PROLIFIC_PID") or "").strip()
    if pid:
        annotator = services.annotator_from_platform(
            campaign=c, platform=Platform.PROLIFIC, external_id=pid,
            study_id=request.GET.get("STUDY_ID", ""), session_id=request.GET.get("SESSION_ID", ""))
        if request.user != annotator.user:
            login(request, annotator.user, backend="django.contrib.auth.backends.ModelBackend")
        return _go(annotator)
    annotator = _annotator(request, c)
    if annotator:
        return _go(annotator)
    if c.status != CampaignStatus.OPEN:
        return render(request, "annotation/closed.html", _flow_context(c), status=410)
    if request.method == "POST":
        if not request.user.is_authenticated:
            login(request, guest_create(), backend="django.contrib.auth.backends.ModelBackend")
        return _go(services.annotator_enrol(campaign=c, user=request.user))
    return render(request, "annotation/start.html", _flow_context(c))


def _step_view(step: str, template: str):
    """consent / instructions / training: show the text, record the step on POST."""

    @require_http_methods(["GET", "POST"])
    def view(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
        c = _campaign(slug, campaign)
        annotator = _annotator(request, c)
        if annotator is None:
            return redirect(reverse("annotation:start", args=[slug, campaign]))
        if request.method == "POST":
            if step == "consent" and request.POST.get("agree") != "yes":
                return render(request, template, _flow_context(
                    c, annotator=annotator, error=_("Please tick the box to give your consent.")), status=400)
            services.annotator_step(annotator=annotator, step=step)
            return _go(annotator)
        extra = {"training": selectors.training_items(c)} if step == "training" else {}
        return render(request, template, _flow_context(c, annotator=annotator, **extra))

    view.__name__ = step
    view.__doc__ = f"The {step} step of the annotator flow."
    return view


consent = _step_view("consent", "annotation/consent.html")
instructions = _step_view("instructions", "annotation/instructions.html")
training = _step_view("training", "annotation/training.html")


@require_GET
def work(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """The rating page for the annotator's current (or next) item."""
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    if annotator is None:
        return redirect(reverse("annotation:start", args=[slug, campaign]))
    if _next_step(annotator) != "annotation:work":
        return _go(annotator)
    assignment = services.assignment_next_for_annotator(annotator, c)
    if assignment is None:
        services.annotator_complete(annotator=annotator)
        return redirect(reverse("annotation:done", args=[slug, campaign]))
    assignment.campaign = c
    payload = selectors.item_payload(assignment)
    done, total = selectors.annotator_progress(annotator)
    return render(request, "annotation/work.html", _flow_context(
        c, annotator=annotator, item=payload, done=done, total=total,
        percent=int(100 * done / total) if total else 0,
        single=len(payload["criteria"]) == 1,
        payload_json=json.dumps({"assignment": payload["assignment"],
                                 "criteria": [x["key"] for x in payload["criteria"]]}),
        rate_url=reverse("annotation:rate", args=[slug, campaign]),
        work_url=reverse("annotation:work", args=[slug, campaign]),
    ))


@require_POST
def rate(request: HttpRequest, slug: str, campaign: str) -> JsonResponse:
    """JSON submission of one item's answers (idempotent by client token)."""
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    if annotator is None:
        return JsonResponse({"error": {"field": "annotator", "message": _("Start the campaign first.")}},
                            status=403)
    try:
        body = json.loads(request.body or b"{}")
    except json.JSONDecodeError:
        return JsonResponse({"error": {"field": "", "message": _("Malformed JSON.")}}, status=400)
    if not isinstance(body, dict) or not isinstance(body.get("values"), dict):
        return JsonResponse({"error": {"field": "values", "message": _("Send the answers as an object.")}},
                            status=400)
    if bad := unstorable({k: body.get(k) for k in ("assignment", "client_token", "comments", "values")}):
        return JsonResponse({"error": {"field": bad[0], "message": bad[1]}}, status=400)
    try:
        result = services.rating_submit(
            annotator=annotator, assignment_id=str(body.get("assignment", "")), values=body["values"],
            comments=body.get("comments") if isinstance(body.get("comments"), dict) else None,
            client_token=str(body.get("client_token", "")))
    except services.RatingError as exc:
        return JsonResponse({"error": {"field": exc.field, "message": exc.message}}, status=exc.status)
    return JsonResponse({"ok": True, "created": result.created,
                         "next_url": reverse("annotation:work", args=[slug, campaign])})


@require_http_methods(["GET", "HEAD"])
def audio(request: HttpRequest, slug: str, campaign: str, assignment: str) -> HttpResponse:
    """The clip of one of the annotator's own assignments (opaque URL; Range supported)."""
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    a = get_object_or_404(Assignment.objects.select_related("item__clip"), public_id=assignment,
                          annotator=annotator) if annotator else None
    if a is None or a.item.clip is None:
        raise Http404("No such clip")
    return serve_clip(request, a.item.clip)


@require_GET
def training_audio(request: HttpRequest, slug: str, campaign: str, item: str) -> HttpResponse:
    """A training/anchor clip (these are meant to be heard with their reference answer)."""
    c = _campaign(slug, campaign)
    if _annotator(request, c) is None:
        raise Http404("No such clip")
    it = get_object_or_404(c.items.select_related("clip"), public_id=item, kind=ItemKind.TRAINING)
    if it.clip is None:
        raise Http404("No such clip")
    return serve_clip(request, it.clip)


@require_GET
def done(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Completion page: the code and, for crowd platforms, the way back to the study."""
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    if annotator is None:
        return redirect(reverse("annotation:start", args=[slug, campaign]))
    if annotator.completed_at is None:
        return _go(annotator)
    url = ""
    if c.completion_url and annotator.completion_code:
        url = c.completion_url.replace("{code}", annotator.completion_code)
    return render(request, "annotation/done.html", _flow_context(
        c, annotator=annotator, completion_url=url,
        failed=annotator.qualification == Qualification.FAILED))


# ---------------------------------------------------------------------- researcher pages


def _research_project(request: HttpRequest, slug: str) -> Project:
    project = get_object_or_404(Project, slug=slug)
    if not can_research(request.user, project):
        raise PermissionDenied
    return project


def _research_campaign(request: HttpRequest, slug: str, campaign: str) -> Campaign:
    project = _research_project(request, slug)
    c = selectors.campaign_get(project, campaign)
    if c is None:
        raise Http404("No such campaign")
    return c


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request: HttpRequest, slug: str) -> HttpResponse:
    """A project's campaigns and the form that creates one from a template."""
    project = _research_project(request, slug)
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k != "criteria_json"}
        try:
            c = services.campaign_create(project=project, criteria=form.cleaned_data["criteria_json"], **data)
        except services.CampaignError as exc:
            form.add_error(exc.field if exc.field in form.fields else
                           ("criteria_json" if exc.field == "criteria" else None), exc.message)
        else:
            messages.success(request, _("Campaign created. Import its items next."))
            return redirect(reverse("annotation:campaign_detail", args=[slug, c.slug]))
    return render(request, "annotation/campaign_list.html", {
        "project": project, "campaigns": selectors.campaigns_for_project(project), "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_detail(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Progress, item import and open/close of one campaign."""
    c = _research_campaign(request, slug, campaign)
    form = ItemImportForm()
    problems: list[str] = []
    if request.method == "POST" and request.POST.get("action") in CampaignStatus.values:
        services.campaign_set_status(campaign=c, status=request.POST["action"])
        return redirect(request.path)
    if request.method == "POST":
        form = ItemImportForm(request.POST, request.FILES)
        if form.is_valid():
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                items_path = save_import_uploads(folder, form.cleaned_data["items"], form.cleaned_data["audio"])
                try:
                    summary = services.items_import(campaign=c, path=items_path, audio_dir=folder)
                except ImportFailed as exc:
                    problems = [str(p) for p in exc.problems]
                else:
                    messages.success(request, _("%(created)d items created, %(updated)d updated.") % {
                        "created": summary.created, "updated": summary.updated})
                    return redirect(request.path)
    start_url = request.build_absolute_uri(reverse("annotation:start", args=[slug, c.slug]))
    return render(request, "annotation/campaign_detail.html", {
        "project": c.project, "campaign": c, "progress": selectors.campaign_progress(c),
        "form": form, "problems": problems, "start_url": start_url,
        "prolific_url": start_url + "?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}"
                                    "&SESSION_ID={{%SESSION_ID%}}",
    })


@login_required
@require_GET
def campaign_report(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Agreement, MOS ± CI (KoALa table), item decisions and rater quality, with plots."""
    c = _research_campaign(request, slug, campaign)
    frame = selectors.ratings_frame(c)
    report = selectors.report_for(c, frame) if len(frame) else None
    context = {"project": c.project, "campaign": c, "report": report, "n_ratings": len(frame)}
    if report is not None:
        mos = report.mos
        numeric = [k for k in mos["criterion"].unique()] if "criterion" in mos else []
        context.update({
            "agreement": report.agreement.to_dict("records"),
            "koala": report.koala.to_dict("records"), "koala_cols": list(report.koala.columns),
            "mos": mos.to_dict("records"), "mos_cols": list(mos.columns),
            "decisions": report.decisions.to_dict("records"),
            "ties": int(report.decisions["tie"].sum()) if len(report.decisions) else 0,
            "raters": report.rater_quality.reset_index().to_dict("records"),
            "exclusions": report.exclusions,
            "plots": [p for p in (
                plots.agreement_plot(report.agreement),
                *[plots.mos_plot(mos, by=by, criterion=crit) for crit in numeric[:3]
                  for by in ("system", "condition", "task") if by in mos and mos[by].nunique() > 0],
            ) if p],
        })
    return render(request, "annotation/report.html", context)


@login_required
@require_GET
def campaign_export(request: HttpRequest, slug: str, campaign: str, table: str, fmt: str) -> HttpResponse:
    """A report table or the ratings as CSV, JSON or Parquet (pseudonymous rater ids)."""
    c = _research_campaign(request, slug, campaign)
    return export_response(c, table, fmt)
