"""The demo seeds an open MOS campaign reachable from the home page (D9)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from annotation.models import Campaign

pytestmark = pytest.mark.django_db


def test_quiz_demo_seeds_an_open_annotation_campaign_linked_from_home(client):
    call_command("quiz_demo", "--players", "0")
    call_command("quiz_demo", "--players", "0")  # idempotent
    campaign = Campaign.objects.get(project__slug="demo", slug="demo-mos")
    assert campaign.status == "open" and campaign.template == "mos"
    kinds = sorted(set(campaign.items.values_list("kind", flat=True)))
    assert kinds == ["gold", "regular", "trap"]
    assert campaign.items.filter(kind="regular").count() == 9
    assert all(i.clip is not None and i.clip.duration_s > 1 for i in campaign.items.select_related("clip"))
    start = reverse("annotation:start", args=["demo", campaign.slug])
    assert f'href="{start}"' in client.get("/").content.decode()
    assert client.get(start).status_code == 200


def test_quiz_demo_seeds_the_listening_tests_open_and_linked_from_home(client):
    from annotation.demo_listening import READY

    call_command("quiz_demo", "--players", "0")
    home = client.get("/").content.decode()
    for slug in READY:
        campaign = Campaign.objects.get(project__slug="demo", slug=slug)
        assert campaign.status == "open" and campaign.items.filter(kind="regular").exists()
        assert f'href="{reverse("annotation:start", args=["demo", slug])}"' in home
    assert Campaign.objects.get(slug="demo-headphones").screening  # the headphone check campaign
