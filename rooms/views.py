"""Pages of the live rooms: start or join a room, and the room itself (docs/rooms.md)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from quiz.views import (
    _ensure_participant,
    _project_for_player,
    _protocol_pending,
    _refusable,
    _responder,
)

from . import services
from .models import RoomPhase


def _to_play_start(slug: str, room: str) -> HttpResponse:
    """Players pick a name (and give consent) on the play page first; it sends them back here."""
    return redirect(reverse("quiz:play_start", args=[slug]) + "?" + urlencode({"room": room}))


@require_http_methods(["GET", "POST"])
@_refusable
def rooms_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Create a room (POST) or join one by its code."""
    project, study = _project_for_player(request, slug)
    error = ""
    code = (request.GET.get("code") or "").strip().upper()
    if code:
        room = services.room_by_code(code)
        if room is not None and room.project_id == project.pk:
            return redirect("rooms:room", slug=slug, code=room.code)
        error = _("No room has that code. Check it with the host.")
    if request.method == "POST":
        if not request.user.is_authenticated:
            return _to_play_start(slug, "new")
        _ensure_participant(project, request.user)
        responder = _responder(project, request)
        if _protocol_pending(study, responder):
            return redirect(reverse("quiz:play_protocol", args=[slug]) + "?" + urlencode({"room": "new"}))
        room = services.room_create(project=project, host=responder)
        return redirect("rooms:room", slug=slug, code=room.code)
    return render(request, "rooms/home.html", {"project": project, "error": error, "code": code},
                  status=404 if error else 200)


@_refusable
def room_page(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """The room: lobby, the question everyone hears, the buzzer, the scoreboard."""
    project, study = _project_for_player(request, slug)
    room = services.room_by_code(code)
    if room is None or room.project_id != project.pk:
        return render(request, "rooms/home.html",
                      {"project": project, "error": _("No room has that code. Check it with the host."),
                       "code": code}, status=404)
    if not request.user.is_authenticated:
        return _to_play_start(slug, room.code)
    _ensure_participant(project, request.user)
    responder = _responder(project, request)
    if _protocol_pending(study, responder):
        return redirect(reverse("quiz:play_protocol", args=[slug]) + "?" + urlencode({"room": room.code}))
    try:
        seat = services.room_join(room=room, responder=responder)
    except services.RoomError as exc:
        return render(request, "rooms/home.html", {"project": project, "error": exc.message, "code": code},
                      status=409)
    config = {
        # the socket speaks the page's language (its errors and ruling sentences)
        "socket": f"/ws/rooms/{room.code}/?" + urlencode({"lang": get_language() or ""}),
        "code": room.code,
        "you": seat.pk,
        "host": room.host_id == responder.pk,
        "answerSeconds": study.answer_seconds,
        "text": {
            "lobby": _("Waiting for the host to start."), "start": _("Start the round"),
            "buzz": _("Buzz"), "locked": _("%(name)s buzzed first."), "you_buzzed": _("You buzzed: answer now!"),
            "answer": _("Your answer"), "send": _("Send"), "next": _("Next question"),
            "clue": _("Clue %(n)s of %(total)s"), "dead": _("Nobody got this one."),
            "won": _("%(name)s got it."), "answer_was": _("The answer: %(answer)s"),
            "finished": _("The round is over. Final scores below."), "reconnecting": _("Reconnecting…"),
            "points": _("points"), "offline": _("away"), "you": _("you"),
            "waiting_answer": _("%(name)s is answering…"), "late": _("Too late: someone else buzzed first."),
        },
    }
    return render(request, "rooms/room.html", {
        "project": project, "room": room, "seat": seat, "config": config,
        "finished": room.phase == RoomPhase.FINISHED,
    })
