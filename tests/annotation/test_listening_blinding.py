"""Blinding of listening tests: before rating, no page and no API reply names a
stimulus' role (hidden reference, anchor), its system or condition, its file name or
its stored clip; stimuli are opaque ids in an order randomised per annotator and
stored; identical audio gets different ETags under different stimuli."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from annotation import selectors, services
from annotation.models import Assignment, Stimulus
from quiz.models import Clip

pytestmark = pytest.mark.django_db
TEMPLATES = ["mushra", "ab", "abx", "ccr", "dcr", "smos", "ranking"]


def secrets_of(campaign) -> set[str]:
    """What must not reach the annotator: roles of hidden stimuli, systems, conditions,
    file names (whole and their stems), stored clip ids and hashes."""
    out = {"hidden_reference", "anchor", "sys-alpha", "sys-beta", "sys-gamma", "lp3.5k", "lp7k", "cond-clean",
           ".wav", "_reference_", "_system_", "_anchor_"}
    for clip in Clip.objects.filter(stimuli__item__campaign=campaign).distinct():
        out |= {clip.public_id, clip.sha256, clip.original_name, clip.file.name}
    return out


def leaked(text: str, campaign) -> list[str]:
    return sorted(s for s in secrets_of(campaign) if s and s in text)


def _flow(client: Client, campaign) -> str:
    base = [campaign.project.slug, campaign.slug]
    client.post(reverse("annotation:start", args=base), {"agree": "yes"})
    client.post(reverse("annotation:instructions", args=base))
    page = client.get(reverse("annotation:work", args=base))
    assert page.status_code == 200
    return page.content.decode()


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_rating_page_names_no_role_system_or_file(client, make_listening_campaign, template):
    campaign = make_listening_campaign(template)
    html = _flow(client, campaign)
    assert leaked(html, campaign) == []
    assert "listening_test.js" in html
    assignment = Assignment.objects.get()
    ids = list(Stimulus.objects.filter(item=assignment.item).values_list("public_id", "role"))
    for public_id, _role in ids:
        assert public_id in html  # addressed by opaque id only
    if template == "ccr":  # the reference is one of two blind samples: never named
        assert ">Reference<" not in html
    if template == "mushra":  # the hidden reference looks exactly like a system on the page
        hidden = next(p for p, r in ids if r == "hidden_reference")
        system = next(p for p, r in ids if r == "system")
        assert html.count(hidden) == html.count(system)


@pytest.mark.parametrize("template", TEMPLATES)
def test_api_replies_name_no_role_system_or_file(client, make_listening_campaign, make_user, template):
    campaign = make_listening_campaign(template)
    token = Token.objects.create(user=make_user()).key
    url = f"/api/v1/projects/{campaign.project.slug}/campaigns/{campaign.slug}/next/"
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    first = client.post(url, data=json.dumps({"consent": True}), content_type="application/json", **auth)
    again = client.post(url, data=json.dumps({}), content_type="application/json", **auth)  # the fast path on PG
    assert first.status_code == again.status_code == 200
    for reply in (first, again):
        assert leaked(reply.content.decode(), campaign) == []
    body = again.json()
    assert body == first.json()  # the same item, the same stored order
    ids = {s["id"] for s in body["test"]["stimuli"]} | {s["id"] for s in (body["test"]["reference"],
                                                                        body["test"]["x"]) if s}
    assert ids == set(Stimulus.objects.filter(item__campaign=campaign, item__assignments__isnull=False)
                      .values_list("public_id", flat=True))
    assert set(body["test"]["stimuli"][0]) == {"id", "label", "audio_url", "duration_s"}


@pytest.mark.parametrize("template", ["mushra", "abx"])
def test_audio_of_each_stimulus_is_opaque_and_same_bytes_get_different_etags(client, make_listening_campaign,
                                                                                template):
    campaign = make_listening_campaign(template)
    _flow(client, campaign)
    assignment = Assignment.objects.select_related("campaign__project").get()
    assignment.campaign = campaign
    test = selectors.item_payload(assignment)["test"]
    tags: dict[str, str] = {}
    for s in filter(None, [test["reference"], test["x"], *test["stimuli"]]):
        response = client.get(s["audio_url"])
        assert response.status_code == 200
        headers = " ".join(f"{k}: {v}" for k, v in response.items())
        assert leaked(headers + s["audio_url"], campaign) == []
        assert response["Content-Disposition"] == "inline"
        tags[s["id"]] = response["ETag"]
        b"".join(response.streaming_content)
    assert len(set(tags.values())) == len(tags)  # the hidden reference / X cannot be found by its tag
    assignment.refresh_from_db()
    assert assignment.audio_at is not None  # the listening timeline starts at the first fetch


def test_audio_of_someone_elses_assignment_or_item_is_not_served(client, make_listening_campaign):
    campaign = make_listening_campaign("mushra", n=2)
    _flow(client, campaign)
    mine = Assignment.objects.get()
    other_item = Stimulus.objects.exclude(item=mine.item).first()
    base = [campaign.project.slug, campaign.slug]
    assert client.get(reverse("annotation:stimulus_audio", args=[*base, mine.public_id, other_item.public_id])
                      ).status_code == 404
    stranger = Client()
    _flow(stranger, campaign)
    own = Stimulus.objects.filter(item=mine.item).first()
    assert stranger.get(reverse("annotation:stimulus_audio", args=[*base, mine.public_id, own.public_id])
                        ).status_code == 404


def test_order_is_randomised_per_annotator_stored_and_stable(make_listening_campaign, make_annotator):
    campaign = make_listening_campaign("mushra", n=1, policy_k=20)
    places = set()
    for _ in range(8):
        annotator = make_annotator(campaign)
        assignment = services.assignment_next_for_annotator(annotator, campaign)
        assignment.campaign = campaign
        shown = [s["id"] for s in selectors.item_payload(assignment)["test"]["stimuli"]]
        stored = Assignment.objects.get(pk=assignment.pk).stimulus_order
        by_pk = dict(Stimulus.objects.values_list("pk", "public_id"))
        assert [by_pk[pk] for pk in stored] == shown  # the page shows the stored order
        again = services.assignment_next_for_annotator(annotator, campaign)  # a reload
        again.campaign = campaign
        assert [s["id"] for s in selectors.item_payload(again)["test"]["stimuli"]] == shown
        hidden = Stimulus.objects.get(role="hidden_reference").public_id
        places.add(shown.index(hidden))
    assert len(places) > 1, "the hidden reference must not sit in one place for everyone"


def test_preview_shows_the_researcher_the_page_without_storing(client, make_listening_campaign, make_user):
    from accounts.models import Membership

    campaign = make_listening_campaign("mushra")
    researcher = make_user()
    Membership.objects.create(project=campaign.project, user=researcher, role="researcher")
    client.force_login(researcher)
    page = client.get(reverse("annotation:campaign_preview", args=[campaign.project.slug, campaign.slug])
                      + "?step=work")
    html = page.content.decode()
    assert page.status_code == 200 and "slider-row" in html
    stimulus = Stimulus.objects.first()
    audio = reverse("annotation:campaign_preview_stimulus_audio",
                    args=[campaign.project.slug, campaign.slug, stimulus.item.public_id, stimulus.public_id])
    assert audio in html
    assert client.get(audio).status_code == 200
    assert not Assignment.objects.exists()


def test_mushra_sample_buttons_show_each_key_once(client, make_listening_campaign):
    """The sample buttons read "1", "2", … (their keys), not "1 1", "2 2" (the blind label again)."""
    import re

    html = _flow(client, make_listening_campaign("mushra"))
    buttons = re.findall(r'<button type="button" class="button stimulus"[^>]*data-key="(\d+)"[^>]*>(.*?)</button>',
                         html, re.S)
    assert buttons
    for key, inner in buttons:
        visible = re.sub(r'<span class="visually-hidden">.*?</span>|<[^>]+>', " ", inner).split()
        assert visible == [key], visible
        assert f'<span class="visually-hidden">Sample {key}</span>' in inner  # what a screen reader says
