"""This app's REST API routes (mounted under /api/v1/ by config/api_urls.py)."""

from django.urls import path

from irt import apis

urlpatterns = [
    path("projects/<slug:slug>/irt/fits/", apis.FitListCreateApi.as_view(), name="irt_fits"),
    path("projects/<slug:slug>/irt/fits/<int:fit_id>/", apis.FitStatusApi.as_view(), name="irt_fit_status"),
    path("projects/<slug:slug>/irt/fits/<int:fit_id>/report/", apis.FitReportApi.as_view(), name="irt_fit_report"),
    path("projects/<slug:slug>/irt/fits/<int:fit_id>/cat-eval/", apis.FitCatEvalApi.as_view(),
         name="irt_fit_cat_eval"),
    path("projects/<slug:slug>/irt/banks/", apis.BankListCreateApi.as_view(), name="irt_banks"),
    path("projects/<slug:slug>/irt/banks/<int:bank_id>/score/", apis.BankScoreApi.as_view(), name="irt_bank_score"),
    path("projects/<slug:slug>/irt/banks/<int:bank_id>/cat-eval/", apis.BankCatEvalApi.as_view(),
         name="irt_bank_cat_eval"),
]
