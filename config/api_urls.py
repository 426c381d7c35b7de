"""REST API v1: each app contributes its routes in ``<app>/api_urls.py``."""

from django.urls import include, path

urlpatterns = [
    path("", include("accounts.api_urls")),
    path("", include("quiz.api_urls")),
    path("", include("judging.api_urls")),
    path("", include("annotation.api_urls")),
    path("", include("irt.api_urls")),
]
