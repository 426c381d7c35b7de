"""This app's page routes (mounted at the site root by config/urls.py)."""

from django.urls import path

from . import views

app_name = "annotation"

_flow = "p/<slug:slug>/c/<slug:campaign>/"
_research = "p/<slug:slug>/campaigns/"

urlpatterns = [
    path(_flow, views.start, name="start"),
    path(_flow + "consent/", views.consent, name="consent"),
    path(_flow + "instructions/", views.instructions, name="instructions"),
    path(_flow + "training/", views.training, name="training"),
    path(_flow + "training/<str:item>/audio/", views.training_audio, name="training_audio"),
    path(_flow + "work/", views.work, name="work"),
    path(_flow + "rate/", views.rate, name="rate"),
    path(_flow + "audio/<str:assignment>/", views.audio, name="audio"),
    path(_flow + "audio/<str:assignment>/<str:stimulus>/", views.stimulus_audio, name="stimulus_audio"),
    path(_flow + "done/", views.done, name="done"),
    path(_research, views.campaign_list, name="campaign_list"),
    path(_research + "<slug:campaign>/", views.campaign_detail, name="campaign_detail"),
    path(_research + "<slug:campaign>/preview/", views.campaign_preview, name="campaign_preview"),
    path(_research + "<slug:campaign>/preview/<str:item>/audio/", views.campaign_preview_audio,
         name="campaign_preview_audio"),
    path(_research + "<slug:campaign>/preview/<str:item>/audio/<str:stimulus>/", views.campaign_preview_stimulus_audio,
         name="campaign_preview_stimulus_audio"),
    path(_research + "<slug:campaign>/report/", views.campaign_report, name="campaign_report"),
    path(_research + "<slug:campaign>/export/<str:table>.<str:fmt>", views.campaign_export,
         name="campaign_export"),
]
