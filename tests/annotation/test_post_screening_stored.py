"""BS.1534-3 post-screening on a stored MUSHRA campaign (the demo's), through the real
rating service: an honest listener is kept, one who underrates the hidden reference is
excluded with the reason, on the crowd page and in the approval report."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from accounts.services import guest_create, membership_set
from annotation import selectors, services, services_crowd
from annotation.demo_listening import demo_listening_seed
from annotation.models import Stimulus
from tests.annotation.conftest import heard_all

pytestmark = pytest.mark.django_db

HONEST = {"hidden_reference": 100, "lp7000": 60, "lp3500": 30, "noise-30db": 88, "bits-6": 76, "noise-15db": 52}


def _rate_everything(campaign, scores):
    annotator = services.annotator_enrol(campaign=campaign, user=guest_create(), consent=True)
    later = timezone.now() + timedelta(minutes=2)
    for n in range(10):
        assignment = services.assignment_next_for_annotator(annotator, campaign)
        if assignment is None:
            break
        payload = selectors.item_payload(assignment)
        stimuli = {s.public_id: s for s in Stimulus.objects.filter(item=assignment.item)}
        values = {}
        for shown in payload["test"]["stimuli"]:
            stim = stimuli[shown["id"]]
            key = "hidden_reference" if stim.role == "hidden_reference" else (stim.system or stim.condition)
            values[shown["id"]] = scores[key]
        services.rating_submit(annotator=annotator, assignment_id=assignment.public_id,
                               values={"mushra": values}, client_token=f"{annotator.pk}-{n}",
                               played=heard_all(payload), now=later)
    services.annotator_complete(annotator=annotator)
    annotator.refresh_from_db()
    return annotator


def test_post_screening_excludes_the_listener_who_underrates_the_hidden_reference(project, make_user):
    (campaign,) = demo_listening_seed(project, slugs=("demo-mushra",))
    campaign.crowd = {"bonus": "1.00"}
    campaign.save(update_fields=["crowd"])
    honest = _rate_everything(campaign, HONEST)
    careless = _rate_everything(campaign, {**HONEST, "hidden_reference": 70})
    assert honest.outcome == careless.outcome == "completed"

    result = services_crowd.mushra_post_screen_for(campaign)
    assert result.excluded_raters == [careless.public_id]
    (exclusion,) = result.exclusions
    assert (exclusion.rule, exclusion.n_items, exclusion.n_violations) == ("hidden_reference", 3, 3)
    assert exclusion.reason == "rated the hidden reference below 90 in 3 of 3 items (100%, more than 15%)"
    assert result.raters.loc[honest.public_id, "n_items_anchor"] == 3  # lp7000 found as the mid anchor

    rows = {r["rater_id"]: r for r in services_crowd.payment_report(campaign)[0]}
    assert (rows[honest.public_id]["decision"], rows[honest.public_id]["bonus"]) == ("approve", "1.00")
    assert rows[careless.public_id]["decision"] == "approve" and rows[careless.public_id]["bonus"] == "0.00"
    assert "excluded by hidden_reference" in rows[careless.public_id]["reason"]

    researcher = make_user()
    membership_set(project=project, user=researcher, role=Role.RESEARCHER)
    client = Client()
    client.force_login(researcher)
    html = client.get(reverse("annotation:campaign_crowd", args=[project.slug, campaign.slug])).content.decode()
    assert 'id="post-screening"' in html and exclusion.reason in html


def _choose_all(campaign, trap_choice: str):
    """Rate every AB item: the better system by the degradation order, ``trap_choice`` on the trap."""
    from annotation.degradations import DEMO_SYSTEMS

    order = list(DEMO_SYSTEMS)
    annotator = services.annotator_enrol(campaign=campaign, user=guest_create(), consent=True)
    later = timezone.now() + timedelta(minutes=2)
    for n in range(20):
        assignment = services.assignment_next_for_annotator(annotator, campaign)
        if assignment is None:
            break
        payload = selectors.item_payload(assignment)
        stimuli = {s.public_id: s for s in Stimulus.objects.filter(item=assignment.item)}
        shown = [stimuli[s["id"]] for s in payload["test"]["stimuli"]]
        if assignment.item.kind == "trap":
            pick = next(s for s in shown if s.role == trap_choice)
        else:
            pick = min(shown, key=lambda s: order.index(s.system))
        services.rating_submit(annotator=annotator, assignment_id=assignment.public_id,
                               values={"preference": pick.public_id}, client_token=f"{annotator.pk}-{n}",
                               played=heard_all(payload), now=later)
    services.annotator_complete(annotator=annotator)
    annotator.refresh_from_db()
    return annotator


def test_ab_trap_failure_rejects_in_the_approval_report(project):
    (campaign,) = demo_listening_seed(project, slugs=("demo-ab",))
    attentive = _choose_all(campaign, "A")
    careless = _choose_all(campaign, "B")
    assert attentive.outcome == careless.outcome == "completed"
    rows = {r["rater_id"]: r for r in services_crowd.payment_report(campaign)[0]}
    assert rows[attentive.public_id]["decision"] == "approve"
    assert (rows[careless.public_id]["decision"], rows[careless.public_id]["reason"]) == (
        "reject", "failed the attention checks: trap")
