"""A researcher opens the demo dashboard in a real browser and downloads a chart (SVG) and a CSV."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from django.core.management import call_command

from accounts.models import Project
from frontend import selectors
from frontend.dashboard import Filters

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _login(page, live_server):
    page.set_default_timeout(60_000)  # shared CI machines can be slow on the first request
    page.goto(f"{live_server.url}/accounts/login/?next=/p/demo/dashboard/")
    page.fill("input[name=username]", "researcher")
    page.fill("input[name=password]", "earshot-demo")
    page.keyboard.press("Enter")
    page.wait_for_url("**/p/demo/dashboard/")


def test_researcher_downloads_chart_and_csv(page, live_server, tmp_path):
    call_command("quiz_demo", players=4)
    _login(page, live_server)
    page.wait_for_selector("#headline")
    expected = selectors.dashboard_data(Project.objects.get(slug="demo"), Filters())
    free = next(m for m in expected.head.modes if m.mode == "free")
    assert page.inner_text("#human-acc-free").strip() == f"{100 * free.human_accuracy:.1f}%"
    assert page.inner_text("#count-responses").strip() == str(expected.head.counts["responses"])

    # The chart is drawn (an <img> of server-rendered SVG that loaded).
    chart = page.locator("#chart-category")
    chart.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#chart-category').naturalWidth > 0")

    with page.expect_download() as info:
        page.click("#download-chart-category-svg")
    svg_path = Path(tmp_path / "chart.svg")
    info.value.save_as(svg_path)
    assert info.value.suggested_filename == "demo-category.svg"
    svg = svg_path.read_text()
    assert "<svg" in svg and "Environmental and Acoustic Sound Recognition"[:40] in svg

    with page.expect_download() as info:
        page.click("#download-csv-category")
    csv_path = Path(tmp_path / "category.csv")
    info.value.save_as(csv_path)
    assert info.value.suggested_filename == "demo-category.csv"
    frame = pd.read_csv(io.BytesIO(csv_path.read_bytes()))
    want = expected.tables["category"]
    assert list(frame["group"]) == list(want["group"])
    assert list(frame["human_n"]) == list(want["human_n"])
    assert list(frame["model_correct"]) == list(want["model_correct"])

    # Filters apply through the form, by keyboard.
    page.select_option("#filter-mode", "mcq")
    page.locator("#apply-filters").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**mode=mcq**")
    assert "mode=mcq" in page.get_attribute("#download-csv-category", "href")
