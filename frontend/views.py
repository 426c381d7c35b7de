"""Landing page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import Project
from accounts.permissions import research_projects


def home(request: HttpRequest) -> HttpResponse:
    """Public quizzes to play, and the researcher's own projects."""
    return render(
        request,
        "frontend/home.html",
        {
            "public_projects": Project.objects.filter(is_public=True),
            "my_projects": research_projects(request.user),
        },
    )
