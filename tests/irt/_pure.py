"""Helpers for the pure (Django-free) IRT tests.

``_test_settings`` overrides tests/conftest.py's autouse Django-settings fixture in
the modules that import it (and only there, so the Django tests in this folder keep
theirs): the pure tests need no settings or database and must also run with
``pytest -p no:django``.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _test_settings() -> None:
    return None
