"""Researcher pages of crowd operations: a campaign's participants and payments (screening
outcomes, time on item with its threshold, approval/bonus report) and the project's
rater blocklist. Thin: the rules are annotation.crowd / annotation.screening, the reads
and writes annotation.services_crowd."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from . import services_crowd
from .models import RaterBlock, ScreeningResult
from .views_research import _research_campaign, _research_project


@login_required
@require_GET
def campaign_crowd(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Participants of one campaign: screening outcomes, time on item, approval and bonus."""
    c = _research_campaign(request, slug, campaign)
    rows, timing = services_crowd.payment_report(c)
    screening = list(ScreeningResult.objects.filter(annotator__campaign=c).values("step").annotate(
        n_passed=Count("pk", filter=Q(passed=True)), n_failed=Count("pk", filter=Q(passed=False))).order_by("step"))
    failures = list(ScreeningResult.objects.filter(annotator__campaign=c, passed=False)
                    .select_related("annotator").order_by("created_at"))
    raters = timing.raters.reset_index().to_dict("records")
    post = services_crowd.mushra_post_screen_for(c)
    return render(request, "annotation/crowd.html", {
        "project": c.project, "campaign": c, "payments": rows, "timing_rule": timing.config.describe(),
        "timing": raters, "n_flagged": len(timing.flagged), "screening": screening, "failures": failures,
        "steps": [s.step for s in services_crowd.screening_steps(c)],
        "post_screen": post, "post_raters": post.raters.reset_index().to_dict("records") if post else [],
        "blocked": set(RaterBlock.objects.filter(project=c.project).values_list("rater_id", flat=True)),
    })


@login_required
@require_GET
def campaign_payments(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """The approval/bonus report as CSV (participant_id, decision, bonus, reason, rater_id,
    outcome): the one export that carries platform participant ids, because paying
    people on their platform needs them; researchers of the project only."""
    c = _research_campaign(request, slug, campaign)
    rows, _timing = services_crowd.payment_report(c)
    response = HttpResponse(services_crowd.payment_csv(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{c.slug}-payments.csv"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def rater_blocklist(request: HttpRequest, slug: str) -> HttpResponse:
    """The project's blocked raters: add one by rater id with a reason, or lift a block."""
    project = _research_project(request, slug)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "add":
                services_crowd.rater_block_add(project=project, rater_id=request.POST.get("rater_id", ""),
                                               reason=request.POST.get("reason", ""), by=request.user)
                messages.success(request, _("Rater blocked from the project's further campaigns."))
            elif action == "remove":
                try:
                    block_id = int(request.POST.get("block", ""))
                except ValueError:
                    block_id = 0
                services_crowd.rater_block_remove(project=project, block_id=block_id)
                messages.success(request, _("Block lifted."))
            else:
                messages.error(request, _("Unknown action."))
        except services_crowd.BlockError as exc:
            messages.error(request, exc.message)
        back = request.POST.get("next", "")
        if back.startswith(f"/p/{project.slug}/") and "//" not in back:
            return redirect(back)
        return redirect(reverse("annotation:rater_blocklist", args=[slug]))
    blocks = RaterBlock.objects.filter(project=project).select_related("created_by")
    return render(request, "annotation/blocklist.html", {"project": project, "blocks": blocks})
