"""Crowd operations on stored campaigns: the project's rater blocklist (model, enforcement
at enrolment, the researchers' page), the time-on-item signal and the approval/bonus CSV."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from accounts.services import membership_set
from annotation import services, services_crowd
from annotation.models import Annotator, Assignment, RaterBlock
from tests.annotation.conftest import heard

pytestmark = pytest.mark.django_db

PID = "?PROLIFIC_PID=5f1a2b3c4d&STUDY_ID=study42&SESSION_ID=sess1"


def url(campaign, name, *extra):
    return reverse(f"annotation:{name}", args=[campaign.project.slug, campaign.slug, *extra])


@pytest.fixture
def researcher(client, project, make_user):
    user = make_user()
    membership_set(project=project, user=user, role=Role.RESEARCHER)
    researcher = Client()
    researcher.force_login(user)
    return researcher


def test_a_blocked_prolific_participant_cannot_start_another_campaign_of_the_project(
        client, make_campaign, researcher, project):
    first, second = make_campaign(n=1, conditions=("x",), policy_n=1), make_campaign(n=1, conditions=("x",),
                                                                                     policy_n=1)
    client.post(url(first, "start") + PID, {"agree": "yes"})
    rater = Annotator.objects.get(campaign=first)
    page = researcher.post(reverse("annotation:rater_blocklist", args=[project.slug]),
                           {"action": "add", "rater_id": rater.public_id, "reason": "failed every trap"})
    assert page.status_code == 302
    block = RaterBlock.objects.get()
    assert (block.rater_id, block.external_id, block.platform, block.reason) == (
        rater.public_id, "5f1a2b3c4d", "prolific", "failed every trap")
    # another browser, the same participant id, another campaign of the project: refused politely
    fresh = Client()
    response = fresh.post(url(second, "start") + PID.replace("sess1", "sess2"), {"agree": "yes"})
    assert response.status_code == 403 and "cannot take part in this study" in response.content.decode()
    assert not Annotator.objects.filter(campaign=second).exists()
    # the same browser (same account) is refused too
    response = client.post(url(second, "start"), {"agree": "yes"})
    assert response.status_code == 403 and not Annotator.objects.filter(campaign=second).exists()
    # a different participant is not affected
    other = Client()
    assert other.post(url(second, "start") + "?PROLIFIC_PID=someone-else&SESSION_ID=s9",
                      {"agree": "yes"}).status_code == 302


def test_a_blocked_account_is_refused_by_the_api_too(make_campaign, make_user, project):
    from rest_framework.authtoken.models import Token

    first, second = make_campaign(n=1, conditions=("x",), policy_n=1), make_campaign(n=1, conditions=("x",),
                                                                                     policy_n=1)
    user = make_user()
    rater = services.annotator_enrol(campaign=first, user=user, consent=True)
    services_crowd.rater_block_add(project=project, rater_id=rater.public_id, reason="bot-like answers")
    api = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    response = api.post(f"/api/v1/projects/{project.slug}/campaigns/{second.slug}/next/", {"consent": True},
                        content_type="application/json")
    assert response.status_code == 403 and response.json()["error"]["field"] == "blocked"
    assert not Annotator.objects.filter(campaign=second).exists()


def test_blocklist_page_adds_and_lifts_blocks_with_reasons(client, make_campaign, researcher, project):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    client.post(url(campaign, "start"), {"agree": "yes"})
    rater = Annotator.objects.get()
    page_url = reverse("annotation:rater_blocklist", args=[project.slug])
    assert 'id="no-blocks"' in researcher.get(page_url).content.decode()
    # a reason is required, and the id must be a rater of this project
    researcher.post(page_url, {"action": "add", "rater_id": rater.public_id, "reason": " "})
    researcher.post(page_url, {"action": "add", "rater_id": "nobody", "reason": "x"})
    assert not RaterBlock.objects.exists()
    researcher.post(page_url, {"action": "add", "rater_id": rater.public_id, "reason": "too fast"})
    again = researcher.post(page_url, {"action": "add", "rater_id": rater.public_id, "reason": "twice"},
                            follow=True)
    assert "already blocked" in again.content.decode() and RaterBlock.objects.count() == 1
    html = researcher.get(page_url).content.decode()
    assert rater.public_id in html and "too fast" in html
    researcher.post(page_url, {"action": "remove", "block": RaterBlock.objects.get().pk})
    assert not RaterBlock.objects.exists()
    # lifted: the rater may join another campaign again
    second = make_campaign(n=1, conditions=("x",), policy_n=1)
    assert client.post(url(second, "start"), {"agree": "yes"}).status_code == 302


def test_blocklist_page_is_for_the_projects_researchers_only(client, make_campaign, make_user, project):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    client.post(url(campaign, "start"), {"agree": "yes"})  # an annotator of the project
    rater = Annotator.objects.get()
    page_url = reverse("annotation:rater_blocklist", args=[project.slug])
    assert client.get(page_url).status_code in (302, 403)
    assert client.post(page_url, {"action": "add", "rater_id": rater.public_id, "reason": "x"}).status_code in (
        302, 403)
    stranger = Client()
    stranger.force_login(make_user())
    assert stranger.get(page_url).status_code == 403
    assert not RaterBlock.objects.exists()


def _rate_all(client, campaign, seconds: float):
    """Rate every item the browser is given, each ``seconds`` after serving (honest evidence)."""
    for _ in range(30):
        page = client.get(url(campaign, "work"))
        if page.status_code != 200:
            return
        a = Assignment.objects.select_related("item__clip", "item").get(
            status="active", annotator__user_id=int(client.session["_auth_user_id"]))
        Assignment.objects.filter(pk=a.pk).update(served_at=a.served_at - timedelta(seconds=seconds))
        value = a.item.expected.get("mos", "4") if a.item.kind in ("gold", "trap") else "4"
        response = client.post(url(campaign, "rate"), json.dumps({
            "assignment": a.public_id, "values": {"mos": value}, "client_token": f"t-{a.public_id}",
            "played": heard(a)}), content_type="application/json")
        assert response.status_code == 200, response.content


def test_payments_csv_and_crowd_page_follow_outcomes_time_and_checks(make_campaign, researcher, project):
    campaign = make_campaign(
        n=4, conditions=("x",), policy_n=4, template="mos", require_full_listen=False, control_every=0,
        crowd={"bonus": "0.75", "min_seconds": 2.0, "max_fast_share": 0.2},
        screening=[{"step": "calibration"}], completion_code="PAID-OK", screened_out_code="SCREENED")
    people = {}
    for name, seconds in (("steady", 6.0), ("rushed", 0.5)):
        browser = Client()
        browser.post(url(campaign, "start") + f"?PROLIFIC_PID={name}&SESSION_ID=s-{name}", {"agree": "yes"})
        browser.post(url(campaign, "instructions"))
        annotator = Annotator.objects.get(campaign=campaign, external_id=name)
        config = services_crowd.screening_steps(campaign)[0]
        truth = [t.answer for t in services_crowd.screening_trials(annotator, config)]
        browser.post(url(campaign, "screening"), {f"trial-{i}": a for i, a in enumerate(truth)})
        _rate_all(browser, campaign, seconds)
        people[name] = browser
    failing = Client()
    failing.post(url(campaign, "start") + "?PROLIFIC_PID=deaf&SESSION_ID=s-deaf", {"agree": "yes"})
    failing.post(url(campaign, "instructions"))
    failing.post(url(campaign, "screening"), {"trial-0": "99", "trial-1": "99"})
    unfinished = Client()
    unfinished.post(url(campaign, "start") + "?PROLIFIC_PID=later&SESSION_ID=s-later", {"agree": "yes"})

    response = researcher.get(url(campaign, "campaign_payments"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = {r["participant_id"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}
    assert list(next(iter(rows.values()))) == ["participant_id", "decision", "bonus", "reason", "rater_id",
                                                 "outcome"]
    assert {k: (r["decision"], r["bonus"], r["outcome"]) for k, r in rows.items()} == {
        "steady": ("approve", "0.75", "completed"),
        "rushed": ("approve", "0.00", "completed"),
        "deaf": ("screen_out", "0.00", "screened_out"),
        "later": ("pending", "0.00", ""),
    }
    assert rows["rushed"]["reason"].startswith("completed; no bonus: too fast: 4 of 4 ratings")
    assert rows["deaf"]["reason"] == "volume check: 0 of 2 correct (failed; 1 needed)"
    # the crowd page shows the rule and its threshold, the flag and the screening outcome
    html = researcher.get(url(campaign, "campaign_crowd")).content.decode()
    assert "a rating is too fast below max(2 s, 1 × the item&#x27;s audio duration)" in html
    assert "1 rater flagged as too fast." in html
    assert "volume check: 0 of 2 correct" in html and 'id="payments-csv"' in html


def test_payments_are_for_researchers_only(client, make_campaign, make_user):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    stranger = Client()
    stranger.force_login(make_user())
    assert stranger.get(url(campaign, "campaign_payments")).status_code == 403
    assert stranger.get(url(campaign, "campaign_crowd")).status_code == 403
    assert client.get(url(campaign, "campaign_payments")).status_code == 302  # to the login page


def test_bad_crowd_settings_are_refused(project):
    with pytest.raises(services.CampaignError) as caught:
        services.campaign_create(project=project, name="x", slug="x", crowd={"bonus": "lots"})
    assert caught.value.field == "crowd" and "bonus" in caught.value.message
    with pytest.raises(services.CampaignError):
        services.campaign_create(project=project, name="y", slug="y", crowd={"max_fast_share": 3})


def test_the_report_links_to_the_participants_page(make_campaign, researcher):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    html = researcher.get(url(campaign, "campaign_report")).content.decode()
    assert f'href="{url(campaign, "campaign_crowd")}" id="participants-link"' in html
