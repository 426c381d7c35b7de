"""Model constraints and the campaign configuration (scales, templates, policies)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from annotation import scales, services
from annotation.models import Assignment, Rating

pytestmark = pytest.mark.django_db


def test_one_live_assignment_per_annotator_and_item(make_campaign, make_annotator):
    campaign = make_campaign(n=1)
    a = make_annotator(campaign)
    item = campaign.items.get()
    now = timezone.now()
    kw = {"campaign": campaign, "item": item, "annotator": a, "served_at": now, "expires_at": now}
    Assignment.objects.create(**kw)
    with pytest.raises(IntegrityError), transaction.atomic():
        Assignment.objects.create(**kw)
    Assignment.objects.update(status="expired")
    Assignment.objects.create(**kw)  # an expired one does not block a fresh one
    Assignment.objects.create(**kw, repeat=1)  # repeats are numbered (allow_repeat)


def test_rating_unique_per_criterion_and_token(make_campaign, make_annotator):
    campaign = make_campaign(n=1, template="multi_criteria", audio=False)
    a = make_annotator(campaign)
    asg = services.assignment_next_for_annotator(a, campaign)
    kw = {"campaign": campaign, "assignment": asg, "item": asg.item, "annotator": a,
          "submitted_at": timezone.now(), "elapsed_ms": 1}
    Rating.objects.create(criterion="grammatical", value="yes", client_token="t", **kw)
    with pytest.raises(IntegrityError), transaction.atomic():
        Rating.objects.create(criterion="grammatical", value="no", client_token="u", **kw)
    Rating.objects.create(criterion="plausible", value="no", client_token="t", **kw)  # same submission
    other = Assignment.objects.create(campaign=campaign, item=asg.item, annotator=a, repeat=1,
                                      served_at=timezone.now(), expires_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():  # the token is spent for this annotator
        Rating.objects.create(criterion="plausible", value="yes", client_token="t",
                              **{**kw, "assignment": other})


@pytest.mark.parametrize(
    ("criteria", "message"),
    [
        pytest.param([], "non-empty", id="empty"),
        pytest.param([{"key": "a", "scale": "stars"}], "scale", id="unknown-scale"),
        pytest.param([{"key": "a", "scale": "acr5"}, {"key": "a", "scale": "yes_no"}], "twice", id="dup-key"),
        pytest.param([{"key": "a b", "scale": "acr5"}], "identifier", id="bad-key"),
        pytest.param([{"key": "a", "scale": "acr5", "labels": ["x"]}], "5 labels", id="label-count"),
        pytest.param([{"key": "a", "scale": "custom", "values": ["x"]}], "2 or more", id="custom-too-few"),
    ],
)
def test_bad_criteria_are_rejected(criteria, message):
    with pytest.raises(scales.CriterionError, match=message):
        scales.normalize_criteria(criteria)


@pytest.mark.parametrize(
    ("scale", "value", "stored"),
    [
        pytest.param("acr5", 4, "4", id="acr-int"),
        pytest.param("acr5", 4.0, "4", id="acr-float"),
        pytest.param("acr5", "5", "5", id="acr-text"),
        pytest.param("score0_5", 0, "0", id="zero"),
        pytest.param("natural", "natural", "natural", id="natural"),
        pytest.param("yes_no", "no", "no", id="no"),
    ],
)
def test_validate_value_accepts_scale_values(scale, value, stored):
    assert scales.validate_value({"key": "k", "scale": scale}, value) == stored


@pytest.mark.parametrize(
    ("scale", "value"),
    [pytest.param("acr5", 0, id="acr-0"), pytest.param("acr5", 6, id="acr-6"),
     pytest.param("acr5", 4.5, id="acr-half"), pytest.param("yes_no", "maybe", id="maybe"),
     pytest.param("yes_no", True, id="bool"), pytest.param("acr5", None, id="none")],
)
def test_validate_value_rejects_off_scale(scale, value):
    with pytest.raises(scales.CriterionError):
        scales.validate_value({"key": "k", "scale": scale}, value)


def test_acr_labels_and_keys():
    choices = scales.choices_for({"key": "mos", "scale": "acr5"})
    assert [c.label for c in choices] == ["Bad", "Poor", "Fair", "Good", "Excellent"]
    assert [c.key for c in choices] == ["1", "2", "3", "4", "5"]
    assert [c.key for c in scales.choices_for({"key": "n", "scale": "natural"})] == ["y", "n"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        pytest.param({"policy": "overlap", "policy_k": 0}, "policy", id="overlap-k0"),
        pytest.param({"policy": "listener_sample", "policy_n": None}, "policy", id="listener-no-n"),
        pytest.param({"qc": {"exclude_on": ["bogus"]}}, "qc", id="bad-qc"),
        pytest.param({"expiry_minutes": 0}, "expiry_minutes", id="no-expiry"),
    ],
)
def test_campaign_create_validates_policy_and_qc(project, fields, field):
    kw = {"policy_n": 5, **fields}
    if kw.get("policy_n") is None:
        kw.pop("policy_n")
        kw["template"] = "custom"
        kw["criteria"] = [{"key": "a", "scale": "acr5"}]
    with pytest.raises(services.CampaignError) as err:
        services.campaign_create(project=project, name="x", slug="x", **kw)
    assert err.value.field == field


def test_assignment_expiry_is_set_from_the_campaign(make_campaign, make_annotator):
    campaign = make_campaign(n=1, expiry_minutes=7)
    a = services.assignment_next_for_annotator(make_annotator(campaign), campaign)
    assert a.expires_at - a.served_at == timedelta(minutes=7)


def test_scales_and_plots_are_pure_modules():
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys, annotation.scales, annotation.plots\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'django']\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
