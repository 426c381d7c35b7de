"""Real-browser fixtures: Debian's Chromium driven by Playwright (no browser download).

Registered once, in tests/conftest.py, so every folder's browser tests share one
session-wide Playwright instance (a second ``sync_playwright()`` inside a running one
fails with "Sync API inside the asyncio loop").
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("EARSHOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's 'chromium' package (see .ci/run)")
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by
    # the tests themselves (fixtures, assertions) are synchronous and safe here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    # bypass_csp: Playwright's wait_for_function evaluates its predicate string in the page,
    # which the Content-Security-Policy (no 'unsafe-eval') refuses. The policy itself is
    # tested in tests/frontend/test_xss_crawl.py, whose contexts do not bypass it.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, accept_downloads=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.set_default_navigation_timeout(45_000)
    yield page
    context.close()
