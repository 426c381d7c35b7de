"""Earshot's URL map: one include per app."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("config.api_urls")),
    path("", include("quiz.urls")),
    path("", include("judging.urls")),
    path("", include("annotation.urls")),
    path("", include("irt.urls")),
    path("", include("frontend.urls")),
]
