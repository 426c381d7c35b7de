"""This app's REST API routes (mounted under /api/v1/ by config/api_urls.py)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("projects/<slug:slug>/judging/verdicts/", apis.EffectiveVerdictListApi.as_view(), name="judging-verdicts"),
    path("projects/<slug:slug>/judging/overrides/", apis.OverrideListCreateApi.as_view(), name="judging-overrides"),
    path("projects/<slug:slug>/judging/challenges/", apis.ChallengeListApi.as_view(), name="judging-challenges"),
    path("projects/<slug:slug>/judging/agreement/", apis.AgreementApi.as_view(), name="judging-agreement"),
    path("projects/<slug:slug>/judging/judges/", apis.JudgeListApi.as_view(), name="judging-judges"),
    path("projects/<slug:slug>/judging/rubrics/", apis.RubricListCreateApi.as_view(), name="judging-rubrics"),
    path("projects/<slug:slug>/judging/rubrics/<slug:name>/", apis.RubricVersionsApi.as_view(),
         name="judging-rubric-versions"),
]
