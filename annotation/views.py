"""Pages of the annotator flow (thin: parse, call, render). Researcher pages: views_research.

Under ``p/<project>/c/<campaign>/``: start (consent form; its POST creates the
annotator) → instructions → training → work (the rating page; qualification items
come first) → done (the code the outcome earned, redirect to the study's URL).

Access (F-3, F-4, F-5):

* a private project's campaign admits newcomers only through its link token
  (``?t=<Campaign.access_token>``), or project members; enrolling creates a
  campaign-scoped :class:`~annotation.models.Annotator`, never a project membership;
* a GET never logs anyone in or out and never creates an account: the consent POST
  does, and a signed-in visitor who arrives with a platform id is told they will be
  signed out before they agree;
* a platform participant id resumes an annotator only from the browser session that
  created it, or with the platform's per-participant ``SESSION_ID`` that created it.

Item metadata never reaches these templates: they get
:func:`annotation.selectors.item_payload` only.
"""

from __future__ import annotations

import json
import secrets

from django.contrib.auth import login, logout
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.permissions import role_in
from accounts.services import guest_create
from quiz.http import serve_clip
from quiz.validation import unstorable

from . import selectors, services
from .models import (
    MULTI_STIMULUS,
    Annotator,
    Assignment,
    Campaign,
    CampaignStatus,
    ItemKind,
    Outcome,
    Platform,
    Stimulus,
)
from .views_research import (  # noqa: F401 - the URLconf names them through this module
    campaign_detail,
    campaign_export,
    campaign_list,
    campaign_preview,
    campaign_preview_audio,
    campaign_preview_stimulus_audio,
    campaign_report,
)

BACKEND = "django.contrib.auth.backends.ModelBackend"

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


def link_admits(request: HttpRequest, campaign: Campaign) -> bool:
    """Whether this request may enter ``campaign`` as a newcomer.

    Public projects: the plain link. Private projects: the link's token (``t``),
    compared in constant time, or a member of the project (e.g. its researchers).
    """
    if campaign.project.is_public:
        return True
    token = request.GET.get("t") or request.POST.get("t") or ""
    if token and secrets.compare_digest(token, campaign.access_token):
        return True
    return role_in(request.user, campaign.project) is not None


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


def _stopped(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """A paused or closed campaign: no work, no code."""
    return render(request, "annotation/closed.html", _flow_context(campaign),
                  status=410 if campaign.status == CampaignStatus.CLOSED else 503)


def _platform_params(request: HttpRequest) -> tuple[str, str, str]:
    get = request.GET
    return ((get.get("PROLIFIC_PID") or "").strip()[:120], (get.get("STUDY_ID") or "").strip()[:120],
            (get.get("SESSION_ID") or "").strip()[:120])


@require_http_methods(["GET", "POST"])
def start(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """Entry link: the consent form. ``?PROLIFIC_PID=&STUDY_ID=&SESSION_ID=`` name a
    platform participant; ``?t=`` carries a private campaign's link token.

    GET only shows pages; the consent POST creates the (guest) account and annotator
    and signs the browser in. See the module docstring for the access rules.
    """
    c = _campaign(slug, campaign)
    pid, study, session = _platform_params(request)
    mine = _annotator(request, c)
    if mine is not None and (not pid or mine.external_id == pid):
        return _go(mine)  # the same browser session: resume
    if not link_admits(request, c):
        raise Http404("No such campaign")
    existing = services.annotator_platform_find(campaign=c, platform=Platform.PROLIFIC,
                                                external_id=pid) if pid else None
    if existing is not None:
        if not services.annotator_platform_may_resume(existing, session_id=session):
            return render(request, "annotation/start.html", _flow_context(
                c, refused=_("This participant id has already started this study in another browser. "
                             "Please continue in the browser you started in, or open the study link "
                             "your platform gave you.")), status=409)
        if request.method == "POST":
            if request.user.is_authenticated:
                logout(request)
            login(request, existing.user, backend=BACKEND)
            return _go(existing)
        return render(request, "annotation/start.html", _flow_context(c, resume=True))
    if c.status != CampaignStatus.OPEN:
        return _stopped(request, c)
    switching = bool(pid) and request.user.is_authenticated
    if request.method == "GET":
        return render(request, "annotation/start.html", _flow_context(c, switching=switching))
    if request.POST.get("agree") != "yes":
        return render(request, "annotation/start.html", _flow_context(
            c, switching=switching, error=_("Please tick the box to give your consent.")), status=400)
    if pid:
        user = guest_create()
        try:
            annotator = services.annotator_from_platform(
                campaign=c, platform=Platform.PROLIFIC, external_id=pid, study_id=study,
                session_id=session, user=user, consent=True)
        except services.EnrolError as exc:
            user.delete()
            return render(request, "annotation/start.html", _flow_context(c, refused=exc.message), status=409)
        if request.user.is_authenticated:
            logout(request)
        login(request, user, backend=BACKEND)
        return _go(annotator)
    if not request.user.is_authenticated:
        login(request, guest_create(), backend=BACKEND)
    return _go(services.annotator_enrol(campaign=c, user=request.user, consent=True))


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


def work_context(campaign: Campaign, payload: dict, *, done: int, total: int, rate_url: str,
                 work_url: str, preview: bool = False) -> dict:
    """What the rating page template needs (shared with the researcher's preview)."""
    data: dict = {"assignment": payload["assignment"], "criteria": [x["key"] for x in payload["criteria"]]}
    if "test" in payload:  # a listening test: the stimuli to decode, blind (ids, URLs, lengths)
        test = payload["test"]
        data["test"] = {"mode": test["mode"], "stimuli": [
            {"id": s["id"], "audio_url": s["audio_url"], "duration_s": s["duration_s"]}
            for s in [*filter(None, [test["reference"]]), *test["stimuli"], *filter(None, [test["x"]])]]}
        data["scales"] = {x["key"]: x["scale"] for x in payload["criteria"]}
    return _flow_context(
        campaign, item=payload, done=done, total=total, preview=preview,
        percent=int(100 * done / total) if total else 0,
        single=len(payload["criteria"]) == 1,
        min_fraction=campaign.min_listen_fraction if campaign.require_full_listen else 0,
        payload_json=json.dumps(data).replace("<", "\\u003c"),
        rate_url=rate_url, work_url=work_url)


def work_template(campaign: Campaign) -> str:
    """The rating page of a campaign: one clip, or a listening test with several stimuli."""
    return "annotation/work_listening.html" if campaign.template in MULTI_STIMULUS else "annotation/work.html"


@require_GET
def work(request: HttpRequest, slug: str, campaign: str) -> HttpResponse:
    """The rating page for the annotator's current (or next) item."""
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    if annotator is None:
        return redirect(reverse("annotation:start", args=[slug, campaign]))
    if _next_step(annotator) != "annotation:work":
        return _go(annotator)
    if c.status != CampaignStatus.OPEN:
        return _stopped(request, c)
    assignment = services.assignment_next_for_annotator(annotator, c)
    if assignment is None:
        services.annotator_complete(annotator=annotator)
        return redirect(reverse("annotation:done", args=[slug, campaign]))
    assignment.campaign = c
    payload = selectors.item_payload(assignment)
    done, total = selectors.annotator_progress(annotator)
    context = work_context(c, payload, done=done, total=total,
                           rate_url=reverse("annotation:rate", args=[slug, campaign]),
                           work_url=reverse("annotation:work", args=[slug, campaign]))
    return render(request, work_template(c), {**context, "annotator": annotator})


@require_POST
def rate(request: HttpRequest, slug: str, campaign: str) -> JsonResponse:
    """JSON submission of one item's answers and listening evidence (idempotent by token)."""
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    if annotator is None:
        return JsonResponse({"error": {"field": "annotator", "message": _("Start the campaign first.")}},
                            status=403)
    try:
        body = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
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
            client_token=str(body.get("client_token", "")), played=body.get("played"))
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
    if a.audio_at is None:  # the listening check's timeline starts at the first byte served
        services.assignment_audio_fetched(assignment=a)
    return serve_clip(request, a.item.clip)


@require_http_methods(["GET", "HEAD"])
def stimulus_audio(request: HttpRequest, slug: str, campaign: str, assignment: str, stimulus: str) -> HttpResponse:
    """One stimulus of one of the annotator's own multi-stimulus assignments, under its
    opaque id (never its role, system or file name; Range supported). The first fetch
    of any stimulus starts the listening check's timeline."""
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    a = get_object_or_404(Assignment, public_id=assignment, annotator=annotator) if annotator else None
    found = (Stimulus.objects.select_related("clip").filter(item_id=a.item_id, public_id=stimulus).first()
             if a is not None else None)
    if found is None:
        raise Http404("No such clip")
    if a.audio_at is None:
        services.assignment_audio_fetched(assignment=a)
    return serve_clip(request, found.clip, variant=found.public_id)


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
    """The end: the code the annotator's outcome earned and the way back to the study.

    Completed (quota met): the completion code. Nothing to assign: "this study is
    full" and the no-work code. Failed qualification: the screened-out code.
    """
    c = _campaign(slug, campaign)
    annotator = _annotator(request, c)
    if annotator is None:
        return redirect(reverse("annotation:start", args=[slug, campaign]))
    if annotator.completed_at is None:
        return _go(annotator)
    url = ""
    if c.completion_url and annotator.completion_code:
        url = c.completion_url.replace("{code}", annotator.completion_code)
    done_n, quota = selectors.annotator_quota(annotator)
    return render(request, "annotation/done.html", _flow_context(
        c, annotator=annotator, completion_url=url, outcome=annotator.outcome or Outcome.COMPLETED,
        n_done=done_n, quota=quota))
