"""Quiz study integrity: designs, feedback policies, server-side pyramids, probing, access, protocol.

Every test here fails on the code before study designs existed (b119235): there a
player chose the mode, the reply to any answer carried the answerline, every clue
URL was in the page and the client said which clue it had heard.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from quiz.models import Presentation, PresentationEvent, Response
from quiz.study import study_update

pytestmark = pytest.mark.django_db

SECRETS = ["Canberra", "Batman", "Bruce Wayne", "Ode to Joy", "accept", "prompt on", "correct_position"]


def _start(client, project, **extra):
    reply = client.post(reverse("quiz:play_start", args=[project.slug]), {"handle": "", **extra})
    assert reply.status_code == 302, reply.content[:500]
    return reply["Location"]


def _next(client, project):
    page = client.get(reverse("quiz:play_next", args=[project.slug]))
    match = re.search(rb'data-presentation="(\d+)"', page.content)
    return page, (Presentation.objects.select_related("question").get(pk=int(match.group(1))) if match else None)


def _post(client, project, name, payload):
    return client.post(reverse(f"quiz:{name}", args=[project.slug]), data=json.dumps(payload),
                       content_type="application/json")


def _answer_right(client, project, presentation, token):
    question = presentation.question
    if presentation.mode == "mcq":
        payload = {"choice_position": presentation.option_order.index(question.correct_choice)}
    else:
        payload = {"answer": question.answerline.split("[")[0].strip()}
    return _post(client, project, "play_answer", {"presentation": presentation.pk, "client_token": token, **payload})


def _play_all(client, project):
    """Play every question served; return the (question id, mode, stage, reply) seen."""
    if "_auth_user_id" not in client.session:
        _start(client, project)
    seen = []
    for n in range(20):
        _page, presentation = _next(client, project)
        if presentation is None:
            break
        reply = _answer_right(client, project, presentation, f"t{n}")
        seen.append((presentation.question.external_id, presentation.mode, presentation.stage, reply))
    return seen


@pytest.fixture
def study(imported):
    study_update(project=imported, guests_per_hour=1000)
    return imported


def test_default_design_is_between_subjects_one_mode_per_question(client, study):
    from quiz.study import study_for

    assert study_for(study).design == "between"
    seen = _play_all(client, study)
    assert sorted(q for q, *_ in seen) == ["q1", "q2", "q3"]  # each question exactly once
    assert {stage for _q, _m, stage, _r in seen} == {1}
    assert dict((q, m) for q, m, *_ in seen)["q2"] == "free"  # no options: always free
    # Asking for the other mode changes nothing: the mode is the server's.
    assert client.get(reverse("quiz:play_next", args=[study.slug]) + "?mode=mcq").status_code == 200
    assert Response.objects.count() == 3


def test_between_subjects_balances_modes_across_players(client, study):
    modes = {"q1": [], "q3": []}
    for _ in range(8):
        for qid, mode, _stage, _reply in _play_all(client, study):
            if qid in modes:
                modes[qid].append(mode)
        client.logout()
    for qid, got in modes.items():
        assert got.count("free") == got.count("mcq") == 4, (qid, got)


def test_free_then_mcq_serves_mcq_second_and_hides_the_answer_until_then(client, study):
    study_update(project=study, design="free_then_mcq")
    _start(client, study)
    order = []
    for n in range(10):
        _page, presentation = _next(client, study)
        if presentation is None:
            break
        reply = _answer_right(client, study, presentation, f"f{n}")
        body = json.dumps({k: v for k, v in reply.json().items() if k != "your_answer"})
        qid = presentation.question.external_id
        order.append((qid, presentation.mode, presentation.stage))
        if presentation.mode == "free" and presentation.question.has_mcq:
            # The MCQ version is still to come: right or wrong only, no answerline, no option.
            assert reply.json()["feedback"] == "correctness"
            assert all(s not in body for s in SECRETS), body
            history = client.get(reverse("quiz:play_history", args=[study.slug])).content.decode()
            assert presentation.question.answerline.split("[")[0].strip() not in history.split("<tbody>")[1]
        else:
            assert reply.json()["feedback"] == "full"
    # Each question with options: free (stage 1) immediately followed by its MCQ (stage 2).
    for qid in ("q1", "q3"):
        i = order.index((qid, "free", 1))
        assert order[i + 1] == (qid, "mcq", 2)
    assert ("q2", "free", 1) in order and ("q2", "mcq", 2) not in order
    stage2 = Response.objects.filter(stage=2)
    assert stage2.count() == 2 and set(stage2.values_list("mode", flat=True)) == {"mcq"}


def test_stage_two_is_not_an_independent_mcq_answer(client, study):
    from quiz.selectors import leaderboard, responder_accuracy_by_category

    study_update(project=study, design="free_then_mcq", leaderboard_min_answers=1)
    _play_all(client, study)
    assert all(row["mode"] == "free" for row in responder_accuracy_by_category(
        responder=Response.objects.first().responder))
    assert leaderboard(project=study, mode="mcq") == []


def test_one_mode_design_serves_only_that_mode(client, study):
    study_update(project=study, design="one_mode", one_mode="mcq")
    seen = _play_all(client, study)
    assert {m for _q, m, *_ in seen} == {"mcq"} and {q for q, *_ in seen} == {"q1", "q3"}


@pytest.mark.parametrize("design", ["between", "choice", "one_mode"])
def test_a_question_answered_in_one_mode_is_never_served_in_the_other(client, study, design):
    """F-1: after an MCQ pass the free pass must not serve the same questions again."""
    study_update(project=study, design=design, one_mode="mcq")
    _start(client, study, mode="mcq")
    _play_all(client, study)
    answered = set(Response.objects.values_list("question_id", flat=True))
    study_update(project=study, design=design, one_mode="free")
    _start(client, study, mode="free")
    _page, presentation = _next(client, study)
    assert presentation is None or presentation.question_id not in answered
    assert Response.objects.values("question_id").distinct().count() == Response.objects.count()


def test_correctness_policy_never_reveals_the_answer(client, study):
    study_update(project=study, feedback="correctness")
    for _q, _m, _s, reply in _play_all(client, study):
        data = reply.json()
        assert data["feedback"] == "correctness" and data["correct"] is True
        body = json.dumps({k: v for k, v in data.items() if k != "your_answer"})
        assert all(s not in body for s in SECRETS)
    history = client.get(reverse("quiz:play_history", args=[study.slug])).content.decode()
    assert "right" in history and "Canberra [accept" not in history and "Batman [" not in history


def test_no_feedback_until_the_study_ends(client, study):
    study_update(project=study, feedback="none")
    for _q, _m, _s, reply in _play_all(client, study):
        # The player's own action (outcome) and round progress, nothing judged or compared.
        assert set(reply.json()) == {"status", "feedback", "response_id", "created", "your_answer", "message",
                                     "outcome", "challengeable", "round"}
        assert reply.json()["status"] == "recorded"
    history = client.get(reverse("quiz:play_history", args=[study.slug])).content.decode()
    assert "badge ok" not in history and "badge bad" not in history and "Accuracy by category" not in history
    board = client.get(reverse("quiz:leaderboard", args=[study.slug])).content.decode()
    assert 'id="leaderboard-hidden"' in board
    study_update(project=study, results_released=True)
    history = client.get(reverse("quiz:play_history", args=[study.slug])).content.decode()
    assert "badge ok" in history
    # The study has ended: nothing more is served or accepted.
    assert "This study has ended" in client.get(reverse("quiz:play_next", args=[study.slug])).content.decode()


def test_pyramid_clues_are_revealed_by_the_server_and_unfetchable_before(client, study):
    """F-2: the page carries only revealed clues; the clue index is the server's."""
    from quiz.models import Question

    study_update(project=study, design="one_mode", one_mode="free")
    # Only the pyramid: the other questions share its clips (clips are stored once).
    Question.objects.exclude(external_id="q3").update(is_active=False)
    _start(client, study)
    page, presentation = _next(client, study)
    question = presentation.question
    clips = [qc.clip for qc in question.question_clips.order_by("position")]
    html = page.content.decode()
    assert clips[0].public_id in html and clips[1].public_id not in html and clips[2].public_id not in html
    url = lambda c: reverse("quiz:clip_audio", args=[c.public_id])  # noqa: E731
    assert client.get(url(clips[0])).status_code == 200
    assert client.get(url(clips[1])).status_code == 404
    assert client.get(url(clips[2])).status_code == 404
    reveal = _post(client, study, "play_reveal", {"presentation": presentation.pk})
    assert reveal.status_code == 200 and reveal.json()["clue_index"] == 1 and reveal.json()["more"] is True
    assert client.get(url(clips[1])).status_code == 200
    assert client.get(url(clips[2])).status_code == 404
    reply = _post(client, study, "play_answer", {"presentation": presentation.pk, "client_token": "pyr",
                                                 "answer": "Ode to Joy", "clue_index": 0})
    assert reply.status_code == 201
    stored = Response.objects.get(question=question)
    assert stored.clue_index == 1 and stored.clue_time_s is not None and stored.clue_time_s >= 0
    events = PresentationEvent.objects.filter(presentation=presentation)
    assert list(events.filter(kind="reveal").values_list("clue_index", flat=True)) == [1]
    assert set(events.filter(kind="audio").values_list("clue_index", flat=True)) == {0, 1}
    # Answered: every clue may now be heard; no more reveals.
    assert client.get(url(clips[2])).status_code == 200
    assert _post(client, study, "play_reveal", {"presentation": presentation.pk}).status_code == 409


def test_clips_of_questions_not_served_are_not_fetchable(client, study):
    from quiz.models import Clip

    _start(client, study)
    for clip in Clip.objects.all():
        assert client.get(reverse("quiz:clip_audio", args=[clip.public_id])).status_code == 404


def test_prompts_are_stored_and_capped(client, study):
    """M-2: a prompt reply is an event on the presentation, and only prompt_limit are given."""
    study_update(project=study, design="one_mode", one_mode="free", prompt_limit=1)
    _start(client, study)
    for _ in range(3):
        _page, presentation = _next(client, study)
        if presentation.question.external_id == "q3":
            break
        _answer_right(client, study, presentation, f"y{presentation.pk}")
    first = _post(client, study, "play_answer", {"presentation": presentation.pk, "client_token": "a",
                                                 "answer": "Beethoven"})
    assert first.json()["status"] == "prompt"
    second = _post(client, study, "play_answer", {"presentation": presentation.pk, "client_token": "a",
                                                  "answer": "Beethoven"})
    assert second.json()["status"] == "judged" and second.json()["correct"] is False
    assert PresentationEvent.objects.filter(kind="prompted").count() == 1
    assert Response.objects.get(question__external_id="q3").prompted is True


def test_guest_creation_is_limited_per_client(client, imported):
    study_update(project=imported, guests_per_hour=2)
    for _ in range(2):
        _start(client, imported)
        client.logout()
    refused = client.post(reverse("quiz:play_start", args=[imported.slug]), {"handle": ""})
    assert refused.status_code == 400 and b"Too many new players" in refused.content


def test_study_link_and_sign_in_access(client, study, make_user):
    from quiz.study import study_for, study_link_rotate

    study_update(project=study, access="study_link")
    start = reverse("quiz:play_start", args=[study.slug])
    assert client.get(start).status_code == 403
    token = study_for(study).link_token
    assert client.get(start + f"?k={token}").status_code == 200
    assert client.get(start).status_code == 200  # remembered for this browser session
    study_link_rotate(project=study)
    assert client.get(start).status_code == 403
    study_update(project=study, access="sign_in")
    assert b"registered players" in client.get(start).content
    client.force_login(make_user())
    assert client.get(start).status_code == 200


def test_leaderboard_needs_enough_answers_and_flags_handle_changes(client, study):
    from quiz.selectors import leaderboard
    from quiz.study import study_for

    study_update(project=study, leaderboard_min_answers=3, design="one_mode", one_mode="free")
    # First name: answers everything wrong (and learns the answers)...
    _start(client, study)
    for n in range(3):
        _page, presentation = _next(client, study)
        _post(client, study, "play_answer", {"presentation": presentation.pk, "client_token": f"w{n}",
                                             "answer": "no idea"})
    browser = client.cookies["earshot_bid"].value
    client.logout()  # ...then a new name in the same browser gets everything right.
    client.cookies["earshot_bid"] = browser
    _play_all(client, study)
    board = leaderboard(project=study, study=study_for(study), mode="free")
    assert [row["n"] for row in board] == [3, 3]
    assert board[0]["flag"] and not board[1]["flag"]
    study_update(project=study, leaderboard_min_answers=4)
    assert leaderboard(project=study, study=study_for(study), mode="free") == []


def test_protocol_before_play_with_versions_and_separate_contact(client, study):
    from accounts.models import ContactInfo
    from quiz.models import PlayerEnrolment, StudyProtocolVersion

    study_update(project=study, consent_text="You agree to v1.", instructions_text="Listen well.",
                 ask_native_language=True, collect_payment_email=True,
                 questionnaire=[{"name": "years", "label": "Years of quizbowl", "kind": "number"}])
    location = _start(client, study)
    assert "/play/before/" in location
    assert client.get(reverse("quiz:play_next", args=[study.slug])).status_code == 302
    form = reverse("quiz:play_protocol", args=[study.slug])
    refused = client.post(form, {"q_native_language": "Korean", "email": "p@example.org"})
    assert refused.status_code == 400 and not PlayerEnrolment.objects.exists()
    ok = client.post(form, {"consent": "yes", "q_native_language": "Korean", "q_years": "3",
                            "email": "p@example.org"})
    assert ok.status_code == 302
    enrolment = PlayerEnrolment.objects.get()
    from quiz.study import study_for

    version = study_for(study).protocol_version
    assert enrolment.protocol_version == version and enrolment.answers == {"native_language": "Korean", "years": "3"}
    assert "p@example.org" not in json.dumps(enrolment.answers)
    assert ContactInfo.objects.get(user=enrolment.responder.user).email == "p@example.org"
    assert _next(client, study)[1] is not None
    study_update(project=study, consent_text="You agree to v2.")
    assert StudyProtocolVersion.objects.get(project=study, version=version).consent_text == "You agree to v1."
    assert StudyProtocolVersion.objects.get(project=study, version=version + 1).consent_text == "You agree to v2."


def test_study_settings_are_validated(imported):
    from quiz.study import StudyError

    with pytest.raises(StudyError) as err:
        study_update(project=imported, design="whatever")
    assert err.value.field == "design"
    with pytest.raises(StudyError) as err:
        study_update(project=imported, questionnaire=[{"name": "a b", "label": "x"}])
    assert err.value.field == "questionnaire[1].name"
    from quiz.study import study_for

    assert study_for(imported).design == "between"


def test_listening_evidence_is_checked_and_stored(client, study):
    study_update(project=study, design="one_mode", one_mode="free")
    _start(client, study)
    _page, presentation = _next(client, study)
    duration = presentation.question.clips.first().duration_s
    reply = _post(client, study, "play_answer", {
        "presentation": presentation.pk, "client_token": "l1", "answer": "x",
        "listening": {"0": [[0, duration]]},
    })
    assert reply.status_code == 201
    stored = Response.objects.get()
    # Served a moment ago: hearing the whole clip cannot be true, so it counts as nothing heard.
    assert stored.listening["ok"] is False and stored.listened_fraction == 0.0
    assert "too soon" in stored.listening["clips"][0]["reason"]
    _page, second = _next(client, study)
    _post(client, study, "play_answer", {"presentation": second.pk, "client_token": "l2", "answer": "x",
                                         "listening": {"0": [[0, 0.01]]}})
    assert Response.objects.get(client_token="l2").listened_fraction > 0
    _page, third = _next(client, study)
    _post(client, study, "play_answer", {"presentation": third.pk, "client_token": "l3", "answer": "x"})
    assert Response.objects.get(client_token="l3").listened_fraction is None


def test_researcher_sets_the_design_and_the_workspace_shows_it(client, study, make_user):
    from accounts.models import Role
    from accounts.services import membership_set
    from quiz.study import study_for

    researcher = make_user()
    membership_set(project=study, user=researcher, role=Role.RESEARCHER)
    participant = make_user()
    membership_set(project=study, user=participant, role=Role.PARTICIPANT)
    url = reverse("quiz:study_settings", args=[study.slug])
    client.force_login(participant)
    assert client.get(url).status_code == 403
    client.force_login(researcher)
    page = client.get(url)
    assert page.status_code == 200 and b"Between-subjects" in page.content
    form = {"design": "free_then_mcq", "one_mode": "free", "feedback": "correctness", "access": "open",
            "prompt_limit": 1, "guests_per_hour": 5, "leaderboard_min_answers": 10,
            "questionnaire": "[not json"}
    assert client.post(url, form).status_code == 400
    assert study_for(study).design == "between"
    assert client.post(url, {**form, "questionnaire": ""}).status_code == 302
    assert study_for(study).design == "free_then_mcq"
    workspace = client.get(reverse("frontend:workspace", args=[study.slug])).content.decode()
    assert "Free then multiple choice" in workspace and "Show right or wrong only" in workspace


def test_exports_name_stage_design_and_listening_and_dashboards_skip_stage_two(client, study, make_user):
    import csv
    import io

    from accounts.models import Role
    from accounts.services import membership_set

    study_update(project=study, design="free_then_mcq")
    _play_all(client, study)
    researcher = make_user()
    membership_set(project=study, user=researcher, role=Role.OWNER)
    client.force_login(researcher)
    url = reverse("frontend:export_responses", args=[study.slug, "csv"])

    def rows(query=""):
        body = b"".join(client.get(url + query).streaming_content).decode()
        return list(csv.DictReader(io.StringIO(body)))

    default = rows()
    assert {"stage", "design", "feedback", "clue_time_s", "listened_fraction", "protocol_version"} <= set(default[0])
    assert {r["stage"] for r in default} == {"1"} and len(default) == 3
    everything = rows("?stage=all")
    assert len(everything) == 5 and {r["stage"] for r in everything} == {"1", "2"}
    assert {r["design"] for r in everything} == {"free_then_mcq"}
    assert {r["feedback"] for r in everything if r["stage"] == "1" and r["question_id"] != "q2"} == {"correctness"}
