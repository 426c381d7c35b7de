"""The LLM judge through a REAL Celery worker on Redis (command -> broker -> worker -> DB).

Skips with a reason when Redis is not reachable at ``EARSHOT_TEST_JUDGING_REDIS_URL``
(default redis://127.0.0.1:6379/11).
"""

from __future__ import annotations

import os
import time
from io import StringIO

import pytest
from django.core.management import call_command

from judging.models import LlmCall, VerdictRecord
from tests.celery_worker import real_celery_worker
from tests.judging.django_fixtures import *  # noqa: F403

REDIS_URL = os.environ.get("EARSHOT_TEST_JUDGING_REDIS_URL", "redis://127.0.0.1:6379/11")


@pytest.fixture
def worker_on_redis():
    with real_celery_worker(REDIS_URL, "judging.tasks") as app:
        yield app


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
