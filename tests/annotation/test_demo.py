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


def test_demo_listening_reports_rank_the_systems_in_degradation_order(client, django_user_model):
    """The simulated listeners' ratings (real services) give reports ranked by SDR order."""
    from annotation import selectors
    from annotation.degradations import DEMO_SYSTEMS
    from annotation.listening_selectors import listening_report_for
    from annotation.models import Annotator

    call_command("quiz_demo", "--players", "0")
    call_command("quiz_demo", "--players", "0")  # idempotent: no more simulated listeners
    order = list(DEMO_SYSTEMS)

    def ranked(labels):
        return [x for x in labels if x in order] == sorted([x for x in labels if x in order], key=order.index)

    reports = {}
    for slug in ("demo-ab", "demo-ccr", "demo-mushra"):
        campaign = Campaign.objects.get(project__slug="demo", slug=slug)
        assert campaign.status == "open"
        sims = Annotator.objects.filter(campaign=campaign, external_id__startswith="demo-sim-")
        assert sims.count() == 8 and Annotator.objects.filter(campaign=campaign).count() == 8
        summary = listening_report_for(campaign, selectors.report_for(campaign))
        reports[slug] = next(iter(summary.reports.values())).tables
    mushra = reports["demo-mushra"]["systems"].set_index("condition")["mean"]
    assert mushra["hidden_reference"] > 90 and mushra["lp3500"] < mushra["lp7000"] < mushra["noise-15db"]
    assert mushra["noise-30db"] > mushra["bits-6"] > mushra["noise-15db"]
    ccr = reports["demo-ccr"]["systems"].sort_values("mean", ascending=False)["system"].tolist()
    assert ccr == order
    ab = reports["demo-ab"]["preference_systems"]
    ab = ab[ab["system"].isin(order)].sort_values("win_share", ascending=False)["system"].tolist()
    assert ab == ["clean", "noise-15db", "clip-20"]
    # a real visitor is still served items
    from accounts.services import guest_create
    from annotation import services

    visitor = services.annotator_enrol(campaign=Campaign.objects.get(slug="demo-mushra"), user=guest_create(),
                                       consent=True)
    assert services.assignment_next_for_annotator(visitor) is not None


def test_demo_mushra_report_page_shows_the_simulated_listening_test(client):
    call_command("quiz_demo", "--players", "0")
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="researcher"))
    page = client.get(reverse("annotation:campaign_report", args=["demo", "demo-mushra"])).content.decode()
    assert 'id="listening-test"' in page and "<td>noise-30db</td>" in page and "<td>lp3500</td>" in page
