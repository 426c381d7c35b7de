"""A researcher starts a fit in a real browser and watches it finish (no reload).

The page's poll (irt/static/irt/fits.js) must turn the row's badge to "succeeded";
then the report opens with its tables and inline SVG plots. The estimator is the
stand-in of tests/irt/django_helpers.py (this tests the product, not the statistics).
"""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.irt import django_helpers as helpers

# shared fixtures (tests/irt/conftest.py belongs to the pure-core tests)
_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data
fast_fit = helpers.fast_fit



pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_researcher_starts_fit_and_reads_report(page, live_server, irt_data, fast_fit, settings):
    settings.EARSHOT_IRT_INLINE_THREAD = True  # no broker: a background thread of the server
    client = Client()
    client.force_login(irt_data.researcher)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])

    page.goto(f"{live_server.url}/p/{irt_data.project.slug}/irt/")
    page.select_option("select[name=method]", "map")
    page.click("button[type=submit]:has-text('Start fit')")
    row = page.locator("tr[data-fit]").first
    row.locator("[data-field=status]:has-text('succeeded')").wait_for(timeout=60_000)
    # The server renders "width: 100%" when the fit already finished; the poll writes "width: 100%;".
    assert row.locator("[data-field=bar]").get_attribute("style").rstrip(";").strip() == "width: 100%"

    row.locator("a").first.click()
    page.wait_for_selector("h2:has-text('Humans vs models')")
    assert page.locator("figure svg").count() >= 4
    assert page.locator("#table-ranking tbody tr").count() == 3  # two models + the human population
