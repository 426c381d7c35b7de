"""``/healthz`` for load balancers and monitors: database, migrations, broker, workers.

Answers 200 with ``{"status": "ok", "checks": {...}}`` when every check passes and
503 with ``"status": "fail"`` otherwise; each check says ``ok`` and, when not, why.
Without ``CELERY_BROKER_URL`` jobs run inline, so broker and workers report
``"inline"`` and pass. Never cached; exempt from the HTTPS redirect (probes often
speak plain HTTP on the private side).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "error": f"database unreachable: {type(exc).__name__}"}
    return {"ok": True, "vendor": connection.vendor}


def _migrations() -> dict[str, Any]:
    from django.db.migrations.executor import MigrationExecutor

    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        return {"ok": False, "error": f"cannot read migrations: {type(exc).__name__}"}
    if plan:
        names = [f"{m.app_label}.{m.name}" for m, _ in plan[:5]]
        return {"ok": False, "error": f"{len(plan)} migrations not applied: run manage.py migrate",
                "pending": names}
    return {"ok": True}


def _broker_and_workers() -> tuple[dict[str, Any], dict[str, Any]]:
    if not settings.CELERY_BROKER_URL:
        inline = {"ok": True, "mode": "inline"}
        return inline, dict(inline)
    from config.celery import app

    timeout = settings.EARSHOT_HEALTH_WORKER_TIMEOUT_S
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)
    except Exception as exc:  # kombu raises transport-specific errors
        failed = {"ok": False, "error": f"broker unreachable: {type(exc).__name__}"}
        return failed, {"ok": False, "error": "not checked: broker unreachable"}
    try:
        replies = app.control.ping(timeout=timeout)
    except Exception as exc:
        return {"ok": True}, {"ok": False, "error": f"worker ping failed: {type(exc).__name__}"}
    if not replies:
        return {"ok": True}, {"ok": False, "error": f"no Celery worker answered within {timeout:g} s"}
    return {"ok": True}, {"ok": True, "count": len(replies)}


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Run every check and answer 200 (all pass) or 503."""
    started = time.monotonic()
    checks: dict[str, dict[str, Any]] = {"database": _database()}
    checks["migrations"] = _migrations() if checks["database"]["ok"] else {
        "ok": False, "error": "not checked: database unreachable"}
    checks["broker"], checks["workers"] = _broker_and_workers()
    healthy = all(c["ok"] for c in checks.values())
    body = {"status": "ok" if healthy else "fail", "checks": checks,
            "duration_ms": round(1000 * (time.monotonic() - started), 1)}
    return JsonResponse(body, status=200 if healthy else 503)
