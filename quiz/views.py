"""Player-facing views: pick a game, play questions, see history; serve clip audio.

The answerline and which option is correct never reach the browser before the
player has answered: the question page carries the prompt, opaque clip URLs and
the options in the player's shuffled order only; the verdict and the correct
answer come back in the answer endpoint's reply.
"""

from __future__ import annotations

import json

from django.contrib.auth import login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import ratelimit
from accounts.models import Membership, Project, Role
from accounts.permissions import can_play, role_in
from accounts.services import guest_create

from . import selectors, services
from .http import serve_clip
from .models import Category, Clip, Mode, Presentation
from .rendering import answerline_html


def _project_for_player(request: HttpRequest, slug: str) -> Project:
    project = get_object_or_404(Project, slug=slug)
    if not can_play(request.user, project):
        raise Http404("No such quiz")
    return project


def _ensure_participant(project: Project, user) -> None:
    if role_in(user, project) is None:
        Membership.objects.get_or_create(project=project, user=user, defaults={"role": Role.PARTICIPANT})


def _category(project: Project, slug: str | None) -> Category | None:
    if not slug:
        return None
    return Category.objects.filter(project=project, slug=slug).first()


@require_http_methods(["GET", "POST"])
@ratelimit.limit("guest", "EARSHOT_GUEST_RATE",
                 when=lambda request: request.method == "POST" and not request.user.is_authenticated)
def play_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Choose category and mode (and a handle, for guests), then start playing."""
    project = _project_for_player(request, slug)
    errors: dict[str, str] = {}
    mode = request.POST.get("mode") or request.GET.get("mode") or Mode.FREE
    category_slug = request.POST.get("category") or request.GET.get("category") or ""
    if request.method == "POST":
        if mode not in Mode.values:
            errors["mode"] = _("Choose a mode.")
        if category_slug and _category(project, category_slug) is None:
            errors["category"] = _("Unknown category.")
        handle = (request.POST.get("handle") or "").strip()
        if len(handle) > 32:
            errors["handle"] = _("Keep your handle under 32 characters.")
        if not errors:
            with transaction.atomic():
                if not request.user.is_authenticated:
                    user = guest_create(handle=handle or None)
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                _ensure_participant(project, request.user)
            url = reverse("quiz:play_next", args=[project.slug])
            query = f"?mode={mode}" + (f"&category={category_slug}" if category_slug else "")
            return redirect(url + query)
    categories = []
    for category in project.categories.all():
        n_free = selectors.playable_questions(project=project, mode=Mode.FREE, category=category).count()
        n_mcq = selectors.playable_questions(project=project, mode=Mode.MCQ, category=category).count()
        if n_free or n_mcq:
            categories.append({"category": category, "n_free": n_free, "n_mcq": n_mcq})
    return render(
        request,
        "quiz/play_start.html",
        {
            "project": project,
            "categories": categories,
            "mode": mode,
            "category_slug": category_slug,
            "errors": errors,
            "leaderboard": selectors.leaderboard(project=project, limit=10),
        },
    )


@require_GET
def play_next(request: HttpRequest, slug: str) -> HttpResponse:
    """Serve the next question in the chosen category and mode."""
    project = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect(reverse("quiz:play_start", args=[slug]) + "?" + request.GET.urlencode())
    mode = request.GET.get("mode", Mode.FREE)
    if mode not in Mode.values:
        mode = Mode.FREE
    category = _category(project, request.GET.get("category"))
    responder = services.responder_for_user(project=project, user=request.user)
    question = selectors.question_next(responder=responder, mode=mode, category=category)
    context = {"project": project, "mode": mode, "category": category}
    if question is None:
        context["accuracy"] = selectors.responder_accuracy_by_category(responder=responder)
        return render(request, "quiz/play_done.html", context)
    presentation = services.presentation_get_or_create(responder=responder, question=question, mode=mode)
    clips = [qc.clip for qc in question.question_clips.select_related("clip")]
    options = []
    if mode == Mode.MCQ:
        options = [
            {"position": position, "key": position + 1, "text": question.choices[index]}
            for position, index in enumerate(presentation.option_order)
        ]
    context.update(
        {
            "question": question,
            "presentation": presentation,
            "clips": [
                {"url": reverse("quiz:clip_audio", args=[c.public_id]), "duration": c.duration_s}
                for c in clips
            ],
            "options": options,
            "remaining": selectors.questions_remaining(responder=responder, mode=mode, category=category),
            "answer_url": reverse("quiz:play_answer", args=[project.slug]),
            "next_url": request.get_full_path(),
        }
    )
    return render(request, "quiz/play_question.html", context)


def _json_error(field: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"field": field, "message": message}}, status=status)


@require_POST
@ratelimit.limit("answer", "EARSHOT_ANSWER_RATE", per="user", json=True)
def play_answer(request: HttpRequest, slug: str) -> JsonResponse:
    """Judge and store an answer (JSON in, JSON out); idempotent by client token."""
    project = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return _json_error("user", "start a game first", status=403)
    try:
        payload = json.loads(request.body or b"{}")
    except json.JSONDecodeError:
        return _json_error("body", "must be JSON")
    if not isinstance(payload, dict):
        return _json_error("body", "must be a JSON object")
    presentation = (
        Presentation.objects.select_related("question", "responder")
        .filter(pk=payload.get("presentation"), responder__user=request.user, responder__project=project)
        .first()
    )
    if presentation is None:
        return _json_error("presentation", "unknown or not yours", status=404)
    question = presentation.question
    def _int_or_none(key: str) -> int | None:
        value = payload.get(key)
        return None if value in (None, "") else int(value)
    try:
        prompted = bool(payload.get("prompted"))
        if presentation.mode == Mode.FREE and not prompted:
            verdict = services.verdict_for(question, Mode.FREE, answer_text=str(payload.get("answer") or "").strip())
            if verdict["prompt"] and not verdict["correct"] and str(payload.get("answer") or "").strip():
                return JsonResponse({"status": "prompt", "message": _("Prompt: can you be more specific?"), "explanation": verdict["explanation"]})
        response, created = services.response_submit(
            responder=presentation.responder,
            question=question,
            mode=presentation.mode,
            client_token=str(payload.get("client_token") or ""),
            answer_text=str(payload.get("answer") or ""),
            choice_position=_int_or_none("choice_position"),
            clue_index=_int_or_none("clue_index"),
            clip_time_s=float(payload["clip_time_s"]) if payload.get("clip_time_s") not in (None, "") else None,
            prompted=prompted,
        )
    except services.SubmissionError as exc:
        return _json_error(exc.field, str(exc))
    except (TypeError, ValueError) as exc:
        return _json_error("body", f"invalid value ({exc})")
    data = {
        "status": "judged",
        "response_id": response.pk,
        "created": created,
        "correct": response.correct,
        "prompt": response.prompt,
        "rule": response.rule,
        "explanation": response.explanation,
        "your_answer": response.answer_text,
        "answerline_html": answerline_html(question.answerline),
        "correct_position": (
            response.option_order.index(question.correct_choice) if response.mode == Mode.MCQ else None
        ),
        "stats": selectors.responder_accuracy_by_category(responder=presentation.responder),
    }
    return JsonResponse(data, status=201 if created else 200)


@require_GET
def play_history(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's own answers and accuracy by category."""
    project = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect("quiz:play_start", slug=slug)
    responder = services.responder_for_user(project=project, user=request.user)
    return render(
        request,
        "quiz/play_history.html",
        {
            "project": project,
            "history": selectors.responder_history(responder=responder),
            "accuracy": selectors.responder_accuracy_by_category(responder=responder),
        },
    )


@require_GET
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """Top players of a project (pseudonymous handles)."""
    project = _project_for_player(request, slug)
    return render(
        request,
        "quiz/leaderboard.html",
        {
            "project": project,
            "free": selectors.leaderboard(project=project, mode=Mode.FREE),
            "mcq": selectors.leaderboard(project=project, mode=Mode.MCQ),
        },
    )


@require_http_methods(["GET", "HEAD"])
def clip_audio(request: HttpRequest, public_id: str) -> HttpResponse:
    """Stream a clip by its opaque id (Range supported) to anyone allowed to hear it."""
    clip = get_object_or_404(Clip.objects.select_related("project"), public_id=public_id)
    if not can_play(request.user, clip.project):
        raise PermissionDenied
    return serve_clip(request, clip)
