"""Fits heal after faults (F-11, M-9): a dead broker, a killed worker.

The broker test runs a private ``redis-server`` on a free port and kills it (any
database). The worker test runs ``celery -A config worker`` (prefork) in a subprocess
and SIGKILLs its pool process, then the whole worker; it needs PostgreSQL (the
subprocess must see the test database). Longer runs with the production intervals
are in tests/benchmarks/faults.py.
"""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from tests.celery_worker import celery_app_on, real_celery_worker
from tests.faults import PrivateRedis, WorkerProcess, wait_for
from tests.irt import django_helpers as helpers

_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data


@pytest.fixture
def private_redis():
    server = PrivateRedis().start()
    yield server
    server.close()


@pytest.mark.django_db(transaction=True)
def test_broker_down_fit_start_answers_at_once_and_runs_when_the_broker_is_back(irt_data, client, private_redis):
    from irt.models import Fit
    from irt.services import irt_fits_maintain

    client.force_login(irt_data.researcher)
    slug = irt_data.project.slug
    with celery_app_on(private_redis.url):
        private_redis.kill()
        assert client.get(reverse("irt:fit_list", args=[slug])).status_code == 200  # warm (URL conf, imports)

        t0 = time.perf_counter()
        page = client.post(reverse("irt:fit_start", args=[slug]), {"mode": "free", "method": "map"})
        page_s = time.perf_counter() - t0
        assert page.status_code == 302
        page = client.get(page["Location"])
        t0 = time.perf_counter()
        api = client.post(f"/api/v1/projects/{slug}/irt/fits/", {"mode": "free", "method": "map"},
                          content_type="application/json")
        api_s = time.perf_counter() - t0

        assert page_s < 1.5 and api_s < 1.5, (page_s, api_s)
        print(f"broker down: page POST answered in {page_s:.3f} s, API POST in {api_s:.3f} s")
        assert "Background workers unavailable" in page.content.decode()
        assert api.status_code == 503 and api["Retry-After"] == "60"
        body = api.json()
        assert body["detail"].startswith("Background workers unavailable")
        assert body["fit"]["status"] == "queued" and body["fit"]["dispatch_error"]
        fits = list(Fit.objects.order_by("id"))
        assert len(fits) == 2
        for fit in fits:
            assert fit.status == "queued" and fit.dispatched_at is None
            assert fit.dispatch_error.startswith("background workers unavailable")
            assert "waiting for background workers" in fit.progress_message

        # while the broker is still down, maintenance sends nothing and loses nothing
        assert irt_fits_maintain() == {"reaped": 0, "redispatched": 0}
        assert Fit.objects.filter(status="queued", dispatch_error__gt="").count() == 2

        private_redis.start()  # the same port: the broker is back
    with real_celery_worker(private_redis.url, "irt.tasks"):
        assert irt_fits_maintain() == {"reaped": 0, "redispatched": 2}
        for fit in fits:
            wait_for(lambda f=fit: Fit.objects.get(pk=f.pk).is_done, timeout=120, what=f"fit #{fit.pk}")
            fit.refresh_from_db()
            assert fit.status == "succeeded", fit.error
            assert fit.dispatch_error == "" and fit.dispatched_at is not None and fit.attempts == 1


@pytest.mark.django_db(transaction=True)
def test_queued_fit_nobody_takes_is_failed_after_the_give_up_time(irt_data, settings):
    import datetime as dt

    from django.utils import timezone

    from irt.models import Fit
    from irt.services import irt_fit_create, irt_fits_reap_stale

    settings.EARSHOT_IRT_QUEUE_GIVE_UP_S = 3600
    fit = irt_fit_create(project=irt_data.project, options={}, dispatch=False)
    fresh = irt_fit_create(project=irt_data.project, options={}, dispatch=False)
    Fit.objects.filter(pk=fit.pk).update(created_at=timezone.now() - dt.timedelta(hours=2))
    assert irt_fits_reap_stale() == 1
    fit.refresh_from_db()
    assert fit.status == "failed" and "no background worker started this fit" in fit.error
    assert Fit.objects.get(pk=fresh.pk).status == "queued"


@pytest.mark.django_db(transaction=True)
def test_reaper_requeues_a_lost_fit_until_attempts_run_out(irt_data, settings):
    import datetime as dt

    from django.utils import timezone

    from irt.models import Fit
    from irt.services import irt_fit_create, irt_fits_reap_stale

    settings.EARSHOT_IRT_STALE_AFTER_S = 60
    settings.EARSHOT_IRT_MAX_ATTEMPTS = 3
    old = timezone.now() - dt.timedelta(seconds=61)
    lost = irt_fit_create(project=irt_data.project, options={}, dispatch=False)
    spent = irt_fit_create(project=irt_data.project, options={}, dispatch=False)
    Fit.objects.filter(pk=lost.pk).update(status="running", heartbeat_at=old, attempts=1, claimed_by="h:1:t")
    Fit.objects.filter(pk=spent.pk).update(status="running", heartbeat_at=old, attempts=3, claimed_by="h:2:t")
    assert irt_fits_reap_stale(requeue=True) == 2
    lost.refresh_from_db()
    spent.refresh_from_db()
    assert lost.status == "queued" and lost.claimed_by == "" and lost.dispatched_at is None
    assert "re-queued" in lost.progress_message
    assert spent.status == "failed" and "3 times" in spent.error


def test_redelivered_message_reclaims_a_fit_whose_process_died(irt_data, settings):
    """Reject-on-worker-lost redelivers at once: the new pool process sees the fit
    "running" with a fresh heartbeat, but claimed by a dead PID of this host."""
    import socket
    import subprocess

    from irt.models import Fit
    from irt.services import irt_fit_create, irt_fit_run

    dead = subprocess.Popen(["true"])
    dead.wait()
    fit = irt_fit_create(project=irt_data.project, options={"method": "map"}, dispatch=False)
    Fit.objects.filter(pk=fit.pk).update(
        status="running", attempts=1, claimed_by=f"{socket.gethostname()}:{dead.pid}:task-1"
    )
    live = irt_fit_create(project=irt_data.project, options={"method": "map"}, dispatch=False)
    Fit.objects.filter(pk=live.pk).update(
        status="running", attempts=1, claimed_by=f"{socket.gethostname()}:1:task-2"  # PID 1 lives
    )
    done = irt_fit_run(fit.pk, task_id="task-1")
    assert done.status == "succeeded" and done.attempts == 2
    assert irt_fit_run(live.pk, task_id="task-2").status == "running"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_killed_worker_fit_is_redelivered_and_finishes(irt_data, private_redis):
    """SIGKILL the pool process mid-fit (redelivered, re-claimed by the next pool
    process), then the whole worker (re-queued by the new worker's reaper): the fit
    finishes once, with one set of results."""
    from django.db import connection

    from irt.models import Fit
    from irt.services import irt_fit_create

    if connection.vendor != "postgresql":
        pytest.skip("the subprocess worker needs PostgreSQL")
    # A stale limit well above the heartbeat: a loaded machine (torch imports, a busy CI
    # box) may delay a heartbeat by seconds, and that must not read as a lost worker.
    fast = {"EARSHOT_IRT_HEARTBEAT_S": "0.5", "EARSHOT_IRT_STALE_AFTER_S": "10",
            "EARSHOT_IRT_MAINTENANCE_INTERVAL_S": "1", "EARSHOT_IRT_MAX_ATTEMPTS": "5"}
    first = WorkerProcess(private_redis.url, env=fast).start()
    second = None
    try:
        with celery_app_on(private_redis.url):
            # VI (Pyro): a MAP fit now runs in numpy in well under a second, too fast to kill mid-fit
            fit = irt_fit_create(project=irt_data.project, options={"mode": "free", "method": "vi"})

        def fitting(attempt: int):
            f = Fit.objects.get(pk=fit.pk)
            assert not f.is_done, f"fit finished before the kill ({f.status}: {f.error}); {first.output()}"
            return f if (f.attempts == attempt and f.progress_message.startswith("fitting")) else None

        # the fit is "fitting" while its pool process imports torch (a few seconds)
        f = wait_for(lambda: fitting(1), timeout=60, what="the first attempt")
        pool_pid = int(f.claimed_by.split(":")[1])
        assert pool_pid in first.children()
        t_kill = time.perf_counter()
        import os
        import signal

        os.kill(pool_pid, signal.SIGKILL)
        f = wait_for(lambda: fitting(2), timeout=60, what="redelivery to a new pool process")
        redelivered_s = time.perf_counter() - t_kill
        assert int(f.claimed_by.split(":")[1]) != pool_pid

        first.kill_all()  # main process and pool: nothing acknowledges or rejects the message
        t_kill = time.perf_counter()
        second = WorkerProcess(private_redis.url, env=fast).start()
        f = wait_for(lambda: Fit.objects.get(pk=fit.pk).attempts == 3 or None, timeout=60,
                     what="the new worker's reaper to re-queue the fit")
        requeued_s = time.perf_counter() - t_kill
        wait_for(lambda: Fit.objects.get(pk=fit.pk).is_done, timeout=120, what="the fit to finish")
        fit.refresh_from_db()
        assert fit.status == "succeeded", (fit.error, second.output())
        assert fit.attempts == 3 and fit.abilities.count() == 4 and fit.items.count() == 3
        print(f"redelivered after pool kill in {redelivered_s:.1f} s; re-queued after worker kill "
              f"in {requeued_s:.1f} s (stale limit 10 s)")
    finally:
        first.close()
        if second is not None:
            second.close()


def test_a_run_whose_fit_was_taken_over_stores_nothing(irt_data, monkeypatch):
    """The reaper re-queued a fit whose worker looked dead and another worker claimed
    it; the first run, still alive after all, must not overwrite or fail it."""
    import irt.services
    from irt.models import Fit
    from irt.services import irt_fit_create, irt_fit_run

    real = irt.services.irt_fit
    fit = irt_fit_create(project=irt_data.project, options={"method": "map"}, dispatch=False)

    def taken_over(*args, **kwargs):
        result = real(*args, **kwargs)
        Fit.objects.filter(pk=fit.pk).update(claimed_by="other-host:1:task-2", progress_message="fitting elsewhere")
        return result

    monkeypatch.setattr(irt.services, "irt_fit", taken_over)
    after = irt_fit_run(fit.pk, task_id="task-1")
    assert after.status == "running" and after.claimed_by == "other-host:1:task-2"
    assert after.progress_message == "fitting elsewhere" and after.error == ""
    assert not after.abilities.exists() and after.result is None
