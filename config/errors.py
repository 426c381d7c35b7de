"""Error answers: JSON under ``/api/`` (clients parse them), styled pages elsewhere.

Django calls these for errors raised outside DRF's own handling: an unknown URL
under ``/api/v1/``, a crash in an API view (DRF re-raises non-API exceptions), a
``PermissionDenied`` from a page view. Wired as ``handler403/404/500`` in
``config/urls.py``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403: JSON for the API; otherwise the styled page with the reason and a login link (D25)."""
    if _is_api(request):
        return JsonResponse({"detail": str(exception or "") or "You do not have permission to do this."},
                            status=403)
    return defaults.permission_denied(request, exception, template_name="403.html")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON for the API; otherwise the styled page."""
    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception, template_name="404.html")


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON for the API (no details: they are in the server log); otherwise the plain page."""
    if _is_api(request):
        return JsonResponse({"detail": "Server error. The error has been logged."}, status=500)
    return defaults.server_error(request, template_name="500.html")
