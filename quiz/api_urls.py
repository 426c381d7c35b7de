"""The quiz's REST API routes (mounted under /api/v1/), plus the OpenAPI schema and its reference page."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from . import apis


def _sidecar(filepath: str) -> str:
    from django.templatetags.static import static

    return static(f"drf_spectacular_sidecar/{filepath}")


class LocalSwaggerView(SpectacularSwaggerView):
    """Swagger UI served from the ``drf-spectacular-sidecar`` package: no CDN, works offline."""

    @staticmethod
    def _swagger_ui_resource(filename: str) -> str:
        return _sidecar(f"swagger-ui-dist/{filename}")

    @staticmethod
    def _swagger_ui_favicon() -> str:
        return _sidecar("swagger-ui-dist/favicon-32x32.png")


class LocalRedocView(SpectacularRedocView):
    """ReDoc served from the sidecar package."""

    @staticmethod
    def _redoc_standalone() -> str:
        return _sidecar("redoc/bundles/redoc.standalone.js")


P = "projects/<slug:slug>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", LocalSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", LocalRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path(P + "questions/", apis.QuestionListCreateApi.as_view(), name="api-questions"),
    path(P + "questions/<str:external_id>/", apis.QuestionDetailApi.as_view(), name="api-question"),
    path(P + "clips/", apis.ClipListUploadApi.as_view(), name="api-clips"),
    path(P + "model-systems/", apis.ModelSystemListCreateApi.as_view(), name="api-model-systems"),
    path(P + "model-responses/", apis.ModelResponseListUploadApi.as_view(), name="api-model-responses"),
    path(P + "responses/", apis.ResponseListApi.as_view(), name="api-responses"),
    path(P + "dashboard/", apis.DashboardApi.as_view(), name="api-dashboard"),
    path(P + "export/responses/", apis.ResponsesExportApi.as_view(), name="api-export-responses"),
    path(P + "export/bundle/", apis.ReportBundleApi.as_view(), name="api-export-bundle"),
]
