"""Several judges side by side: the registry, study runs, rubrics, the SDK's retries.

LLM calls go to the fake OpenAI-compatible server of django_fixtures (no client mocks).
"""

from __future__ import annotations

import json
import time

import pytest

from judging import selectors, services
from judging.llm import load_prompt, parse_reply
from judging.models import Judge, LlmCall, Rubric, VerdictEvent, VerdictRecord
from judging.registry import JudgeIdentity, judge_key, judge_name
from quiz.models import Response
from tests.judging.django_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db


def _cfg(model):
    return services.llm_config(model=model)


# ----------------------------------------------------------------- registry


def test_judge_identity_key_and_name():
    a = JudgeIdentity(kind="llm", model="m", prompt_id="verdict-v1", prompt_version="1",
                      parameters={"temperature": 0.0, "max_tokens": 200})
    b = JudgeIdentity(kind="llm", model="m", prompt_id="verdict-v1", prompt_version="1",
                      parameters={"temperature": 0.7, "max_tokens": 200})
    assert judge_key(a) == judge_key(JudgeIdentity(**a.as_dict())) != judge_key(b)
    assert judge_name(a) == "llm:m/verdict-v1"
    assert judge_name(b) == "llm:m/verdict-v1[temperature=0.7]"
    assert judge_name(JudgeIdentity(kind="rules", version="4")) == "rules@4"


def test_judge_register_is_idempotent():
    first = services.rules_judge("9")
    assert services.rules_judge("9") == first and Judge.objects.count() == 1
    assert first.name == "rules@9" and first.kind == "rules"


def test_every_llm_verdict_names_its_judge_and_judges_coexist(judged, fake_llm, imported):
    services.llm_judge_run(project=imported, config=_cfg("judge-a"))
    fake_llm.reply = lambda body: json.dumps({"correct": False, "reason": "no"})
    services.llm_judge_run(project=imported, config=_cfg("judge-b"))
    records = VerdictRecord.objects.filter(response=judged.model_grey).select_related("judge_ref")
    assert {(r.judge_ref.name, r.correct) for r in records} == {
        ("llm:judge-a/verdict-v1", True), ("llm:judge-b/verdict-v1", False)}
    judge = Judge.objects.get(name="llm:judge-a/verdict-v1")
    assert (judge.model, judge.prompt_id, judge.prompt_version, judge.parameters) == (
        "judge-a", "verdict-v1", "1", {"temperature": 0.0, "max_tokens": 200})
    study = selectors.agreement_study_rows(project=imported)
    row = next(r for r in study.rows if r["response_id"] == judged.model_grey.pk)
    assert row["verdicts"]["llm:judge-a/verdict-v1"]["correct"] is True
    assert row["verdicts"]["llm:judge-b/verdict-v1"]["correct"] is False
    assert set(study.judges) >= {"exact", "llm:judge-a/verdict-v1", "llm:judge-b/verdict-v1"}


def test_study_run_never_changes_a_result(judged, fake_llm, imported):
    report = services.llm_judge_run(project=imported, scope="all", config=_cfg("judge-a"))
    assert report.candidates == 4 and report.recorded == 4 and report.scope == "all"
    assert set(VerdictRecord.objects.values_list("event", flat=True)) == {VerdictEvent.STUDY}
    eff = {r.pk: r.verdict_source for r in selectors.effective_verdicts(project=imported)}
    assert set(eff.values()) == {"rules"}  # the fake says "correct" to everything, but it is a study
    # The grey-zone routing run reuses the cached call and records an applied verdict.
    again = services.llm_judge_run(project=imported, config=_cfg("judge-a"))
    assert (again.cached, again.called, again.recorded) == (1, 0, 1)
    assert selectors.effective_verdicts(project=imported).get(pk=judged.model_grey.pk).verdict_source == "llm"


def test_labelled_scope_sends_only_human_labelled_answers(judged, fake_llm, imported, people):
    services.override_set(response=judged.bob_right, correct=True, by=people.researcher)
    report = services.llm_judge_run(project=imported, scope="labelled", config=_cfg("judge-a"))
    assert report.candidates == 1 and fake_llm.calls == 1


def test_human_judgement_still_wins_over_every_judge(judged, fake_llm, imported, people):
    services.llm_judge_run(project=imported, config=_cfg("judge-a"))
    services.override_set(response=judged.model_grey, correct=False, by=people.researcher)
    row = selectors.effective_verdicts(project=imported).get(pk=judged.model_grey.pk)
    assert (row.effective_correct, row.verdict_source) == (False, "human")


def test_rescore_records_name_the_rules_judge(judged, imported):
    Response.objects.filter(pk=judged.bob_right.pk).update(rule_version="old-1", correct=False)
    services.responses_rescore(project=imported)
    record = VerdictRecord.objects.get(response=judged.bob_right, event=VerdictEvent.SUPERSEDED)
    assert record.judge_ref.name == "rules@old-1"


def test_migration_registers_existing_verdicts(judged):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("judging.migrations.0002_add_judge_registry_and_rubrics")
    call = LlmCall.objects.create(key="k" * 64, purpose="quality", prompt_id="quality-v1", model="old-model",
                                  parsed={"quality": 3})
    legacy = [
        VerdictRecord.objects.create(response=judged.bob_right, judge="rules", event=VerdictEvent.SUPERSEDED,
                                     correct=True, score=0.9, rule="alias", rule_version="2025.1"),
        VerdictRecord.objects.create(response=judged.model_grey, judge="llm:old-model", event=VerdictEvent.ADDED,
                                     correct=True, score=1.0, rule="verdict-v1", rule_version="1"),
        VerdictRecord.objects.create(response=judged.model_grey, judge="llm:old-model", event=VerdictEvent.ADDED,
                                     quality=3, rule="quality-v1", rule_version="1", llm_call=call),
    ]
    migration.register_existing_verdicts(apps, None)
    names = [VerdictRecord.objects.get(pk=r.pk).judge_ref.name for r in legacy]
    assert names == ["rules@2025.1", "llm:old-model/verdict-v1", "llm:old-model/quality-v1"]
    assert Judge.objects.get(name="llm:old-model/quality-v1").purpose == "quality"
    # Registering the same judge later finds the migrated row.
    same = services.judge_register(JudgeIdentity(kind="llm", purpose="verdict", model="old-model",
                                                 prompt_id="verdict-v1", prompt_version="1",
                                                 parameters={"temperature": 0.0, "max_tokens": 200}))
    assert same.name == "llm:old-model/verdict-v1" and Judge.objects.filter(name=same.name).count() == 1


# ------------------------------------------------------------------ rubrics


def test_rubric_versions_and_old_verdicts_keep_theirs(judged, fake_llm, imported, people):
    base = load_prompt("verdict")
    v1, created = services.rubric_save(project=imported, name="strict", purpose="verdict", system=base.system,
                                       user=base.user, by=people.researcher, based_on="verdict")
    assert created and v1.version == 1 and v1.label == "strict-v1"
    same, created = services.rubric_save(project=imported, name="strict", purpose="verdict",
                                         system=base.system + "  ", user=base.user)
    assert not created and same == v1
    services.llm_judge_run(project=imported, rubric="strict", config=_cfg("judge-a"))
    v2, created = services.rubric_save(project=imported, name="strict", purpose="verdict",
                                       system=base.system + "\nBe very strict.", user=base.user, note="stricter")
    assert created and v2.version == 2
    services.llm_judge_run(project=imported, rubric="strict", config=_cfg("judge-a"))
    labels = sorted(VerdictRecord.objects.values_list("judge_ref__name", "judge_ref__rubric__version"))
    assert labels == [("llm:judge-a/strict-v1", 1), ("llm:judge-a/strict-v2", 2)]
    assert "Be very strict." in fake_llm.requests[-1]["messages"][0]["content"]
    assert [r.version for r in selectors.rubric_versions(project=imported, name="strict")] == [2, 1]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        pytest.param({"name": "Bad Name"}, "name", id="name"),
        pytest.param({"name": "verdict"}, "name", id="builtin-name"),
        pytest.param({"purpose": "stars"}, "purpose", id="purpose"),
        pytest.param({"user": "Question: $question"}, "user", id="no-answer"),
        pytest.param({"user": "$answer $player"}, "user", id="unknown-placeholder"),
        pytest.param({"system": " "}, "system", id="empty-system"),
    ],
)
def test_rubric_save_rejects_bad_input(imported, kwargs, field):
    values = {"name": "mine", "purpose": "quality", "system": "Grade 0-5.", "user": "Answer: $answer"}
    with pytest.raises(services.JudgingError) as info:
        services.rubric_save(project=imported, **(values | kwargs))
    assert info.value.field == field and not Rubric.objects.exists()


def test_rubric_keeps_its_purpose(imported):
    services.rubric_save(project=imported, name="mine", purpose="quality", system="s", user="$answer")
    with pytest.raises(services.JudgingError, match="new name"):
        services.rubric_save(project=imported, name="mine", purpose="verdict", system="s2", user="$answer")


def test_score_rubric_records_scores(judged, fake_llm, imported):
    fake_llm.reply = lambda body: json.dumps({"score": 0.25, "reason": "partly"})
    report = services.llm_judge_run(project=imported, rubric="score", config=_cfg("judge-a"))
    assert report.scope == "all" and report.recorded == 4
    record = VerdictRecord.objects.first()
    assert (record.correct, record.score, record.judge_ref.purpose) == (None, 0.25, "score")
    assert parse_reply("0.5", "score") == {"score": 0.5, "reason": ""}
    assert parse_reply('{"score": 1.5}', "score") is None


def test_unknown_rubric_is_a_clear_error(imported):
    with pytest.raises(services.JudgingError, match="no rubric 'nope'"):
        services.llm_judge_run(project=imported, rubric="nope")


# ------------------------------------------------------------ SDK retries


def test_sdk_retries_server_errors_and_counts_attempts(judged, fake_llm, imported):
    fake_llm.fail_first = 2
    report = services.llm_judge_run(project=imported)
    assert report.recorded == 1 and LlmCall.objects.get().attempts == 3
    assert fake_llm.retry_counts == ["0", "1", "2"]  # the SDK's own retry loop


def test_sdk_honours_retry_after(judged, fake_llm, imported):
    fake_llm.fail_first, fake_llm.fail_status = 1, 429
    fake_llm.retry_after, fake_llm.retry_after_ms = "1", None
    started = time.perf_counter()
    report = services.llm_judge_run(project=imported)
    assert report.recorded == 1 and time.perf_counter() - started >= 0.95
    assert LlmCall.objects.get().attempts == 2


def test_client_errors_are_not_retried(judged, fake_llm, imported):
    fake_llm.fail_first, fake_llm.fail_status = 5, 400
    report = services.llm_judge_run(project=imported)
    assert fake_llm.calls == 1 and report.failed == 1
    call = LlmCall.objects.get()
    assert call.attempts == 1 and "BadRequestError" in call.error


def test_budget_counts_requests_not_sdk_retries(judged, fake_llm, imported):
    fake_llm.fail_first = 1
    for i in range(3):
        extra = answer(imported, f"model-{i}", "q2", f"maybe the bat person number {i}")  # noqa: F405
        Response.objects.filter(pk=extra.pk).update(score=0.4)
    report = services.llm_judge_run(project=imported, budget=2)
    assert (report.called, report.skipped_budget, fake_llm.calls) == (2, 2, 3)


def test_command_runs_a_rubric_study_with_another_model(judged, fake_llm, imported):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = StringIO()
    call_command("judging_llm", "--project", "t", "--rubric", "verdict", "--scope", "labelled",
                 "--model", "judge-z", stdout=out)
    assert "llm:judge-z/verdict-v1 (labelled): 0 candidates" in out.getvalue()
    call_command("judging_llm", "--project", "t", "--scope", "all", "--model", "judge-z", stdout=out)
    assert fake_llm.requests[-1]["model"] == "judge-z"
    assert VerdictRecord.objects.filter(event=VerdictEvent.STUDY).count() == 4
    with pytest.raises(CommandError, match="no rubric 'missing'"):
        call_command("judging_llm", "--project", "t", "--rubric", "missing")


def test_judges_are_deleted_only_with_their_verdicts(judged, fake_llm, imported):
    from django.db.models import RestrictedError

    base = load_prompt("verdict")
    services.rubric_save(project=imported, name="strict", purpose="verdict", system=base.system, user=base.user)
    services.llm_judge_run(project=imported, rubric="strict", config=_cfg("judge-a"))
    rubric = Rubric.objects.get()
    with pytest.raises(RestrictedError):
        rubric.delete()  # its judge's verdicts would lose their judge
    Response.objects.filter(project=imported).delete()  # verdicts go with their responses
    assert not VerdictRecord.objects.exists()
    rubric.delete()  # now the rubric takes its judge along
    assert not Judge.objects.filter(rubric__isnull=False).exists()
