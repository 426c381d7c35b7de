"""A fit through a REAL Celery worker on Redis: service -> broker -> worker -> stored fit.

Runs in the default suite (CI has Redis); skips with a reason when Redis is not
reachable at ``EARSHOT_TEST_REDIS_URL`` (default redis://127.0.0.1:6379/13).
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from tests.irt import django_helpers as helpers

# shared fixtures (tests/irt/conftest.py belongs to the pure-core tests)
_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data

REDIS_URL = os.environ.get("EARSHOT_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


def _redis_reachable() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as exc:  # no server, refused, no module
        return f"Redis not reachable at {REDIS_URL} ({type(exc).__name__}: {exc})"
    return None


def _drop_cached_connections(app) -> None:
    """Forget the broker pool, producer pool and result backend the app cached.

    An eager ``delay()`` earlier in the session (other tests) makes the app build its
    connection pool from the eager-time broker (the AMQP default); without this the
    worker test would publish there and its worker would never see the task."""
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    app._backend_cache = None
    app._local = threading.local()


@pytest.fixture
def celery_worker_on_redis():
    """The project's Celery app pointed at Redis (not eager), with an in-process worker."""
    reason = _redis_reachable()
    if reason:
        pytest.skip(reason)
    from celery.contrib.testing.worker import start_worker

    import irt.tasks  # noqa: F401  (registers irt.fit on the app)
    from config.celery import app

    keys = ("broker_url", "result_backend", "task_always_eager", "task_eager_propagates")
    saved = {k: app.conf.get(k) for k in keys}
    app.conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False,
                    task_eager_propagates=False)
    _drop_cached_connections(app)
    try:
        app.control.purge()  # leftovers of an interrupted run
        with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=30):
            yield app
    finally:
        app.conf.update(saved)
        _drop_cached_connections(app)


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
