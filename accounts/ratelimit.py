"""Per-client limits for the browser endpoints that DRF's throttles do not cover (M-1):
guest creation (per address) and answer submission (per user).

A fixed window counted in the default cache (``EARSHOT_CACHE_URL`` shares it between
processes). Over the limit the view is not run and the client gets 429 with
``Retry-After``: JSON for JSON endpoints, a short page otherwise.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
           "d": 86400, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/min"`` -> ``(30, 60)``: requests allowed per window of seconds."""
    count, period = rate.split("/", 1)
    return int(count), PERIODS[period]


def client_address(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or with ``EARSHOT_TRUSTED_PROXIES`` = N the
    N-th address from the right of ``X-Forwarded-For`` (what the nearest proxy saw)."""
    proxies = getattr(settings, "EARSHOT_TRUSTED_PROXIES", 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [part.strip() for part in forwarded.split(",") if part.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def hit(scope: str, key: str, rate: str) -> int | None:
    """Count one request; ``None`` if allowed, else the seconds until the window ends."""
    allowed, window = parse_rate(rate)
    now = int(time.time())
    bucket = f"earshot:rate:{scope}:{key}:{now // window}"
    cache.add(bucket, 0, timeout=window + 1)
    try:
        count = cache.incr(bucket)
    except ValueError:  # evicted between add and incr
        cache.set(bucket, 1, timeout=window + 1)
        count = 1
    if count > allowed:
        return window - now % window
    return None


def limit(scope: str, rate_setting: str, *, per: str = "address",
          when: Callable[[HttpRequest], bool] = lambda request: request.method == "POST",
          json: bool = False):
    """Decorate a view: at most ``settings.<rate_setting>`` requests per client ``per``
    ("address" or "user") while ``when(request)`` holds."""

    def decorator(view):
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if when(request):
                key = (str(request.user.pk) if per == "user" and request.user.is_authenticated
                       else client_address(request))
                retry = hit(scope, key, getattr(settings, rate_setting))
                if retry is not None:
                    return _refuse(request, retry, json=json)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def _refuse(request: HttpRequest, retry: int, *, json: bool) -> HttpResponse:
    message = _("Too many requests from you in a short time; try again in %(s)d seconds.") % {"s": retry}
    if json:
        response: HttpResponse = JsonResponse({"error": {"field": "rate", "message": message}}, status=429)
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(retry)
    return response
