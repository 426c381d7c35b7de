"""The quiz's REST API routes (mounted under /api/v1/); the schema and reference pages are in config/api_urls.py."""

from django.urls import path

from . import apis

P = "projects/<slug:slug>/"

urlpatterns = [
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
