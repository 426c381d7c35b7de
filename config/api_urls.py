"""REST API v1: each app contributes its routes in ``<app>/api_urls.py``."""

from django.urls import include, path

from .api_docs import RedocView, SchemaView, SwaggerView, redoc_js

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", RedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("redoc/redoc.standalone.js", redoc_js, name="api-redoc-js"),
    path("", include("accounts.api_urls")),
    path("", include("quiz.api_urls")),
    path("", include("judging.api_urls")),
    path("", include("annotation.api_urls")),
    path("", include("irt.api_urls")),
]
