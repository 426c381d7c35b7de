"""Effective verdicts: a human judgement wins over the LLM, which wins over the rules."""

from __future__ import annotations

import pytest

from judging import selectors, services
from judging.models import VerdictEvent, VerdictRecord
from tests.judging.django_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db


def _llm(response, correct, answer=None):
    return VerdictRecord.objects.create(
        response=response, judge="llm:fake", event=VerdictEvent.ADDED,
        answer_text=response.answer_text if answer is None else answer, correct=correct,
        score=1.0 if correct else 0.0, rule="verdict-v1", rule_version="1",
    )


def _effective(project):
    return {r.pk: (r.effective_correct, r.verdict_source) for r in selectors.effective_verdicts(project=project)}


def test_effective_verdicts_default_to_rules(judged, imported):
    eff = _effective(imported)
    assert eff[judged.alice_wrong.pk] == (False, "rules")
    assert eff[judged.bob_right.pk] == (True, "rules")


@pytest.mark.parametrize(
    ("llm", "human", "expected"),
    [
        pytest.param(None, None, (False, "rules"), id="rules-only"),
        pytest.param(True, None, (True, "llm"), id="llm-over-rules"),
        pytest.param(True, False, (False, "human"), id="human-over-llm"),
        pytest.param(None, True, (True, "human"), id="human-over-rules"),
        pytest.param(False, True, (True, "human"), id="human-true-llm-false"),
    ],
)
def test_override_wins_in_effective_verdicts(judged, imported, people, llm, human, expected):
    response = judged.model_grey
    if llm is not None:
        _llm(response, llm)
    if human is not None:
        services.override_set(response=response, correct=human, by=people.researcher, note="checked")
    assert _effective(imported)[response.pk] == expected
    assert selectors.effective_correct(response) is expected[0]


def test_latest_human_judgement_wins(judged, people):
    response = judged.bob_right
    services.override_set(response=response, correct=False, by=people.researcher)
    services.override_set(response=response, correct=True, by=people.researcher, note="second look")
    services.override_set(response=response, correct=False, by=people.researcher, note="final")
    assert selectors.effective_correct(response) is False
    row = selectors.effective_verdicts(queryset=type(response).objects.filter(pk=response.pk)).get()
    assert (row.effective_correct, row.verdict_source, row.correct) == (False, "human", True)


def test_llm_verdict_on_another_answer_text_is_ignored(judged, imported):
    _llm(judged.model_grey, True, answer="an older answer")
    assert _effective(imported)[judged.model_grey.pk] == (False, "rules")


def test_use_llm_false_ignores_llm(judged, imported):
    _llm(judged.model_grey, True)
    rows = {r.pk: r for r in selectors.effective_verdicts(project=imported, use_llm=False)}
    assert rows[judged.model_grey.pk].effective_correct is False
    assert selectors.effective_correct(judged.model_grey, use_llm=False) is False


def test_effective_verdicts_is_one_query(judged, imported, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = list(selectors.effective_verdicts(project=imported))
    assert len(rows) == 4


def test_override_rejects_quality_out_of_range(judged, people):
    with pytest.raises(services.JudgingError):
        services.override_set(response=judged.bob_right, correct=True, quality=6, by=people.researcher)
