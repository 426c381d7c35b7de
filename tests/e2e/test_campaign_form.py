"""The campaign creation form in a browser: template defaults and policy fields (D5);
checkboxes sit beside their labels (D26)."""

from __future__ import annotations

import pytest
from django.urls import resolve

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def researcher(db):
    from accounts.models import Role
    from accounts.services import membership_set, project_create, user_create

    project = project_create(slug="lab", name="Lab", is_public=True)
    user = user_create(username="res", password="pw-123456!")
    membership_set(project=project, user=user, role=Role.RESEARCHER)
    return project


def login(page, live_server):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "res")
    page.fill("input[name=password]", "pw-123456!")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()


def visible(page, name):
    return page.locator(f"[name={name}]").is_visible()


def test_template_fills_policy_defaults_and_shows_only_its_fields(page, live_server, researcher):
    resolve("/")
    login(page, live_server)
    page.goto(f"{live_server.url}/p/lab/campaigns/")
    assert page.input_value("[name=policy]") == "listener_sample"
    assert page.input_value("[name=policy_n]") == "10"
    assert visible(page, "policy_n") and not visible(page, "policy_k")
    page.select_option("[name=template]", "multi_criteria")
    assert page.input_value("[name=policy]") == "overlap"
    assert page.input_value("[name=policy_k]") == "3"
    assert visible(page, "policy_k") and not visible(page, "policy_n")
    assert "grammatical" in page.input_value("[name=criteria_json]")
    page.select_option("[name=template]", "qa_audit")
    assert page.input_value("[name=policy]") == "audit_sample"
    assert not page.is_checked("[name=require_full_listen]")
    page.select_option("[name=policy]", "partition")
    assert visible(page, "policy_annotators") and not visible(page, "policy_n")
    page.fill("[name=name]", "Audit")
    page.fill("[name=slug]", "audit")
    page.click("#campaign-form button[type=submit]")
    page.wait_for_load_state()
    from annotation.models import Campaign

    c = Campaign.objects.get(slug="audit")
    assert (c.template, c.policy, c.policy_n, c.require_full_listen) == ("qa_audit", "partition", None, False)


def test_checkboxes_sit_beside_their_labels(page, live_server, researcher):
    resolve("/")
    login(page, live_server)
    page.goto(f"{live_server.url}/p/lab/campaigns/")
    box = page.locator("[name=allow_repeat]").bounding_box()
    label = page.locator("label[for=id_allow_repeat]").bounding_box()
    assert box["width"] < 40
    assert abs((box["y"] + box["height"] / 2) - (label["y"] + label["height"] / 2)) < 20  # same line
