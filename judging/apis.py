"""REST API for judging: effective verdicts, human judgements (overrides), challenges, agreement.

All routes are per project (``projects/<slug>/judging/...``) and need a research
role (``accounts.api.ProjectAccess``): non-members get 404, participants 403.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response as ApiResponse
from rest_framework.views import APIView

from accounts.api import ProjectAccess
from accounts.api_filters import Param, parse_filters
from quiz.models import Response

from . import selectors, services
from .agreement import agreement_report
from .models import ChallengeStatus


class _Paginated(PageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000


class EffectiveVerdictListApi(APIView):
    """Effective verdict of every response of the project (human > LLM > rules)."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    class EffectiveVerdictSerializer(serializers.Serializer):
        response_id = serializers.IntegerField(source="pk")
        question_id = serializers.CharField(source="question.external_id")
        responder = serializers.CharField(source="responder.label")
        responder_kind = serializers.CharField(source="responder.kind")
        mode = serializers.CharField()
        answer = serializers.CharField(source="answer_text")
        effective_correct = serializers.BooleanField()
        verdict_source = serializers.CharField()
        rules_correct = serializers.BooleanField(source="correct")
        prompt = serializers.BooleanField()
        score = serializers.FloatField()
        rule = serializers.CharField()
        rule_version = serializers.CharField()
        explanation = serializers.CharField()
        human_correct = serializers.BooleanField(allow_null=True)
        human_quality = serializers.IntegerField(allow_null=True)
        llm_correct = serializers.BooleanField(allow_null=True)
        llm_quality = serializers.IntegerField(allow_null=True)

    FILTERS = (Param("mode", "choice", choices=("free", "mcq")),
               Param("source", "choice", choices=("human", "llm", "rules")),
               Param("min_score", "number"), Param("max_score", "number"))

    @extend_schema(
        operation_id="judging_verdicts_list",
        parameters=[
            OpenApiParameter("mode", OpenApiTypes.STR, enum=["free", "mcq"]),
            OpenApiParameter("source", OpenApiTypes.STR, enum=["human", "llm", "rules"]),
            OpenApiParameter("min_score", OpenApiTypes.FLOAT),
            OpenApiParameter("max_score", OpenApiTypes.FLOAT),
            OpenApiParameter("page", OpenApiTypes.INT),
            OpenApiParameter("page_size", OpenApiTypes.INT),
        ],
        responses=EffectiveVerdictSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> ApiResponse:
        params = parse_filters(request.query_params, self.FILTERS)
        qs = selectors.effective_verdicts(project=request.earshot_project, mode=params.get("mode"))
        if "source" in params:
            qs = qs.filter(verdict_source=params["source"])
        if "min_score" in params:
            qs = qs.filter(score__gte=params["min_score"])
        if "max_score" in params:
            qs = qs.filter(score__lte=params["max_score"])
        qs = qs.select_related("question", "responder").order_by("id")
        paginator = _Paginated()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response(self.EffectiveVerdictSerializer(page, many=True).data)


class HumanJudgementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    response_id = serializers.IntegerField()
    correct = serializers.BooleanField()
    quality = serializers.IntegerField(allow_null=True)
    by = serializers.SerializerMethodField()
    annotator = serializers.CharField()
    source = serializers.CharField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()

    def get_by(self, obj) -> str | None:
        return obj.by.handle if obj.by_id else None


class OverrideListCreateApi(APIView):
    """List the project's human judgements (newest first) or record a new one."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    class OverrideInputSerializer(serializers.Serializer):
        response_id = serializers.IntegerField()
        correct = serializers.BooleanField()
        quality = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=5)
        note = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    @extend_schema(
        operation_id="judging_overrides_list",
        parameters=[OpenApiParameter("page", OpenApiTypes.INT), OpenApiParameter("page_size", OpenApiTypes.INT)],
        responses=HumanJudgementSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> ApiResponse:
        parse_filters(request.query_params, ())
        qs = selectors.human_judgements_list(project=request.earshot_project)
        paginator = _Paginated()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response(HumanJudgementSerializer(page, many=True).data)

    @extend_schema(
        operation_id="judging_overrides_create",
        request=OverrideInputSerializer,
        responses={201: HumanJudgementSerializer},
    )
    def post(self, request: Request, slug: str) -> ApiResponse:
        data = self.OverrideInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        response = Response.objects.filter(
            project=request.earshot_project, pk=data.validated_data["response_id"]
        ).first()
        if response is None:
            return ApiResponse({"response_id": ["no such response in this project"]}, status=400)
        judgement = services.override_set(
            response=response,
            correct=data.validated_data["correct"],
            quality=data.validated_data.get("quality"),
            note=data.validated_data.get("note", ""),
            by=request.user,
            source="api",
        )
        return ApiResponse(HumanJudgementSerializer(judgement).data, status=status.HTTP_201_CREATED)


class ChallengeListApi(APIView):
    """Players' challenges of the project (oldest first), optionally by status."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    class ChallengeSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        response_id = serializers.IntegerField()
        question_id = serializers.CharField(source="response.question.external_id")
        responder = serializers.CharField(source="response.responder.label")
        answer = serializers.CharField(source="response.answer_text")
        text = serializers.CharField()
        status = serializers.CharField()
        created_at = serializers.DateTimeField()
        resolved_at = serializers.DateTimeField(allow_null=True)

    @extend_schema(
        operation_id="judging_challenges_list",
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=list(ChallengeStatus.values)),
            OpenApiParameter("page", OpenApiTypes.INT),
            OpenApiParameter("page_size", OpenApiTypes.INT),
        ],
        responses=ChallengeSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> ApiResponse:
        params = parse_filters(request.query_params, (Param("status", "choice", choices=tuple(ChallengeStatus.values)),))
        qs = selectors.challenges_list(project=request.earshot_project, status=params.get("status"))
        paginator = _Paginated()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response(self.ChallengeSerializer(page, many=True).data)


class JudgeAgreementSerializer(serializers.Serializer):
    judge = serializers.CharField()
    n = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True)
    kappa = serializers.FloatField(allow_null=True)
    mcc = serializers.FloatField(allow_null=True)
    spearman = serializers.FloatField(allow_null=True)
    n_scored = serializers.IntegerField()
    tp = serializers.IntegerField()
    fp = serializers.IntegerField()
    fn = serializers.IntegerField()
    tn = serializers.IntegerField()


class AgreementReportSerializer(serializers.Serializer):
    project = serializers.CharField()
    judges = serializers.ListField(child=serializers.CharField())
    n = serializers.IntegerField()
    overall = JudgeAgreementSerializer(many=True)
    groups = serializers.DictField(
        child=serializers.DictField(child=JudgeAgreementSerializer(many=True)),
        help_text="group_by (category, language) -> group name -> agreement of each judge",
    )


class AgreementApi(APIView):
    """Judge-human agreement report (overall, by category, by language)."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    @extend_schema(
        operation_id="judging_agreement_retrieve",
        responses=AgreementReportSerializer,
    )
    def get(self, request: Request, slug: str) -> ApiResponse:
        project = request.earshot_project
        report = agreement_report(selectors.agreement_rows(project=project), selectors.AGREEMENT_JUDGES)
        return ApiResponse({"project": project.slug, **report.as_dict()})
