"""The dashboard reads plainly: column labels (D17/D20), one definition of "humans" (D19),
chart boxes reserved before the lazy images load (D20)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from frontend.columns import column_label

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("key", "label"),
    [
        pytest.param("human_n", "Humans: answers", id="human-n"),
        pytest.param("free_n", "Free answer: answers", id="free-n"),
        pytest.param("mcq_accuracy", "Multiple choice: accuracy", id="mcq-acc"),
        pytest.param("free_theta", "θ free answer", id="theta"),
        pytest.param("mcq_theta_fit_id", "Multiple choice: θ fit #", id="fit-id"),
        pytest.param("chose_B", "Chose B", id="chose"),
        pytest.param("gap", "Gap, humans − models (points)", id="gap"),
    ],
)
def test_column_labels(key, label):
    assert column_label(key) == label


def test_dashboard_headers_are_readable(client, dash):
    client.force_login(dash.researcher)
    html = client.get(reverse("frontend:dashboard", args=[dash.project.slug])).content.decode()
    headers = re.findall(r'<th scope="col" title="([^"]*)">([^<]*)</th>', html)
    assert headers
    for key, text in headers:
        assert "_" not in text, (key, text)
    assert ("human_n", "Humans: answers") in headers


def test_workspace_and_dashboard_count_humans_the_same_way(client, dash):
    from accounts.services import guest_create
    from quiz.services import responder_for_user

    responder_for_user(project=dash.project, user=guest_create())  # opened the quiz, never answered
    client.force_login(dash.researcher)
    workspace = client.get(reverse("frontend:workspace", args=[dash.project.slug])).content.decode()
    dashboard = client.get(reverse("frontend:dashboard", args=[dash.project.slug])).content.decode()
    assert 'id="count-humans">3<' in workspace
    assert 'id="count-humans">3<' in dashboard
    assert 'id="counts-note"' in workspace and 'id="counts-note"' in dashboard


def test_chart_images_reserve_their_size(client, dash):
    """Each lazy chart <img> carries the SVG's size, so the page does not jump as charts load (D20)."""
    client.force_login(dash.researcher)
    html = client.get(reverse("frontend:dashboard", args=[dash.project.slug])).content.decode()
    images = re.findall(r'<img src="([^"]+)" alt="[^"]*" loading="lazy" id="chart-(\w+)" width="(\d+)" '
                        r'height="(\d+)">', html)
    assert len(images) == 9
    for src, _name, width, height in images:
        svg = client.get(src.replace("&amp;", "&")).content.decode()
        w_pt, h_pt = (float(v) for v in re.search(r'<svg[^>]* width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups())
        assert (int(width), int(height)) == (round(w_pt * 4 / 3), round(h_pt * 4 / 3))
