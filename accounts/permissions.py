"""Who may do what in a project. The UI and the API share these checks."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Membership, Project, Role

RESEARCH_ROLES = (Role.OWNER, Role.RESEARCHER)


def role_in(user, project: Project) -> str | None:
    """The user's role in the project, ``"owner"`` for staff, ``None`` if none."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_staff:
        return Role.OWNER
    return (
        Membership.objects.filter(project=project, user=user).values_list("role", flat=True).first()
    )


def can_research(user, project: Project) -> bool:
    """Owners, researchers and staff see and export the project's data."""
    return role_in(user, project) in RESEARCH_ROLES


def can_own(user, project: Project) -> bool:
    """Owners and staff manage members and delete things."""
    return role_in(user, project) == Role.OWNER


def can_play(user, project: Project) -> bool:
    """Anyone may play a public project; otherwise members only."""
    return project.is_public or role_in(user, project) is not None


def research_projects(user) -> QuerySet[Project]:
    """Projects whose data the user may see and export."""
    if user is None or not user.is_authenticated:
        return Project.objects.none()
    if user.is_staff:
        return Project.objects.all()
    return Project.objects.filter(
        memberships__user=user, memberships__role__in=RESEARCH_ROLES
    ).distinct()
