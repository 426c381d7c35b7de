"""The annotator flow through pages: consent → instructions → work → done, blind and keyboard-ready."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from annotation.models import Annotator, Assignment, Rating
from tests.annotation.conftest import heard

pytestmark = pytest.mark.django_db


def url(campaign, name, *extra):
    return reverse(f"annotation:{name}", args=[campaign.project.slug, campaign.slug, *extra])


def age_assignments(seconds=30):
    """Pretend the current assignments were served a while ago (the clip has played)."""
    for a in Assignment.objects.filter(status="active"):
        Assignment.objects.filter(pk=a.pk).update(served_at=a.served_at - timedelta(seconds=seconds))


def rate_current(client, campaign, value, token, played="full"):
    a = Assignment.objects.select_related("item__clip").get(status="active")
    if played == "full":
        played = heard(a)
    return client.post(url(campaign, "rate"), data=json.dumps(
        {"assignment": a.public_id, "values": {"mos": value}, "client_token": token, "played": played}),
        content_type="application/json")


def enter(client, campaign, query=""):
    """Give consent on the entry page (which creates the annotator) and pass the instructions."""
    response = client.post(url(campaign, "start") + query, {"agree": "yes"})
    assert response.status_code == 302, response.content[:300]
    client.post(url(campaign, "instructions"))
    return response


def test_full_flow_to_completion_code(client, make_campaign):
    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, instructions="Rate carefully.",
                             consent_text="동의합니다", language="ko", completion_code="ABC123")
    response = client.get(url(campaign, "start"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "동의합니다" in page and 'lang="ko"' in page
    assert not Annotator.objects.exists()  # a GET creates nothing
    assert client.post(url(campaign, "start")).status_code == 400  # box not ticked
    assert not Annotator.objects.exists()
    assert client.post(url(campaign, "start"), {"agree": "yes"})["Location"] == url(campaign, "instructions")
    assert Annotator.objects.get().consent_at is not None
    assert "Rate carefully." in client.get(url(campaign, "instructions")).content.decode()
    assert client.post(url(campaign, "instructions"))["Location"] == url(campaign, "work")
    for i in range(2):
        page = client.get(url(campaign, "work")).content.decode()
        assert "disabled" in page and 'data-key="1"' in page and "Excellent" in page
        assert f"{i} of 2 done" in page
        age_assignments()
        reply = rate_current(client, campaign, "4", f"tok{i}")
        assert reply.status_code == 200 and reply.json()["created"]
    response = client.get(url(campaign, "work"))
    assert response["Location"] == url(campaign, "done")
    page = client.get(url(campaign, "done")).content.decode()
    assert "ABC123" in page
    assert Rating.objects.count() == 2


def test_item_metadata_never_reaches_the_page(client, make_campaign, wav, tmp_path):
    campaign = make_campaign(n=1, conditions=("SECRET-CONDITION",), policy_n=1)
    # (an item id that no random token on the page can contain by chance: "i0" did,
    # in a CSRF token, 1 run in a few dozen)
    campaign.items.update(system="SECRET-SYSTEM", task="SECRET-TASK", source="SECRET-SOURCE",
                          metadata={"note": "SECRET-META"}, batch="SECRET-BATCH",
                          external_id="SECRET-ITEM-ID")
    enter(client, campaign)
    page = client.get(url(campaign, "work")).content.decode()
    assert 'id="player"' in page and "<audio" not in page  # Earshot's player, not <audio controls>
    for secret in ("SECRET-SYSTEM", "SECRET-TASK", "SECRET-CONDITION", "SECRET-SOURCE", "SECRET-META",
                   "SECRET-BATCH", "SECRET-ITEM-ID", campaign.items.get().clip.original_name):
        assert secret not in page


def test_too_early_rating_is_rejected_by_the_server(client, make_campaign):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    enter(client, campaign)
    client.get(url(campaign, "work"))
    reply = rate_current(client, campaign, "4", "early")
    assert reply.status_code == 400 and reply.json()["error"]["field"] == "played"
    age_assignments()
    assert rate_current(client, campaign, "4", "late").status_code == 200


def test_audio_is_served_only_for_the_annotators_own_assignment(client, make_campaign, make_user):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    enter(client, campaign)
    client.get(url(campaign, "work"))
    a = Assignment.objects.get()
    assert client.get(url(campaign, "audio", a.public_id)).status_code == 200
    client.logout()
    client.force_login(make_user())
    assert client.get(url(campaign, "audio", a.public_id)).status_code == 404


def test_draft_campaign_is_not_reachable(client, make_campaign):
    campaign = make_campaign(n=1, status="draft")
    assert client.get(url(campaign, "start")).status_code == 404


@pytest.mark.parametrize("lang", [pytest.param("ko", id="korean"), pytest.param("th", id="thai"),
                                  pytest.param("vi", id="vietnamese")])
def test_campaign_scale_labels_in_the_annotators_language(client, make_campaign, lang):
    labels = {"ko": ["나쁨", "별로", "보통", "좋음", "훌륭함"], "th": ["แย่", "พอใช้", "ปานกลาง", "ดี", "ดีมาก"],
              "vi": ["Tệ", "Kém", "Trung bình", "Tốt", "Xuất sắc"]}[lang]
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1, language=lang, criteria=[
        {"key": "mos", "label": "품질", "scale": "acr5", "labels": labels}])
    enter(client, campaign)
    page = client.get(url(campaign, "work")).content.decode()
    assert all(label in page for label in labels)
    assert Annotator.objects.count() == 1


def test_api_next_and_submit_round_trip(client, make_campaign, make_user):
    campaign = make_campaign(n=2, template="quality_0_5", audio=False)
    client.force_login(make_user())
    base = f"/api/v1/projects/{campaign.project.slug}/campaigns/{campaign.slug}/"
    assert client.post(base + "next/", {}, content_type="application/json").status_code == 409  # consent first
    reply = client.post(base + "next/", {"consent": True}, content_type="application/json")
    assert reply.status_code == 200
    item = reply.json()
    assert set(item) >= {"assignment", "criteria", "response"} and "system" not in item and "task" not in item
    payload = {"assignment": item["assignment"], "values": {"quality": 4}, "client_token": "api-1"}
    first = client.post(base + "ratings/submit/", payload, content_type="application/json")
    again = client.post(base + "ratings/submit/", payload, content_type="application/json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["created"] is False and Rating.objects.count() == 1
    bad = client.post(base + "ratings/submit/", {**payload, "client_token": "api-2", "values": {"quality": 9}},
                      content_type="application/json")
    assert bad.status_code in (400, 409)
    nxt = client.post(base + "next/", {}, content_type="application/json").json()
    bad = client.post(base + "ratings/submit/", {"assignment": nxt["assignment"], "values": {"quality": 9},
                                                 "client_token": "api-3"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "values.quality"
