"""F-9: the report bundle (page and API) with campaigns that have no ratings, or few."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.annotation.conftest import heard

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(project):
    from accounts.models import Role
    from accounts.services import membership_set, user_create

    user = user_create(username="bundle-owner", password="pw-123456!")
    membership_set(project=project, user=user, role=Role.OWNER)
    return user


def _archive(response) -> zipfile.ZipFile:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return zipfile.ZipFile(io.BytesIO(body))


@pytest.mark.parametrize("ratings", [0, 1], ids=["no-ratings", "one-rating"])
def test_bundle_with_a_sparse_campaign(client, owner, project, make_campaign, make_annotator, ratings):
    from annotation import services

    campaign = make_campaign(n=4)
    services.campaign_create(project=project, name="No items yet", slug="empty")  # a draft with nothing
    for _ in range(ratings):
        annotator = make_annotator(campaign)
        assignment = services.assignment_next_for_annotator(annotator, campaign)
        services.rating_submit(annotator=annotator, assignment_id=assignment.public_id,
                               values={c["key"]: "3" for c in campaign.criteria}, client_token="t-1",
                               played=heard(assignment), now=timezone.now() + timedelta(seconds=5))
    client.force_login(owner)
    page = client.get(reverse("frontend:export_bundle", args=[project.slug]))
    assert page.status_code == 200
    names = _archive(page).namelist()
    assert any(n.endswith("manifest.json") for n in names)
    api = APIClient()
    api.force_authenticate(owner)
    response = api.get(f"/api/v1/projects/{project.slug}/export/bundle/")
    assert response.status_code == 200
    manifest = json.loads(_archive(response).read(f"{project.slug}-report/manifest.json"))
    assert manifest["files"]
    report = client.get(f"/api/v1/projects/{project.slug}/campaigns/{campaign.slug}/report/")
    assert report.status_code == 200
