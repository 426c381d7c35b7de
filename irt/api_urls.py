"""This app's REST API routes (mounted under /api/v1/ by config/api_urls.py)."""

urlpatterns: list = []
