"""Structured JSON logs (``EARSHOT_LOG_FORMAT=json``) and the optional Sentry hook."""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

#: LogRecord attributes that are not "extra" fields.
_STANDARD = set(vars(logging.LogRecord("x", 0, "x", 0, "x", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time``, ``level``, ``logger``, ``message``, plus
    ``exception`` (the traceback text), ``status_code`` and ``path`` for Django's
    request logs, and any ``extra={...}`` fields that are JSON-serialisable."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "path"):
            out["path"] = request.path
            out["method"] = getattr(request, "method", None)
        for key, value in vars(record).items():
            if key in _STANDARD or key in out or key == "request":
                continue
            try:
                json.dumps(value)
            except (TypeError, ValueError):
                value = repr(value)
            out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def sentry_init(dsn: str, *, traces_sample_rate: float = 0.0) -> None:
    """Report errors to Sentry. Imported only when a DSN is configured; sentry-sdk is
    the optional ``sentry`` extra, so a missing package is a clear start-up error."""
    from django.core.exceptions import ImproperlyConfigured

    try:
        import sentry_sdk
        from sentry_sdk.integrations.celery import CeleryIntegration
        from sentry_sdk.integrations.django import DjangoIntegration
    except ImportError:
        raise ImproperlyConfigured(
            "EARSHOT_SENTRY_DSN is set but sentry-sdk is not installed: pip install 'earshot[sentry]'"
        ) from None
    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=traces_sample_rate,
        send_default_pii=False,  # handles only; never e-mails, IPs or cookies
    )
