"""Celery tasks for IRT: thin wrappers around :mod:`irt.services`, and the worker-side
maintenance loop.

``irt.fit`` is acknowledged late and rejected (re-queued) when its pool process dies,
so a killed worker's fit is redelivered; :func:`irt.services.irt_fit_run` re-claims it
once its first run is gone. Every worker also runs :func:`irt.services.irt_fits_maintain`
on start and every ``EARSHOT_IRT_MAINTENANCE_INTERVAL_S`` seconds in a thread of its
main process (no beat process needed; several workers doing it at once is harmless):
it re-queues fits whose worker was lost and re-dispatches fits the broker refused.
``irt.maintain`` is the same as a task, for a ``celery beat`` schedule if preferred.
"""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.db import close_old_connections, connection

from irt.services import irt_fit_run, irt_fits_maintain

logger = logging.getLogger(__name__)


@shared_task(
    name="irt.fit", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
    soft_time_limit=float(getattr(settings, "EARSHOT_IRT_MAX_FIT_S", 6 * 3600)),
)
def irt_fit_task(self, fit_id: int) -> str:
    """Run a queued fit (idempotent: a fit claimed by a live run is left alone); returns its status."""
    return irt_fit_run(fit_id, task_id=self.request.id).status


@shared_task(name="irt.maintain", ignore_result=True)
def irt_maintain_task() -> dict[str, int]:
    """Re-queue fits of lost workers and re-dispatch fits the broker refused."""
    return irt_fits_maintain()


_stop = threading.Event()


def _maintenance_loop(interval: float) -> None:
    """Run the maintenance now and then every ``interval`` s until the worker stops."""
    while True:
        try:
            close_old_connections()
            irt_fits_maintain()
        except Exception:  # database or broker down: try again next round
            logger.exception("IRT maintenance failed; retrying in %.0f s", interval)
        finally:
            connection.close()
        if _stop.wait(interval):
            return


@worker_ready.connect
def _start_maintenance(sender=None, **kwargs) -> None:
    interval = float(getattr(settings, "EARSHOT_IRT_MAINTENANCE_INTERVAL_S", 60))
    if interval <= 0:
        return
    _stop.clear()
    threading.Thread(
        target=_maintenance_loop, args=(interval,), name="irt-maintenance", daemon=True
    ).start()
    logger.info("IRT maintenance every %.0f s (reaper and re-dispatch)", interval)


@worker_shutdown.connect
def _stop_maintenance(sender=None, **kwargs) -> None:
    _stop.set()
