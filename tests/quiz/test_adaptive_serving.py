"""The study's question selection (sequential | random | adaptive) under every design.

Adaptive play chooses *which* new question comes next from the project's IRT fit; the
design still decides its mode and stage, and no question is served twice in stage 1.
The informativeness check recomputes the player's EAP with scipy's quadrature and the
2PL information in closed form (a^2 P (1 - P)), independently of irt.adaptive.
"""

from __future__ import annotations

import itertools
import json
import random
import re

import numpy as np
import pytest
from django.urls import reverse
from django.utils import timezone
from scipy import integrate, stats

from quiz.models import Presentation, Response
from quiz.study import adaptive_top_k, serving_next, study_for, study_update

pytestmark = pytest.mark.django_db

N = 12
#: item difficulties: irregular, so no two are equally far from a posterior mean
B = np.array([-2.6, -1.9, -1.3, -0.8, -0.35, 0.1, 0.45, 0.9, 1.4, 1.85, 2.3, 2.9])
A = np.array([1.2, 0.9, 1.6, 1.1, 1.4, 0.8, 1.5, 1.0, 1.3, 1.7, 0.9, 1.2])
_tokens = itertools.count()


@pytest.fixture
def bank12(project, tmp_path, wav):
    """Twelve questions with audio and options (two categories: 8 Music, 4 Voices: q02, q05, q08, q11)."""
    from quiz.services import bank_import

    (tmp_path / "a.wav").write_bytes(wav(440))
    rows = [
        {"id": f"q{n:02d}", "prompt": f"Question {n}?", "answerline": f"Answer{n}",
         "category": "Voices" if n % 3 == 2 else "Music", "audio": "a.wav",
         "choices": [f"Answer{n}", "Other one", "Another", "None"], "correct": 0}
        for n in range(N)
    ]
    (tmp_path / "bank.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    bank_import(project=project, path=tmp_path / "bank.jsonl")
    study_update(project=project, guests_per_hour=1000)
    return project


def _questions(project):
    from quiz.models import Question

    return list(Question.objects.filter(project=project).order_by("external_id"))


def _fit(project, mode="free", *, skip=()):
    """A succeeded fit whose items have the parameters A, B (questions in ``skip`` left out)."""
    from irt.models import Fit, FitItem, FitStatus

    qs = [q for q in _questions(project) if q.external_id not in skip]
    fit = Fit.objects.create(
        project=project, status=FitStatus.SUCCEEDED, mode=mode, model="2pl", method="map",
        options={"mode": mode}, finished_at=timezone.now(),
        result={"irt": {"group_params": {}}, "responder_ids": [], "question_ids": [q.pk for q in qs]},
    )
    for q in qs:
        n = int(q.external_id[1:])
        FitItem.objects.create(fit=fit, question=q, a=float(A[n]), b=float(B[n]), n_answered=50, p_correct=0.5)
    return fit


def _player(project, name="p"):
    from accounts.services import user_create
    from quiz.services import responder_for_user

    return responder_for_user(project=project, user=user_create(username=f"{name}{next(_tokens)}", password="pw-123456!"))


def _serve_and_answer(study, responder, correct_of, rng):
    """Serve the next thing and store an answer (``correct_of(question) -> bool``)."""
    from quiz.services import presentation_get_or_create

    serving = serving_next(study=study, responder=responder, rng=rng)
    if serving is None:
        return None
    assert not isinstance(serving, Presentation)  # every served question was answered
    presentation = presentation_get_or_create(
        responder=responder, question=serving.question, mode=serving.mode, stage=serving.stage,
        design=study.design,
    )
    ok = bool(correct_of(serving.question))
    Response.objects.create(
        project_id=responder.project_id, question=serving.question, responder=responder, mode=serving.mode,
        stage=serving.stage, answer_text="x", client_token=f"t{next(_tokens)}", correct=ok, score=float(ok),
        rule="test", rule_version="t1", judged_at=timezone.now(),
    )
    return presentation


def _reference_eap(answered):
    """EAP by scipy quadrature over theta ~ N(0, 1) of (index, correct) 2PL answers."""
    def post(t):
        out = stats.norm.pdf(t)
        for n, y in answered:
            p = 1 / (1 + np.exp(-A[n] * (t - B[n])))
            out *= p if y else 1 - p
        return out

    z = integrate.quad(post, -10, 10, limit=200)[0]
    return integrate.quad(lambda t: t * post(t), -10, 10, limit=200)[0] / z


def test_adaptive_serves_one_of_the_most_informative_questions(bank12):
    study_update(project=bank12, design="one_mode", one_mode="free", selection="adaptive")
    _fit(bank12)
    study = study_for(bank12)
    rng = random.Random(7)
    later_b = {}
    for always_right in (True, False):
        player = _player(bank12)
        answered: list[tuple[int, bool]] = []
        for _step in range(6):
            theta = _reference_eap(answered)
            seen = {n for n, _ in answered}
            p = 1 / (1 + np.exp(-A * (theta - B)))
            info = A**2 * p * (1 - p)
            # category balance: the bank is 8 Music : 4 Voices; the category furthest below its share goes first
            music = [n % 3 != 2 for n, _ in answered]
            k = len(music) + 1
            music_due = 8 / 12 * k - sum(music) >= 4 / 12 * k - (len(music) - sum(music))
            pool = [n for n in range(N) if n not in seen and (n % 3 != 2) == music_due]
            best = sorted(pool, key=lambda n: -info[n])[:adaptive_top_k(N - len(seen))]
            presentation = _serve_and_answer(study, player, lambda q, ok=always_right: ok, rng)
            n = int(presentation.question.external_id[1:])
            assert n in best, (theta, n, best)
            answered.append((n, always_right))
        later_b[always_right] = np.mean([B[n] for n, _ in answered[2:]])
    # the player who gets everything right meets harder questions than the one who does not
    assert later_b[True] > 0 > later_b[False]


DESIGNS = [
    pytest.param({"design": "between"}, id="between"),
    pytest.param({"design": "free_then_mcq"}, id="free_then_mcq"),
    pytest.param({"design": "one_mode", "one_mode": "mcq"}, id="one_mode-mcq"),
    pytest.param({"design": "choice"}, id="choice"),
]


@pytest.mark.parametrize("design", DESIGNS)
def test_adaptive_serving_keeps_the_design_rules(bank12, design):
    study_update(project=bank12, selection="adaptive", **design)
    _fit(bank12, mode="mcq" if design.get("one_mode") == "mcq" else "free")
    study = study_for(bank12)
    player = _player(bank12)
    rng = random.Random(3)
    served = []
    for _ in range(3 * N):
        presentation = _serve_and_answer(study, player, lambda q: q.external_id < "q06", rng)
        if presentation is None:
            break
        served.append((presentation.question.external_id, presentation.mode, presentation.stage))
    stage1 = [(q, m) for q, m, s in served if s == 1]
    assert sorted(q for q, _ in stage1) == [f"q{n:02d}" for n in range(N)]  # each once, all served
    if design["design"] == "free_then_mcq":
        assert {m for _, m in stage1} == {"free"}
        stage2 = [q for q, m, s in served if s == 2]
        assert sorted(stage2) == sorted(q for q, _ in stage1) and all(
            served.index((q, "mcq", 2)) == served.index((q, "free", 1)) + 1 for q in stage2)
    else:
        assert {s for *_, s in served} == {1}
    if design["design"] == "one_mode":
        assert {m for _, m in stage1} == {"mcq"}
    if design["design"] == "choice":
        assert {m for _, m in stage1} == {"free"}  # no mode chosen: free
    if design["design"] == "between":
        modes = [m for _, m in stage1]
        assert abs(modes.count("free") - modes.count("mcq")) <= 1  # the player's own balance
    assert Response.objects.filter(responder=player, stage=1).values("question").distinct().count() == N


def test_adaptive_without_a_fit_serves_at_random_and_uncalibrated_questions_last(bank12):
    study_update(project=bank12, design="one_mode", one_mode="free", selection="adaptive")
    study = study_for(bank12)
    player = _player(bank12)
    first = _serve_and_answer(study, player, lambda q: True, random.Random(0))
    assert first is not None  # no fit: still served (at random)
    _fit(bank12, skip=("q03", "q04"))
    order = []
    while (p := _serve_and_answer(study, player, lambda q: True, random.Random(len(order)))) is not None:
        order.append(p.question.external_id)
    tail = [q for q in ("q03", "q04") if q != first.question.external_id]
    assert order[-len(tail):] != [] and set(order[-len(tail):]) == set(tail)


def test_sequential_selection_serves_in_bank_order(bank12):
    study_update(project=bank12, design="one_mode", one_mode="free", selection="sequential")
    study = study_for(bank12)
    player = _player(bank12)
    order = []
    while (p := _serve_and_answer(study, player, lambda q: False, random.Random(1))) is not None:
        order.append(p.question.external_id)
    assert order == [f"q{n:02d}" for n in range(N)]


def test_adaptive_play_through_the_pages(client, bank12):
    """A player plays the adaptive study in the browser flow; the answers stay hidden."""
    study_update(project=bank12, design="free_then_mcq", selection="adaptive", feedback="correctness")
    _fit(bank12)
    reply = client.post(reverse("quiz:play_start", args=[bank12.slug]), {"handle": ""})
    assert reply.status_code == 302
    seen = []
    for n in range(2 * N + 1):
        page = client.get(reverse("quiz:play_next", args=[bank12.slug]))
        match = re.search(rb'data-presentation="(\d+)"', page.content)
        if not match:
            break
        presentation = Presentation.objects.select_related("question").get(pk=int(match.group(1)))
        if presentation.mode == "free":
            assert presentation.question.answerline.encode() not in page.content
            payload = {"answer": "wrong"}
        else:
            payload = {"choice_position": 0}
        reply = client.post(reverse("quiz:play_answer", args=[bank12.slug]), content_type="application/json",
                            data=json.dumps({"presentation": presentation.pk, "client_token": f"w{n}", **payload}))
        assert reply.status_code == 201, reply.content
        seen.append((presentation.question.external_id, presentation.mode))
    assert len(seen) == 2 * N and len(set(seen)) == 2 * N


def test_selection_is_a_validated_study_setting(client, bank12, make_user):
    from accounts.models import Role
    from accounts.services import membership_set
    from quiz.study import StudyError

    with pytest.raises(StudyError) as err:
        study_update(project=bank12, selection="smart")
    assert err.value.field == "selection"
    assert study_for(bank12).selection == "random"  # the default
    researcher = make_user()
    membership_set(project=bank12, user=researcher, role=Role.RESEARCHER)
    client.force_login(researcher)
    url = reverse("quiz:study_settings", args=[bank12.slug])
    assert b'name="selection"' in client.get(url).content
    form = {"design": "between", "one_mode": "free", "feedback": "full", "access": "open",
            "prompt_limit": 1, "guests_per_hour": 5, "leaderboard_min_answers": 10, "selection": "adaptive"}
    assert client.post(url, form).status_code == 302
    assert study_for(bank12).selection == "adaptive"
    assert client.post(url, {**form, "selection": "bogus"}).status_code == 400
    form.pop("selection")
    assert client.post(url, form).status_code == 302  # left out: unchanged
    assert study_for(bank12).selection == "adaptive"
    workspace = client.get(reverse("frontend:workspace", args=[bank12.slug])).content.decode()
    assert "Adaptive: the most informative question" in workspace


def test_adaptive_play_goes_on_when_the_newest_fit_has_no_items(bank12):
    from irt.models import Fit, FitStatus

    study_update(project=bank12, design="one_mode", one_mode="free", selection="adaptive")
    Fit.objects.create(project=bank12, status=FitStatus.SUCCEEDED, mode="free", model="2pl", options={},
                       finished_at=timezone.now(), result={"irt": {}, "responder_ids": [], "question_ids": []})
    served = _serve_and_answer(study_for(bank12), _player(bank12), lambda q: True, random.Random(0))
    assert served is not None and served.stage == 1
