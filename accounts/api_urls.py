"""Projects and API tokens in the REST API (mounted under /api/v1/)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from .api import ProjectAccess
from .api_filters import Param, parse_filters
from .authentication import token_expired
from .models import Membership, Project
from .permissions import role_in


class ProjectSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role: owner, researcher or participant.")

    class Meta:
        model = Project
        fields = ["slug", "name", "description", "is_public", "role", "created_at"]

    def get_role(self, obj: Project) -> str | None:
        return role_in(self.context["request"].user, obj)


def my_projects(user) -> QuerySet[Project]:
    """Projects where the user has a role (every project for staff)."""
    if user.is_staff:
        return Project.objects.all()
    ids = Membership.objects.filter(user=user).values("project_id")
    return Project.objects.filter(pk__in=ids)


class ProjectListApi(generics.GenericAPIView):
    """The projects you are a member of (all projects for staff)."""

    serializer_class = ProjectSerializer
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="projects_list",
                   parameters=[OpenApiParameter("ordering", str, enum=["slug", "-slug", "name", "-name", "created_at", "-created_at"])],
                   responses=ProjectSerializer(many=True))
    def get(self, request: Request) -> Response:
        ordering = parse_filters(request.query_params, (Param("ordering", "ordering", choices=(
            "slug", "name", "created_at")),)).get("ordering", "slug")
        qs = my_projects(request.user).order_by(ordering)
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(ProjectSerializer(page, many=True, context={"request": request}).data)


class ProjectDetailApi(generics.GenericAPIView):
    """One project you may see (members; anyone signed in for a public project)."""

    serializer_class = ProjectSerializer
    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "play"

    @extend_schema(operation_id="projects_retrieve", responses=ProjectSerializer)
    def get(self, request: Request, slug: str) -> Response:
        return Response(ProjectSerializer(request.earshot_project, context={"request": request}).data)


class TokenApi(ObtainAuthToken):
    """Exchange a username and password for your API token (``Authorization: Token <key>``).

    Repeated failures for one username from one address lock it out like the log-in
    forms do (django-axes; HTTP 429 with ``Retry-After``).
    """

    throttle_classes = [AnonRateThrottle]  # DRF's view has none; anonymous by nature

    def get_serializer_context(self) -> dict:
        # django-axes records failures on (and its middleware answers for) Django's own
        # HttpRequest, not DRF's wrapper around it.
        return {**super().get_serializer_context(), "request": self.request._request}

    @extend_schema(
        operation_id="auth_token_create",
        request=ObtainAuthToken.serializer_class,
        responses={200: inline_serializer("AuthTokenResponse", {"token": serializers.CharField()})},
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token, _ = Token.objects.get_or_create(user=user)
        if token_expired(token):  # an expired token is replaced, not handed out again
            token.delete()
            token = Token.objects.create(user=user)
        return Response({"token": token.key})

    @extend_schema(operation_id="auth_token_destroy", request=None, responses={204: None})
    def delete(self, request, *args, **kwargs):
        """Revoke your token (any signed-in user); the next POST issues a new one."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        Token.objects.filter(user=request.user).delete()
        return Response(status=204)


urlpatterns = [
    path("projects/", ProjectListApi.as_view(), name="api-projects"),
    path("projects/<slug:slug>/", ProjectDetailApi.as_view(), name="api-project"),
    path("auth/token/", TokenApi.as_view(), name="api-token"),
]
