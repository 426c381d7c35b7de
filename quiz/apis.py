"""REST API of the quiz: questions, clips, model systems, model outputs, responses, dashboard.

Every view resolves its project through :class:`accounts.api.ProjectAccess`
(``project_level`` = the same check the UI makes), so a script with a token can do
exactly what its owner can do in the browser. Lists are paginated (``?page=``),
filtered by plain query parameters and ordered with ``?ordering=`` over a
whitelist of fields. Writes go through ``quiz.services`` and ``quiz.importing``:
a model-output upload is validated completely first and written all-or-nothing,
with per-line errors.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import BaseParser, FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response as ApiResponse
from rest_framework.views import APIView

from accounts.api import ProjectAccess
from accounts.api_filters import Param, openapi_parameters, ordering, parse_filters
from accounts.models import Project

from . import services
from .audio import AudioError, inspect_audio
from .importing import ImportFailed
from .models import Clip, ModelSystem, Question, Response
from .validation import LIMITS, MAX_TEXT, check_choices, json_problems, text_problem

PERMISSIONS = [IsAuthenticated, ProjectAccess]


def _filters(request: Request, params: tuple[Param, ...], *, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """The list's query parameters, checked (400 for an unknown name or value)."""
    return parse_filters(request.query_params, params, extra=extra)


def _known_category(project: Project, values: dict[str, Any]) -> None:
    """A ``category`` filter must name one of the project's category slugs (else 400)."""
    from .models import Category

    slug = values.get("category")
    if slug and not Category.objects.filter(project=project, slug=slug).exists():
        known = list(Category.objects.filter(project=project).order_by("position").values_list("slug", flat=True))
        raise ValidationError({"category": [f"unknown category {slug[:60]!r}; one of {', '.join(known) or '(none)'}"]})


class ProjectMixin:
    """The project the URL names, as resolved (and authorized) by ``ProjectAccess``."""

    permission_classes = PERMISSIONS
    project_level = "research"

    @property
    def project(self) -> Project:
        return self.request.earshot_project  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- questions


class QuestionOutputSerializer(serializers.ModelSerializer):
    category = serializers.CharField(source="category.name")
    clips = serializers.SerializerMethodField()

    class Meta:
        model = Question
        fields = ["external_id", "prompt", "answerline", "counterfactual_answerline", "category", "source",
                  "choices", "correct_choice",
                  "pyramidal", "metadata", "is_active", "clips", "created_at", "updated_at"]

    def get_clips(self, obj: Question) -> list[str]:
        return [qc.clip.public_id for qc in obj.question_clips.all()]


class QuestionInputSerializer(serializers.Serializer):
    external_id = serializers.CharField(max_length=120)
    prompt = serializers.CharField()
    answerline = serializers.CharField()
    counterfactual_answerline = serializers.CharField(
        required=False, allow_blank=True, default="",
        help_text="The key when the audio says otherwise (KoALa's counterfactual speech).")
    category = serializers.CharField(max_length=120)
    source = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    choices = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    correct_choice = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=9, default=None)
    pyramidal = serializers.BooleanField(required=False, default=False)
    metadata = serializers.DictField(required=False, default=dict)
    is_active = serializers.BooleanField(required=False, default=True)
    clips = serializers.ListField(child=serializers.CharField(), required=False,
                                  help_text="Clip public ids in clue order.")

    def validate(self, attrs: dict) -> dict:
        """The bank import's rules (``quiz.validation``), on the question as it would be saved.

        For a PATCH that is the stored question with the sent fields applied, so
        ``{"choices": []}`` on an MCQ question must also clear ``correct_choice``.
        """
        instance: Question | None = self.instance
        errors: list[tuple[str, str]] = []
        limits = LIMITS["question"]
        for key, limit in (("external_id", limits["id"]), ("prompt", MAX_TEXT), ("answerline", MAX_TEXT),
                           ("counterfactual_answerline", MAX_TEXT), ("category", limits["category"]), ("source", limits["source"])):
            if isinstance(attrs.get(key), str) and (problem := text_problem(attrs[key], limit)):
                errors.append((key, problem))
        if "metadata" in attrs:
            errors.extend(json_problems(attrs["metadata"], "metadata"))
        choices = attrs.get("choices", instance.choices if instance else [])
        correct = attrs["correct_choice"] if "correct_choice" in attrs else getattr(instance, "correct_choice", None)
        errors.extend(check_choices(list(choices or []), correct, correct_field="correct_choice"))
        pyramidal = attrs["pyramidal"] if "pyramidal" in attrs else bool(instance and instance.pyramidal)
        clips = len(attrs["clips"]) if attrs.get("clips") is not None else (
            instance.question_clips.count() if instance else 0)
        if pyramidal and clips < 2:
            errors.append(("pyramidal", "a pyramidal question needs 2 or more clips"))
        if errors:
            grouped: dict[str, list[str]] = {}
            for key, message in errors:
                grouped.setdefault(key, []).append(message)
            raise ValidationError(grouped)
        return attrs


def _question_save(project: Project, data: dict, instance: Question | None = None) -> Question:
    """The service call, with its field errors turned into DRF validation errors."""
    try:
        return services.question_save(project=project, data=data, instance=instance)
    except services.SubmissionError as exc:
        raise ValidationError({exc.field: [exc.message]}) from exc


def _questions(project: Project) -> QuerySet[Question]:
    return Question.objects.filter(project=project).select_related("category").prefetch_related(
        "question_clips__clip"
    )


QUESTION_ORDER = ("external_id", "created_at", "updated_at", "id")
QUESTION_FILTERS = (
    Param("category", description="Category slug."), Param("source"), Param("active", "bool"),
    Param("mcq", "bool", description="true: only questions with options; false: only without."),
    ordering(*QUESTION_ORDER),
)


class QuestionListCreateApi(ProjectMixin, generics.GenericAPIView):
    """List (filter: category slug, source, active, mcq; ordering) and create questions."""

    serializer_class = QuestionOutputSerializer

    @extend_schema(
        operation_id="questions_list",
        parameters=openapi_parameters(QUESTION_FILTERS),
        responses=QuestionOutputSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> ApiResponse:
        qs = _questions(self.project)
        params = _filters(request, QUESTION_FILTERS)
        _known_category(self.project, params)
        if "category" in params:
            qs = qs.filter(category__slug=params["category"])
        if "source" in params:
            qs = qs.filter(source=params["source"])
        if "active" in params:
            qs = qs.filter(is_active=params["active"])
        if "mcq" in params:
            qs = qs.filter(correct_choice__isnull=not params["mcq"])
        qs = qs.order_by(params.get("ordering", "external_id"))
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(QuestionOutputSerializer(page, many=True).data)

    @extend_schema(operation_id="questions_create", request=QuestionInputSerializer,
                   responses={201: QuestionOutputSerializer})
    def post(self, request: Request, slug: str) -> ApiResponse:
        serializer = QuestionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        question = _question_save(self.project, dict(serializer.validated_data))
        return ApiResponse(QuestionOutputSerializer(question).data, status=status.HTTP_201_CREATED)


class QuestionDetailApi(ProjectMixin, APIView):
    """One question by external id; researchers may update it (PATCH/PUT)."""

    @extend_schema(operation_id="questions_retrieve", responses=QuestionOutputSerializer)
    def get(self, request: Request, slug: str, external_id: str) -> ApiResponse:
        question = generics.get_object_or_404(_questions(self.project), external_id=external_id)
        return ApiResponse(QuestionOutputSerializer(question).data)

    def _update(self, request: Request, external_id: str, partial: bool) -> ApiResponse:
        question = generics.get_object_or_404(_questions(self.project), external_id=external_id)
        data = request.data.copy() if hasattr(request.data, "copy") else dict(request.data)
        data.setdefault("external_id", question.external_id)
        serializer = QuestionInputSerializer(question, data=data, partial=partial)
        serializer.is_valid(raise_exception=True)
        values = {k: v for k, v in serializer.validated_data.items() if not partial or k in request.data}
        question = _question_save(self.project, values, instance=question)
        question = _questions(self.project).get(pk=question.pk)
        return ApiResponse(QuestionOutputSerializer(question).data)

    @extend_schema(operation_id="questions_update", request=QuestionInputSerializer,
                   responses=QuestionOutputSerializer)
    def put(self, request: Request, slug: str, external_id: str) -> ApiResponse:
        return self._update(request, external_id, partial=False)

    @extend_schema(operation_id="questions_partial_update", request=QuestionInputSerializer,
                   responses=QuestionOutputSerializer)
    def patch(self, request: Request, slug: str, external_id: str) -> ApiResponse:
        return self._update(request, external_id, partial=True)


# -------------------------------------------------------------------------------- clips


class ClipSerializer(serializers.ModelSerializer):
    class Meta:
        model = Clip
        fields = ["public_id", "original_name", "sha256", "content_type", "format", "subtype", "duration_s",
                  "sample_rate", "channels", "frames", "size_bytes", "created_at"]


class ClipUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="WAV, FLAC, OGG, MP3, M4A/AAC or Opus; at most EARSHOT_MAX_UPLOAD_BYTES.")


class ClipListUploadApi(ProjectMixin, generics.GenericAPIView):
    """List clips; upload one (multipart ``file``), checked by decoding it fully."""

    serializer_class = ClipSerializer
    parser_classes = [MultiPartParser, FormParser]

    FILTERS = (ordering("id", "created_at", "duration_s"),)

    @extend_schema(operation_id="clips_list", parameters=openapi_parameters(FILTERS),
                   responses=ClipSerializer(many=True))
    def get(self, request: Request, slug: str) -> ApiResponse:
        qs = Clip.objects.filter(project=self.project).order_by(_filters(request, self.FILTERS).get("ordering", "id"))
        return self.get_paginated_response(ClipSerializer(self.paginate_queryset(qs), many=True).data)

    @extend_schema(operation_id="clips_upload", request={"multipart/form-data": ClipUploadSerializer},
                   responses={201: ClipSerializer, 200: ClipSerializer})
    def post(self, request: Request, slug: str) -> ApiResponse:
        upload = request.FILES.get("file")
        if upload is None:
            raise ValidationError({"file": ["attach an audio file as multipart field 'file'"]})
        limit = settings.EARSHOT_MAX_UPLOAD_BYTES
        if upload.size > limit:
            raise ValidationError({"file": [f"is {upload.size} bytes; the limit is {limit} bytes"]})
        name = "".join(c for c in Path(upload.name or "").name if c.isprintable())[:200] or "upload.wav"
        try:
            info = inspect_audio(upload, name=name)  # read in blocks; large uploads stay on disk
        except AudioError as exc:
            raise ValidationError({"file": [str(exc)]}) from exc
        clip, created = services.clip_store(project=self.project, name=name, data=upload, info=info)
        return ApiResponse(ClipSerializer(clip).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


# ------------------------------------------------------------------------ model systems


class ModelSystemSerializer(serializers.ModelSerializer):
    conditions = serializers.SerializerMethodField()
    responses = serializers.IntegerField(source="n_responses", read_only=True)

    class Meta:
        model = ModelSystem
        fields = ["id", "name", "description", "conditions", "responses", "created_at"]
        read_only_fields = ["id", "created_at"]

    def get_conditions(self, obj: ModelSystem) -> list[str]:
        return sorted(r.condition for r in obj.responders.all())


class ModelSystemListCreateApi(ProjectMixin, generics.GenericAPIView):
    """List the project's model systems (with conditions and response counts); add one."""

    serializer_class = ModelSystemSerializer

    def _qs(self) -> QuerySet[ModelSystem]:
        return (ModelSystem.objects.filter(project=self.project).prefetch_related("responders")
                .annotate(n_responses=Count("responders__responses")))

    FILTERS = (ordering("name", "created_at"),)

    @extend_schema(operation_id="model_systems_list", parameters=openapi_parameters(FILTERS),
                   responses=ModelSystemSerializer(many=True))
    def get(self, request: Request, slug: str) -> ApiResponse:
        qs = self._qs().order_by(_filters(request, self.FILTERS).get("ordering", "name"))
        return self.get_paginated_response(ModelSystemSerializer(self.paginate_queryset(qs), many=True).data)

    @extend_schema(operation_id="model_systems_create", request=ModelSystemSerializer,
                   responses={201: ModelSystemSerializer})
    def post(self, request: Request, slug: str) -> ApiResponse:
        serializer = ModelSystemSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            with transaction.atomic():
                system = ModelSystem.objects.create(project=self.project, **serializer.validated_data)
        except IntegrityError as exc:
            raise ValidationError({"name": ["a model system with this name exists in the project"]}) from exc
        return ApiResponse(ModelSystemSerializer(self._qs().get(pk=system.pk)).data, status=status.HTTP_201_CREATED)


# -------------------------------------------------------------------- responses (read)


class ResponseSerializer(serializers.ModelSerializer):
    """A response with pseudonymous responder fields only (label, never a username)."""

    question = serializers.CharField(source="question.external_id")
    responder = serializers.CharField(source="responder.label")
    kind = serializers.CharField(source="responder.kind")
    system = serializers.SerializerMethodField()
    condition = serializers.CharField(source="responder.condition")
    correct = serializers.BooleanField(source="verdict", help_text="Effective verdict (a human override wins).")

    class Meta:
        model = Response
        fields = ["id", "question", "responder_id", "responder", "kind", "system", "condition", "mode",
                  "answer_text", "choice", "choice_position", "clue_index", "outcome", "buzz_position", "latency_ms",
                  "correct", "prompt",
                  "score", "rule", "rule_version", "matched", "explanation", "created_at"]

    def get_system(self, obj: Response) -> str | None:
        return obj.responder.system.name if obj.responder.system_id else None


RESPONSE_ORDER = ("id", "created_at", "latency_ms")


HUMAN_RESPONSE_FILTERS = (
    Param("mode", "choice", choices=("free", "mcq")), Param("question", description="Question external id."),
    Param("correct", "bool", description="Effective verdict."), ordering(*RESPONSE_ORDER),
)
MODEL_RESPONSE_FILTERS = (*HUMAN_RESPONSE_FILTERS, Param("system"), Param("condition", max_length=60))


def _responses(project: Project, request: Request, kind: str) -> QuerySet[Response]:
    from frontend.selectors import with_verdict

    params = _filters(request, HUMAN_RESPONSE_FILTERS if kind == "human" else MODEL_RESPONSE_FILTERS)
    qs = with_verdict(Response.objects.filter(project=project), project).select_related(
        "question", "responder", "responder__system").filter(responder__kind=kind)
    if "mode" in params:
        qs = qs.filter(mode=params["mode"])
    if "question" in params:
        qs = qs.filter(question__external_id=params["question"])
    if "system" in params:
        qs = qs.filter(responder__system__name=params["system"])
    if "condition" in params:
        qs = qs.filter(responder__condition=params["condition"])
    if "correct" in params:
        qs = qs.filter(verdict=params["correct"])
    return qs.order_by(params.get("ordering", "id"))


class ResponseListApi(ProjectMixin, generics.GenericAPIView):
    """Human responses (``/responses/``), pseudonymous, paginated and filterable."""

    serializer_class = ResponseSerializer

    @extend_schema(operation_id="human_responses_list", parameters=openapi_parameters(HUMAN_RESPONSE_FILTERS),
                   responses=ResponseSerializer(many=True))
    def get(self, request: Request, slug: str) -> ApiResponse:
        qs = _responses(self.project, request, kind="human")
        return self.get_paginated_response(ResponseSerializer(self.paginate_queryset(qs), many=True).data)


class JSONLinesParser(BaseParser):
    """``application/x-ndjson`` (or ``application/jsonl``) bodies: one JSON object per line."""

    media_type = "application/x-ndjson"

    def parse(self, stream, media_type=None, parser_context=None) -> str:
        body = stream.read()
        try:
            return body.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError(f"the body is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


class JSONLParser(JSONLinesParser):
    media_type = "application/jsonl"


class ImportSummarySerializer(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()


IMPORT_PROBLEM = inline_serializer("ImportProblem", {
    "line": serializers.IntegerField(help_text="Line of the file (0: the whole file), or the item's position "
                                                "(1 = first) when unit is 'item'."),
    "unit": serializers.ChoiceField(choices=["line", "item"]),
    "field": serializers.CharField(), "message": serializers.CharField(),
    "text": serializers.CharField(help_text="FILE:LINE: field: message, as the command line prints it."),
}, many=True)


class ImportErrorSerializer(serializers.Serializer):
    errors = IMPORT_PROBLEM


def import_failed_response(exc: ImportFailed) -> ApiResponse:
    """HTTP 400 with every problem of a failed import, in the command line's terms."""
    return ApiResponse({"errors": [p.as_dict() for p in exc.problems]}, status=status.HTTP_400_BAD_REQUEST)


MODEL_OUTPUT_ROW = inline_serializer("ModelOutputRow", {
    "system": serializers.CharField(), "condition": serializers.CharField(required=False),
    "question_id": serializers.CharField(), "mode": serializers.ChoiceField(choices=["free", "mcq"]),
    "answer": serializers.CharField(required=False), "choice": serializers.CharField(required=False),
    "option_order": serializers.ListField(child=serializers.IntegerField(), required=False),
    "latency_ms": serializers.IntegerField(required=False),
    "client_token": serializers.CharField(required=False),
}, many=True)


def _body_as_file(data: Any) -> tuple[str, str]:
    """(file name, text) for a JSON list (or ``{"rows": [...]}``) or a JSON-lines body.

    A list becomes ``upload.json`` (problems name ``item N``), JSON lines
    ``upload.jsonl`` (``line N``). ``json.dumps`` escapes non-ASCII, so strings the
    file cannot hold (lone surrogates) reach the validator instead of the encoder.
    """
    if isinstance(data, str):
        return "upload.jsonl", data
    if isinstance(data, dict) and isinstance(data.get("rows"), list):
        data = data["rows"]
    if not isinstance(data, list):
        raise ValidationError({"body": ["send a JSON list of model outputs, or JSON lines (application/x-ndjson)"]})
    return "upload.json", json.dumps(data)


class ModelResponseListUploadApi(ProjectMixin, generics.GenericAPIView):
    """Model responses: list them, or upload model outputs in bulk (all-or-nothing, judged)."""

    serializer_class = ResponseSerializer
    parser_classes = [JSONParser, JSONLinesParser, JSONLParser]

    @extend_schema(operation_id="model_responses_list",
                   parameters=openapi_parameters(MODEL_RESPONSE_FILTERS),
                   responses=ResponseSerializer(many=True))
    def get(self, request: Request, slug: str) -> ApiResponse:
        qs = _responses(self.project, request, kind="model")
        return self.get_paginated_response(ResponseSerializer(self.paginate_queryset(qs), many=True).data)

    @extend_schema(
        operation_id="model_responses_upload",
        request={"application/json": MODEL_OUTPUT_ROW, "application/x-ndjson": OpenApiTypes.STR},
        parameters=[OpenApiParameter("allow_empty", bool, description="Score empty free answers as wrong.")],
        responses={201: ImportSummarySerializer, 400: ImportErrorSerializer},
        description=(
            "Body: a JSON list of rows, or JSON lines (Content-Type: application/x-ndjson). "
            "Each row: system, condition (default 'default'), question_id, mode (free|mcq), "
            "answer (free) or choice (mcq: A-D, 0-3 or the option text), optional option_order, "
            "latency_ms, client_token. Every row is checked first; any problem answers 400 with "
            "per-line errors and nothing is stored. Stored answers are judged like human ones."
        ),
    )
    def post(self, request: Request, slug: str) -> ApiResponse:
        name, text = _body_as_file(request.data)
        allow_empty = parse_filters(request.query_params, (Param("allow_empty", "bool"),)).get("allow_empty", False)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / name
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            try:
                summary = services.model_responses_import(project=self.project, path=path, allow_empty=allow_empty)
            except ImportFailed as exc:
                return import_failed_response(exc)
        return ApiResponse({"created": summary.created, "updated": summary.updated, "unchanged": summary.unchanged},
                           status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------- dashboard

DASHBOARD_FILTERS = (
    Param("mode", "choice", choices=("free", "mcq")), Param("category", description="Category slug."),
    Param("source"), Param("condition", max_length=60, description="Model condition (humans always kept)."),
    Param("stage", "choice", choices=("1", "2", "all"),
          description="1 (default): independent answers; 2: the MCQ second stage of free-then-MCQ; all: both."),
    Param("min_listened", "number",
          description="Keep responses whose listened fraction is at least this (0-1); drops those without evidence."),
)
EXPORT_FILTERS = (Param("as", "choice", choices=("csv", "jsonl", "parquet")), *DASHBOARD_FILTERS)


class DashboardApi(ProjectMixin, APIView):
    """The model-vs-human dashboard's numbers (same as the page), as JSON."""

    @extend_schema(
        operation_id="dashboard_retrieve",
        parameters=openapi_parameters(DASHBOARD_FILTERS),
        responses=inline_serializer("Dashboard", {
            "project": serializers.CharField(), "filters": serializers.DictField(),
            "counts": serializers.DictField(child=serializers.IntegerField()),
            "topline": serializers.DictField(),
            "tables": serializers.DictField(child=serializers.ListField(child=serializers.DictField())),
            "theta_fits": serializers.DictField(
                child=serializers.DictField(), help_text="Per mode, the IRT fit behind the model ranking's θ "
                "(fit_id null: no fit matches this view's mode and filters)."),
        }),
    )
    def get(self, request: Request, slug: str) -> ApiResponse:
        from frontend.dashboard import Filters
        from frontend.selectors import dashboard_data
        from frontend.views import dashboard_json

        values = _filters(request, DASHBOARD_FILTERS)
        _known_category(self.project, values)
        data = dashboard_data(self.project, Filters.from_query(values))
        return ApiResponse(dashboard_json(self.project, data))




# ------------------------------------------------------------------------------ exports


RAW_PARAMETER = OpenApiParameter(
    "raw", bool, description="1: CSV cells exactly as stored. Default: text cells starting with "
    "= + - @ tab or CR get a leading ' so spreadsheets do not run them as formulas.")


class ReportBundleApi(ProjectMixin, APIView):
    """The project's report bundle (HTML report, figures, CSV tables, manifest.json) as a ZIP."""

    @extend_schema(operation_id="report_bundle_download",
                   parameters=[RAW_PARAMETER],
                   responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request: Request, slug: str):
        from django.http import FileResponse

        from frontend.csv_safety import raw_requested
        from frontend.report_bundle import bundle_file

        response = FileResponse(bundle_file(self.project, raw=raw_requested(request.query_params)),
                                content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="{self.project.slug}-report.zip"'
        return response


class ResponsesExportApi(ProjectMixin, APIView):
    """Every response, streamed (pseudonymous): ``?as=csv`` (default), ``jsonl`` or ``parquet``.

    (``as``, not ``format``: DRF reserves ``format`` for content negotiation.)

    Takes the dashboard filters (mode, category, source, condition).
    """

    @extend_schema(
        operation_id="responses_export",
        parameters=[*openapi_parameters(EXPORT_FILTERS), RAW_PARAMETER],
        responses={(200, "text/csv"): OpenApiTypes.BINARY, (200, "application/x-ndjson"): OpenApiTypes.BINARY,
                   (200, "application/vnd.apache.parquet"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, slug: str):
        from django.http import FileResponse, StreamingHttpResponse

        from frontend import exports
        from frontend.csv_safety import raw_requested
        from frontend.dashboard import Filters

        values = _filters(request, EXPORT_FILTERS, extra=("raw",))
        _known_category(self.project, values)
        fmt = values.get("as", "csv")
        filters = Filters.from_query(values)
        if fmt == "csv":
            response = StreamingHttpResponse(exports.csv_export(self.project, filters,
                                                                raw=raw_requested(request.query_params)),
                                             content_type=exports.CONTENT_TYPES["csv"])
        elif fmt == "jsonl":
            response = StreamingHttpResponse(exports.jsonl_export(self.project, filters),
                                             content_type=exports.CONTENT_TYPES["jsonl"])
        elif fmt == "parquet":
            response = FileResponse(exports.parquet_file(exports.responses_rows(self.project, filters)),
                                    content_type=exports.CONTENT_TYPES["parquet"])
        else:
            raise ValidationError({"as": ["one of csv, jsonl, parquet"]})
        response["Content-Disposition"] = f'attachment; filename="{self.project.slug}-responses.{fmt}"'
        return response


__all__ = [
    "ClipListUploadApi",
    "DashboardApi",
    "ModelResponseListUploadApi",
    "ModelSystemListCreateApi",
    "QuestionDetailApi",
    "QuestionListCreateApi",
    "ReportBundleApi",
    "ResponseListApi",
    "ResponsesExportApi",
]
