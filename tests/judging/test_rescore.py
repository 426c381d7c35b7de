"""Re-scoring after a rule-version change: history kept, overrides respected, idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from judging import services
from judging.equivalence import EQUIVALENCE_VERSION
from judging.models import VerdictEvent, VerdictRecord
from quiz.models import Response
from tests.judging.django_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db

OLD = "2020.1.0"


def _age(response, **verdict):
    """Pretend ``response`` was judged by an older rule version (with another verdict)."""
    values = {"rule_version": OLD, **verdict}
    Response.objects.filter(pk=response.pk).update(**values)
    response.refresh_from_db()
    return response


def _rescore(*args: str) -> str:
    out = StringIO()
    call_command("judging_rescore", *args, stdout=out)
    return out.getvalue()


def test_rescore_replaces_old_verdict_and_keeps_history(judged):
    old = _age(judged.alice_wrong, correct=True, score=0.93, rule="old-fuzzy", explanation="old rules")
    output = _rescore()
    new = Response.objects.get(pk=old.pk)
    assert (new.correct, new.rule_version) == (False, EQUIVALENCE_VERSION)
    history = VerdictRecord.objects.get(response=old, event=VerdictEvent.SUPERSEDED)
    assert (history.judge, history.correct, history.score, history.rule, history.rule_version) == (
        "rules", True, 0.93, "old-fuzzy", OLD,
    )
    assert history.explanation == "old rules" and history.answer_text == "Robin"
    # The changed verdict is printed: question id, responder label, answer, old -> new, rule.
    line = next(x for x in output.splitlines() if "'Robin'" in x)
    assert line.startswith("q2  alice  'Robin': correct (0.93) [old-fuzzy 2020.1.0] -> wrong")
    assert f"[{new.rule}]" in line
    assert "updated 1" in output and "1 decisions flipped" in output


def test_rescore_never_touches_overridden_but_records_new_verdict(judged, people):
    response = _age(judged.bob_right, correct=False, score=0.1, rule="old-rule")
    services.override_set(response=response, correct=True, by=people.researcher, note="Bruce Wayne is Batman")
    output = _rescore()
    stored = Response.objects.get(pk=response.pk)
    assert (stored.correct, stored.score, stored.rule, stored.rule_version) == (False, 0.1, "old-rule", OLD)
    shadow = VerdictRecord.objects.get(response=response, event=VerdictEvent.SHADOWED)
    assert (shadow.correct, shadow.rule_version) == (True, EQUIVALENCE_VERSION)
    assert "human judgement stands: not applied" in output
    assert "1 with a human judgement" in output


def test_rescore_is_idempotent(judged, people):
    _age(judged.alice_wrong, correct=True, score=0.9, rule="old")
    _age(judged.bob_right, correct=False, score=0.2, rule="old")
    services.override_set(response=judged.bob_right, correct=True, by=people.researcher)
    _rescore()
    snapshot = list(Response.objects.order_by("id").values())
    n_records = VerdictRecord.objects.count()
    second = services.responses_rescore()
    assert (second.updated, second.changes, second.overridden) == (0, [], 1)
    assert VerdictRecord.objects.count() == n_records
    assert list(Response.objects.order_by("id").values()) == snapshot
    services.responses_rescore(all_versions=True)  # fixes the fixture's forced grey verdict
    n_records = VerdictRecord.objects.count()
    again = services.responses_rescore(all_versions=True)
    assert again.updated == 0 and VerdictRecord.objects.count() == n_records


def test_rescore_dry_run_writes_nothing(judged):
    _age(judged.alice_wrong, correct=True, score=0.9, rule="old")
    before = list(Response.objects.order_by("id").values())
    output = _rescore("--dry-run")
    assert "dry run: would update 1" in output and "'Robin'" in output
    assert list(Response.objects.order_by("id").values()) == before
    assert not VerdictRecord.objects.exists()


def test_rescore_all_rejudges_current_version_too(judged):
    # Same version, but a stale verdict (e.g. the answerline was edited): only --all sees it.
    Response.objects.filter(pk=judged.alice_wrong.pk).update(correct=True, score=0.99, rule="stale")
    assert services.responses_rescore().examined == 0
    report = services.responses_rescore(all_versions=True)
    assert report.examined == 4
    # The fixture forced the model's verdict into the grey zone: --all re-judges it too.
    assert {c.response_id for c in report.changes} == {judged.alice_wrong.pk, judged.model_grey.pk}
    assert Response.objects.get(pk=judged.alice_wrong.pk).correct is False


@pytest.mark.parametrize(
    ("slug", "expected"),
    [pytest.param("t", 1, id="this-project"), pytest.param("private", 0, id="other-project")],
)
def test_rescore_by_project(judged, slug, expected):
    _age(judged.alice_wrong, correct=True, score=0.9, rule="old")
    output = _rescore("--project", slug)
    assert f"updated {expected}," in output


def test_rescore_skips_multiple_choice(imported, people):
    from quiz import services as quiz_services
    from quiz.models import Question

    responder = quiz_services.responder_for_user(project=imported, user=people.alice)
    mcq, _ = quiz_services.response_submit(
        responder=responder, question=Question.objects.get(external_id="q1"), mode="mcq",
        client_token="m1", choice=1,
    )
    Response.objects.filter(pk=mcq.pk).update(rule_version=OLD)
    assert services.responses_rescore(all_versions=True).examined == 0


def test_rescore_unknown_project_fails(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        _rescore("--project", "nope")
