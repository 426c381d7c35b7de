"""The LLM judge through a REAL Celery worker on Redis (command -> broker -> worker -> DB).

Skips with a reason when Redis is not reachable at ``EARSHOT_TEST_JUDGING_REDIS_URL``
(default redis://127.0.0.1:6379/11).
"""

from __future__ import annotations

import os
import threading
import time
from io import StringIO

import pytest
from django.core.management import call_command

from judging.models import LlmCall, VerdictRecord
from tests.judging.django_fixtures import *  # noqa: F403

REDIS_URL = os.environ.get("EARSHOT_TEST_JUDGING_REDIS_URL", "redis://127.0.0.1:6379/11")


def _redis_reachable() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as exc:  # no server, refused, no module
        return f"Redis not reachable at {REDIS_URL} ({type(exc).__name__}: {exc})"
    return None


def _drop_cached_connections(app) -> None:
    """Forget broker/producer pools and result backend cached by earlier eager calls."""
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    app._backend_cache = None
    app._local = threading.local()


@pytest.fixture
def worker_on_redis():
    reason = _redis_reachable()
    if reason:
        pytest.skip(reason)
    from celery.contrib.testing.worker import start_worker

    import judging.tasks  # noqa: F401  (registers judging.llm_judge)
    from config.celery import app

    keys = ("broker_url", "result_backend", "task_always_eager", "task_eager_propagates")
    saved = {k: app.conf.get(k) for k in keys}
    app.conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False,
                    task_eager_propagates=False)
    _drop_cached_connections(app)
    try:
        app.control.purge()
        with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=30):
            yield app
    finally:
        app.conf.update(saved)
        _drop_cached_connections(app)


@pytest.mark.django_db(transaction=True)
def test_llm_judge_runs_on_a_real_worker(judged, fake_llm, worker_on_redis):
    out = StringIO()
    call_command("judging_llm", "--project", "t", "--budget", "5", stdout=out)
    assert "queued as task" in out.getvalue()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not VerdictRecord.objects.filter(judge__startswith="llm:").exists():
        time.sleep(0.2)
    record = VerdictRecord.objects.get(judge__startswith="llm:")
    assert record.response_id == judged.model_grey.pk and record.correct is True
    assert fake_llm.calls == 1 and LlmCall.objects.count() == 1
