"""Variant model outputs (counterfactual context, prompt variants, per-clue answers) and
the counterfactual answerline: imported, judged against the right key, FILE:LINE errors,
nothing written when any row is bad."""

from __future__ import annotations

import json

import pytest

from quiz.importing import ImportFailed
from quiz.models import Question, Response, VariantAnswer
from quiz.services import bank_import, model_responses_import

pytestmark = pytest.mark.django_db


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


@pytest.fixture
def cf_project(imported, bank_dir):
    rows = [json.loads(line) for line in (bank_dir / "bank.jsonl").read_text().splitlines()]
    rows[0]["counterfactual_answerline"] = "Sydney"
    rows[0]["metadata"] = {"evidence_position": "start"}
    _write(bank_dir / "bank.jsonl", rows)
    bank_import(project=imported, path=bank_dir / "bank.jsonl")
    return imported


def test_bank_import_keeps_the_counterfactual_answerline(cf_project):
    q1 = Question.objects.get(project=cf_project, external_id="q1")
    assert q1.counterfactual_answerline == "Sydney"
    assert q1.metadata == {"evidence_position": "start"}


def test_variant_outputs_are_stored_apart_and_judged_against_their_context(cf_project, tmp_path):
    path = _write(tmp_path / "out.jsonl", [
        {"system": "m", "condition": "audio+text", "question_id": "q1", "mode": "free", "answer": "Canberra"},
        {"system": "m", "condition": "audio+text", "question_id": "q1", "mode": "free", "answer": "Sydney",
         "context": "counterfactual"},
        {"system": "m", "condition": "audio+text", "question_id": "q1", "mode": "free", "answer": "Canberra",
         "context": "counterfactual", "prompt_variant": "p2"},
        {"system": "m", "condition": "audio+text", "question_id": "q1", "mode": "mcq", "choice": "A",
         "context": "counterfactual"},
        {"system": "m", "condition": "audio+text", "question_id": "q3", "mode": "free", "answer": "Für Elise",
         "clue_index": 0},
        {"system": "m", "condition": "audio+text", "question_id": "q3", "mode": "free", "answer": "Ode to Joy",
         "clue_index": 2},
        {"system": "m", "condition": "audio+text", "question_id": "q2", "mode": "free", "answer": "Batman",
         "prompt_language": "th"},
    ])
    summary = model_responses_import(project=cf_project, path=path)
    assert summary.created == 7
    assert Response.objects.filter(project=cf_project).count() == 1  # only the plain answer
    v = {(a.question.external_id, a.mode, a.context, a.prompt_variant, a.clue_index, a.prompt_language): a
         for a in VariantAnswer.objects.filter(project=cf_project)}
    follows = v[("q1", "free", "counterfactual", "", None, "")]
    assert follows.correct and follows.matches_counterfactual and not follows.matches_factual
    knows = v[("q1", "free", "counterfactual", "p2", None, "")]
    assert not knows.correct and knows.matches_factual
    mcq = v[("q1", "mcq", "counterfactual", "", None, "")]  # option A is "Sydney"
    assert mcq.choice == 0 and mcq.correct and not mcq.matches_factual
    assert not v[("q3", "free", "factual", "", 0, "")].correct
    assert v[("q3", "free", "factual", "", 2, "")].correct
    assert v[("q2", "free", "factual", "", None, "th")].correct
    again = model_responses_import(project=cf_project, path=path)
    assert (again.created, again.unchanged) == (0, 7)


@pytest.mark.parametrize(("row", "line_field", "message"), [
    pytest.param({"question_id": "q2", "context": "counterfactual", "answer": "x"}, "context",
                 "no counterfactual_answerline", id="no-counterfactual-key"),
    pytest.param({"question_id": "q1", "context": "dreamt", "answer": "x"}, "context", "must be", id="bad-context"),
    pytest.param({"question_id": "q1", "clue_index": 0, "answer": "x"}, "clue_index", "not pyramidal",
                 id="clue-on-plain-question"),
    pytest.param({"question_id": "q3", "clue_index": 3, "answer": "x"}, "clue_index", "past the last clue",
                 id="clue-past-end"),
    pytest.param({"question_id": "q3", "clue_index": -1, "answer": "x"}, "clue_index", "", id="negative-clue"),
])
def test_bad_variant_rows_name_file_line_field_and_write_nothing(cf_project, tmp_path, row, line_field, message):
    good = {"system": "m", "condition": "audio+text", "question_id": "q1", "mode": "free", "answer": "Canberra"}
    path = _write(tmp_path / "bad.jsonl", [good, {"system": "m", "condition": "audio+text", "mode": "free", **row}])
    with pytest.raises(ImportFailed) as err:
        model_responses_import(project=cf_project, path=path)
    text = str(err.value)
    assert f"bad.jsonl:2: {line_field}:" in text and message in text
    assert not Response.objects.filter(project=cf_project).exists()
    assert not VariantAnswer.objects.filter(project=cf_project).exists()


def test_same_variant_twice_is_refused(cf_project, tmp_path):
    row = {"system": "m", "condition": "c", "question_id": "q3", "mode": "free", "answer": "x", "clue_index": 1}
    path = _write(tmp_path / "dup.jsonl", [row, {**row, "clue_index": 2}, row])
    with pytest.raises(ImportFailed) as err:
        model_responses_import(project=cf_project, path=path)
    assert "dup.jsonl:3: question_id: second answer" in str(err.value) and "clue 1" in str(err.value)
