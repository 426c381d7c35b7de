"""This app's page routes (mounted at the site root by config/urls.py)."""

from django.urls import path

from irt import views

app_name = "irt"

urlpatterns = [
    path("p/<slug:slug>/irt/", views.fit_list, name="fit_list"),
    path("p/<slug:slug>/irt/start/", views.fit_start, name="fit_start"),
    path("p/<slug:slug>/irt/status.json", views.fit_status_json, name="fit_status"),
    path("p/<slug:slug>/irt/humans-vs-models/", views.table2, name="table2"),
    path("p/<slug:slug>/irt/<int:fit_id>/", views.fit_detail, name="fit_detail"),
    path("p/<slug:slug>/irt/<int:fit_id>/tables/<slug:key>/", views.fit_table, name="fit_table"),
    path("p/<slug:slug>/irt/<int:fit_id>/plots/<slug:name>.<str:fmt>", views.fit_plot, name="fit_plot"),
]
