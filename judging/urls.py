"""This app's page routes (mounted at the site root by config/urls.py)."""

from django.urls import path

from . import views

app_name = "judging"

urlpatterns = [
    path("p/<slug:slug>/adjudicate/", views.adjudicate, name="adjudicate"),
    path("p/<slug:slug>/adjudicate/<int:response_id>/", views.response_adjudicate, name="response_adjudicate"),
    path("p/<slug:slug>/play/challenge/", views.challenge_submit, name="challenge_submit"),
    path("p/<slug:slug>/judging/agreement/", views.agreement, name="agreement"),
    path("p/<slug:slug>/judging/rubrics/", views.rubrics, name="rubrics"),
]
