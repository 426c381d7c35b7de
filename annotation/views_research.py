"""Researcher pages of campaigns: list + create, detail (import, open/pause/close, link
token), preview as an annotator (stores nothing), report and exports."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from types import SimpleNamespace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from accounts.models import Project
from accounts.permissions import can_research
from frontend.csv_safety import raw_requested
from quiz.http import serve_clip
from quiz.uploads import save_import_uploads

from . import listening_selectors, plots, selectors, services
from .exports import export_response
from .forms import CampaignForm, ItemImportForm, form_config
from .importing import ImportFailed
from .models import Campaign, CampaignStatus, ItemKind, Stimulus


def _research_project(request: HttpRequest, slug: str) -> Project:
    project = get_object_or_404(Project, slug=slug)
    if not can_research(request.user, project):
        raise PermissionDenied
    return project


def _min_heard(request: HttpRequest) -> float | None:
    try:
        return selectors.parse_min_heard(request.GET.get("min_heard"))
    except ValueError as exc:
        raise BadRequest(str(exc)) from exc


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
        "project": project, "campaigns": selectors.campaigns_for_project(project), "form": form,
        "form_config": json.dumps(form_config())}, status=400 if form.errors else 200)


def annotator_link(request: HttpRequest, campaign: Campaign) -> str:
    """The absolute link annotators open (with the token when the project is private)."""
    url = request.build_absolute_uri(reverse("annotation:start", args=[campaign.project.slug, campaign.slug]))
    return url if campaign.project.is_public else f"{url}?{urlencode({'t': campaign.access_token})}"


@login_required
@require_http_methods(["GET", "POST"])
def campaign_detail(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Progress, item import, open/pause/close and the (rotatable) link of one campaign."""
    c = _research_campaign(request, slug, campaign)
    form = ItemImportForm()
    problems: list[str] = []
    action = request.POST.get("action") if request.method == "POST" else None
    if action in CampaignStatus.values:
        try:
            services.campaign_set_status(campaign=c, status=action)
        except services.CampaignError as exc:
            messages.error(request, exc.message)
        return redirect(request.path)
    if action == "rotate":
        services.campaign_rotate_token(campaign=c)
        messages.success(request, _("New link made: the old link no longer admits new annotators."))
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
    start_url = annotator_link(request, c)
    joiner = "&" if "?" in start_url else "?"
    return render(request, "annotation/campaign_detail.html", {
        "project": c.project, "campaign": c, "progress": selectors.campaign_progress(c),
        "form": form, "problems": problems, "start_url": start_url,
        "prolific_url": start_url + joiner + "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}"
                                             "&SESSION_ID={{%SESSION_ID%}}",
    })


PREVIEW_STEPS = ("consent", "instructions", "training", "work")


@login_required
@require_GET
def campaign_preview(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """The annotator flow as an annotator would see it, for any status; stores nothing.

    ``?step=consent|instructions|training|work`` and ``&item=N`` (the N-th rateable
    item). Forms go to the next step by GET; the rating page's answers are checked in
    the browser and thrown away. No annotator, assignment or rating is created.
    """
    c = _research_campaign(request, slug, campaign)
    step = request.GET.get("step", "consent")
    if step not in PREVIEW_STEPS:
        raise Http404("No such step")
    base = reverse("annotation:campaign_preview", args=[slug, c.slug])
    following = PREVIEW_STEPS[PREVIEW_STEPS.index(step) + 1:] if step != "work" else ("work",)
    if "training" in following and not c.items.filter(kind=ItemKind.TRAINING).exists():
        following = tuple(s for s in following if s != "training")
    context = {"campaign": c, "project": c.project, "preview": True,
               "preview_next": f"{base}?step={following[0]}"}
    if step in ("consent", "instructions"):
        return render(request, f"annotation/{'start' if step == 'consent' else 'instructions'}.html", context)
    if step == "training":
        return render(request, "annotation/training.html", {**context, "training": selectors.training_items(c)})
    items = list(c.items.exclude(kind=ItemKind.TRAINING).select_related("clip").order_by("position", "pk"))
    try:
        index = max(0, int(request.GET.get("item", "0")))
    except ValueError:
        index = 0
    if not items:
        return render(request, "annotation/closed.html", {**context, "empty": True})
    item = items[index % len(items)]
    now = timezone.now()
    fake = SimpleNamespace(item=item, item_id=item.pk, campaign=c, public_id="preview", served_at=now,
                           expires_at=now, stimulus_order=[])
    payload = selectors.item_payload(fake)
    if item.clip_id:
        payload["audio_url"] = reverse("annotation:campaign_preview_audio", args=[slug, c.slug, item.public_id])
    if "test" in payload:  # a listening test: each stimulus through the researcher's audio URL
        test = payload["test"]
        for s in filter(None, [test["reference"], test["x"], *test["stimuli"]]):
            s["audio_url"] = reverse("annotation:campaign_preview_stimulus_audio",
                                     args=[slug, c.slug, item.public_id, s["id"]])
    from .views import work_context, work_template  # the annotator page's context, shared

    nxt = f"{base}?step=work&item={(index + 1) % len(items)}"
    return render(request, work_template(c), work_context(
        c, payload, done=index, total=len(items), rate_url="", work_url=nxt, preview=True))


@login_required
@require_GET
def campaign_preview_audio(request: HttpRequest, slug: str, campaign: str, item: str) -> HttpResponse:
    """An item's clip for the researcher's preview."""
    c = _research_campaign(request, slug, campaign)
    it = get_object_or_404(c.items.select_related("clip"), public_id=item)
    if it.clip is None:
        raise Http404("No such clip")
    return serve_clip(request, it.clip)


@login_required
@require_GET
def campaign_preview_stimulus_audio(request: HttpRequest, slug: str, campaign: str, item: str,
                                    stimulus: str) -> HttpResponse:
    """One stimulus of a listening-test item, for the researcher's preview."""
    c = _research_campaign(request, slug, campaign)
    found = get_object_or_404(Stimulus.objects.select_related("clip"), item__campaign=c, item__public_id=item,
                              public_id=stimulus)
    return serve_clip(request, found.clip, variant=found.public_id)


@login_required
@require_GET
def campaign_report(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Agreement, MOS ± CI (KoALa table), item decisions and rater quality, with plots.

    ``?min_heard=0.9`` leaves out ratings whose listening evidence says less than that
    share of the clip was heard (ratings of items without audio are kept).
    """
    c = _research_campaign(request, slug, campaign)
    min_heard = _min_heard(request)
    frame = selectors.ratings_frame(c, min_heard=min_heard)
    report = selectors.report_for(c, frame) if len(frame) else None
    context = {"project": c.project, "campaign": c, "report": report, "n_ratings": len(frame),
               "min_heard": min_heard, "listening": selectors.listening_summary(c)}
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
        context["lt"] = listening_context(listening_selectors.listening_report_for(c, report, min_heard=min_heard))
    return render(request, "annotation/report.html", context)


LT_TITLES = {
    "systems": gettext_lazy("Mean and median per system with 95% CI (inside the scale)"),
    "pairwise": gettext_lazy("Pairwise comparisons: Wilcoxon signed-rank, Holm-corrected, effect sizes"),
    "preference": gettext_lazy("Preference per pair: share with Wilson 95% CI, two-sided sign test"),
    "preference_systems": gettext_lazy("Preference per system over all its comparisons"),
    "abx": gettext_lazy("ABX accuracy against chance (one-sided binomial test)"),
    "ranks": gettext_lazy("Mean rank per system (1 = best)"),
}


def _cell(column: str, value: object) -> str:
    """A table cell as text: p-values to 3 decimals (below 0.001 as "< 0.001"), other
    floats to 3 decimals, missing values as a dash."""
    if value is None or (isinstance(value, float) and value != value):
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        if column.startswith("p_") and value < 0.001:
            return "< 0.001"
        return f"{value:.3f}"
    return str(value)


def _table(frame) -> dict:
    cols = [str(c) for c in frame.columns]
    return {"cols": cols, "rows": [[_cell(c, v) for c, v in zip(cols, row, strict=True)]
                                   for row in frame.itertuples(index=False)]}


def listening_context(summary: listening_selectors.ListeningSummary | None) -> dict | None:
    """The listening-test sections of the report page: per criterion its tables,
    Friedman's test, notes and plots; plus the excluded listeners and post-screening."""
    if summary is None:
        return None
    sections = []
    for key, rep in summary.reports.items():
        figures = listening_selectors.listening_figures(summary, key)
        f = rep.friedman
        sections.append({
            "criterion": key, "measure": rep.measure, "notes": rep.notes, "counts": rep.counts,
            "tables": [{"key": name, "title": LT_TITLES.get(name, name), **_table(t)}
                       for name, t in rep.tables.items()],
            "friedman": None if f is None else {
                "statistic": _cell("q", f.statistic), "df": f.df,
                "p": "p < 0.001" if f.p_value < 0.001 else f"p = {_cell('p_value', f.p_value)}",
                "w": _cell("w", f.kendall_w), "n_blocks": f.n_blocks, "k": f.k, "reason": f.reason},
            "plots": [p for p in figures if p],
        })
    return {"template": summary.template, "sections": sections, "notes": summary.notes,
            "exports": list(listening_selectors.listening_tables(summary)),
            "excluded": _table(summary.excluded) if len(summary.excluded) else None,
            "screening": _table(summary.screening) if len(summary.screening) else None}


@login_required
@require_GET
def campaign_export(request: HttpRequest, slug: str, campaign: str, table: str, fmt: str) -> HttpResponse:
    """A report table or the ratings as CSV, JSON or Parquet (pseudonymous rater ids);
    ``?min_heard=`` filters on listening evidence as the report does; ``?raw=1`` turns
    off the CSV formula guard (frontend.csv_safety)."""
    c = _research_campaign(request, slug, campaign)
    return export_response(c, table, fmt, min_heard=_min_heard(request), raw=raw_requested(request.GET))
