"""Multiple choice with 2 to 10 options (yes/no, KCSAT's five) through import, REST
validation, play and judging, and model outputs naming letters past D."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from quiz.importing import ImportFailed
from quiz.models import Question, Response
from quiz.services import (
    bank_import,
    model_responses_import,
    presentation_get_or_create,
    response_submit,
)
from quiz.validation import check_choices

pytestmark = pytest.mark.django_db

KCSAT = ["첫째", "둘째", "셋째", "넷째", "다섯째"]


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def bank(project, bank_dir):
    rows = [
        {"id": "yn", "prompt": "Is this a bell?", "answerline": "yes", "category": "c", "audio": "a.wav",
         "choices": ["Yes", "No"], "correct": "A"},
        {"id": "kcsat", "prompt": "Which speaker is right?", "answerline": "다섯째", "category": "c",
         "audio": "b.wav", "choices": KCSAT, "correct": "E"},
        {"id": "ten", "prompt": "Which digit?", "answerline": "9", "category": "c", "audio": "c.wav",
         "choices": [str(n) for n in range(10)], "correct": 9},
    ]
    bank_import(project=project, path=_write(bank_dir / "options.jsonl", rows))
    return project


@pytest.mark.parametrize(("n", "ok"), [(1, False), (2, True), (5, True), (10, True), (11, False)])
def test_check_choices_accepts_two_to_ten(n, ok):
    errors = check_choices([f"option {i}" for i in range(n)], 0)
    assert (not errors) is ok, errors


def test_bank_with_yes_no_five_and_ten_options(bank):
    questions = {q.external_id: q for q in Question.objects.filter(project=bank)}
    assert questions["yn"].choices == ["Yes", "No"] and questions["yn"].correct_choice == 0
    assert questions["kcsat"].correct_choice == 4 and questions["kcsat"].has_mcq
    assert questions["ten"].correct_choice == 9


def test_model_outputs_with_letters_past_d_and_yes_no(bank, tmp_path):
    path = _write(tmp_path / "out.jsonl", [
        {"system": "m", "question_id": "kcsat", "mode": "mcq", "choice": "E"},
        {"system": "m", "question_id": "yn", "mode": "mcq", "choice": "No"},
        {"system": "m", "question_id": "ten", "mode": "mcq", "choice": "J", "option_order": list(range(10))},
        {"system": "m", "question_id": "yn", "mode": "free", "answer": "Yes"},
    ])
    model_responses_import(project=bank, path=path)
    got = {(r.question.external_id, r.mode): r for r in Response.objects.filter(project=bank)}
    assert got[("kcsat", "mcq")].correct and got[("kcsat", "mcq")].choice == 4
    assert not got[("yn", "mcq")].correct
    assert got[("ten", "mcq")].correct
    assert got[("yn", "free")].correct  # the free-answer judge accepts "Yes" for "yes"


def test_option_order_must_fit_the_question(bank, tmp_path):
    path = _write(tmp_path / "bad.jsonl", [
        {"system": "m", "question_id": "kcsat", "mode": "mcq", "choice": "A", "option_order": [1, 0, 3, 2]},
    ])
    with pytest.raises(ImportFailed) as err:
        model_responses_import(project=bank, path=path)
    assert "bad.jsonl:1: option_order: has 4 entries but 'kcsat' has 5 options" in str(err.value)
    assert not Response.objects.filter(project=bank).exists()


def test_play_serves_and_judges_five_options(bank, make_user, client):
    from quiz.services import responder_for_user

    user = make_user()
    responder = responder_for_user(project=bank, user=user)
    question = Question.objects.get(project=bank, external_id="kcsat")
    presentation = presentation_get_or_create(responder=responder, question=question, mode="mcq")
    assert sorted(presentation.option_order) == [0, 1, 2, 3, 4]
    position = presentation.option_order.index(4)
    response, _ = response_submit(responder=responder, question=question, mode="mcq", client_token="t1",
                                  choice_position=position)
    assert response.correct and response.choice == 4


def test_question_page_letters_the_fifth_option(bank, make_user, client, tmp_path):
    from accounts.models import Role
    from accounts.services import membership_set

    model_responses_import(project=bank, path=_write(tmp_path / "o.jsonl", [
        {"system": "m", "question_id": "kcsat", "mode": "mcq", "choice": "E"}]))
    user = make_user()
    membership_set(project=bank, user=user, role=Role.OWNER)
    client.force_login(user)
    html = client.get(reverse("frontend:question", args=[bank.slug, "kcsat"])).content.decode()
    assert "다섯째" in html and "mcq (E)" in html
