"""This app's REST API routes (mounted under /api/v1/ by config/api_urls.py)."""

from django.urls import path

from . import apis

_base = "projects/<slug:slug>/campaigns/"

urlpatterns = [
    path(_base, apis.CampaignListApi.as_view(), name="annotation_campaigns"),
    path(_base + "<slug:campaign>/", apis.CampaignDetailApi.as_view(), name="annotation_campaign"),
    path(_base + "<slug:campaign>/items/import/", apis.ItemImportApi.as_view(), name="annotation_items_import"),
    path(_base + "<slug:campaign>/ratings/", apis.RatingListApi.as_view(), name="annotation_ratings"),
    path(_base + "<slug:campaign>/ratings/submit/", apis.RatingSubmitApi.as_view(), name="annotation_rating_submit"),
    path(_base + "<slug:campaign>/report/", apis.CampaignReportApi.as_view(), name="annotation_report"),
    path(_base + "<slug:campaign>/next/", apis.AssignmentNextApi.as_view(), name="annotation_next"),
]
