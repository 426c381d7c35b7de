"""A real Celery worker on Redis for tests that must cross the broker.

Used by the IRT and LLM-judge worker tests: the project's Celery app is pointed at
Redis (not eager) and an in-process solo worker consumes it. Tests skip with a reason
when Redis is not reachable.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest


def redis_unreachable(url: str) -> str | None:
    """Why Redis at ``url`` can't be used, or ``None`` when it answers a ping."""
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception as exc:  # no server, refused, no module
        return f"Redis not reachable at {url} ({type(exc).__name__}: {exc})"
    return None


def _drop_cached_connections(app: Any) -> None:
    """Forget the broker pool, producer pool and result backend the app cached.

    An eager ``delay()`` earlier in the session (other tests) makes the app build its
    connection pool from the eager-time broker (the AMQP default); without this the
    worker would listen on Redis while the test published elsewhere."""
    from kombu import pools

    # app._pool is kombu's global pool for the broker URL: forget them all, or a later
    # use of the same URL (a broker restarted on its port) gets the closed pool back
    pools.reset()
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    app._backend_cache = None
    app._local = threading.local()


@contextmanager
def celery_app_on(url: str) -> Iterator[Any]:
    """Yield the project's Celery app pointed at broker ``url`` (not eager), no worker;
    restores the app's configuration afterwards."""
    from config.celery import app

    keys = ("broker_url", "result_backend", "task_always_eager", "task_eager_propagates")
    saved = {k: app.conf.get(k) for k in keys}
    app.conf.update(
        broker_url=url, result_backend=url, task_always_eager=False, task_eager_propagates=False
    )
    _drop_cached_connections(app)
    try:
        yield app
    finally:
        app.conf.update(saved)
        _drop_cached_connections(app)


@contextmanager
def real_celery_worker(url: str, *task_modules: str) -> Iterator[Any]:
    """Yield the project's Celery app on Redis ``url`` with a solo worker running.

    ``task_modules`` are imported first so their tasks are registered. Skips the test
    when Redis is unreachable; restores the app's configuration afterwards.
    """
    reason = redis_unreachable(url)
    if reason:
        pytest.skip(reason)
    from celery.contrib.testing.worker import start_worker
    from django.test import override_settings

    for module in task_modules:
        importlib.import_module(module)
    with celery_app_on(url) as app:
        app.control.purge()  # leftovers of an interrupted run
        # no maintenance thread in the test process (tests call irt_fits_maintain themselves)
        with override_settings(EARSHOT_IRT_MAINTENANCE_INTERVAL_S=0), start_worker(
            app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=30
        ):
            yield app
