"""Browser fixtures live in tests/browser.py (registered by tests/conftest.py)."""

import os

from tests.browser import CHROMIUM, FLAGS

# Set before any test runs: Playwright's loop and Django's async-safety check.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

__all__ = ["CHROMIUM", "FLAGS"]
