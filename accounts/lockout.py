"""The answer to a locked-out login (django-axes' ``AXES_LOCKOUT_CALLABLE``).

HTTP 429 everywhere: JSON with ``Retry-After`` for the API token endpoint, the
styled page for the log-in forms (site and admin).
"""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """429 with how long the lockout lasts; nothing about whether the username exists."""
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": f"Too many failed log-ins from this address for this username; "
                       f"try again in {math.ceil(seconds / 60)} minutes."}, status=429)
    else:
        response = render(request, "accounts/lockout.html",
                          {"cooloff_minutes": math.ceil(seconds / 60)}, status=429)
    response["Retry-After"] = str(seconds)
    return response
