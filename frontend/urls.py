"""Landing page and the researcher workspace (``p/<slug>/...``)."""

from django.urls import path, re_path

from . import seed_views, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("p/<slug:slug>/", views.workspace, name="workspace"),
    path("p/<slug:slug>/token/", views.api_token, name="api_token"),
    path("p/<slug:slug>/dashboard/", views.dashboard_page, name="dashboard"),
    re_path(r"^p/(?P<slug>[-a-zA-Z0-9_]+)/dashboard/tables/(?P<name>[a-z_]+)\.(?P<fmt>csv|json|parquet)$",
            views.dashboard_table, name="dashboard_table"),
    re_path(r"^p/(?P<slug>[-a-zA-Z0-9_]+)/dashboard/charts/(?P<name>[a-z_]+)\.(?P<fmt>svg|png)$",
            views.dashboard_chart, name="dashboard_chart"),
    path("p/<slug:slug>/responses/", views.responses_page, name="responses"),
    path("p/<slug:slug>/questions/", views.questions_page, name="questions"),
    path("p/<slug:slug>/questions/<str:external_id>/", views.question_page, name="question"),
    re_path(r"^p/(?P<slug>[-a-zA-Z0-9_]+)/export/responses\.(?P<fmt>csv|jsonl|parquet)$",
            views.export_responses, name="export_responses"),
    path("p/<slug:slug>/seeds/", seed_views.seed_tables_page, name="seed_tables"),
    re_path(r"^p/(?P<slug>[-a-zA-Z0-9_]+)/seeds/tables/(?P<name>[a-z_]+)\.(?P<fmt>csv|json)$",
            seed_views.seed_table, name="seed_table"),
    re_path(r"^p/(?P<slug>[-a-zA-Z0-9_]+)/seeds/variant-answers\.(?P<fmt>csv|json)$",
            seed_views.seed_variant_answers, name="seed_variant_answers"),
    path("p/<slug:slug>/export/bundle.zip", views.export_bundle, name="export_bundle"),
]
