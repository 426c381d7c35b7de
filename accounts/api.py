"""Shared pieces for every app's REST API: project lookup and role permissions.

Every API view that touches project data resolves the project through
:func:`project_for_request`, so the API enforces exactly the checks the UI uses
(``accounts.permissions``).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from .models import Project
from .permissions import can_own, can_play, can_research

LEVELS = {"play": can_play, "research": can_research, "own": can_own}


def project_for_request(request: Request, slug: str, *, level: str = "research") -> Project:
    """The project named by ``slug`` if the user has ``level`` access to it.

    Projects the user cannot see at all answer 404 (their existence is not
    revealed); projects they can see but not at this level answer 403.
    """
    project = get_object_or_404(Project, slug=slug)
    if LEVELS[level](request.user, project):
        return project
    if can_play(request.user, project) and project.memberships.filter(user_id=getattr(request.user, "pk", None)).exists():
        raise PermissionDenied(f"your role in project '{slug}' does not allow this")
    raise NotFound("No such project")


class ProjectAccess(BasePermission):
    """DRF permission: the URL's ``slug`` project must grant the view's ``project_level``.

    Views set ``project_level = "play" | "research" | "own"`` (default research) and
    find the resolved project on ``request.earshot_project``.
    """

    def has_permission(self, request: Request, view) -> bool:
        slug = view.kwargs.get("slug")
        if slug is None:
            return True
        level = getattr(view, "project_level", "research")
        request.earshot_project = project_for_request(request, slug, level=level)
        return True
