"""This app's page routes (mounted at the site root by config/urls.py)."""

app_name = "judging"

urlpatterns: list = []
