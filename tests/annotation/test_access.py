"""A campaign link grants that campaign, nothing more (F-3); private links carry a
rotatable token (M-14); campaign annotators get nothing else of the project."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Membership
from annotation import services
from annotation.models import Annotator, Assignment
from tests.annotation.conftest import heard, write_items

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_campaign(private_project, bank_dir, tmp_path, wav):
    """A private project with a quiz bank (clips, answers) and an open MOS campaign."""
    from quiz import services as quiz_services

    quiz_services.bank_import(project=private_project, path=bank_dir / "bank.jsonl")
    campaign = services.campaign_create(project=private_project, name="Private MOS", slug="mos-b",
                                        template="mos", policy_n=2)
    folder = tmp_path / "items"
    folder.mkdir()
    rows = [{"id": f"i{i}", "audio": f"i{i}.wav", "condition": "x"} for i in range(3)]
    services.items_import(campaign=campaign, path=write_items(folder, rows, wav))
    services.campaign_set_status(campaign=campaign, status="open")
    return campaign


def start(campaign, query=""):
    return reverse("annotation:start", args=[campaign.project.slug, campaign.slug]) + query


def test_private_campaign_needs_the_link_token(client, private_campaign):
    assert client.get(start(private_campaign)).status_code == 404  # the slug alone reveals nothing
    assert client.get(start(private_campaign, "?t=wrong-token")).status_code == 404
    assert client.post(start(private_campaign), {"agree": "yes"}).status_code == 404
    good = f"?t={private_campaign.access_token}"
    assert client.get(start(private_campaign, good)).status_code == 200
    assert client.post(start(private_campaign, good), {"agree": "yes"}).status_code == 302
    assert Annotator.objects.count() == 1


def test_rotating_the_token_revokes_old_links_but_not_enrolled_annotators(client, private_campaign, make_user):
    from accounts.models import Role
    from accounts.services import membership_set

    old = f"?t={private_campaign.access_token}"
    client.post(start(private_campaign, old), {"agree": "yes"})
    researcher = make_user()
    membership_set(project=private_campaign.project, user=researcher, role=Role.RESEARCHER)
    staff = Client()
    staff.force_login(researcher)
    detail = reverse("annotation:campaign_detail", args=[private_campaign.project.slug, private_campaign.slug])
    assert old in staff.get(detail).content.decode().replace("&amp;", "&")
    staff.post(detail, {"action": "rotate"})
    private_campaign.refresh_from_db()
    assert f"?t={private_campaign.access_token}" != old
    assert Client().get(start(private_campaign, old)).status_code == 404
    assert Client().get(start(private_campaign, f"?t={private_campaign.access_token}")).status_code == 200
    assert client.get(start(private_campaign))["Location"].endswith("/instructions/")  # enrolled: resumes


def test_a_campaign_annotator_gets_nothing_else_of_the_project(client, private_campaign):
    """F-3: enrolling creates an Annotator row, never a project membership: no quiz, no
    clips, no API of the private project."""
    from quiz.models import Clip

    slug = private_campaign.project.slug
    client.post(start(private_campaign, f"?t={private_campaign.access_token}"), {"agree": "yes"})
    annotator = Annotator.objects.get()
    assert not Membership.objects.filter(user=annotator.user).exists()
    assert client.get(reverse("quiz:play_start", args=[slug])).status_code == 404
    assert client.post(reverse("quiz:play_start", args=[slug]), {"mode": "free"}).status_code == 404
    quiz_clip = Clip.objects.filter(project=private_campaign.project, annotation_items__isnull=True).first()
    assert client.get(reverse("quiz:clip_audio", args=[quiz_clip.public_id])).status_code in (403, 404)
    for path in (f"/api/v1/projects/{slug}/", f"/api/v1/projects/{slug}/questions/",
                 f"/api/v1/projects/{slug}/campaigns/", f"/api/v1/projects/{slug}/responses/"):
        assert client.get(path).status_code in (403, 404), path
    # ... but their own campaign works, pages and API alike
    client.post(reverse("annotation:instructions", args=[slug, private_campaign.slug]))
    assert client.get(reverse("annotation:work", args=[slug, private_campaign.slug])).status_code == 200
    a = Assignment.objects.select_related("item__clip").get()
    assert client.get(reverse("annotation:audio", args=[slug, private_campaign.slug, a.public_id])).status_code == 200
    a.refresh_from_db()  # fetched just now: pretend serving and fetching were a while ago
    Assignment.objects.filter(pk=a.pk).update(served_at=a.served_at - timedelta(seconds=30),
                                              audio_at=a.audio_at - timedelta(seconds=30))
    reply = client.post(f"/api/v1/projects/{slug}/campaigns/{private_campaign.slug}/ratings/submit/",
                        json.dumps({"assignment": a.public_id, "values": {"mos": 4}, "client_token": "api",
                                    "played": heard(a)}), content_type="application/json")
    assert reply.status_code == 201, reply.content


def test_one_campaign_does_not_open_another(client, private_campaign, tmp_path, wav):
    other = services.campaign_create(project=private_campaign.project, name="Other", slug="other",
                                     template="mos", policy_n=1)
    folder = tmp_path / "other"
    folder.mkdir()
    services.items_import(campaign=other, path=write_items(folder, [{"id": "o", "audio": "o.wav"}], wav))
    services.campaign_set_status(campaign=other, status="open")
    client.post(start(private_campaign, f"?t={private_campaign.access_token}"), {"agree": "yes"})
    assert client.get(start(other)).status_code == 404
    base = f"/api/v1/projects/{other.project.slug}/campaigns/{other.slug}/"
    assert client.post(base + "next/", {"consent": True}, content_type="application/json").status_code == 404


def test_public_projects_keep_the_plain_link(client, make_campaign):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    assert client.get(start(campaign)).status_code == 200
