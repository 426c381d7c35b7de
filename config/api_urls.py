"""REST API v1: each app contributes its routes in ``<app>/api_urls.py``."""

from django.urls import include, path

from .api_docs import RedocView, SchemaView, SwaggerView

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", RedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("", include("accounts.api_urls")),
    path("", include("quiz.api_urls")),
    path("", include("judging.api_urls")),
    path("", include("annotation.api_urls")),
    path("", include("irt.api_urls")),
]
