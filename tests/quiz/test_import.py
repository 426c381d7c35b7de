"""Bank and model-output imports: validation with line-numbered errors, no partial writes."""

import json

import pytest

from quiz.importing import ImportFailed
from quiz.models import Clip, Question, QuestionClip, Response
from quiz.services import bank_import, model_responses_import

pytestmark = pytest.mark.django_db


def _write(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


def test_bank_import_creates_questions_clips_and_pyramid(imported):
    assert Question.objects.filter(project=imported).count() == 3
    assert Clip.objects.filter(project=imported).count() == 3  # a.wav shared by q1 and q3
    q3 = Question.objects.get(external_id="q3")
    assert q3.pyramidal
    assert [qc.position for qc in q3.question_clips.all()] == [0, 1, 2]
    assert q3.correct_choice == 0 and q3.has_mcq
    q1 = Question.objects.get(external_id="q1")
    assert q1.correct_choice == 1
    assert q1.category.name == "Cultural Geography in Sound"


def test_clip_file_name_does_not_reveal_original_name(imported):
    clip = Clip.objects.filter(project=imported).first()
    assert clip.original_name == "a.wav"
    assert "a.wav" not in clip.file.name
    assert clip.sha256 in clip.file.name


def test_reimport_updates_by_external_id(imported, bank_dir):
    rows = [json.loads(line) for line in (bank_dir / "bank.jsonl").read_text().splitlines()]
    rows[1]["prompt"] = "Whose voice is this?"
    _write(bank_dir / "bank.jsonl", rows)
    summary = bank_import(project=imported, path=bank_dir / "bank.jsonl")
    assert (summary.created, summary.updated, summary.unchanged) == (0, 1, 2)
    assert Question.objects.filter(project=imported).count() == 3
    assert Question.objects.get(external_id="q2").prompt == "Whose voice is this?"


BAD_ROWS = [
    pytest.param('{"id": "x", "prompt": "p"', 1, "", "malformed JSON", id="malformed-json"),
    pytest.param({"id": "x", "prompt": "p", "category": "c", "audio": "a.wav"}, 1, "answerline", "required", id="missing-answerline"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "nope.wav"}, 1, "audio", "missing file", id="missing-audio"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "bad.wav"}, 1, "audio", "corrupt", id="corrupt-audio"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.txt"}, 1, "audio", "unsupported", id="unsupported-format"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.wav",
                  "choices": ["1", "2", "3", "4"]}, 1, "choices", "exactly one correct", id="mcq-no-correct"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.wav",
                  "choices": [{"text": "1", "correct": True}, {"text": "2", "correct": True}, {"text": "3"}, {"text": "4"}]},
                 1, "choices", "exactly one correct", id="mcq-two-correct"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.wav",
                  "choices": ["1"], "correct": 0}, 1, "choices", "needs 2 to 10 options", id="mcq-one-option"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.wav",
                  "choices": [str(n) for n in range(11)], "correct": 0}, 1, "choices", "needs 2 to 10 options",
                 id="mcq-eleven-options"),
    pytest.param({"id": "x", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.wav",
                  "pyramidal": True}, 1, "pyramidal", "2 or more clips", id="pyramid-one-clip"),
]


@pytest.mark.parametrize("row,line,field,message", BAD_ROWS)
def test_bank_import_reports_line_and_field(imported, bank_dir, row, line, field, message):
    (bank_dir / "bad.wav").write_bytes(b"RIFF....WAVEfmt nonsense")
    (bank_dir / "a.txt").write_text("hello")
    path = _write(bank_dir / "new.jsonl", [row])
    with pytest.raises(ImportFailed) as err:
        bank_import(project=imported, path=path)
    problem = err.value.problems[0]
    assert (problem.file, problem.line, problem.field) == ("new.jsonl", line, field)
    assert message in problem.message
    assert f"new.jsonl:{line}" in str(err.value)


def test_failed_import_changes_nothing(imported, bank_dir, wav):
    (bank_dir / "d.wav").write_bytes(wav(880))
    before = list(Question.objects.order_by("id").values_list("external_id", "prompt"))
    clips_before = Clip.objects.count()
    rows = [
        {"id": "q1", "prompt": "CHANGED", "answerline": "Canberra", "category": "Geo", "audio": "d.wav"},
        {"id": "new", "prompt": "p", "answerline": "a", "category": "c", "audio": "d.wav"},
        {"id": "q2", "prompt": "p", "answerline": "", "category": "c", "audio": "d.wav"},  # line 3: bad
    ]
    path = _write(bank_dir / "partial.jsonl", rows)
    with pytest.raises(ImportFailed) as err:
        bank_import(project=imported, path=path)
    assert [(p.line, p.field) for p in err.value.problems] == [(3, "answerline")]
    assert list(Question.objects.order_by("id").values_list("external_id", "prompt")) == before
    assert Clip.objects.count() == clips_before
    assert QuestionClip.objects.count() == 5


def test_duplicate_ids_name_both_lines(imported, bank_dir):
    row = {"id": "dup", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.wav"}
    path = _write(bank_dir / "dup.jsonl", [row, row])
    with pytest.raises(ImportFailed) as err:
        bank_import(project=imported, path=path)
    assert "line 1" in err.value.problems[0].message and err.value.problems[0].line == 2


def test_csv_bank_import(project, bank_dir):
    csv_text = (
        "id,prompt,answerline,category,audio,choice_a,choice_b,choice_c,choice_d,correct\n"
        "c1,How many?,3 [accept three],Elements of Musical Works,a.wav,2,3,4,5,B\n"
        "c2,Pyramid,Ode to Joy,Elements of Musical Works,a.wav|b.wav,,,,,\n"
    )
    (bank_dir / "bank.csv").write_text(csv_text)
    summary = bank_import(project=project, path=bank_dir / "bank.csv")
    assert summary.created == 2
    assert Question.objects.get(external_id="c1").correct_choice == 1
    assert Question.objects.get(external_id="c2").pyramidal


def test_csv_errors_use_physical_line_numbers(project, bank_dir):
    (bank_dir / "bad.csv").write_text("id,prompt,answerline,category,audio\nok,p,a,c,a.wav\nbad,p,,c,a.wav\n")
    with pytest.raises(ImportFailed) as err:
        bank_import(project=project, path=bank_dir / "bad.csv")
    assert [(p.line, p.field) for p in err.value.problems] == [(3, "answerline")]


def test_model_outputs_import_judges_and_is_idempotent(imported, tmp_path):
    rows = [
        {"system": "m1", "condition": "audio+text", "question_id": "q2", "mode": "free", "answer": "Bruce Wayne"},
        {"system": "m1", "condition": "audio+text", "question_id": "q1", "mode": "mcq", "choice": "B"},
        {"system": "m1", "condition": "text-only", "question_id": "q1", "mode": "mcq", "choice": "Sydney"},
    ]
    path = _write(tmp_path / "out.jsonl", rows)
    summary = model_responses_import(project=imported, path=path)
    assert summary.created == 3
    verdicts = {(r.responder.condition, r.question.external_id, r.mode): r.correct for r in Response.objects.all()}
    assert verdicts == {("audio+text", "q2", "free"): True, ("audio+text", "q1", "mcq"): True,
                        ("text-only", "q1", "mcq"): False}
    again = model_responses_import(project=imported, path=path)
    assert (again.created, again.unchanged) == (0, 3)
    assert Response.objects.count() == 3


@pytest.mark.parametrize(
    "row,field",
    [
        pytest.param({"system": "m", "question_id": "nope", "mode": "free", "answer": "x"}, "question_id", id="unknown-question"),
        pytest.param({"system": "m", "question_id": "q1", "mode": "free", "answer": "  "}, "answer", id="empty-answer"),
        pytest.param({"system": "m", "question_id": "q1", "mode": "mcq", "choice": "E"}, "choice", id="bad-choice"),
        pytest.param({"system": "m", "question_id": "q2", "mode": "mcq", "choice": "A"}, "mode", id="no-options"),
        pytest.param({"question_id": "q1", "mode": "free", "answer": "x"}, "system", id="missing-system"),
        pytest.param({"system": "m", "question_id": "q1", "mode": "essay", "answer": "x"}, "mode", id="bad-mode"),
    ],
)
def test_model_outputs_import_rejects_bad_rows(imported, tmp_path, row, field):
    good = {"system": "m", "question_id": "q2", "mode": "free", "answer": "Batman"}
    path = _write(tmp_path / "out.jsonl", [good, row])
    with pytest.raises(ImportFailed) as err:
        model_responses_import(project=imported, path=path)
    assert [(p.line, p.field) for p in err.value.problems] == [(2, field)]
    assert Response.objects.count() == 0
