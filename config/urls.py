"""Earshot's URL map: one include per app, plus health, favicon and error handlers."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from . import health


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """/favicon.ico -> the static SVG icon (resolved per request: the manifest exists
    only after collectstatic)."""
    return HttpResponsePermanentRedirect(static("frontend/favicon.svg"))


urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    # browsers ask for /favicon.ico on pages without a <link rel=icon> (JSON, the API pages)
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("config.api_urls")),
    path("", include("quiz.urls")),
    path("", include("judging.urls")),
    path("", include("annotation.urls")),
    path("", include("irt.urls")),
    path("", include("rooms.urls")),
    path("", include("frontend.urls")),
]

handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
