"""A fit through a REAL Celery worker on Redis: service -> broker -> worker -> stored fit.

Runs in the default suite (CI has Redis); skips with a reason when Redis is not
reachable at ``EARSHOT_TEST_REDIS_URL`` (default redis://127.0.0.1:6379/13).
"""

from __future__ import annotations

import os
import time

import pytest

from tests.celery_worker import real_celery_worker
from tests.irt import django_helpers as helpers

# shared fixtures (tests/irt/conftest.py belongs to the pure-core tests)
_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data

REDIS_URL = os.environ.get("EARSHOT_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def celery_worker_on_redis():
    """The project's Celery app pointed at Redis (not eager), with an in-process worker."""
    with real_celery_worker(REDIS_URL, "irt.tasks") as app:
        yield app


@pytest.mark.django_db(transaction=True)
def test_fit_runs_on_a_real_worker(irt_data, celery_worker_on_redis, settings):
    from irt.services import broker_configured, irt_fit_create

    settings.CELERY_BROKER_URL = REDIS_URL
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert broker_configured()
    fit = irt_fit_create(project=irt_data.project, options={"mode": "free", "method": "map"}, by=irt_data.researcher)
    deadline = time.monotonic() + 300
    seen = set()
    while time.monotonic() < deadline:
        fit.refresh_from_db()
        seen.add(fit.status)
        if fit.is_done:
            break
        time.sleep(0.2)
    assert fit.status == "succeeded", fit.error or f"still {fit.status} after 300 s"
    assert fit.progress == 1.0 and fit.n_responses == 11
    assert fit.abilities.count() == 4 and fit.items.count() == 3
    assert seen - {"succeeded"} <= {"queued", "running"}
