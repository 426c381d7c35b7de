"""The player flow through real HTTP requests: serving, answering, leakage, idempotency."""

import json
import re

import pytest
from django.urls import reverse

from quiz.models import Clip, Presentation, Question, Response

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _players_choose_mode(request):
    """These tests pick the mode themselves: the casual *player's choice* design.

    The study designs (between-subjects, free then MCQ, one mode) are tested in
    tests/quiz/test_study.py.
    """
    if "imported" in request.fixturenames:
        from quiz.study import study_update

        study_update(project=request.getfixturevalue("imported"), design="choice", guests_per_hour=1000)


def _start(client, project, mode="free", category=""):
    response = client.post(
        reverse("quiz:play_start", args=[project.slug]),
        {"handle": "", "mode": mode, "category": category},
    )
    assert response.status_code == 302
    return response["Location"]


def _serve(client, project, mode, category):
    url = _start(client, project, mode=mode, category=category)
    page = client.get(url)
    assert page.status_code == 200
    presentation = Presentation.objects.get(pk=int(re.search(rb'data-presentation="(\d+)"', page.content).group(1)))
    return page, presentation


def _answer(client, project, payload):
    return client.post(
        reverse("quiz:play_answer", args=[project.slug]),
        data=json.dumps(payload),
        content_type="application/json",
    )


def test_guest_gets_pseudonymous_handle_and_question(client, imported):
    page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    assert presentation.question.external_id == "q2"
    assert presentation.responder.user.is_guest
    assert presentation.responder.label == presentation.responder.user.handle
    assert b"Who is this?" in page.content


def test_controls_wait_for_the_script_and_say_so_without_it(client, imported):
    """The answer controls start disabled (play.js enables them once its handlers
    exist), so a page without JavaScript must say why nothing can be typed."""
    for mode, category in [("free", "whos-who-name-that-persona"), ("mcq", "cultural-geography-in-sound")]:
        page, _ = _serve(client, imported, mode, category)
        html = page.content.decode()
        controls = re.findall(r'<(?:input id="answer"|button [^>]*class="(?:option|button primary)")[^>]*>', html)
        assert controls and all(c.endswith(" disabled>") for c in controls)
        assert re.search(r'<noscript><p class="error" id="needs-js">[^<]*JavaScript', html)


def test_no_answer_leaks_before_answering(client, imported):
    """Neither the answerline nor which option is correct reaches the browser early."""
    for mode, category in [("free", "whos-who-name-that-persona"), ("mcq", "cultural-geography-in-sound"),
                           ("mcq", "name-the-music-songs-artists-composers")]:
        page, presentation = _serve(client, imported, mode, category)
        question = presentation.question
        html = page.content.decode()
        for secret in ["Batman", "Bruce Wayne", "Dark Knight", "accept", "prompt on", question.answerline]:
            assert secret not in html
        for name in ["a.wav", "b.wav", "c.wav"]:
            assert name not in html
        if mode == "mcq":
            correct_text = question.choices[question.correct_choice]
            # The options are shown (in shuffled order) with positions only: nothing marks the right one.
            assert html.count(correct_text) == 1
            buttons = re.findall(r"<button[^>]*class=\"option[^>]*>", html)
            assert len(buttons) == 4
            # Identical markup apart from the position: nothing marks the right one.
            assert len({re.sub(r'data-position="\d"', "", b) for b in buttons}) == 1
        for clip in question.clips.all():
            audio = client.get(reverse("quiz:clip_audio", args=[clip.public_id]))
            assert "filename" not in audio.get("Content-Disposition", "")
            assert clip.public_id in reverse("quiz:clip_audio", args=[clip.public_id])
        client.logout()


def test_answer_returns_verdict_and_answer_after_submission(client, imported):
    _page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    reply = _answer(client, imported, {"presentation": presentation.pk, "answer": "bruce wayne", "client_token": "t-1"})
    assert reply.status_code == 201
    data = reply.json()
    assert data["correct"] is True
    assert "Batman" in data["answerline_html"]
    # A plain ruling for the player (D12): no rule name, no calibrated score, no judge syntax.
    assert data["ruling"] and "explanation" not in data and "rule" not in data and "technical" not in data
    assert "[accept" not in data["answerline_html"]
    stored = Response.objects.get()
    assert stored.rule_version and stored.rule and stored.latency_ms is not None


def test_same_client_token_stores_one_response(client, imported):
    _page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    payload = {"presentation": presentation.pk, "answer": "Joker", "client_token": "same-token"}
    first = _answer(client, imported, payload)
    second = _answer(client, imported, payload)
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["created"] is False
    assert Response.objects.count() == 1
    # A different token for an already-answered question does not add a second response either.
    third = _answer(client, imported, {**payload, "client_token": "other", "answer": "Batman"})
    assert third.json()["correct"] is False
    assert Response.objects.count() == 1


def test_mcq_order_is_shuffled_per_player_and_stored(client, imported):
    orders = set()
    for _ in range(12):
        page, presentation = _serve(client, imported, "mcq", "cultural-geography-in-sound")
        question = presentation.question
        shown = re.findall(r'<span>([^<]+)</span>\s*</button>', page.content.decode())
        assert shown == [question.choices[i] for i in presentation.option_order]
        orders.add(tuple(presentation.option_order))
        # Reloading shows the same order.
        again = client.get(reverse("quiz:play_next", args=[imported.slug]) + "?mode=mcq&category=cultural-geography-in-sound")
        assert re.findall(r'<span>([^<]+)</span>\s*</button>', again.content.decode()) == shown
        position = presentation.option_order.index(question.correct_choice)
        reply = _answer(client, imported, {"presentation": presentation.pk, "choice_position": position, "client_token": f"k{_}"})
        assert reply.json()["correct"] is True
        assert reply.json()["correct_position"] == position
        stored = Response.objects.get(responder=presentation.responder)
        assert stored.option_order == presentation.option_order
        assert stored.choice == question.correct_choice and stored.choice_position == position
        client.logout()
    assert len(orders) > 1


def test_prompt_then_final_answer(client, imported):
    """A prompt is stored as an event (nothing a player can probe unseen); the clue index
    and the time into the clue come from the server's reveals, never from the client."""
    from quiz.models import PresentationEvent

    _page, presentation = _serve(client, imported, "free", "name-the-music-songs-artists-composers")
    first = _answer(client, imported, {"presentation": presentation.pk, "answer": "Beethoven", "client_token": "p1"})
    assert first.json()["status"] == "prompt"
    assert "explanation" not in first.json() and "Beethoven" not in first.content.decode()
    assert Response.objects.count() == 0
    assert PresentationEvent.objects.filter(presentation=presentation, kind="prompted").count() == 1
    for _ in range(2):
        assert client.post(reverse("quiz:play_reveal", args=[imported.slug]),
                           data=json.dumps({"presentation": presentation.pk}),
                           content_type="application/json").status_code == 200
    final = _answer(client, imported, {"presentation": presentation.pk, "answer": "Ode to Joy", "client_token": "p2",
                                       "prompted": False, "clue_index": 0, "clip_time_s": 1.5})
    assert final.json()["correct"] is True
    stored = Response.objects.get()
    assert stored.prompted and stored.clue_index == 2 and stored.clue_time_s is not None


@pytest.mark.parametrize(
    "payload,field",
    [
        pytest.param({"answer": "   ", "client_token": "x"}, "answer", id="empty"),
        pytest.param({"answer": "x", "client_token": ""}, "client_token", id="no-token"),
        pytest.param({"answer": "x\u0000", "client_token": "y"}, "answer", id="nul"),
        pytest.param({"answer": ["x"], "client_token": "y"}, "answer", id="not-text"),
        pytest.param({"answer": "x", "client_token": "y", "choice_position": "z"}, "choice", id="bad-choice"),
    ],
)
def test_bad_answers_are_rejected_with_field(client, imported, payload, field):
    _page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    reply = _answer(client, imported, {"presentation": presentation.pk, **payload})
    assert reply.status_code == 400
    assert reply.json()["error"]["field"] == field
    assert Response.objects.count() == 0


def test_cannot_answer_someone_elses_presentation(client, imported, django_user_model):
    _page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    client.logout()
    _start(client, imported)
    reply = _answer(client, imported, {"presentation": presentation.pk, "answer": "Batman", "client_token": "z"})
    assert reply.status_code == 404


def test_history_and_accuracy_by_category(client, imported):
    _page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    _answer(client, imported, {"presentation": presentation.pk, "answer": "Batman", "client_token": "h"})
    page = client.get(reverse("quiz:play_history", args=[imported.slug]))
    html = page.content.decode()
    assert "Who&#x27;s Who? Name That Persona" in html and "100%" in html


def test_range_request_returns_206(client, imported):
    _page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    clip = presentation.question.clips.first()
    url = reverse("quiz:clip_audio", args=[clip.public_id])
    part = client.get(url, HTTP_RANGE="bytes=0-99")
    assert part.status_code == 206
    body = b"".join(part.streaming_content)
    assert len(body) == 100
    assert part["Content-Range"] == f"bytes 0-99/{clip.size_bytes}"
    assert part["Content-Type"] == "audio/wav"
    assert part["Accept-Ranges"] == "bytes"
    full = client.get(url)
    data = b"".join(full.streaming_content)
    assert full.status_code == 200 and len(data) == clip.size_bytes
    assert data[:100] == body
    tail = client.get(url, HTTP_RANGE="bytes=-10")
    assert b"".join(tail.streaming_content) == data[-10:]
    open_end = client.get(url, HTTP_RANGE=f"bytes={clip.size_bytes - 5}-")
    assert b"".join(open_end.streaming_content) == data[-5:]
    bad = client.get(url, HTTP_RANGE=f"bytes={clip.size_bytes + 10}-")
    assert bad.status_code == 416 and bad["Content-Range"] == f"bytes */{clip.size_bytes}"
    cached = client.get(url, HTTP_IF_NONE_MATCH=full["ETag"])
    assert cached.status_code == 304


def test_private_project_clips_need_membership(client, private_project, bank_dir, make_user):
    from accounts.models import Role
    from accounts.services import membership_set
    from quiz.services import bank_import

    bank_import(project=private_project, path=bank_dir / "bank.jsonl")
    clip = Clip.objects.filter(project=private_project).first()
    url = reverse("quiz:clip_audio", args=[clip.public_id])
    assert client.get(url).status_code == 403
    assert client.get(reverse("quiz:play_start", args=[private_project.slug])).status_code == 404
    user = make_user()
    client.force_login(user)
    assert client.get(url).status_code == 403
    membership_set(project=private_project, user=user, role=Role.PARTICIPANT)
    # A member hears a clip once it is served to them (never by guessing its id).
    assert client.get(url).status_code == 404
    from quiz.services import presentation_get_or_create, responder_for_user

    presentation_get_or_create(responder=responder_for_user(project=private_project, user=user),
                               question=clip.questions.first(), mode="free")
    assert client.get(url).status_code == 200


def test_mcq_mode_only_serves_questions_with_options(client, imported):
    seen = set()
    for _ in range(4):
        _page, presentation = _serve(client, imported, "mcq", "")
        seen.add(presentation.question.external_id)
        client.logout()
    assert "q2" not in seen
    assert Question.objects.get(external_id="q2").has_mcq is False


def test_demo_command_builds_playable_bank(db, capsys):
    from django.core.management import call_command

    call_command("quiz_demo", players=2)
    from accounts.models import Project

    demo = Project.objects.get(slug="demo")
    questions = Question.objects.filter(project=demo)
    assert questions.count() >= 12
    assert questions.filter(pyramidal=True).exists()
    assert questions.values("category").distinct().count() >= 3
    assert all(q.has_mcq for q in questions)
    from quiz.demo import DEMO_SYSTEMS

    assert Response.objects.filter(project=demo, responder__kind="model").count() == (
        len(DEMO_SYSTEMS) * 2 * questions.count())
    assert Response.objects.filter(project=demo, responder__kind="human").exists()
    call_command("quiz_demo", players=2)  # idempotent
    assert Question.objects.filter(project=demo).count() == questions.count()


def test_adjudicated_verdict_counts_in_history_and_leaderboard(client, imported, make_user):
    """A researcher's ruling on a challenged answer wins everywhere the player looks."""
    from judging.services import override_set
    from quiz.selectors import leaderboard

    _page, presentation = _serve(client, imported, "free", "whos-who-name-that-persona")
    reply = _answer(client, imported, {"presentation": presentation.pk, "answer": "the caped crusader", "client_token": "c"})
    assert reply.json()["correct"] is False and reply.json()["response_id"]
    response = Response.objects.get(pk=reply.json()["response_id"])
    override_set(response=response, correct=True, by=make_user(), note="an accepted nickname")
    page = client.get(reverse("quiz:play_history", args=[imported.slug])).content.decode()
    assert "100%" in page
    assert leaderboard(project=imported)[0]["n_correct"] == 1
