"""The campaign creation form (D5): template defaults, policy fields, no empty opening,
and the researcher's "preview as annotator" that stores nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from annotation.models import Annotator, Assignment, Campaign, Rating

pytestmark = pytest.mark.django_db


@pytest.fixture
def researcher_client(client, project, make_user):
    from accounts.models import Role
    from accounts.services import membership_set

    user = make_user()
    membership_set(project=project, user=user, role=Role.RESEARCHER)
    client.force_login(user)
    return client


def create(client, project, **fields):
    data = {"name": "C", "slug": "c", "template": "mos", "control_every": 4, "expiry_minutes": 30,
            "min_listen_fraction": 1, "require_full_listen": "on", **fields}
    data = {k: v for k, v in data.items() if v is not None}
    return client.post(reverse("annotation:campaign_list", args=[project.slug]), data)


@pytest.mark.parametrize(("template", "policy", "k", "n"), [
    pytest.param("mos", "listener_sample", None, 10, id="mos"),
    pytest.param("naturalness", "partition", None, None, id="naturalness"),
    pytest.param("multi_criteria", "overlap", 3, None, id="multi"),
    pytest.param("qa_audit", "audit_sample", None, 50, id="qa-audit"),
    pytest.param("quality_0_5", "overlap", 1, None, id="quality"),
])
def test_blank_policy_fields_take_the_templates_defaults(researcher_client, project, template, policy, k, n):
    response = create(researcher_client, project, template=template)
    assert response.status_code == 302, response.content.decode()[:2000]
    c = Campaign.objects.get()
    assert (c.policy, c.policy_k, c.policy_n) == (policy, k, n)


def test_blank_k_for_overlap_is_an_error_not_one(researcher_client, project):
    response = create(researcher_client, project, template="mos", policy="overlap")
    assert response.status_code == 400
    assert "This policy needs a value here." in response.content.decode()
    assert not Campaign.objects.exists()


def test_fields_of_another_policy_are_ignored(researcher_client, project):
    response = create(researcher_client, project, template="mos", policy="listener_sample", policy_n=5,
                      policy_k=7, policy_annotators=9)
    assert response.status_code == 302
    c = Campaign.objects.get()
    assert (c.policy, c.policy_n, c.policy_k, c.policy_annotators) == ("listener_sample", 5, None, None)


def test_form_page_carries_the_template_defaults_and_policy_fields(researcher_client, project):
    page = researcher_client.get(reverse("annotation:campaign_list", args=[project.slug])).content.decode()
    start = page.index('id="campaign-form-config">') + len('id="campaign-form-config">')
    config = json.loads(page[start:page.index("</script>", start)])
    assert config["templates"]["mos"]["policy"] == "listener_sample"
    assert config["templates"]["multi_criteria"]["policy_k"] == 3
    assert json.loads(config["templates"]["mos"]["criteria_json"])[0]["labels"][0] == "Bad"
    assert config["policy_fields"]["overlap"] == ["policy_k", "policy_quota"]
    assert 'data-policy-field="policy_k"' in page
    assert 'value="listener_sample" selected' in page  # the MOS default, not "Overlap k"
    assert "annotation/js/campaign_form.js" in page


def test_a_campaign_without_items_cannot_be_opened(researcher_client, project, make_campaign):
    create(researcher_client, project)
    c = Campaign.objects.get()
    detail = reverse("annotation:campaign_detail", args=[project.slug, c.slug])
    researcher_client.post(detail, {"action": "open"})
    c.refresh_from_db()
    assert c.status == "draft"
    api = researcher_client.patch(f"/api/v1/projects/{project.slug}/campaigns/{c.slug}/",
                                  {"status": "open"}, content_type="application/json")
    assert api.status_code == 400 and "without items" in api.json()["error"]["message"]


def test_preview_walks_the_flow_and_stores_nothing(researcher_client, project, make_campaign):
    extra = [{"id": "t1", "kind": "training", "audio": "t1.wav", "expected": {"mos": "5"}}]
    c = make_campaign(n=2, conditions=("x",), policy_n=2, status="draft", extra=extra,
                      consent_text="PREVIEW-CONSENT", instructions="PREVIEW-INSTRUCTIONS")
    base = reverse("annotation:campaign_preview", args=[project.slug, c.slug])
    consent = researcher_client.get(base).content.decode()
    assert "PREVIEW-CONSENT" in consent and 'id="preview-banner"' in consent and 'method="get"' in consent
    assert "PREVIEW-INSTRUCTIONS" in researcher_client.get(base + "?step=instructions").content.decode()
    assert 'class="earshot-player"' in researcher_client.get(base + "?step=training").content.decode()
    work = researcher_client.get(base + "?step=work").content.decode()
    assert 'data-preview="1"' in work and 'id="player"' in work
    audio = c.items.filter(kind="regular").first()
    clip = researcher_client.get(reverse("annotation:campaign_preview_audio", args=[project.slug, c.slug,
                                                                                   audio.public_id]))
    assert clip.status_code == 200
    assert not (Annotator.objects.exists() or Assignment.objects.exists() or Rating.objects.exists())


def test_preview_is_for_researchers_only(client, make_campaign, make_user):
    c = make_campaign(n=1)
    client.force_login(make_user())
    assert client.get(reverse("annotation:campaign_preview", args=[c.project.slug, c.slug])).status_code == 403
