"""REST API for IRT fits: list/create, status, report JSON.

One ``APIView`` per operation with nested serializers (HackSoft style). Access goes
through :class:`accounts.api.ProjectAccess` at the research level, exactly the check
the pages use. Creating a fit only queues it; poll the status endpoint.
"""

from __future__ import annotations

import json

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api import ProjectAccess
from accounts.api_filters import parse_filters
from irt import selectors, services
from irt.models import Fit, FitStatus


class FitOutputSerializer(serializers.ModelSerializer):
    """A fit's options, provenance and live status (no result arrays)."""

    class Meta:
        model = Fit
        fields = [
            "id", "status", "progress", "progress_message", "mode", "model", "method", "options",
            "rule_versions", "data_hash", "n_responders", "n_items", "n_responses", "created_at",
            "started_at", "finished_at", "duration_s", "error", "warnings", "attempts",
            "dispatched_at", "dispatch_error",
        ]
        read_only_fields = fields


class _ProjectApi(APIView):
    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    def _fit(self, request: Request, fit_id: int) -> Fit:
        services.irt_fits_reap_stale(request.earshot_project)
        fit = selectors.fit_get(request.earshot_project, fit_id)
        if fit is None:
            raise NotFound("No such fit")
        return fit


class FitListCreateApi(_ProjectApi):
    """List the project's fits, or queue a new one."""

    class InputSerializer(serializers.Serializer):
        mode = serializers.CharField(default="free", help_text="free or mcq (validated by the fit service)")
        model = serializers.ChoiceField(choices=list(services.MODELS), default="2pl")
        method = serializers.ChoiceField(choices=list(services.METHODS), default="auto")
        source = serializers.CharField(required=False, allow_blank=True, default="")
        category = serializers.CharField(required=False, allow_blank=True, default="", help_text="category slug")
        seed = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2**31 - 1)

    @extend_schema(operation_id="irt_fits_list", responses=FitOutputSerializer(many=True), tags=["irt"])
    def get(self, request: Request, slug: str) -> Response:
        parse_filters(request.query_params, ())
        services.irt_fits_reap_stale(request.earshot_project)
        fits = selectors.fit_list(request.earshot_project)[:200]
        return Response(FitOutputSerializer(fits, many=True).data)

    @extend_schema(
        operation_id="irt_fits_create", request=InputSerializer,
        responses={
            202: FitOutputSerializer,
            503: OpenApiResponse(
                response=inline_serializer("IrtFitNotDispatched", fields={
                    "detail": serializers.CharField(),
                    "fit": FitOutputSerializer(),
                }),
                description="background workers unavailable (the task broker refused the fit): "
                "the fit is recorded and starts when the workers are back; do not re-submit",
            ),
        },
        tags=["irt"],
        description="Queue a fit over all stored responses of one mode (humans and models together). "
        "It runs in the background; poll the fit's status.",
    )
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            fit = services.irt_fit_create(project=request.earshot_project, options=data.validated_data, by=request.user)
        except services.FitOptionsError as exc:
            raise ValidationError({exc.field: [exc.message]}) from exc
        if fit.dispatch_error:
            return Response(
                {
                    "detail": f"Background workers unavailable: the task broker did not answer. "
                    f"Fit #{fit.pk} is recorded and starts when the workers are back; do not "
                    "submit it again.",
                    "fit": FitOutputSerializer(fit).data,
                },
                status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "60"},
            )
        return Response(FitOutputSerializer(fit).data, status=status.HTTP_202_ACCEPTED)


class FitStatusApi(_ProjectApi):
    """One fit's status and progress."""

    @extend_schema(operation_id="irt_fit_status", responses=FitOutputSerializer, tags=["irt"])
    def get(self, request: Request, slug: str, fit_id: int) -> Response:
        return Response(FitOutputSerializer(self._fit(request, fit_id)).data)


class FitReportApi(_ProjectApi):
    """Every report table of a succeeded fit, as lists of records."""

    @extend_schema(
        operation_id="irt_fit_report", tags=["irt"],
        responses={
            200: inline_serializer("IrtFitReport", fields={
                "fit": FitOutputSerializer(),
                "tables": serializers.DictField(
                    child=serializers.ListField(child=serializers.DictField()),
                    help_text="table key -> records: " + ", ".join(selectors.REPORT_TABLES),
                ),
            }),
            409: OpenApiResponse(description="the fit has not succeeded (yet)"),
        },
    )
    def get(self, request: Request, slug: str, fit_id: int) -> Response:
        fit = self._fit(request, fit_id)
        if fit.status != FitStatus.SUCCEEDED:
            return Response(
                {"detail": f"fit #{fit.pk} is {fit.status}; no report", "status": fit.status},
                status=status.HTTP_409_CONFLICT,
            )
        tables = selectors.fit_report(fit)
        return Response({
            "fit": FitOutputSerializer(fit).data,
            "tables": {k: json.loads(df.to_json(orient="records")) for k, df in tables.items()},
        })
