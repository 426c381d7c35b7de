"""Celery tasks for IRT: thin wrappers around :mod:`irt.services`."""

from __future__ import annotations

from celery import shared_task

from irt.services import irt_fit_run


@shared_task(name="irt.fit", acks_late=True)
def irt_fit_task(fit_id: int) -> str:
    """Run a queued fit (idempotent: a fit already claimed is left alone); returns its status."""
    return irt_fit_run(fit_id).status
