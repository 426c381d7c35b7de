"""This app's page routes (mounted at the site root by config/urls.py)."""

app_name = "irt"

urlpatterns: list = []
