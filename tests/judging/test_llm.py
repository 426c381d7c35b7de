"""LLM judge against a fake OpenAI-compatible server on localhost (no client mocks).

Checks: only grey-zone verdicts are sent; every call is cached (a second run makes
zero HTTP calls); 500s are retried with backoff; timeouts are retried and reported;
the per-run budget is respected; replies are parsed; the command refuses when off.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from judging import selectors, services
from judging.llm import load_prompt, parse_reply
from judging.models import LlmCall, VerdictEvent, VerdictRecord
from quiz.models import Response
from tests.judging.django_fixtures import *  # noqa: F403
from tests.judging.django_fixtures import answer

pytestmark = pytest.mark.django_db


def _run(**kwargs):
    return services.llm_judge_run(**kwargs)


def test_only_grey_zone_verdicts_are_sent(judged, fake_llm, imported):
    report = _run(project=imported)
    assert fake_llm.calls == 1 and report.called == 1 and report.candidates == 1
    sent = fake_llm.requests[0]
    assert sent["model"] == "fake-judge" and sent["temperature"] == 0
    user = sent["messages"][1]["content"]
    assert "caped crusader" in user and "Batman [accept Bruce Wayne or Dark Knight]" in user
    record = VerdictRecord.objects.get(response=judged.model_grey)
    assert (record.judge, record.event, record.correct, record.rule) == (
        "llm:fake-judge", VerdictEvent.ADDED, True, load_prompt("verdict").label,
    )
    row = selectors.effective_verdicts(project=imported).get(pk=judged.model_grey.pk)
    assert (row.effective_correct, row.verdict_source) == (True, "llm")
    call = LlmCall.objects.get()
    assert (call.prompt_tokens, call.completion_tokens, call.attempts, call.error) == (50, 7, 1, "")


def test_second_run_makes_no_http_calls(judged, fake_llm, imported):
    _run(project=imported)
    calls = fake_llm.calls
    again = _run(project=imported)
    assert fake_llm.calls == calls == 1
    assert (again.cached, again.called, again.recorded) == (1, 0, 0)
    assert VerdictRecord.objects.filter(judge__startswith="llm:").count() == 1


def test_cache_is_shared_by_identical_inputs(judged, fake_llm, imported):
    twin = answer(imported, "other-model", "q2", judged.model_grey.answer_text)
    Response.objects.filter(pk=twin.pk).update(score=0.5)
    report = _run(project=imported)
    assert (fake_llm.calls, report.called, report.cached, report.recorded) == (1, 1, 1, 2)


def test_retries_after_server_errors(judged, fake_llm, imported):
    fake_llm.fail_first = 2
    report = _run(project=imported)
    assert fake_llm.calls == 3 and report.failed == 0 and report.recorded == 1
    assert LlmCall.objects.get().attempts == 3


def test_gives_up_after_max_attempts_and_retries_next_run(judged, fake_llm, imported, settings):
    settings.EARSHOT_LLM_JUDGE_MAX_ATTEMPTS = 3
    fake_llm.fail_first = 3
    report = _run(project=imported)
    assert (fake_llm.calls, report.failed, report.recorded) == (3, 1, 0)
    failed = LlmCall.objects.get()
    assert "InternalServerError" in failed.error and failed.parsed is None and failed.attempts == 3
    assert selectors.effective_verdicts(project=imported).get(pk=judged.model_grey.pk).verdict_source == "rules"
    # A failure is not a cached answer: the next run asks again, and succeeds.
    report = _run(project=imported)
    assert (fake_llm.calls, report.called, report.recorded) == (4, 1, 1)
    assert LlmCall.objects.get().error == ""


def test_timeout_is_retried(judged, fake_llm, imported, settings):
    settings.EARSHOT_LLM_JUDGE_TIMEOUT_S = 0.3
    fake_llm.sleep_first, fake_llm.sleep_s = 1, 2.0
    report = _run(project=imported)
    assert report.recorded == 1 and report.failed == 0
    assert fake_llm.calls == 2 and LlmCall.objects.get().attempts == 2


def test_timeouts_exhausting_attempts_are_reported(judged, fake_llm, imported, settings):
    settings.EARSHOT_LLM_JUDGE_TIMEOUT_S = 0.2
    settings.EARSHOT_LLM_JUDGE_MAX_ATTEMPTS = 2
    fake_llm.sleep_first, fake_llm.sleep_s = 2, 1.0
    report = _run(project=imported)
    assert report.failed == 1 and "APITimeoutError" in report.errors[0]


@pytest.mark.parametrize(
    ("budget", "first", "second"),
    [
        pytest.param(2, (2, 3), (2, 2), id="budget-2"),
        pytest.param(0, (0, 5), (0, 0), id="budget-0"),
        pytest.param(None, (5, 0), (0, 5), id="no-budget"),
    ],
)
def test_budget_is_respected(judged, fake_llm, imported, budget, first, second):
    """first/second: (HTTP calls, skipped over budget) of run 1; (new calls, cached) of run 2."""
    for i in range(4):
        extra = answer(imported, f"model-{i}", "q2", f"maybe the bat person number {i}")
        Response.objects.filter(pk=extra.pk).update(score=0.4)
    report = _run(project=imported, budget=budget)
    assert (fake_llm.calls, report.skipped_budget) == first
    calls = fake_llm.calls
    report = _run(project=imported, budget=budget)
    assert (fake_llm.calls - calls, report.cached) == second


def test_budget_goes_to_answers_without_a_human_ruling_first(judged, fake_llm, imported, people):
    """A ruled answer (older id) is asked about only after the unruled ones."""
    from judging.services import override_set

    first = answer(imported, "model-0", "q2", "maybe the bat person number 0")
    later = answer(imported, "model-1", "q2", "maybe the bat person number 1")
    Response.objects.filter(pk__in=[first.pk, later.pk]).update(score=0.4)
    override_set(response=first, correct=False, by=people.researcher, note="ruled")
    report = _run(project=imported, budget=2)
    asked = {c.request["messages"][1]["content"] for c in LlmCall.objects.all()}
    assert report.called == 2 and report.skipped_budget == 1
    assert not any("number 0" in m for m in asked)  # the ruled one waited
    assert any("number 1" in m for m in asked)


def test_quality_scores(judged, fake_llm, imported):
    fake_llm.reply = lambda body: json.dumps({"quality": 3 if "Robin" in body["messages"][1]["content"] else 5,
                                               "reason": "graded"})
    report = _run(project=imported, purpose="quality")
    assert report.candidates == 4 and report.recorded == 4
    qualities = dict(VerdictRecord.objects.filter(quality__isnull=False).values_list("response_id", "quality"))
    assert qualities[judged.alice_wrong.pk] == 3 and qualities[judged.bob_right.pk] == 5
    # Quality records never change the effective verdict.
    row = selectors.effective_verdicts(project=imported).get(pk=judged.alice_wrong.pk)
    assert (row.effective_correct, row.verdict_source, row.llm_quality) == (False, "rules", 3)


def test_unreadable_reply_is_counted_not_recorded(judged, fake_llm, imported):
    fake_llm.reply = lambda body: "I would rather not say."
    report = _run(project=imported)
    assert (report.unreadable, report.recorded) == (1, 0)


@pytest.mark.parametrize(
    ("text", "purpose", "expected"),
    [
        pytest.param('{"correct": true, "reason": "same"}', "verdict", {"correct": True, "reason": "same"}, id="json"),
        pytest.param('```json\n{"correct": false}\n```', "verdict", {"correct": False, "reason": ""}, id="fenced"),
        pytest.param('{"correct": "yes"}', "verdict", {"correct": True, "reason": ""}, id="string-bool"),
        pytest.param("INCORRECT: names another city", "verdict", {"correct": False, "reason": ""}, id="bare-incorrect"),
        pytest.param("Correct.", "verdict", {"correct": True, "reason": ""}, id="bare-correct"),
        pytest.param("no idea", "verdict", None, id="unreadable"),
        pytest.param('{"quality": 4, "reason": "minor slip"}', "quality", {"quality": 4, "reason": "minor slip"}, id="quality"),
        pytest.param("Score: 2", "quality", {"quality": 2, "reason": ""}, id="bare-quality"),
        pytest.param('{"quality": 9}', "quality", None, id="quality-out-of-range"),
    ],
)
def test_parse_reply(text, purpose, expected):
    assert parse_reply(text, purpose) == expected


def test_prompts_are_versioned():
    for name in ("verdict", "quality"):
        prompt = load_prompt(name)
        assert prompt.version and prompt.purpose == name and "$answer" in prompt.user
        assert prompt.label == f"{name}-v{prompt.version}"


def test_command_runs_task_with_budget(judged, fake_llm):
    out = StringIO()
    call_command("judging_llm", "--project", "t", "--budget", "1", stdout=out)
    assert "1 called" in out.getvalue() and fake_llm.calls == 1


def test_command_refuses_when_llm_is_off(judged, settings):
    settings.EARSHOT_LLM_JUDGE_ENABLED = False
    with pytest.raises(CommandError, match="LLM judge is off"):
        call_command("judging_llm", "--project", "t")
