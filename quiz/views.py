"""Player-facing views: start a game, pass the study protocol, play, see history; serve clip audio.

The answerline and which option is correct never reach the browser while the
player could still be served the question in any mode (``quiz.study``): the
question page carries the prompt, the clues the server has revealed so far and
the options in the player's shuffled order only. What the answer reply shows
depends on the project's feedback policy. Pyramidal clues are revealed by the
server (``play_reveal``) and their audio is not fetchable before that.
"""

from __future__ import annotations

import json
import secrets
from urllib.parse import urlencode

from django.contrib.auth import login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import ratelimit
from accounts.models import Membership, Project, Role
from accounts.permissions import can_play, can_research, role_in
from accounts.services import guest_create

from . import game, selectors, services
from . import study as studies
from .http import serve_clip
from .models import (
    Category,
    Clip,
    Mode,
    Outcome,
    PlayAccess,
    PlayRound,
    Presentation,
    PresentationEvent,
    QuizStudy,
    Responder,
    Response,
)

BROWSER_COOKIE = "earshot_bid"
_LINK_SESSION_KEY = "earshot:study-link:{}"


class _Refused(Exception):
    """The player may not play here now; carries the page that says why."""

    def __init__(self, response: HttpResponse):
        self.response = response


def _project_for_player(request: HttpRequest, slug: str) -> tuple[Project, QuizStudy]:
    """The project and its study, if this visitor may play it (404 otherwise)."""
    project = get_object_or_404(Project, slug=slug)
    if not can_play(request.user, project):
        raise Http404("No such quiz")
    study = studies.study_for(project)
    if can_research(request.user, project):
        return project, study
    if study.access == PlayAccess.STUDY_LINK:
        token = request.GET.get("k") or ""
        key = _LINK_SESSION_KEY.format(project.pk)
        if token and secrets.compare_digest(token, study.link_token):
            request.session[key] = study.link_token
        if not secrets.compare_digest(str(request.session.get(key) or ""), study.link_token):
            raise _Refused(render(request, "quiz/play_refused.html",
                                  {"project": project, "reason": "link"}, status=403))
    if study.access == PlayAccess.SIGN_IN and (
        not request.user.is_authenticated or request.user.is_guest
    ):
        raise _Refused(render(request, "quiz/play_refused.html",
                              {"project": project, "reason": "sign_in",
                               "login_url": reverse("accounts:login") + "?next=" + request.path},
                              status=403))
    return project, study


def _refusable(view):
    """Turn :class:`_Refused` into its page (or a JSON error for the JSON endpoints)."""

    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except _Refused as refused:
            if request.content_type == "application/json":
                return _json_error("access", _("You cannot play this quiz from here."), status=403)
            return refused.response

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _ensure_participant(project: Project, user) -> None:
    if role_in(user, project) is None:
        Membership.objects.get_or_create(project=project, user=user, defaults={"role": Role.PARTICIPANT})


def _category(project: Project, slug: str | None) -> Category | None:
    if not slug:
        return None
    return Category.objects.filter(project=project, slug=slug).first()


def _client_address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "")


def _browser_id(request: HttpRequest) -> str:
    value = request.get_signed_cookie(BROWSER_COOKIE, default="", salt="earshot-browser")
    return value if len(value) == 32 else ""


def _with_browser_cookie(request: HttpRequest, response: HttpResponse, browser_id: str) -> HttpResponse:
    if browser_id and _browser_id(request) != browser_id:
        response.set_signed_cookie(
            BROWSER_COOKIE, browser_id, salt="earshot-browser", max_age=365 * 24 * 3600,
            httponly=True, samesite="Lax", secure=request.is_secure(),
        )
    return response


def _responder(project: Project, request: HttpRequest, browser_id: str = ""):
    responder = services.responder_for_user(project=project, user=request.user)
    browser_id = browser_id or _browser_id(request)
    if browser_id and not responder.browser_hash:
        responder.browser_hash = studies.keyed_hash(browser_id)
        responder.save(update_fields=["browser_hash"])
    return responder


def _protocol_pending(study: QuizStudy, responder) -> bool:
    if not study.has_protocol:
        return False
    enrolment = getattr(responder, "enrolment", None)
    return enrolment is None or enrolment.questionnaire_at is None


def _room_code(request: HttpRequest) -> str:
    """The live room a player is on the way into (``rooms.views`` sent them here to pick a
    name or give consent first): a room's code, ``new`` to host one, or empty."""
    return (request.POST.get("room") or request.GET.get("room") or "").strip()[:8]


def _to_room(project: Project, responder: Responder, room_code: str) -> HttpResponse:
    """Back into the room the player asked for, now named and consented; on a POST, a
    player who clicked "Host a new room" gets that room (not the rooms page again)."""
    if room_code.lower() == "new":
        from rooms import services as rooms

        try:
            room = rooms.room_create(project=project, host=responder)
        except rooms.RoomError:
            return redirect("rooms:home", slug=project.slug)
        return redirect("rooms:room", slug=project.slug, code=room.code)
    return redirect("rooms:room", slug=project.slug, code=room_code.upper())


def _play_query(request: HttpRequest) -> str:
    keep = {k: request.GET[k] for k in ("mode", "category") if request.GET.get(k)}
    return "?" + "&".join(f"{k}={v}" for k, v in keep.items()) if keep else ""


@require_http_methods(["GET", "POST"])
@_refusable
@ratelimit.limit("guest", "EARSHOT_GUEST_RATE",
                 when=lambda request: request.method == "POST" and not request.user.is_authenticated)
def play_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Choose a category (and, in casual play, a mode; for guests, a handle), then start."""
    project, study = _project_for_player(request, slug)
    errors: dict[str, str] = {}
    choose_mode = studies.players_choose_mode(study)
    mode = request.POST.get("mode") or request.GET.get("mode") or Mode.FREE
    category_slug = request.POST.get("category") or request.GET.get("category") or ""
    browser_id = _browser_id(request) or secrets.token_hex(16)
    if request.method == "POST":
        if choose_mode and mode not in Mode.values:
            errors["mode"] = _("Choose a mode.")
        if category_slug and _category(project, category_slug) is None:
            errors["category"] = _("Unknown category.")
        handle = (request.POST.get("handle") or "").strip()
        if len(handle) > 32:
            errors["handle"] = _("Keep your handle under 32 characters.")
        elif "\x00" in handle or any(ord(c) < 32 for c in handle):
            errors["handle"] = _("Use letters, digits and punctuation only.")
        if not errors and not request.user.is_authenticated:
            recent = studies.guests_created_recently(
                project=project, client_hash=studies.keyed_hash(_client_address(request)),
                browser_hash=studies.keyed_hash(browser_id),
            )
            if study.guests_per_hour == 0 or recent >= study.guests_per_hour:
                errors["handle"] = _(
                    "Too many new players from this browser or network in the last hour. "
                    "Keep playing under your earlier name, or try again later."
                )
        if not errors:
            with transaction.atomic():
                if not request.user.is_authenticated:
                    user = guest_create(handle=handle or None)
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                _ensure_participant(project, request.user)
                responder = _responder(project, request, browser_id)
                if request.user.is_guest and not responder.client_hash:
                    responder.client_hash = studies.keyed_hash(_client_address(request))
                    responder.save(update_fields=["client_hash"])
            daily_start = bool(request.POST.get("daily") or request.GET.get("daily"))
            room_code = _room_code(request)
            if room_code:
                target = (_to_room(project, responder, room_code) if not _protocol_pending(study, responder)
                          else redirect(reverse("quiz:play_protocol", args=[project.slug]) + "?"
                                        + urlencode({"room": room_code})))
                return _with_browser_cookie(request, target, browser_id)
            if not daily_start and not room_code:
                game.round_start(responder=responder, study=study, category=_category(project, category_slug),
                                 chosen_mode=mode if choose_mode else "")
            query = f"?mode={mode}" if choose_mode else "?"
            query += (f"&category={category_slug}" if category_slug else "")
            target = "quiz:play_protocol" if _protocol_pending(study, responder) else "quiz:play_next"
            if daily_start and target == "quiz:play_next":
                target, query = "quiz:daily_play", ""
            url = reverse(target, args=[project.slug]) + query.replace("?&", "?").rstrip("?")
            return _with_browser_cookie(request, redirect(url), browser_id)
    categories = []
    for category in project.categories.all():
        n = studies.playable(project, category=category).count()
        if n:
            categories.append({"category": category, "n": n})
    response = render(
        request,
        "quiz/play_start.html",
        {
            "project": project,
            "study": study,
            "choose_mode": choose_mode,
            "categories": categories,
            "mode": mode,
            "category_slug": category_slug,
            "errors": errors,
            "leaderboard": game.board(project=project, study=study, limit=10)
            if studies.results_visible(study) else [],
            "daily": request.GET.get("daily") or request.POST.get("daily") or "",
            "room": (request.GET.get("room") or request.POST.get("room") or "")[:8],
        },
        status=400 if errors else 200,
    )
    return _with_browser_cookie(request, response, browser_id)


@require_http_methods(["GET", "POST"])
@_refusable
def play_protocol(request: HttpRequest, slug: str) -> HttpResponse:
    """Consent, instructions and the questionnaire, before the first question."""
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect("quiz:play_start", slug=slug)
    responder = _responder(project, request)
    next_url = reverse("quiz:play_next", args=[slug]) + _play_query(request)
    if not _protocol_pending(study, responder):
        room_code = _room_code(request)
        if room_code and room_code.lower() != "new":
            return redirect("rooms:room", slug=slug, code=room_code.upper())
        return redirect("rooms:home", slug=slug) if room_code else redirect(next_url)
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    if request.method == "POST":
        from .protocol import protocol_submit

        try:
            protocol_submit(study=study, responder=responder, data=request.POST)
        except studies.StudyError as exc:
            errors[exc.field] = exc.message
            values = {k: request.POST.get(k, "") for k in request.POST}
        else:
            if _room_code(request):
                return _to_room(project, responder, _room_code(request))
            return redirect(next_url)
    from .protocol import questionnaire_fields

    return render(request, "quiz/play_protocol.html", {
        "project": project, "study": study, "fields": questionnaire_fields(study),
        "errors": errors, "values": values,
    }, status=400 if errors else 200)


def _clue_urls(presentation: Presentation, clips: list[Clip]) -> list[dict]:
    return [
        {"index": i, "url": reverse("quiz:clip_audio", args=[c.public_id]), "duration": c.duration_s}
        for i, c in enumerate(clips)
    ]


@require_GET
@_refusable
def play_next(request: HttpRequest, slug: str) -> HttpResponse:
    """Serve the next question (mode and stage from the project's study design)."""
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect(reverse("quiz:play_start", args=[slug]) + "?" + request.GET.urlencode())
    responder = _responder(project, request)
    if _protocol_pending(study, responder):
        return redirect(reverse("quiz:play_protocol", args=[slug]) + _play_query(request))
    chosen_mode = request.GET.get("mode") if studies.players_choose_mode(study) else None
    category = _category(project, request.GET.get("category"))
    context = {"project": project, "study": study, "category": category,
               "results_visible": studies.results_visible(study)}
    if study.results_released:
        context["ended"] = True
        context["accuracy"] = selectors.responder_accuracy_by_category(responder=responder)
        return render(request, "quiz/play_done.html", context)
    play_round = game.round_open(responder)
    if play_round is None or game.round_finish_if_done(play_round):
        play_round = game.round_start(responder=responder, study=study, category=category,
                                      chosen_mode=chosen_mode or "")
    serving = studies.serving_next(study=study, responder=responder, category=category,
                                   chosen_mode=chosen_mode)
    if serving is None:
        game.round_finish_if_done(play_round, nothing_left=True)
        if context["results_visible"]:
            context["accuracy"] = selectors.responder_accuracy_by_category(responder=responder)
        context["last_round"] = (PlayRound.objects.filter(responder=responder, kind=PlayRound.Kind.ROUND)
                                 .filter(responses__isnull=False).order_by("-id").first())
        return render(request, "quiz/play_done.html", context)
    presentation = _present(serving, responder=responder, study=study, play_round=play_round)
    context["remaining"] = studies.remaining_count(study=study, responder=responder, category=category,
                                                   chosen_mode=chosen_mode)
    return _question_page(request, project, study, presentation, context, next_url=request.get_full_path())


def _present(serving, *, responder, study: QuizStudy, play_round: PlayRound) -> Presentation:
    """The presentation to show for ``serving``, attached to the round it is answered in."""
    if isinstance(serving, Presentation):
        presentation = serving
    else:
        presentation = services.presentation_get_or_create(
            responder=responder, question=serving.question, mode=serving.mode,
            stage=serving.stage, design=study.design,
        )
    if presentation.round_id != play_round.pk:
        Presentation.objects.filter(pk=presentation.pk).update(round=play_round)
        presentation.round = play_round
    return presentation


def _question_page(request: HttpRequest, project: Project, study: QuizStudy, presentation: Presentation,
                   context: dict, *, next_url: str) -> HttpResponse:
    """The question page for a served presentation (ordinary round or daily challenge)."""
    question = presentation.question
    clips = [qc.clip for qc in question.question_clips.select_related("clip")]
    shown = clips[: presentation.clues_revealed] if question.pyramidal else clips
    options = []
    if presentation.mode == Mode.MCQ:
        options = [
            {"position": position, "key": (position + 1) % 10, "text": question.choices[index]}
            for position, index in enumerate(presentation.option_order)
        ]
    deadline = game.answer_deadline(study, presentation)
    play_round = presentation.round
    context.update(
        {
            "question": question,
            "presentation": presentation,
            "mode": presentation.mode,
            "clips": _clue_urls(presentation, shown),
            "total_clues": len(clips),
            "more_clues": question.pyramidal and len(shown) < len(clips),
            "buzzing": question.pyramidal,
            "buzzed": presentation.buzzed_at is not None,
            "seconds_left": deadline.remaining_s,
            "answer_seconds": study.answer_seconds,
            "options": options,
            "round": play_round,
            "round_number": (game.round_answered(play_round) + 1) if play_round else None,
            "answer_url": reverse("quiz:play_answer", args=[project.slug]),
            "reveal_url": reverse("quiz:play_reveal", args=[project.slug]),
            "buzz_url": reverse("quiz:play_buzz", args=[project.slug]),
            "skip_url": reverse("quiz:play_skip", args=[project.slug]),
            "next_url": next_url,
            "play_text": _play_text(),
        }
    )
    return render(request, "quiz/play_question.html", context)


def _play_text() -> dict[str, str]:
    """The question page script's strings, translated (``%(name)s`` placeholders filled in the page)."""
    return {
        "chooseFirst": _("Choose an option first: click it or press its number key."),
        "typeFirst": _("Type an answer first."),
        "sendFailed": _("Could not send your answer. Try again."),
        "revealFailed": _("Could not reveal the next clue."),
        "buzzFailed": _("Could not buzz. Try again."),
        "recorded": _("Thanks: your answer is recorded."),
        "correct": _("Correct!"),
        "wrong": _("Not quite."),
        "points": _("%(n)s points"),
        "streak": _("%(n)s right in a row (best %(best)s)"),
        "right": _("right"),
        "wrongShort": _("wrong"),
        "noMachines": _("No machine has answered this question yet."),
        "share": _("%(share)s of %(n)s players got this right."),
        "firstPlayer": _("You are among the first players to answer this one."),
        "seconds": _("%(n)s s"),
        "summary": _("See the round summary"),
        "dailyDone": _("See your daily result"),
        "challengeOpen": _("I think my answer should count"),
        "challengeWhy": _("Why should it count? (optional)"),
        "challengeSend": _("Send"),
        "challengeSent": _("Sent."),
        "challengeFailed": _("Could not send. Try again."),
    }


def _json_error(field: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"field": field, "message": message}}, status=status)


def _payload(request: HttpRequest) -> dict:
    """The JSON object of a browser request; a :class:`services.SubmissionError` otherwise."""
    try:
        payload = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise services.SubmissionError("body", "must be JSON") from exc
    if not isinstance(payload, dict):
        raise services.SubmissionError("body", "must be a JSON object")
    return payload


def _presentation_of(request: HttpRequest, project: Project, payload: dict) -> Presentation:
    raw = payload.get("presentation")
    if isinstance(raw, bool) or not isinstance(raw, int | str) or not str(raw).isdigit():
        raise services.SubmissionError("presentation", "must be a presentation id")
    presentation = (
        Presentation.objects.select_related("question", "responder")
        .filter(pk=int(raw), responder__user=request.user, responder__project=project)
        .first()
    )
    if presentation is None:
        raise LookupError
    return presentation


def _text(payload: dict, key: str, limit: int) -> str:
    value = payload.get(key)
    if value is None:
        return ""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise services.SubmissionError(key, "must be text")
    text = str(value)
    if "\x00" in text:
        raise services.SubmissionError(key, "must not contain NUL characters")
    if len(text) > limit:
        raise services.SubmissionError(key, f"is longer than {limit} characters")
    return text


def _reply(request: HttpRequest, study: QuizStudy, response: Response, created: bool) -> JsonResponse:
    """The answer reply (quiz.replies): researchers also get the judge's technical explanation."""
    from .replies import answer_reply

    return answer_reply(study, response, created,
                        researcher=can_research(request.user, response.question.project))


@require_POST
@_refusable
@ratelimit.limit("answer", "EARSHOT_ANSWER_RATE", per="user", json=True)
def play_answer(request: HttpRequest, slug: str) -> JsonResponse:
    """Judge and store an answer (JSON in, JSON out); idempotent by client token.

    After a buzz the answer counts at the buzz's clue and time, and it must arrive
    within the answer timer plus the server's grace; later, or empty after a buzz,
    it is stored as a time-out. Without a buzz the question timer (if any) applies.
    """
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return _json_error("user", "start a game first", status=403)
    if study.results_released:
        return _json_error("study", _("This study has ended."), status=409)
    try:
        payload = _payload(request)
        presentation = _presentation_of(request, project, payload)
        question = presentation.question
        stored = Response.objects.filter(
            responder=presentation.responder, question=question, mode=presentation.mode
        ).select_related("question", "responder").first()
        if stored is not None:
            return _reply(request, study, stored, False)
        answer = _text(payload, "answer", 2000).strip()
        client_token = _text(payload, "client_token", 64)
        choice_position = payload.get("choice_position")
        from .listening import evidence_for

        empty = (not answer) if presentation.mode == Mode.FREE else choice_position is None
        late = game.answer_deadline(study, presentation).expired
        if late or (empty and presentation.buzzed_at is not None):
            listening, fraction = evidence_for(presentation, payload.get("listening"))
            response, created = game.response_unanswered(
                presentation=presentation, study=study, client_token=client_token, outcome=Outcome.TIMEOUT,
                listening=listening, listened_fraction=fraction,
            )
            return _stored_reply(request, study, response, created)
        prompts = presentation.events.filter(kind=PresentationEvent.Kind.PROMPTED).count()
        if presentation.mode == Mode.FREE and answer and prompts < study.prompt_limit:
            verdict = services.verdict_for(question, Mode.FREE, answer_text=answer)
            if verdict["prompt"] and not verdict["correct"]:
                PresentationEvent.objects.create(
                    presentation=presentation, kind=PresentationEvent.Kind.PROMPTED,
                    detail={"answer": answer, "rule": verdict["rule"]}, at=timezone.now(),
                )
                # The explanation would quote the answerline's prompt clause: never sent.
                return JsonResponse({"status": "prompt", "message": _("Prompt: can you be more specific?")})
        if choice_position is not None and (
            isinstance(choice_position, bool) or not str(choice_position).isdigit()
        ):
            raise services.SubmissionError("choice", "pick one of the options")
        clue_index, clue_time_s = game.clue_timing(presentation)
        listening, fraction = evidence_for(presentation, payload.get("listening"))
        response, created = services.response_submit(
            responder=presentation.responder,
            question=question,
            mode=presentation.mode,
            client_token=client_token,
            answer_text=answer,
            choice_position=int(choice_position) if choice_position is not None else None,
            clue_index=clue_index,
            clue_time_s=clue_time_s,
            prompted=prompts > 0,
            stage=presentation.stage,
            design=study.design,
            listening=listening,
            listened_fraction=fraction,
            buzz_position=game.buzz_position_for(presentation, clue_index, clue_time_s),
            round_id=presentation.round_id,
        )
    except LookupError:
        return _json_error("presentation", "unknown or not yours", status=404)
    except services.SubmissionError as exc:
        return _json_error(exc.field, str(exc))
    return _stored_reply(request, study, response, created)


def _stored_reply(request: HttpRequest, study: QuizStudy, response: Response, created: bool) -> JsonResponse:
    """Record the feedback level the player is shown (once), then reply."""
    if created:
        response.feedback = studies.feedback_level(study, response)
        Response.objects.filter(pk=response.pk).update(feedback=response.feedback)
    return _reply(request, study, response, created)


@require_POST
@_refusable
@ratelimit.limit("answer", "EARSHOT_ANSWER_RATE", per="user", json=True)
def play_buzz(request: HttpRequest, slug: str) -> JsonResponse:
    """Take a buzz: the server records the clue it has revealed and the seconds into it."""
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return _json_error("user", "start a game first", status=403)
    if study.results_released:
        return _json_error("study", _("This study has ended."), status=409)
    try:
        presentation = _presentation_of(request, project, _payload(request))
        buzz = game.buzz_record(presentation=presentation, study=study)
    except LookupError:
        return _json_error("presentation", "unknown or not yours", status=404)
    except services.SubmissionError as exc:
        return _json_error(exc.field, str(exc))
    except game.GameError as exc:
        return _json_error(exc.field, exc.message, status=exc.status)
    remaining = game.answer_deadline(study, presentation).remaining_s
    return JsonResponse({"clue_index": buzz.clue_index, "clue_time_s": buzz.clue_time_s,
                         "answer_seconds": buzz.answer_seconds, "seconds_left": remaining,
                         "created": buzz.created}, status=201 if buzz.created else 200)


@require_POST
@_refusable
@ratelimit.limit("answer", "EARSHOT_ANSWER_RATE", per="user", json=True)
def play_skip(request: HttpRequest, slug: str) -> JsonResponse:
    """"I don't know" (``reason: "skip"``) or the question timer ran out (``"time"``).

    Stored as its own outcome, not as a wrong answer. ``"time"`` is a time-out only if
    the server's own clock agrees that the time is (nearly) up; otherwise it is a skip.
    """
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return _json_error("user", "start a game first", status=403)
    if study.results_released:
        return _json_error("study", _("This study has ended."), status=409)
    try:
        payload = _payload(request)
        presentation = _presentation_of(request, project, payload)
        reason = payload.get("reason", "skip")
        if reason not in ("skip", "time"):
            raise services.SubmissionError("reason", "must be skip or time")
        deadline = game.answer_deadline(study, presentation)
        timed_out = reason == "time" and deadline.remaining_s is not None and deadline.remaining_s <= 1.0
        from .listening import evidence_for

        listening, fraction = evidence_for(presentation, payload.get("listening"))
        response, created = game.response_unanswered(
            presentation=presentation, study=study, client_token=_text(payload, "client_token", 64),
            outcome=Outcome.TIMEOUT if timed_out or deadline.expired else Outcome.SKIP,
            listening=listening, listened_fraction=fraction,
        )
    except LookupError:
        return _json_error("presentation", "unknown or not yours", status=404)
    except services.SubmissionError as exc:
        return _json_error(exc.field, str(exc))
    return _stored_reply(request, study, response, created)


@require_POST
@_refusable
def play_reveal(request: HttpRequest, slug: str) -> JsonResponse:
    """Reveal the next clue of a pyramidal question; the server records when."""
    project, _study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return _json_error("user", "start a game first", status=403)
    try:
        presentation = _presentation_of(request, project, _payload(request))
    except LookupError:
        return _json_error("presentation", "unknown or not yours", status=404)
    except services.SubmissionError as exc:
        return _json_error(exc.field, str(exc))
    question = presentation.question
    clips = [qc.clip for qc in question.question_clips.select_related("clip")]
    if not question.pyramidal:
        return _json_error("presentation", "this question has no clues to reveal")
    if Response.objects.filter(responder=presentation.responder, question=question,
                               mode=presentation.mode).exists():
        return _json_error("presentation", "already answered", status=409)
    if presentation.buzzed_at is not None:
        return _json_error("presentation", "you have buzzed: answer now", status=409)
    with transaction.atomic():
        moved = Presentation.objects.filter(
            pk=presentation.pk, clues_revealed__lt=len(clips)
        ).update(clues_revealed=F("clues_revealed") + 1)
        presentation.refresh_from_db(fields=["clues_revealed"])
        index = presentation.clues_revealed - 1
        if moved:
            PresentationEvent.objects.create(
                presentation=presentation, kind=PresentationEvent.Kind.REVEAL,
                clue_index=index, at=timezone.now(),
            )
    clip = clips[index]
    return JsonResponse({
        "clue_index": index,
        "total": len(clips),
        "more": presentation.clues_revealed < len(clips),
        "url": reverse("quiz:clip_audio", args=[clip.public_id]),
        "duration": clip.duration_s,
    })


@require_GET
@_refusable
def play_history(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's own answers: as much of each as the feedback policy allows."""
    project, study = _project_for_player(request, slug)
    if not request.user.is_authenticated:
        return redirect("quiz:play_start", slug=slug)
    responder = _responder(project, request)
    return render(
        request,
        "quiz/play_history.html",
        {
            "project": project,
            "study": study,
            "history": selectors.responder_history_for_player(study=study, responder=responder),
            "researcher": can_research(request.user, project),
            "results_visible": studies.results_visible(study),
            "accuracy": selectors.responder_accuracy_by_category(responder=responder)
            if studies.results_visible(study) else [],
        },
    )


@require_http_methods(["GET", "HEAD"])
def clip_audio(request: HttpRequest, public_id: str) -> HttpResponse:
    """Stream a clip by its opaque id (Range supported) to anyone allowed to hear it now.

    Researchers hear every clip of their projects. A player hears a clip only once
    the server has served it to them: a clue of a pyramidal question from the moment
    it was revealed, or any clip of a question they have answered.
    """
    clip = get_object_or_404(Clip.objects.select_related("project"), public_id=public_id)
    if not can_play(request.user, clip.project):
        raise PermissionDenied
    if not can_research(request.user, clip.project):
        from .selectors import clip_presentation_for_player

        presentation = clip_presentation_for_player(user=request.user, clip=clip)
        if presentation is None:
            raise Http404("No such clip")
        selectors.audio_fetch_record(presentation=presentation, clip=clip,
                                     range_header=request.headers.get("Range", ""))
    return serve_clip(request, clip)

