"""REST API for IRT fits (list/create, status, report JSON) and item banks (list/create, score).

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
from irt import bank_selectors, bank_services, cat_selectors, selectors, services
from irt.models import Fit, FitStatus, ItemBank


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


_CAT_EVAL_RESPONSES = {
    200: inline_serializer("IrtCatEval", fields={
        "source": serializers.CharField(help_text="fit or bank"), "id": serializers.IntegerField(),
        "mode": serializers.CharField(), "criterion": serializers.CharField(),
        "k": serializers.ListField(child=serializers.IntegerField()),
        "n_bank": serializers.IntegerField(), "results": _CAT_RESULT,
    }),
}
_CAT_EVAL_DESCRIPTION = (
    "A responder's stored answers (effective verdicts, stage 1, the bank's mode) are its full "
    "evaluation; the CAT asks only what the responder answered and reports theta after k items "
    "against theta from all of them, beside k random items."
)


def _cat_eval(request: Request, cb: cat_selectors.CatBank) -> Response:
    query = parse_filters(request.query_params, CAT_EVAL_PARAMS)
    ks = _parse_ks(query.get("k", ""))
    criterion = query.get("criterion", "fisher")
    try:
        responders = cat_selectors.cat_responders(cb, query.get("responder"))
        results = [cat_selectors.cat_evaluate(cb, r, ks=ks, criterion=criterion) for r in responders]
    except cat_selectors.BankError as exc:
        raise ValidationError({exc.field: [exc.message]}) from exc
    return Response({"source": cb.source, "id": cb.source_id, "mode": cb.mode, "criterion": criterion,
                     "k": list(ks), "n_bank": cb.bank.n_items, "results": results})


class FitCatEvalApi(_ProjectApi):
    """Efficient evaluation against a fit's items: each responder's theta from k
    adaptively chosen items against its theta from every item it answered."""

    @extend_schema(
        operation_id="irt_fit_cat_eval", tags=["irt"], parameters=openapi_parameters(CAT_EVAL_PARAMS),
        responses={**_CAT_EVAL_RESPONSES, 409: OpenApiResponse(description="the fit has not succeeded (yet)")},
        description="The fit's item parameters are the bank. " + _CAT_EVAL_DESCRIPTION,
    )
    def get(self, request: Request, slug: str, fit_id: int) -> Response:
        parse_filters(request.query_params, CAT_EVAL_PARAMS)
        fit = self._fit(request, fit_id)
        if fit.status != FitStatus.SUCCEEDED:
            return Response(
                {"detail": f"fit #{fit.pk} is {fit.status}; no bank", "status": fit.status},
                status=status.HTTP_409_CONFLICT,
            )
        return _cat_eval(request, cat_selectors.fit_bank(fit))


class BankCatEvalApi(_ProjectApi):
    """Efficient evaluation against a frozen item bank (tinyBenchmarks-style)."""

    @extend_schema(
        operation_id="irt_bank_cat_eval", tags=["irt"], parameters=openapi_parameters(CAT_EVAL_PARAMS),
        responses={**_CAT_EVAL_RESPONSES, 404: OpenApiResponse(description="no such bank in the project")},
        description="The bank's frozen item parameters and population priors. " + _CAT_EVAL_DESCRIPTION,
    )
    def get(self, request: Request, slug: str, bank_id: int) -> Response:
        parse_filters(request.query_params, CAT_EVAL_PARAMS)
        stored = bank_selectors.bank_get(request.earshot_project, bank_id)
        if stored is None:
            raise NotFound("No such bank")
        try:
            cb = cat_selectors.item_bank(stored)
        except cat_selectors.BankError as exc:
            raise ValidationError({exc.field: [exc.message]}) from exc
        return _cat_eval(request, cb)


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


# --------------------------------------------------------------------------- banks


class BankOutputSerializer(serializers.ModelSerializer):
    """A bank's provenance (the item parameters stay server-side)."""

    class Meta:
        model = ItemBank
        fields = [
            "id", "name", "fit", "mode", "model", "n_items", "anchor_loc_var", "anchor_scale_var",
            "populations", "created_at",
        ]
        read_only_fields = fields


class ScoreOutputSerializer(serializers.Serializer):
    """One responder placed on the bank's scale."""

    responder = serializers.IntegerField(required=False, help_text="responder id (stored responders only)")
    label = serializers.CharField(required=False)
    kind = serializers.CharField(required=False)
    condition = serializers.CharField(required=False)
    theta = serializers.FloatField(help_text="posterior mean (EAP) on the bank's scale")
    sd = serializers.FloatField(help_text="total posterior SD: answers + item uncertainty + anchor")
    sd_measurement = serializers.FloatField(help_text="SD from the answers alone (items known)")
    ci_low = serializers.FloatField()
    ci_high = serializers.FloatField()
    n_answered = serializers.IntegerField()
    n_correct = serializers.IntegerField()


class BankAnswerSerializer(serializers.Serializer):
    """One judged answer of a responder that is not stored."""

    question = serializers.IntegerField(help_text="question id (must be in the bank)")
    correct = serializers.BooleanField()


class BankListCreateApi(_ProjectApi):
    """List the project's item banks, or freeze a succeeded fit's items as a new one."""

    class InputSerializer(serializers.Serializer):
        fit = serializers.IntegerField(help_text="id of a succeeded fit of this project")
        name = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)

        class Meta:
            ref_name = "IrtBankCreateInput"

    @extend_schema(operation_id="irt_banks_list", responses=BankOutputSerializer(many=True), tags=["irt"])
    def get(self, request: Request, slug: str) -> Response:
        parse_filters(request.query_params, ())
        return Response(BankOutputSerializer(bank_selectors.bank_list(request.earshot_project)[:200], many=True).data)

    @extend_schema(operation_id="irt_banks_create", request=InputSerializer,
                   responses={201: BankOutputSerializer}, tags=["irt"])
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fit = self._fit(request, data.validated_data["fit"])
        try:
            bank = bank_services.irt_bank_create(fit=fit, name=data.validated_data["name"], by=request.user)
        except bank_services.BankError as exc:
            raise ValidationError({exc.field: [exc.message]}) from exc
        return Response(BankOutputSerializer(bank).data, status=status.HTTP_201_CREATED)


class BankScoreApi(_ProjectApi):
    """Score responders against a bank without refitting: stored responders by id, or
    answers given in the request (a new model's judged outputs)."""

    class InputSerializer(serializers.Serializer):
        responders = serializers.ListField(
            child=serializers.IntegerField(), required=False, max_length=10_000,
            help_text="stored responder ids; omit both fields to score every responder with answers",
        )
        answers = BankAnswerSerializer(many=True, required=False, max_length=100_000,
                                       help_text="answers to score as one responder")
        kind = serializers.ChoiceField(choices=["human", "model"], default="model",
                                       help_text="population prior for `answers`")

        class Meta:
            ref_name = "IrtBankScoreInput"

        def validate(self, attrs: dict) -> dict:
            if "responders" in attrs and "answers" in attrs:
                raise serializers.ValidationError({"answers": ["give responders or answers, not both"]})
            return attrs

    @extend_schema(
        operation_id="irt_bank_score", request=InputSerializer, tags=["irt"],
        responses={200: inline_serializer("IrtBankScores", fields={
            "bank": BankOutputSerializer(), "scores": ScoreOutputSerializer(many=True),
        })},
    )
    def post(self, request: Request, slug: str, bank_id: int) -> Response:
        bank = bank_selectors.bank_get(request.earshot_project, bank_id)
        if bank is None:
            raise NotFound("No such bank")
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            if "answers" in v:
                if not v["answers"]:
                    raise bank_services.BankError("answers", "no answers to score")
                sc = bank_selectors.bank_score_answers(
                    bank, [a["question"] for a in v["answers"]], [int(a["correct"]) for a in v["answers"]],
                    kind=v["kind"],
                )
                scores = [sc.to_dict()]
            else:
                scores = [s.to_dict() for s in bank_selectors.bank_score_responders(bank, v.get("responders"))]
        except bank_services.BankError as exc:
            raise ValidationError({exc.field: [exc.message]}) from exc
        return Response({"bank": BankOutputSerializer(bank).data, "scores": scores})
