"""The game (issue 17): buzzes timed by the server, points, skips, rounds, the machines, daily, boards.

The rules under test (docs/playing.md): the clue and seconds of a buzz are the
server's; answers after the answer timer and its grace are time-outs; a skip is
its own outcome; nothing about the machines or other players reaches a player
before they have answered, nor while the question may still be served to them
in another mode, under any design or feedback policy.
"""

from __future__ import annotations

import json
import re
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from quiz import game
from quiz.models import Outcome, PlayRound, Presentation, Response
from quiz.study import study_for, study_update

pytestmark = pytest.mark.django_db

#: Text that would give an answer away, or a machine's result, before answering.
SECRETS = ["Canberra", "Batman", "Bruce Wayne", "Ode to Joy [", "accept", "prompt on", "correct_position",
           "alm-large", "machine-list\"><li"]


def _post(client, project, name, payload):
    return client.post(reverse(f"quiz:{name}", args=[project.slug]), data=json.dumps(payload),
                       content_type="application/json")


def _start(client, project, **extra):
    reply = client.post(reverse("quiz:play_start", args=[project.slug]), {"handle": "", **extra})
    assert reply.status_code == 302, reply.content[:300]
    return reply


def _next(client, project, url=None):
    page = client.get(url or reverse("quiz:play_next", args=[project.slug]))
    match = re.search(rb'data-presentation="(\d+)"', page.content)
    return page, (Presentation.objects.select_related("question").get(pk=int(match.group(1))) if match else None)


def _right(presentation):
    q = presentation.question
    if presentation.mode == "mcq":
        return {"choice_position": presentation.option_order.index(q.correct_choice)}
    return {"answer": q.answerline.split("[")[0].strip()}


def _wrong(presentation):
    q = presentation.question
    if presentation.mode == "mcq":
        return {"choice_position": next(i for i, c in enumerate(presentation.option_order) if c != q.correct_choice)}
    return {"answer": "something else entirely"}


def _serve_pyramid(client, project):
    """Serve questions until the pyramidal one (q3) comes; answer the others."""
    for n in range(5):
        _page, p = _next(client, project)
        assert p is not None
        if p.question.pyramidal:
            return p
        _post(client, project, "play_answer", {"presentation": p.pk, "client_token": f"pre-{n}", **_right(p)})
    raise AssertionError("no pyramid served")


@pytest.fixture
def study(imported):
    study_update(project=imported, guests_per_hour=1000, leaderboard_min_answers=1)
    return imported


@pytest.fixture
def machines(study):
    """Two model systems' answers to every question in both modes (alm-large right, alm-small wrong)."""
    from quiz.services import model_responses_import

    rows = []
    for qid, right in (("q1", "Canberra"), ("q2", "Batman"), ("q3", "Ode to Joy")):
        rows.append({"system": "alm-large", "condition": "audio+text", "question_id": qid, "mode": "free",
                     "answer": right})
        rows.append({"system": "alm-small", "condition": "audio+text", "question_id": qid, "mode": "free",
                     "answer": "no idea"})
    rows.append({"system": "alm-large", "condition": "audio+text", "question_id": "q1", "mode": "mcq",
                 "choice": "Canberra"})
    rows.append({"system": "alm-large", "condition": "audio+text", "question_id": "q3", "mode": "mcq",
                 "choice": "Ode to Joy"})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "outputs.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in rows))
        model_responses_import(project=study, path=path)
    return study


# --- buzzing ------------------------------------------------------------------------


def test_buzz_records_the_servers_clue_and_time_not_the_clients(client, study):
    study_update(project=study, design="one_mode", one_mode="free")
    _start(client, study)
    p = _serve_pyramid(client, study)
    assert _post(client, study, "play_reveal", {"presentation": p.pk}).status_code == 200  # clue 2 revealed
    reveal = p.events.get(kind="reveal", clue_index=1)
    reveal.at -= timedelta(seconds=0.2)  # the clip lasts 0.5 s: 0.2 s into clue 2
    reveal.save()
    buzz = _post(client, study, "play_buzz", {"presentation": p.pk, "clue_index": 0, "clue_time_s": 0.0})
    assert buzz.status_code == 201
    data = buzz.json()
    assert data["clue_index"] == 1 and 0.2 <= data["clue_time_s"] < 2.0
    assert data["answer_seconds"] == 10
    again = _post(client, study, "play_buzz", {"presentation": p.pk})
    assert again.status_code == 200 and again.json()["clue_time_s"] == data["clue_time_s"]  # the first buzz stands
    # After the buzz no more clues, and the answer counts at the buzz, whatever arrives later.
    assert _post(client, study, "play_reveal", {"presentation": p.pk}).status_code == 409
    p.refresh_from_db()
    Presentation.objects.filter(pk=p.pk).update(buzzed_at=p.buzzed_at - timedelta(seconds=5))
    reply = _post(client, study, "play_answer", {"presentation": p.pk, "client_token": "b1", "answer": "Ode to Joy",
                                                 "clue_index": 2})
    assert reply.status_code == 201 and reply.json()["correct"] is True
    stored = Response.objects.get(client_token="b1")
    assert stored.clue_index == 1 and stored.clue_time_s == data["clue_time_s"]
    assert stored.outcome == "answer"
    assert stored.buzz_position == pytest.approx((1 + min(data["clue_time_s"] / 0.5, 1)) / 3, abs=1e-3)
    assert p.events.filter(kind="buzz").count() == 1


def test_answer_after_the_answer_timer_and_grace_is_a_timeout(client, study):
    study_update(project=study, design="one_mode", one_mode="free", answer_seconds=5)
    _start(client, study)
    p = _serve_pyramid(client, study)
    _post(client, study, "play_buzz", {"presentation": p.pk})
    p.refresh_from_db()
    Presentation.objects.filter(pk=p.pk).update(buzzed_at=p.buzzed_at - timedelta(seconds=5 + 2.5))
    reply = _post(client, study, "play_answer", {"presentation": p.pk, "client_token": "late", "answer": "Ode to Joy"})
    assert reply.status_code == 201
    data = reply.json()
    assert data["outcome"] == "timeout" and data["correct"] is False and data["points"] == 0
    stored = Response.objects.get(client_token="late")
    assert (stored.outcome, stored.correct, stored.answer_text) == ("timeout", False, "")


def test_an_answer_within_the_grace_is_judged(client, study):
    study_update(project=study, design="one_mode", one_mode="free", answer_seconds=5)
    _start(client, study)
    p = _serve_pyramid(client, study)
    _post(client, study, "play_buzz", {"presentation": p.pk})
    p.refresh_from_db()
    Presentation.objects.filter(pk=p.pk).update(buzzed_at=p.buzzed_at - timedelta(seconds=6))
    reply = _post(client, study, "play_answer", {"presentation": p.pk, "client_token": "ok", "answer": "Ode to Joy"})
    assert reply.json()["outcome"] == "answer" and reply.json()["correct"] is True


def test_empty_answer_after_a_buzz_is_a_timeout_not_a_wrong_answer(client, study):
    study_update(project=study, design="one_mode", one_mode="free")
    _start(client, study)
    p = _serve_pyramid(client, study)
    _post(client, study, "play_buzz", {"presentation": p.pk})
    reply = _post(client, study, "play_answer", {"presentation": p.pk, "client_token": "e", "answer": ""})
    assert reply.json()["outcome"] == "timeout"


def test_question_timer_refuses_a_late_buzz_and_time_up_is_a_timeout(client, study):
    study_update(project=study, design="one_mode", one_mode="free", question_seconds=20)
    _start(client, study)
    p = _serve_pyramid(client, study)
    page = client.get(reverse("quiz:play_next", args=[study.slug])).content.decode()
    left = float(re.search(r'data-seconds-left="([\d.]+)"', page).group(1))
    assert 15 < left <= 20
    Presentation.objects.filter(pk=p.pk).update(served_at=p.served_at - timedelta(seconds=30))
    assert _post(client, study, "play_buzz", {"presentation": p.pk}).status_code == 409
    reply = _post(client, study, "play_skip", {"presentation": p.pk, "client_token": "t", "reason": "time"})
    assert reply.json()["outcome"] == "timeout"


# --- points and skip -------------------------------------------------------------------


def test_points_reward_earlier_buzzes_and_a_wrong_early_buzz_costs(client, study, make_user):
    study_update(project=study, design="one_mode", one_mode="free")
    _start(client, study)
    p = _serve_pyramid(client, study)
    _post(client, study, "play_buzz", {"presentation": p.pk})  # at once, on clue 1 of 3
    early = _post(client, study, "play_answer", {"presentation": p.pk, "client_token": "e1", "answer": "Ode to Joy"})
    assert early.json()["points"] > 16  # 10 + nearly 10

    other = type(client)()
    _start(other, study)
    q = _serve_pyramid(other, study)
    for _ in range(2):
        _post(other, study, "play_reveal", {"presentation": q.pk})
    Presentation.objects.filter(pk=q.pk).update(served_at=q.served_at - timedelta(seconds=60))
    q.events.filter(kind="reveal").update(at=q.served_at - timedelta(seconds=30))  # all heard
    late = _post(other, study, "play_answer", {"presentation": q.pk, "client_token": "l1", "answer": "Ode to Joy"})
    assert late.json()["points"] == 10

    third = type(client)()
    _start(third, study)
    r = _serve_pyramid(third, study)
    _post(third, study, "play_buzz", {"presentation": r.pk})
    wrong = _post(third, study, "play_answer", {"presentation": r.pk, "client_token": "w1", "answer": "Bolero"})
    assert wrong.json()["points"] == -5 and wrong.json()["correct"] is False


def test_skip_is_a_distinct_outcome_with_no_points_and_no_challenge(client, study):
    from judging.services import JudgingError, challenge_submit

    study_update(project=study, design="one_mode", one_mode="free")
    _start(client, study)
    _page, p = _next(client, study)
    reply = _post(client, study, "play_skip", {"presentation": p.pk, "client_token": "s1"})
    assert reply.status_code == 201
    data = reply.json()
    assert data["outcome"] == "skip" and data["points"] == 0 and data["challengeable"] is False
    assert "pass" in data["ruling"].lower()
    stored = Response.objects.get(client_token="s1")
    assert (stored.outcome, stored.correct, stored.answer_text, stored.rule) == ("skip", False, "", "skip")
    # Idempotent, and the question is not served again.
    assert _post(client, study, "play_skip", {"presentation": p.pk, "client_token": "s1"}).status_code == 200
    assert _next(client, study)[1].question_id != p.question_id
    with pytest.raises(JudgingError, match="pass"):
        challenge_submit(response=stored, by=stored.responder.user)
    # Accuracy and IRT score it as not known (docs/quiz-studies.md).
    from irt.selectors import response_matrix

    matrix = response_matrix(study, "free")
    assert 0 in matrix.correct.tolist() and len(matrix.correct) == 1


def test_skip_under_free_then_mcq_still_brings_the_mcq_stage(client, study):
    study_update(project=study, design="free_then_mcq", feedback="full")
    _start(client, study)
    for n in range(6):
        _page, p = _next(client, study)
        if p is None or p.question.has_mcq:
            break
        _post(client, study, "play_answer", {"presentation": p.pk, "client_token": f"x{n}", **_right(p)})
    assert p.mode == "free" and p.question.has_mcq
    reply = _post(client, study, "play_skip", {"presentation": p.pk, "client_token": "skip-free"})
    assert "answerline_html" not in reply.json() and "machines" not in reply.json()
    _page, stage2 = _next(client, study)
    assert (stage2.question_id, stage2.mode, stage2.stage) == (p.question_id, "mcq", 2)


# --- rounds -------------------------------------------------------------------------------


def test_round_of_n_with_summary_and_the_machines(client, machines):
    study_update(project=machines, round_size=2, design="one_mode", one_mode="free")
    _start(client, machines)
    replies = []
    for n in range(2):
        _page, p = _next(client, machines)
        replies.append(_post(client, machines, "play_answer",
                             {"presentation": p.pk, "client_token": f"r{n}", **(_right(p) if n == 0 else _wrong(p))}))
    first, last = (r.json() for r in replies)
    assert first["round"]["done"] is False and first["round"]["answered"] == 1
    assert last["round"]["done"] is True and first["streak"] == {"current": 1, "best": 1}
    summary_url = last["round"]["summary_url"]
    play_round = PlayRound.objects.get()
    assert summary_url == reverse("quiz:round_summary", args=[machines.slug, play_round.pk])
    page = client.get(summary_url).content.decode()
    assert 'id="round-score">1/2<' in page
    assert "alm-large" in page and "alm-small" in page
    assert re.search(r"alm-large.*?2/2", page, re.S) and re.search(r"alm-small.*?0/2", page, re.S)
    # The next question starts a new round.
    _next(client, machines)
    assert PlayRound.objects.count() == 2 and PlayRound.objects.filter(finished_at__isnull=True).count() == 1


def test_round_summary_of_another_player_is_not_found(client, study):
    _start(client, study)
    _next(client, study)
    from accounts.services import user_create
    from quiz.services import responder_for_user

    someone = responder_for_user(project=study, user=user_create(username="someone-else", password="pw-123456!"))
    other = PlayRound.objects.create(responder=someone, size=3)
    assert client.get(reverse("quiz:round_summary", args=[study.slug, other.pk])).status_code == 404


# --- the machines on the board, and what may be seen when ---------------------------------------


@pytest.mark.parametrize("design", ["between", "free_then_mcq", "one_mode_free", "one_mode_mcq", "choice"])
@pytest.mark.parametrize("feedback", ["full", "correctness", "none"])
def test_machines_and_share_only_after_answering_and_never_while_servable(client, machines, design, feedback):
    name, one_mode = {"one_mode_free": ("one_mode", "free"), "one_mode_mcq": ("one_mode", "mcq")}.get(
        design, (design, "free"))
    study_update(project=machines, design=name, one_mode=one_mode, feedback=feedback)
    study = study_for(machines)
    _start(client, machines, mode="free")
    for n in range(8):
        page, p = _next(client, machines)
        if p is None:
            break
        html = page.content.decode()
        shown_options = p.question.choices if p.mode == "mcq" else []  # the options are meant to be seen
        for secret in SECRETS:
            if not any(secret in str(option) for option in shown_options):
                assert secret not in html, (design, feedback, secret)
        assert _post(client, machines, "play_buzz", {"presentation": p.pk}).status_code in (200, 201) \
            or not p.question.pyramidal
        reply = _post(client, machines, "play_answer",
                      {"presentation": p.pk, "client_token": f"m{n}", **_right(p)}).json()
        response = Response.objects.get(pk=reply["response_id"])
        allowed = feedback != "none" and not (design == "free_then_mcq" and p.mode == "free" and p.question.has_mcq)
        assert ("machines" in reply) == allowed, (design, feedback, p.mode)
        assert ("players" in reply) == allowed
        assert game.machines_visible(study, response) == allowed
        if allowed:
            assert all(set(m) == {"system", "condition", "correct"} for m in reply["machines"])  # verdicts only
            assert reply["players"]["n"] >= (1 if p.stage == 1 else 0)  # the share counts stage-1 answers
    # Researchers' view is for researchers: no technical details for a player.
    assert "technical" not in reply


def test_machine_results_per_condition_and_players_share(client, machines):
    study_update(project=machines, design="one_mode", one_mode="free")
    _start(client, machines)
    for n in range(3):
        _page, p = _next(client, machines)
        reply = _post(client, machines, "play_answer", {"presentation": p.pk, "client_token": f"k{n}",
                                                        **_right(p)}).json()
        assert reply["machines"] == [
            {"system": "alm-large", "condition": "audio+text", "correct": True},
            {"system": "alm-small", "condition": "audio+text", "correct": False},
        ]
        assert reply["players"] == {"n": 1, "n_correct": 1, "share": 1.0}


def test_leaderboard_has_machines_as_rows_per_category_and_mode(client, machines):
    study_update(project=machines, design="one_mode", one_mode="free")
    _start(client, machines)
    for n in range(3):
        _page, p = _next(client, machines)
        _post(client, machines, "play_answer", {"presentation": p.pk, "client_token": f"lb{n}", **_wrong(p)})
    study = study_for(machines)
    rows = game.board(project=machines, study=study, mode="free")
    assert [(r["label"], r["machine"], r["n_correct"], r["n"]) for r in rows][:2] == [
        ("alm-large (audio+text)", True, 3, 3), ("alm-small (audio+text)", True, 0, 3)]
    assert any(not r["machine"] and r["n"] == 3 for r in rows)
    geo = machines.categories.get(name="Cultural Geography in Sound")
    geo_rows = game.board(project=machines, study=study, mode="free", category=geo)
    assert all(r["n"] == 1 for r in geo_rows)
    mcq = game.board(project=machines, study=study, mode="mcq")
    assert [(r["label"], r["n"]) for r in mcq] == [("alm-large (audio+text)", 2)]
    page = client.get(reverse("quiz:leaderboard", args=[machines.slug]) + f"?mode=free&category={geo.slug}")
    assert page.status_code == 200 and "alm-large" in page.content.decode()
    assert client.get(reverse("quiz:leaderboard", args=[machines.slug]) + "?mode=bogus").status_code == 404
    study_update(project=machines, feedback="none")
    hidden = client.get(reverse("quiz:leaderboard", args=[machines.slug])).content.decode()
    assert "alm-large" not in hidden


def test_versus_page(client, machines):
    study_update(project=machines, design="one_mode", one_mode="free")
    _start(client, machines)
    for n in range(3):
        _page, p = _next(client, machines)
        _post(client, machines, "play_answer",
              {"presentation": p.pk, "client_token": f"v{n}", **(_right(p) if n < 2 else _wrong(p))})
    result = game.versus(study=study_for(machines), responder=Response.objects.filter(
        responder__kind="human").first().responder)
    large = next(r for r in result["rows"] if r["system"] == "alm-large")
    small = next(r for r in result["rows"] if r["system"] == "alm-small")
    assert (large["n"], large["both"], large["machine"], large["you"]) == (3, 2, 1, 0)
    assert (small["you"], small["neither"]) == (2, 1)
    page = client.get(reverse("quiz:versus", args=[machines.slug])).content.decode()
    assert 'id="versus-table"' in page and "alm-small" in page


def test_versus_leaves_out_questions_still_servable(client, machines):
    study_update(project=machines, design="free_then_mcq")
    _start(client, machines)
    _page, p = _next(client, machines)
    while not p.question.has_mcq:
        _post(client, machines, "play_answer", {"presentation": p.pk, "client_token": f"f{p.pk}", **_right(p)})
        _page, p = _next(client, machines)
    _post(client, machines, "play_answer", {"presentation": p.pk, "client_token": "free-open", **_right(p)})
    result = game.versus(study=study_for(machines), responder=p.responder)
    answered = Response.objects.filter(responder=p.responder).count()
    assert result["n"] == answered - 1  # the free answer whose MCQ stage is still to come is left out


# --- daily challenge ----------------------------------------------------------------------


def test_daily_set_is_the_same_for_everyone_and_has_its_own_board(client, machines):
    study_update(project=machines, daily_size=2, design="one_mode", one_mode="free")
    day = game.utc_today()
    ids = game.daily_question_ids(project=machines, day=day, size=2)
    assert len(ids) == 2 and ids == game.daily_question_ids(project=machines, day=day, size=2)
    served = {}
    for who in ("a", "b"):
        c = type(client)()
        c.post(reverse("quiz:play_start", args=[machines.slug]) + "?daily=1", {"handle": f"daily-{who}", "daily": "1"})
        served[who] = []
        for n in range(4):
            page, p = _next(c, machines, reverse("quiz:daily_play", args=[machines.slug]))
            if p is None:
                assert page.status_code == 302 and page["Location"].endswith("/daily/")
                break
            served[who].append(p.question_id)
            reply = _post(c, machines, "play_answer", {"presentation": p.pk, "client_token": f"d{who}{n}", **_right(p)})
            assert reply.json()["round"]["kind"] == "daily"
        daily_page = c.get(reverse("quiz:daily", args=[machines.slug])).content.decode()
        share = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', daily_page, re.S).group(1)
        assert "🟩🟩 2/2" in share and "Canberra" not in share and "Batman" not in share
    assert sorted(served["a"]) == sorted(served["b"]) == sorted(ids)
    board = game.board(project=machines, study=study_for(machines), daily=day)
    humans = [r for r in board if not r["machine"]]
    assert {r["label"] for r in humans} == {"daily-a", "daily-b"} and all(r["n"] == 2 for r in humans)
    assert all(r["n"] == 2 for r in board if r["machine"])  # the machines on the same day's set


def test_daily_does_not_serve_a_question_met_before(client, study):
    study_update(project=study, daily_size=3, design="one_mode", one_mode="free")
    _start(client, study)
    _page, first = _next(client, study)
    _post(client, study, "play_answer", {"presentation": first.pk, "client_token": "before", **_right(first)})
    seen = []
    for _ in range(4):
        _page, p = _next(client, study, reverse("quiz:daily_play", args=[study.slug]))
        if p is None:
            break
        seen.append(p.question_id)
        _post(client, study, "play_answer", {"presentation": p.pk, "client_token": f"dd{p.pk}", **_right(p)})
    assert first.question_id not in seen and len(seen) == 2
    page = client.get(reverse("quiz:daily", args=[study.slug])).content.decode()
    assert "met before" in page


# --- D12 / D13 in the history ----------------------------------------------------------------


def test_history_shows_plain_rulings_and_upheld_challenges(client, study, make_user):
    from accounts.models import Role
    from accounts.services import membership_set
    from judging.services import challenge_resolve, challenge_submit

    study_update(project=study, design="one_mode", one_mode="free")
    _start(client, study)
    _page, p = _next(client, study)
    reply = _post(client, study, "play_answer", {"presentation": p.pk, "client_token": "h1", **_wrong(p)}).json()
    response = Response.objects.get(pk=reply["response_id"])
    challenge, _ = challenge_submit(response=response, by=response.responder.user)
    researcher = make_user()
    membership_set(project=study, user=researcher, role=Role.RESEARCHER)
    challenge_resolve(challenge=challenge, by=researcher, upheld=True)
    page = client.get(reverse("quiz:play_history", args=[study.slug])).content.decode()
    assert "challenge upheld" in page and "Your challenge was upheld" in page
    # the player's random handle (e.g. "fuzzy-gibbon-136") is no jargon: leave it out
    handle = response.responder.user.handle
    assert handle in page
    rulings = page.replace(handle, "")
    for jargon in ("calibrated", "fuzzy", "token-overlap", "similarity", response.rule):
        assert jargon not in rulings
    assert Outcome.SKIP == "skip"


def test_daily_set_under_mcq_only_draws_questions_with_options(client, study):
    from quiz.models import Question

    study_update(project=study, daily_size=3, design="one_mode", one_mode="mcq")
    ids = game.daily_question_ids(project=study, day=game.utc_today(), size=3, study=study_for(study))
    assert ids and all(Question.objects.get(pk=i).has_mcq for i in ids)
    _start(client, study, daily="1")
    _page, p = _next(client, study, reverse("quiz:daily_play", args=[study.slug]))
    assert p.mode == "mcq" and p.question_id in ids and p.round.kind == "daily"
