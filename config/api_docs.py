"""The OpenAPI schema and its reference pages (Swagger UI, ReDoc), served locally.

* No CDN and no third-party fonts (D28): the JS/CSS come from
  ``drf-spectacular-sidecar``, and ReDoc gets Earshot's own page without
  drf-spectacular's Google Fonts links.
* No inline script: Swagger UI uses drf-spectacular's "split" view (its init script
  is a separate request), ReDoc a plain ``<redoc spec-url>`` element. ReDoc and
  Swagger UI style themselves from script, so these two pages allow inline styles
  and blob: workers in their Content-Security-Policy; every other page does not.
* Who may read them: ``EARSHOT_API_DOCS`` = ``public`` (default), ``authenticated``
  or ``off`` (docs/deployment.md).
"""

from __future__ import annotations

import functools
import hashlib

from csp.decorators import csp_update
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.decorators import method_decorator
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.permissions import AllowAny, IsAuthenticated

DOCS_CSP = {"style-src": ["'unsafe-inline'"], "style-src-elem": ["'unsafe-inline'"],
            "worker-src": ["'self'", "blob:"], "img-src": ["blob:"]}


def _sidecar(filepath: str) -> str:
    return static(f"drf_spectacular_sidecar/{filepath}")


class _Exposure:
    """Permission and visibility from ``EARSHOT_API_DOCS``."""

    def get_permissions(self):
        mode = settings.EARSHOT_API_DOCS
        if mode == "off":
            raise Http404("API documentation is turned off on this server")
        return [IsAuthenticated()] if mode == "authenticated" else [AllowAny()]


class SchemaView(_Exposure, SpectacularAPIView):
    """The OpenAPI 3 schema (YAML, or JSON with ``?format=json``)."""


@method_decorator(csp_update(DOCS_CSP), name="dispatch")
class SwaggerView(_Exposure, SpectacularSwaggerSplitView):
    """Swagger UI from the sidecar package; its init script is a second, same-origin request."""

    @staticmethod
    def _swagger_ui_resource(filename: str) -> str:
        return _sidecar(f"swagger-ui-dist/{filename}")

    @staticmethod
    def _swagger_ui_favicon() -> str:
        return static("frontend/favicon.svg")


@method_decorator(csp_update(DOCS_CSP), name="dispatch")
class RedocView(_Exposure, SpectacularRedocView):
    """ReDoc from the sidecar package, on a page without third-party fonts."""

    template_name = "api/redoc.html"

    @staticmethod
    def _redoc_standalone() -> str:
        return reverse("api-redoc-js")


#: ReDoc's sidebar footer always loads its logo from Redocly's CDN; Earshot's icon instead.
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@functools.lru_cache(maxsize=1)
def _redoc_bundle() -> tuple[bytes, str]:
    path = finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    body = text.replace(REDOC_LOGO, static("frontend/favicon.svg")).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:16]


def redoc_js(request: HttpRequest) -> HttpResponse:
    """The sidecar's ReDoc bundle with its one third-party URL (the logo) made local."""
    if settings.EARSHOT_API_DOCS == "off":
        raise Http404("API documentation is turned off on this server")
    body, digest = _redoc_bundle()
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    response["ETag"] = f'"{digest}"'
    return response
