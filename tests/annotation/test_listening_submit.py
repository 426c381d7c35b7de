"""Submitting listening-test ratings: values checked per template, every stimulus'
listening evidence required and checked against the server's clock, one row per
rated stimulus (or the chosen one), idempotent tokens, and the codes / no-work rules
of the integrity issue for the new templates."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from annotation import selectors, services
from annotation.models import Annotator, Assignment, Rating, Stimulus

from .conftest import heard_all

pytestmark = pytest.mark.django_db
CODES = {"completion_code": "PAID-OK", "no_work_code": "NO-WORK", "screened_out_code": "SCREENED"}


def serve(campaign, annotator):
    assignment = services.assignment_next_for_annotator(annotator, campaign)
    assignment.campaign = campaign
    return assignment, selectors.item_payload(assignment)


def answer(payload) -> dict:
    """A valid answer for any template (the first choice; 50 on every slider; ranks in order)."""
    test, out = payload["test"], {}
    for crit in payload["criteria"]:
        if crit["choices"]:
            out[crit["key"]] = crit["choices"][0]["value"]
        elif crit["scale"] == "mushra100":
            out[crit["key"]] = {s["id"]: 50 for s in test["stimuli"]}
        else:
            out[crit["key"]] = {s["id"]: i for i, s in enumerate(test["stimuli"], 1)}
    return out


def submit(annotator, assignment, values, played="all", later=10.0, token=None, payload=None):
    return services.rating_submit(
        annotator=annotator, assignment_id=assignment.public_id, values=values,
        client_token=token or f"t-{assignment.public_id}",
        played=heard_all(payload) if played == "all" else played,
        now=assignment.served_at + timedelta(seconds=later))


@pytest.mark.parametrize("template", ["mushra", "ab", "abx", "ccr", "dcr", "smos", "ranking"])
def test_one_submission_per_template_stores_rows_and_evidence(make_listening_campaign, make_annotator, template):
    campaign = make_listening_campaign(template)
    annotator = make_annotator(campaign)
    assignment, payload = serve(campaign, annotator)
    result = submit(annotator, assignment, answer(payload), payload=payload)
    stimuli = {s.pk: s for s in Stimulus.objects.filter(item=assignment.item)}
    rated = {"mushra": 5, "ranking": 3}.get(template, 1)
    assert result.created and len(result.ratings) == rated
    stored = list(Rating.objects.filter(assignment=assignment).select_related("stimulus"))
    assert len(stored) == rated and all(r.stimulus_id in stimuli for r in stored)
    if template in ("ab", "abx"):  # the chosen stimulus and its role
        assert stored[0].value == stored[0].stimulus.role and stored[0].stimulus.role in "AB"
    if template in ("ccr", "dcr", "smos"):
        assert stored[0].stimulus.role == "system"
    assignment.refresh_from_db()
    assert assignment.status == "submitted"
    assert set(assignment.listening) == {str(pk) for pk in stimuli}  # every stimulus, reference and X too
    assert all(e["heard_fraction"] == pytest.approx(1.0) for e in assignment.listening.values())
    assert all(r.heard_fraction == pytest.approx(1.0) and r.played for r in stored)
    again = submit(annotator, assignment, answer(payload), payload=payload)  # the same token: nothing new
    assert not again.created and Rating.objects.count() == rated


def test_ab_no_preference_is_stored_without_a_stimulus(make_listening_campaign, make_annotator):
    campaign = make_listening_campaign("ab")
    annotator = make_annotator(campaign)
    assignment, payload = serve(campaign, annotator)
    assert [c["value"] for c in payload["criteria"][0]["choices"]][2] == "none"
    submit(annotator, assignment, {"preference": "none"}, payload=payload)
    rating = Rating.objects.get()
    assert (rating.value, rating.stimulus, rating.heard_fraction) == ("none", None, None)


def test_ccr_stores_the_system_against_the_reference_whatever_the_order(make_listening_campaign, make_annotator):
    campaign = make_listening_campaign("ccr", n=1, policy_k=30)
    seen = set()
    for _ in range(10):
        annotator = make_annotator(campaign)
        assignment, payload = serve(campaign, annotator)
        first = Stimulus.objects.get(public_id=payload["test"]["stimuli"][0]["id"])
        submit(annotator, assignment, {"cmos": "2"}, payload=payload)  # "the second is better"
        rating = Rating.objects.get(assignment=assignment)
        seen.add(first.role)
        assert rating.stimulus.role == "system"
        assert rating.value == ("2" if first.role == "reference" else "-2")
    assert seen == {"reference", "system"}  # both orders were served


@pytest.mark.parametrize(("template", "bad", "field"), [
    pytest.param("mushra", {"mushra": {}}, "values.mushra", id="mushra-empty"),
    pytest.param("mushra", "drop-one", "values.mushra.", id="mushra-one-missing"),
    pytest.param("mushra", "over-100", "values.mushra.", id="mushra-101"),
    pytest.param("mushra", "reference", "values.mushra.", id="mushra-rates-the-open-reference"),
    pytest.param("ranking", "tie", "values.rank", id="ranking-tie"),
    pytest.param("ab", {"preference": "A"}, "values.preference", id="ab-letter-not-id"),
    pytest.param("abx", "x", "values.abx", id="abx-chooses-x"),
    pytest.param("dcr", {"dmos": 9}, "values.dmos", id="dcr-off-scale"),
    pytest.param("smos", {}, "values.smos", id="smos-missing"),
    pytest.param("ccr", {"cmos": "2", "other": 1}, "values.other", id="unknown-criterion"),
])
def test_bad_values_are_refused_and_nothing_is_stored(make_listening_campaign, make_annotator, template, bad, field):
    campaign = make_listening_campaign(template)
    annotator = make_annotator(campaign)
    assignment, payload = serve(campaign, annotator)
    test = payload["test"]
    good = answer(payload)
    key = payload["criteria"][0]["key"]
    if bad == "drop-one":
        bad = {key: dict(list(good[key].items())[1:])}
    elif bad == "over-100":
        bad = {key: {**good[key], test["stimuli"][0]["id"]: 101}}
    elif bad == "reference":
        bad = {key: {**good[key], test["reference"]["id"]: 80}}
    elif bad == "tie":
        bad = {key: {s["id"]: 1 for s in test["stimuli"]}}
    elif bad == "x":
        bad = {key: test["x"]["id"]}
    with pytest.raises(services.RatingError) as caught:
        submit(annotator, assignment, bad, payload=payload)
    assert caught.value.field.startswith(field) and caught.value.status == 400
    assert not Rating.objects.exists()
    assert Assignment.objects.get().status == "active"


@pytest.mark.parametrize("case", ["none-sent", "one-missing", "one-half", "not-an-object", "unknown-id",
                                  "outside-clip", "too-soon-in-total", "too-soon-for-one"])
def test_every_stimulus_must_be_heard(make_listening_campaign, make_annotator, case):
    campaign = make_listening_campaign("mushra")
    annotator = make_annotator(campaign)
    assignment, payload = serve(campaign, annotator)
    full = heard_all(payload)
    ids = list(full)
    later = 10.0
    played = {
        "none-sent": None,
        "one-missing": {k: v for k, v in full.items() if k != ids[3]},
        "one-half": {**full, ids[2]: [[0.0, 0.15]]},
        "not-an-object": [[0.0, 0.3]],
        "unknown-id": {**full, "nope": [[0.0, 0.3]]},
        "outside-clip": {**full, ids[1]: [[0.0, 5.0]]},
        "too-soon-in-total": full,  # six 0.3 s samples cannot all be heard in 1 s
        "too-soon-for-one": full,
    }[case]
    if case == "too-soon-in-total":
        later = 1.0
    if case == "too-soon-for-one":
        later = 0.1
    with pytest.raises(services.RatingError) as caught:
        submit(annotator, assignment, answer(payload), played=played, later=later, payload=payload)
    field = caught.value.field
    if case in ("one-missing", "one-half", "outside-clip"):
        victim = {"one-missing": ids[3], "one-half": ids[2], "outside-clip": ids[1]}[case]
        assert field == f"played.{victim}"
        label = next(s["label"] for s in [payload["test"]["reference"], *payload["test"]["stimuli"]]
                     if s["id"] == victim)
        assert caught.value.message.startswith(f"{label}: ")  # names the sample as the page shows it
    elif case == "unknown-id":
        assert field == "played.nope"
    else:
        assert field.startswith("played")
    assert not Rating.objects.exists()


def test_evidence_rules_follow_the_campaign_settings(make_listening_campaign, make_annotator):
    relaxed = make_listening_campaign("ab", require_full_listen=False)
    annotator = make_annotator(relaxed)
    assignment, payload = serve(relaxed, annotator)
    submit(annotator, assignment, answer(payload), played=None, payload=payload)
    assert Rating.objects.get().heard_fraction is None
    assert Assignment.objects.get(pk=assignment.pk).listening == {}
    half = make_listening_campaign("ab", min_listen_fraction=0.5)
    annotator = make_annotator(half)
    assignment, payload = serve(half, annotator)
    submit(annotator, assignment, answer(payload), payload=payload,
           played={k: [[0.0, 0.16]] for k in heard_all(payload)})
    assert Rating.objects.get(assignment=assignment).heard_fraction == pytest.approx(0.16 / 0.3, abs=0.01)


def test_the_page_and_the_api_accept_listening_test_submissions(client, make_listening_campaign, make_user):
    campaign = make_listening_campaign("mushra", n=2)
    base = [campaign.project.slug, campaign.slug]
    client.post(reverse("annotation:start", args=base), {"agree": "yes"})
    client.post(reverse("annotation:instructions", args=base))
    page = client.get(reverse("annotation:work", args=base))
    payload = page.context["item"]
    Assignment.objects.update(served_at=Assignment.objects.get().served_at - timedelta(seconds=10))
    reply = client.post(reverse("annotation:rate", args=base), json.dumps({
        "assignment": payload["assignment"], "values": answer(payload), "client_token": "page-1",
        "played": heard_all(payload)}), content_type="application/json")
    assert reply.status_code == 200 and reply.json()["created"]
    token = Token.objects.create(user=make_user()).key
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    api = f"/api/v1/projects/{campaign.project.slug}/campaigns/{campaign.slug}/"
    served = client.post(api + "next/", json.dumps({"consent": True}), content_type="application/json", **auth).json()
    Assignment.objects.filter(public_id=served["assignment"]).update(
        served_at=Assignment.objects.get(public_id=served["assignment"]).served_at - timedelta(seconds=10))
    body = {"assignment": served["assignment"], "values": answer(served), "client_token": "api-1",
            "played": heard_all(served)}
    for _ in range(2):  # the same token twice: stored once (201, then 200 with the stored ratings)
        created = Client().post(api + "ratings/submit/", json.dumps(body), content_type="application/json", **auth)
        assert created.status_code in (200, 201), created.content
    assert Rating.objects.filter(client_token="api-1").count() == 5
    refused = Client().post(api + "ratings/submit/", json.dumps({**body, "client_token": "api-2", "played": None}),
                            content_type="application/json", **auth)
    assert refused.status_code == 409  # already rated


def test_codes_only_for_the_work_and_no_work_when_the_study_is_full(make_listening_campaign, make_annotator):
    campaign = make_listening_campaign("mushra", n=2, policy_k=1, **CODES)
    first, late = make_annotator(campaign), make_annotator(campaign)
    assignment, payload = serve(campaign, first)
    with pytest.raises(services.RatingError):  # a refused submission counts for nothing
        submit(first, assignment, answer(payload), played=None, payload=payload)
    submit(first, assignment, answer(payload), payload=payload)
    assignment, payload = serve(campaign, first)
    submit(first, assignment, answer(payload), payload=payload)
    assert services.assignment_next_for_annotator(first, campaign) is None
    services.annotator_complete(annotator=first)
    assert (first.outcome, first.completion_code) == ("completed", "PAID-OK")
    assert services.assignment_next_for_annotator(late, campaign) is None  # k = 1: both items are taken
    services.annotator_complete(annotator=late)
    assert (late.outcome, late.completion_code) == ("no_work", "NO-WORK")
    assert selectors.annotator_quota(Annotator.objects.get(pk=first.pk)) == (2, 2)


def test_a_stopped_campaign_or_an_expired_assignment_stores_nothing(make_listening_campaign, make_annotator):
    campaign = make_listening_campaign("ab", n=2, **CODES)
    annotator = make_annotator(campaign)
    assignment, payload = serve(campaign, annotator)
    services.campaign_set_status(campaign=campaign, status="paused")
    with pytest.raises(services.RatingError) as caught:
        submit(annotator, assignment, answer(payload), payload=payload)
    assert caught.value.status == 409
    services.campaign_set_status(campaign=campaign, status="open")
    with pytest.raises(services.RatingError) as caught:
        submit(annotator, assignment, answer(payload), payload=payload, later=campaign.expiry_minutes * 60 + 1)
    assert caught.value.status == 409 and "expired" in caught.value.message
    assert not Rating.objects.exists()
    services.campaign_set_status(campaign=campaign, status="closed")
    services.annotator_complete(annotator=annotator)
    assert annotator.completion_code == ""


def test_campaign_scales_are_checked_per_template(project):
    with pytest.raises(services.CampaignError, match="rates on mushra100"):
        services.campaign_create(project=project, name="m", slug="m", template="mushra",
                                 criteria=[{"key": "q", "label": "q", "scale": "acr5"}])
    with pytest.raises(services.CampaignError, match="belongs to the listening-test templates"):
        services.campaign_create(project=project, name="c", slug="c", template="custom",
                                 criteria=[{"key": "q", "label": "q", "scale": "mushra100"}])
    two = services.campaign_create(project=project, name="two", slug="two", template="mushra", criteria=[
        {"key": "overall", "label": "Overall", "scale": "mushra100"},
        {"key": "timbre", "label": "Timbre", "scale": "mushra100"}])
    assert [c["key"] for c in two.criteria] == ["overall", "timbre"]
    assert two.instructions.startswith("You will hear a reference")


def test_evidence_refusals_follow_the_screen_not_the_import_order(make_listening_campaign, make_annotator):
    """A client probing with partial reports learns nothing about roles: the first
    unheard stimulus named is the open reference, then whatever is shown first."""
    campaign = make_listening_campaign("mushra", n=1, policy_k=20)
    for _ in range(5):
        annotator = make_annotator(campaign)
        assignment, payload = serve(campaign, annotator)
        test = payload["test"]
        with pytest.raises(services.RatingError) as caught:
            submit(annotator, assignment, answer(payload), played={}, payload=payload)
        assert caught.value.field == f"played.{test['reference']['id']}"
        reference_heard = {test["reference"]["id"]: [[0.0, test["reference"]["duration_s"]]]}
        with pytest.raises(services.RatingError) as caught:
            submit(annotator, assignment, answer(payload), played=reference_heard, payload=payload)
        assert caught.value.field == f"played.{test['stimuli'][0]['id']}"
