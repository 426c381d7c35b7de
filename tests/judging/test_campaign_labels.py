"""Human labels from an annotation campaign that rates quiz responses (question, reference, answer)."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from judging import services
from judging.human_labels import aggregate_item
from judging.models import HumanJudgement, JudgementSource
from quiz.importing import ImportFailed
from tests.judging.django_fixtures import *  # noqa: F403


@pytest.mark.parametrize(
    ("correct", "quality", "expected"),
    [
        pytest.param(["yes", "yes", "no"], [], (True, None), id="majority-yes"),
        pytest.param(["no", "no", "yes"], ["1", "2", "4"], (False, 2), id="majority-no-median-quality"),
        pytest.param(["yes", "no"], [], (None, None), id="tie-undecided"),
        pytest.param([], ["4", "3", "2", "5"], (True, 4), id="quality-only-median-half-up"),
        pytest.param([], ["1", "2"], (False, 2), id="quality-only-wrong"),
        pytest.param([], [], (None, None), id="nothing"),
    ],
)
def test_aggregate_item(correct, quality, expected):
    label = aggregate_item(correct, quality)
    assert (label.correct, label.quality) == expected


def _campaign(project, tmp_path, rows):
    from annotation import services as annotation

    campaign = annotation.campaign_create(project=project, name="Answer audit", slug="audit", template="qa_audit",
                                          policy="overlap", policy_k=2)
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    annotation.items_import(campaign=campaign, path=path)
    annotation.campaign_set_status(campaign=campaign, status="open")
    return campaign


def _rate(campaign, answers):
    """Each list in ``answers`` is one annotator's {item external id: "yes"/"no"}."""
    from accounts.services import guest_create
    from annotation import services as annotation

    for mine in answers:
        a = annotation.annotator_step(annotator=annotation.annotator_enrol(campaign=campaign, user=guest_create()),
                                      step="consent")
        while (asg := annotation.assignment_next_for_annotator(a, campaign)) is not None:
            value = mine[asg.item.external_id]
            annotation.rating_submit(annotator=a, assignment_id=asg.public_id, client_token=asg.public_id,
                                     values={"grounded": "yes", "correct": value, "diverse": "yes"},
                                     now=asg.served_at + timedelta(seconds=5))


@pytest.mark.django_db
def test_campaign_ratings_become_human_judgements(judged, imported, tmp_path):
    items = [
        {"id": f"r{r.pk}", "question": r.question.prompt, "reference": r.question.answerline,
         "response": r.answer_text, "system": "gpt-audio", "metadata": {"response_id": r.pk}}
        for r in (judged.model_grey, judged.model_right, judged.alice_wrong)
    ]
    campaign = _campaign(imported, tmp_path, items)
    grey, right, alice = (f"r{r.pk}" for r in (judged.model_grey, judged.model_right, judged.alice_wrong))
    _rate(campaign, [{grey: "yes", right: "yes", alice: "no"},
                     {grey: "yes", right: "yes", alice: "yes"}])
    summary = services.human_labels_from_campaign(project=imported, campaign_slug="audit")
    assert summary.created == 2 and summary.undecided == [f"{alice}: tie: 1 yes, 1 no"]
    got = HumanJudgement.objects.get(response=judged.model_grey)
    assert (got.correct, got.source, got.annotator) == (True, JudgementSource.CAMPAIGN, "campaign:audit")
    again = services.human_labels_from_campaign(project=imported, campaign_slug="audit")
    assert (again.created, again.unchanged) == (0, 2)
    out = StringIO()
    call_command("judging_import_labels", "--campaign", "audit", "--project", "t", stdout=out, stderr=StringIO())
    assert "0 human judgements added, 2 unchanged, 1 items undecided" in out.getvalue()


@pytest.mark.django_db
def test_campaign_items_must_name_project_responses(judged, imported, tmp_path):
    _campaign(imported, tmp_path, [
        {"id": "a", "question": "q", "reference": "r", "response": "x", "metadata": {"response_id": 99999}},
        {"id": "b", "question": "q", "reference": "r", "response": "y"},
    ])
    with pytest.raises(ImportFailed) as info:
        services.human_labels_from_campaign(project=imported, campaign_slug="audit")
    messages = [str(p) for p in info.value.problems]
    assert len(messages) == 2 and "no response #99999" in messages[1] and "response_id is required" in messages[0]
    assert not HumanJudgement.objects.exists()
    with pytest.raises(CommandError, match="one of them"):
        call_command("judging_import_labels", "--project", "t")
