"""Player pages of the game: a round's summary, the daily challenge, you vs the machines, leaderboards.

Thin: they load, ask :mod:`quiz.game` and render. What a page may show follows the
study's feedback policy and design exactly as the answer reply does
(:func:`quiz.game.machines_visible`, :func:`quiz.study.results_visible`).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from . import game, scoring
from . import study as studies
from .models import Mode, PlayRound
from .views import (
    _category,
    _project_for_player,
    _protocol_pending,
    _question_page,
    _refusable,
    _responder,
)


@require_GET
@_refusable
def round_summary(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """A round's summary: score, points, streaks, accuracy by category, the machines on the same questions."""
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect("quiz:play_start", slug=slug)
    responder = _responder(project, request)
    play_round = get_object_or_404(PlayRound, pk=round_id, responder=responder)
    return render(request, "quiz/round_summary.html", {
        "project": project, "study": study, **game.round_summary(study=study, play_round=play_round),
        "next_url": reverse("quiz:play_next", args=[slug]),
    })


def _daily_context(request: HttpRequest, project, study) -> dict:
    day = game.utc_today()
    visible = studies.results_visible(study)
    context = {"project": project, "study": study, "day": day, "visible": visible,
               "size": len(game.daily_question_ids(project=project, day=day, size=study.daily_size, study=study)),
               "board": game.board(project=project, study=study, daily=day) if visible else []}
    if request.user.is_authenticated:
        responder = _responder(project, request)
        play_round = PlayRound.objects.filter(responder=responder, kind=PlayRound.Kind.DAILY, day=day).first()
        if play_round is not None:
            result = game.daily_result(study=study, play_round=play_round)
            done = game.round_finish_if_done(play_round, study=study)
            context.update({"round": play_round, "result": result, "done": done})
            if done:
                url = request.build_absolute_uri(reverse("quiz:daily", args=[project.slug]))
                context["share"] = scoring.share_text(
                    title=_("Earshot daily · %(project)s") % {"project": project.name}, day=day,
                    marks=result["marks"], points_total=result["points"], url=url, points_label=_("points"),
                )
    return context


@require_GET
@_refusable
def daily(request: HttpRequest, slug: str) -> HttpResponse:
    """The daily challenge: today's set (the same for everyone), its leaderboard, a shareable result."""
    project, study = _project_for_player(request, slug)
    return render(request, "quiz/daily.html", _daily_context(request, project, study))


@require_GET
@_refusable
def daily_play(request: HttpRequest, slug: str) -> HttpResponse:
    """Serve the next question of today's challenge (questions met before are not served again)."""
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect(reverse("quiz:play_start", args=[slug]) + "?daily=1")
    responder = _responder(project, request)
    if _protocol_pending(study, responder):
        return redirect("quiz:play_protocol", slug=slug)
    if study.results_released:
        return redirect("quiz:daily", slug=slug)
    play_round = game.daily_round(responder=responder, study=study, day=game.utc_today())
    serving = game.daily_next(study=study, responder=responder, play_round=play_round)
    if serving is None:
        game.round_finish_if_done(play_round, nothing_left=True)
        return redirect("quiz:daily", slug=slug)
    from .views import _present

    presentation = _present(serving, responder=responder, study=study, play_round=play_round)
    context = {"project": project, "study": study, "daily": True,
               "results_visible": studies.results_visible(study),
               "remaining": max(play_round.size - game.round_answered(play_round), 1)}
    return _question_page(request, project, study, presentation, context,
                          next_url=reverse("quiz:daily_play", args=[slug]))


@require_GET
@_refusable
def versus(request: HttpRequest, slug: str) -> HttpResponse:
    """You vs the machines: each model system on the questions you answered."""
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect("quiz:play_start", slug=slug)
    responder = _responder(project, request)
    visible = studies.results_visible(study)
    return render(request, "quiz/versus.html", {
        "project": project, "study": study, "visible": visible,
        "versus": game.versus(study=study, responder=responder) if visible else None,
    })


@require_GET
@_refusable
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """People and model systems ranked together, per mode and category (pseudonymous handles)."""
    project, study = _project_for_player(request, slug)
    visible = studies.results_visible(study)
    mode = request.GET.get("mode") or ""
    if mode and mode not in Mode.values:
        raise Http404("No such mode")
    category = _category(project, request.GET.get("category"))
    if request.GET.get("category") and category is None:
        raise Http404("No such category")
    modes = [mode] if mode else [Mode.FREE, Mode.MCQ]
    boards = [{"mode": m, "rows": game.board(project=project, study=study, mode=m, category=category)}
              for m in modes] if visible else []
    return render(request, "quiz/leaderboard.html", {
        "project": project, "study": study, "visible": visible, "boards": boards,
        "categories": project.categories.all(), "category": category, "mode": mode,
    })
