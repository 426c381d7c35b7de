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
from accounts.api_filters import Param, openapi_parameters, parse_filters
from irt import cat_selectors, selectors, services
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


CAT_EVAL_PARAMS = (
    Param("responder", "number", description="Responder id to evaluate (default: every model system "
          "that answered the bank's questions in the fit's mode, at most 100)."),
    Param("k", description="Budgets: comma-separated item counts, e.g. 10,20,40 (the default).", max_length=60),
    Param("criterion", "choice", choices=("fisher", "posterior", "kl"),
          description="Item selection rule (default fisher)."),
)

_CAT_ROW = inline_serializer("IrtCatEvalRow", fields={
    "k": serializers.IntegerField(), "n_used": serializers.IntegerField(),
    "theta_k": serializers.FloatField(), "sd_k": serializers.FloatField(),
    "theta_full": serializers.FloatField(), "sd_full": serializers.FloatField(),
    "abs_diff": serializers.FloatField(help_text="|theta_k - theta_full|"),
    "random_abs_diff": serializers.FloatField(help_text="mean |theta - theta_full| over 20 random draws of k items"),
    "question_ids": serializers.ListField(child=serializers.IntegerField(), help_text="the k items, in order"),
}, many=True)

_CAT_RESULT = inline_serializer("IrtCatEvalResponder", fields={
    "responder": serializers.IntegerField(), "responder_label": serializers.CharField(),
    "kind": serializers.CharField(), "condition": serializers.CharField(),
    "in_fit": serializers.BooleanField(help_text="its answers helped calibrate the bank (a little optimistic)"),
    "prior_mean": serializers.FloatField(), "prior_sd": serializers.FloatField(),
    "n_answered": serializers.IntegerField(), "rows": _CAT_ROW,
}, many=True)


class FitCatEvalApi(_ProjectApi):
    """Efficient evaluation: each responder's theta from k adaptively chosen bank items
    against its theta from every item it answered (tinyBenchmarks-style)."""

    @extend_schema(
        operation_id="irt_fit_cat_eval", tags=["irt"], parameters=openapi_parameters(CAT_EVAL_PARAMS),
        responses={
            200: inline_serializer("IrtCatEval", fields={
                "fit": serializers.IntegerField(), "mode": serializers.CharField(),
                "criterion": serializers.CharField(), "k": serializers.ListField(child=serializers.IntegerField()),
                "n_bank": serializers.IntegerField(), "results": _CAT_RESULT,
            }),
            409: OpenApiResponse(description="the fit has not succeeded (yet)"),
        },
        description="The fit's item parameters are the bank; a responder's stored answers (effective "
        "verdicts, stage 1, the fit's mode) are its full evaluation. The CAT asks only what the "
        "responder answered.",
    )
    def get(self, request: Request, slug: str, fit_id: int) -> Response:
        query = parse_filters(request.query_params, CAT_EVAL_PARAMS)
        fit = self._fit(request, fit_id)
        if fit.status != FitStatus.SUCCEEDED:
            return Response(
                {"detail": f"fit #{fit.pk} is {fit.status}; no bank", "status": fit.status},
                status=status.HTTP_409_CONFLICT,
            )
        ks = _parse_ks(query.get("k", ""))
        criterion = query.get("criterion", "fisher")
        try:
            responders = cat_selectors.cat_responders(fit, query.get("responder"))
            results = [cat_selectors.cat_evaluate(fit, r, ks=ks, criterion=criterion) for r in responders]
        except cat_selectors.BankError as exc:
            raise ValidationError({exc.field: [exc.message]}) from exc
        for r in results:
            for key in ("fit", "mode", "model", "criterion", "n_bank"):
                r.pop(key, None)
        return Response({"fit": fit.pk, "mode": fit.mode, "criterion": criterion, "k": list(ks),
                         "n_bank": fit.items.count(), "results": results})


def _parse_ks(raw: str) -> tuple[int, ...]:
    if not raw:
        return cat_selectors.DEFAULT_KS
    try:
        ks = tuple(sorted({int(part) for part in raw.split(",") if part.strip()}))
    except ValueError:
        raise ValidationError({"k": ["must be comma-separated whole numbers, e.g. 10,20,40"]}) from None
    if not ks or ks[0] < 1 or ks[-1] > 10_000 or len(ks) > 20:
        raise ValidationError({"k": ["must be 1 to 20 whole numbers from 1 to 10000"]})
    return ks
