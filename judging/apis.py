"""REST API for judging: effective verdicts, human judgements (overrides), challenges,
registered judges, rubrics, and the judge-human agreement report.

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
from .llm import BUILTIN_PROMPTS, load_prompt
from .models import ChallengeStatus, Judge, RubricPurpose, VerdictRecord


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


class CiField(serializers.ListField):
    """A 95 % bootstrap interval ``[low, high]``, or null."""

    child = serializers.FloatField()

    def __init__(self, **kwargs):
        super().__init__(allow_null=True, min_length=2, max_length=2, **kwargs)


class AgreementCellSerializer(serializers.Serializer):
    judge = serializers.CharField()
    language = serializers.CharField(help_text='"all" where pooled')
    condition = serializers.CharField(help_text='"all" where pooled')
    task = serializers.CharField(help_text='"all" where pooled')
    n = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True)
    accuracy_ci = CiField()
    kappa = serializers.FloatField(allow_null=True)
    kappa_ci = CiField()
    mcc = serializers.FloatField(allow_null=True)
    mcc_ci = CiField()
    spearman = serializers.FloatField(allow_null=True)
    spearman_ci = CiField()
    n_scored = serializers.IntegerField()
    tp = serializers.IntegerField()
    fp = serializers.IntegerField()
    fn = serializers.IntegerField()
    tn = serializers.IntegerField()


class RankedSystemSerializer(serializers.Serializer):
    system = serializers.CharField()
    scores = serializers.DictField(child=serializers.FloatField(allow_null=True),
                                   help_text="judge -> share of this system's answers judged correct")
    n = serializers.DictField(child=serializers.IntegerField(), help_text="judge -> answers judged")
    ranks = serializers.DictField(child=serializers.FloatField(allow_null=True),
                                  help_text="judge -> rank (1 = best; ties share the best rank)")


class JudgePairSerializer(serializers.Serializer):
    judge_a = serializers.CharField()
    judge_b = serializers.CharField()
    n_systems = serializers.IntegerField()
    spearman = serializers.FloatField(allow_null=True)
    kendall = serializers.FloatField(allow_null=True)


class RankingSerializer(serializers.Serializer):
    judges = serializers.ListField(child=serializers.CharField())
    systems = RankedSystemSerializer(many=True)
    pairs = JudgePairSerializer(many=True)


class RefusalsSerializer(serializers.Serializer):
    system = serializers.CharField()
    condition = serializers.CharField()
    n = serializers.IntegerField()
    refused = serializers.IntegerField()
    refusal_rate = serializers.FloatField(allow_null=True)
    accuracy = serializers.FloatField(allow_null=True)
    accuracy_answered = serializers.FloatField(allow_null=True, help_text="accuracy on answers not refused")
    examples = serializers.ListField(child=serializers.CharField())


class BootstrapSerializer(serializers.Serializer):
    n_boot = serializers.IntegerField()
    seed = serializers.IntegerField()
    level = serializers.FloatField()
    method = serializers.CharField()


class AgreementReportSerializer(serializers.Serializer):
    project = serializers.CharField()
    judges = serializers.ListField(child=serializers.CharField())
    scales = serializers.DictField(child=serializers.CharField(), help_text="judge -> verdict, quality or score")
    n = serializers.IntegerField(help_text="free answers")
    n_labelled = serializers.IntegerField(help_text="free answers with a human judgement")
    bootstrap = BootstrapSerializer()
    cells = AgreementCellSerializer(many=True)
    ranking = RankingSerializer()
    refusals = RefusalsSerializer(many=True)


def agreement_params(params) -> tuple[int, int]:
    """``n_boot`` (0-5000, default 1000) and ``seed`` (default 0) from query parameters."""
    try:
        n_boot = int(params.get("n_boot", 1000))
        seed = int(params.get("seed", 0))
    except ValueError as exc:
        raise services.JudgingError("n_boot", "n_boot and seed must be integers") from exc
    if not 0 <= n_boot <= 5000:
        raise services.JudgingError("n_boot", "must be between 0 and 5000")
    return n_boot, seed


class AgreementApi(APIView):
    """Judges against humans per judge x language x condition x task; rankings; refusals."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    @extend_schema(
        operation_id="judging_agreement_retrieve",
        parameters=[
            OpenApiParameter("n_boot", OpenApiTypes.INT, description="bootstrap resamples, 0-5000 (default 1000; 0: no intervals)"),
            OpenApiParameter("seed", OpenApiTypes.INT, description="bootstrap seed (default 0)"),
        ],
        responses=AgreementReportSerializer,
    )
    def get(self, request: Request, slug: str) -> ApiResponse:
        try:
            n_boot, seed = agreement_params(request.query_params)
        except services.JudgingError as exc:
            return ApiResponse({exc.field: [str(exc)]}, status=400)
        return ApiResponse(selectors.agreement_study_report(project=request.earshot_project, n_boot=n_boot, seed=seed))


class JudgeListApi(APIView):
    """Registered automatic judges with verdicts on this project's answers."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    class JudgeSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        kind = serializers.CharField()
        purpose = serializers.CharField()
        version = serializers.CharField()
        model = serializers.CharField()
        prompt_id = serializers.CharField()
        prompt_version = serializers.CharField()
        rubric_id = serializers.IntegerField(allow_null=True)
        parameters = serializers.DictField()
        verdicts = serializers.IntegerField(source="n_verdicts",
                                            help_text="verdict records on this project's answers")

    @extend_schema(operation_id="judging_judges_list", responses=JudgeSerializer(many=True))
    def get(self, request: Request, slug: str) -> ApiResponse:
        from django.db.models import Count, Q

        project = request.earshot_project
        ids = VerdictRecord.objects.filter(response__project=project).values_list("judge_ref", flat=True)
        judges = (
            Judge.objects.filter(pk__in=ids)
            .annotate(n_verdicts=Count("verdicts", filter=Q(verdicts__response__project=project)))
            .order_by("kind", "name", "id")
        )
        return ApiResponse(self.JudgeSerializer(judges, many=True).data)


class RubricSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="null for a built-in prompt")
    name = serializers.CharField()
    version = serializers.CharField()
    label = serializers.CharField()
    purpose = serializers.CharField()
    system = serializers.CharField()
    user = serializers.CharField()
    note = serializers.CharField()
    based_on = serializers.CharField()
    builtin = serializers.BooleanField()
    created_at = serializers.DateTimeField(allow_null=True)


def rubric_data(rubric) -> dict:
    """A stored rubric version as RubricSerializer data."""
    return {"id": rubric.pk, "name": rubric.name, "version": str(rubric.version), "label": rubric.label,
            "purpose": rubric.purpose, "system": rubric.system, "user": rubric.user, "note": rubric.note,
            "based_on": rubric.based_on, "builtin": False, "created_at": rubric.created_at}


def builtin_data(name: str) -> dict:
    """A built-in prompt as RubricSerializer data."""
    p = load_prompt(name)
    return {"id": None, "name": name, "version": p.version, "label": p.label, "purpose": p.purpose,
            "system": p.system, "user": p.user, "note": "built-in default", "based_on": "",
            "builtin": True, "created_at": None}


class RubricListCreateApi(APIView):
    """The project's rubrics (latest versions) and the built-in prompts; save a new version."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    class RubricInputSerializer(serializers.Serializer):
        name = serializers.SlugField(max_length=40)
        purpose = serializers.ChoiceField(choices=RubricPurpose.choices)
        system = serializers.CharField(max_length=20000)
        user = serializers.CharField(max_length=20000)
        note = serializers.CharField(required=False, allow_blank=True, max_length=200)
        based_on = serializers.ChoiceField(choices=list(BUILTIN_PROMPTS), required=False, allow_blank=True)

    @extend_schema(operation_id="judging_rubrics_list", responses=RubricSerializer(many=True))
    def get(self, request: Request, slug: str) -> ApiResponse:
        rows = [builtin_data(n) for n in BUILTIN_PROMPTS]
        rows += [rubric_data(r) for r in selectors.rubrics_list(project=request.earshot_project)]
        return ApiResponse(RubricSerializer(rows, many=True).data)

    @extend_schema(
        operation_id="judging_rubrics_create",
        request=RubricInputSerializer,
        responses={201: RubricSerializer, 200: RubricSerializer},
        description="Saves a rubric; an edit of an existing name adds its next version "
                    "(200 with the latest version when nothing changed).",
    )
    def post(self, request: Request, slug: str) -> ApiResponse:
        data = self.RubricInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            rubric, created = services.rubric_save(
                project=request.earshot_project, name=v["name"], purpose=v["purpose"], system=v["system"],
                user=v["user"], note=v.get("note", ""), based_on=v.get("based_on", ""), by=request.user,
            )
        except services.JudgingError as exc:
            return ApiResponse({exc.field: [str(exc)]}, status=400)
        return ApiResponse(RubricSerializer(rubric_data(rubric)).data,
                           status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RubricVersionsApi(APIView):
    """Every version of one project rubric, newest first."""

    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    @extend_schema(operation_id="judging_rubric_versions_list", responses=RubricSerializer(many=True))
    def get(self, request: Request, slug: str, name: str) -> ApiResponse:
        versions = [rubric_data(r) for r in selectors.rubric_versions(project=request.earshot_project, name=name)]
        if not versions:
            return ApiResponse({"detail": f"no rubric {name!r}"}, status=404)
        return ApiResponse(RubricSerializer(versions, many=True).data)

