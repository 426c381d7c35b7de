"""REST API for campaigns: one APIView per operation, nested Input/Output serializers.

Researchers (project role owner/researcher) list, create and inspect campaigns, import
items, list ratings and read the report. Annotators ask for their next item and submit
ratings: anyone who may play the project (it is public, or they are a member), and the
annotators a campaign link enrolled — for that campaign only (their enrolment grants
nothing else of the project). Rater ids are always the annotator's pseudonymous
``public_id``.
"""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from accounts.api import ProjectAccess
from accounts.api_filters import parse_filters
from accounts.models import Project
from accounts.permissions import can_play
from quiz.apis import IMPORT_PROBLEM
from quiz.uploads import save_import_uploads
from quiz.validation import unstorable

from . import selectors, services, services_crowd
from .exports import report_json
from .importing import ImportFailed
from .models import Annotator, Campaign, CampaignStatus, PolicyKind, Qualification, Rating, Template

ERROR = inline_serializer("AnnotationError", fields={
    "error": inline_serializer("AnnotationErrorBody", fields={
        "field": serializers.CharField(), "message": serializers.CharField()})})


def _error(field: str, message: str, code: int) -> Response:
    return Response({"error": {"field": field, "message": message}}, status=code)


class CampaignOutput(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True, help_text="draft, open, paused or closed")
    template = serializers.CharField(read_only=True)
    policy = serializers.CharField(read_only=True)

    class Meta:
        model = Campaign
        fields = ["slug", "name", "template", "criteria", "question_text", "instructions", "consent_text",
                  "language", "policy", "policy_k", "policy_n", "policy_quota", "policy_annotators",
                  "control_every", "expiry_minutes", "allow_repeat", "require_full_listen",
                  "min_listen_fraction", "completion_code", "no_work_code", "screened_out_code",
                  "completion_url", "screening", "crowd", "status", "created_at"]


class _CampaignBase(APIView):
    permission_classes = [IsAuthenticated, ProjectAccess]
    project_level = "research"

    def campaign(self, request: Request, campaign: str) -> Campaign:
        found = selectors.campaign_get(request.earshot_project, campaign)
        if found is None:
            raise NotFound("No such campaign")
        return found


class CampaignListApi(_CampaignBase):
    """List a project's campaigns or create one from a template."""

    class CampaignCreateInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        slug = serializers.SlugField(max_length=60)
        template = serializers.ChoiceField(choices=Template.choices, default=Template.MOS)
        criteria = serializers.ListField(child=serializers.DictField(), required=False)
        question_text = serializers.CharField(required=False, allow_blank=True)
        instructions = serializers.CharField(required=False, allow_blank=True)
        consent_text = serializers.CharField(required=False, allow_blank=True)
        language = serializers.CharField(required=False, allow_blank=True, max_length=10)
        policy = serializers.ChoiceField(choices=PolicyKind.choices, required=False)
        policy_k = serializers.IntegerField(required=False, min_value=1)
        policy_n = serializers.IntegerField(required=False, min_value=1)
        policy_quota = serializers.IntegerField(required=False, min_value=0)
        policy_annotators = serializers.IntegerField(required=False, min_value=1)
        control_every = serializers.IntegerField(required=False, min_value=0)
        expiry_minutes = serializers.IntegerField(required=False, min_value=1)
        allow_repeat = serializers.BooleanField(required=False)
        require_full_listen = serializers.BooleanField(required=False)
        min_listen_fraction = serializers.FloatField(required=False, min_value=0, max_value=1)
        completion_code = serializers.CharField(required=False, allow_blank=True, max_length=40)
        no_work_code = serializers.CharField(required=False, allow_blank=True, max_length=40)
        screened_out_code = serializers.CharField(required=False, allow_blank=True, max_length=40)
        completion_url = serializers.URLField(required=False, allow_blank=True, max_length=500)
        screening = serializers.JSONField(required=False, help_text=(
            "Listening checks before rating, e.g. [{\"step\": \"calibration\"}, {\"step\": \"headphones\"}]"))
        crowd = serializers.JSONField(required=False, help_text=(
            "Time-on-item thresholds and the approval report's bonus, e.g. {\"bonus\": \"0.50\"}"))
        status = serializers.CharField(required=False, help_text="draft, open, paused or closed")

    InputSerializer = CampaignCreateInputSerializer

    @extend_schema(operation_id="annotation_campaigns_list", responses=CampaignOutput(many=True))
    def get(self, request: Request, slug: str) -> Response:
        parse_filters(request.query_params, ())
        rows = selectors.campaigns_for_project(request.earshot_project)
        return Response(CampaignOutput(rows, many=True).data)

    @extend_schema(operation_id="annotation_campaigns_create", request=InputSerializer,
                   responses={201: CampaignOutput, 400: ERROR})
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        status_value = values.pop("status", None)
        if status_value and status_value not in CampaignStatus.values:
            return _error("status", f"must be one of {', '.join(CampaignStatus.values)}", 400)
        try:
            campaign = services.campaign_create(project=request.earshot_project, **values)
        except services.CampaignError as exc:
            return _error(exc.field, exc.message, 400)
        if status_value:
            try:
                services.campaign_set_status(campaign=campaign, status=status_value)
            except services.CampaignError as exc:
                return _error(exc.field, exc.message, 400)
        return Response(CampaignOutput(campaign).data, status=status.HTTP_201_CREATED)


class CampaignDetailApi(_CampaignBase):
    """One campaign with its progress (items × ratings, annotators, coverage)."""

    class CampaignStatusInputSerializer(serializers.Serializer):
        status = serializers.CharField(help_text="draft, open, paused or closed")

    StatusInput = CampaignStatusInputSerializer

    @extend_schema(operation_id="annotation_campaign_get",
                   responses=inline_serializer("CampaignDetail", fields={
                       "campaign": CampaignOutput(), "progress": serializers.DictField()}))
    def get(self, request: Request, slug: str, campaign: str) -> Response:
        c = self.campaign(request, campaign)
        return Response({"campaign": CampaignOutput(c).data, "progress": selectors.campaign_progress(c)})

    @extend_schema(operation_id="annotation_campaign_set_status", request=StatusInput, responses=CampaignOutput)
    def patch(self, request: Request, slug: str, campaign: str) -> Response:
        c = self.campaign(request, campaign)
        data = self.StatusInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            services.campaign_set_status(campaign=c, status=data.validated_data["status"])
        except services.CampaignError as exc:
            return _error(exc.field, exc.message, 400)
        return Response(CampaignOutput(c).data)


class ItemImportApi(_CampaignBase):
    """Import items: a JSONL/CSV file plus the audio files it names (all or nothing)."""

    parser_classes = [MultiPartParser, FormParser]

    class ItemImportInputSerializer(serializers.Serializer):
        items = serializers.FileField()
        audio = serializers.ListField(child=serializers.FileField(), required=False)

    InputSerializer = ItemImportInputSerializer

    @extend_schema(
        operation_id="annotation_items_import", request={"multipart/form-data": InputSerializer},
        responses={201: inline_serializer("ItemImportResult", fields={
            "created": serializers.IntegerField(), "updated": serializers.IntegerField(),
            "clips_created": serializers.IntegerField(), "by_kind": serializers.DictField()}),
            400: inline_serializer("ItemImportProblems", fields={
                "errors": IMPORT_PROBLEM,
                "problems": serializers.ListField(child=serializers.CharField(),
                                                  help_text="The same problems as FILE:LINE: field: message.")})})
    def post(self, request: Request, slug: str, campaign: str) -> Response:
        c = self.campaign(request, campaign)
        upload = request.FILES.get("items")
        if upload is None:
            return _error("items", "an items file is required", 400)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            path = save_import_uploads(folder, upload, request.FILES.getlist("audio"))
            try:
                summary = services.items_import(campaign=c, path=path, audio_dir=folder)
            except ImportFailed as exc:
                return Response({"errors": [p.as_dict() for p in exc.problems],
                                 "problems": [str(p) for p in exc.problems]}, status=400)
        return Response({"created": summary.created, "updated": summary.updated,
                         "clips_created": summary.clips_created, "by_kind": summary.by_kind}, status=201)


class RatingOutput(serializers.ModelSerializer):
    item_id = serializers.CharField(source="item.external_id")
    rater_id = serializers.CharField(source="annotator.public_id")

    class Meta:
        model = Rating
        fields = ["id", "item_id", "rater_id", "criterion", "value", "comment", "submitted_at", "elapsed_ms",
                  "heard_fraction"]


class RatingListApi(_CampaignBase):
    """A campaign's ratings, paginated, with pseudonymous rater ids."""

    @extend_schema(operation_id="annotation_ratings_list", responses=RatingOutput(many=True))
    def get(self, request: Request, slug: str, campaign: str) -> Response:
        parse_filters(request.query_params, ())
        c = self.campaign(request, campaign)
        rows = c.ratings.select_related("item", "annotator").order_by("pk")
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(RatingOutput(page, many=True).data)


class CampaignReportApi(_CampaignBase):
    """The campaign report: QC/exclusions, agreement, MOS ± CI, KoALa table, decisions."""

    @extend_schema(operation_id="annotation_report", responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str, campaign: str) -> Response:
        return Response(report_json(self.campaign(request, campaign)))


# ------------------------------------------------------------------------- annotators


class CampaignAccess(BasePermission):
    """DRF permission of the annotator calls: play access to the project, or an
    annotator of the URL's campaign (a campaign link enrolled them: that campaign only).
    Neither: 404, as for a project the caller cannot see."""

    def has_permission(self, request: Request, view) -> bool:
        project = get_object_or_404(Project, slug=view.kwargs["slug"])
        if not can_play(request.user, project) and not Annotator.objects.filter(
                campaign__project=project, campaign__slug=view.kwargs["campaign"],
                user_id=getattr(request.user, "pk", None)).exists():
            raise NotFound("No such project")
        request.earshot_project = project
        return True


class _AnnotatorBase(_CampaignBase):
    permission_classes = [IsAuthenticated, CampaignAccess]

    def campaign(self, request: Request, campaign: str) -> Campaign:
        found = get_object_or_404(Campaign.objects.select_related("project"),
                                  project=request.earshot_project, slug=campaign)
        if found.status == CampaignStatus.DRAFT:
            raise NotFound("No such campaign")
        return found


def _stopped(campaign: Campaign) -> Response | None:
    """409 for a paused or closed campaign (no work, no code); ``None`` when open."""
    if campaign.status == CampaignStatus.OPEN:
        return None
    return _error("campaign", f"this campaign is {campaign.status}", 409)


def _json(payload: Any, status_code: int = 200) -> HttpResponse:
    """What DRF's JSONRenderer would send (compact, UTF-8, ``Z`` datetimes)."""
    body = json.dumps(payload, cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))
    response = HttpResponse(body.encode(), status=status_code, content_type="application/json")
    response["Vary"] = "Accept"
    response["Allow"] = "POST, OPTIONS"
    return response


class _TokenFastPath:
    """Serve the annotators' hot calls without DRF's per-request machinery.

    ``next`` and ``submit`` are what 50 concurrent annotators call about once a second
    each, and on a small host their cost is CPU: DRF's token lookup, the project, role,
    campaign and annotator lookups were five queries and most of the Python time of a
    call. :meth:`fast` handles the plain case — ``Authorization: Token …``, no session
    cookie, a JSON object body, a known enrolled annotator — with one context query
    (:func:`annotation.selectors.annotator_context`) and the same service calls and
    response bodies. Anything else (session auth, a bad token, no access, a malformed
    body, consent to record, enrolment) returns ``None`` and the DRF view answers, so
    errors, permissions and the OpenAPI schema stay DRF's. PostgreSQL only (the
    service's hand-written statements are); elsewhere every call is DRF's.
    """

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Callable[..., HttpResponse]:
        drf_view = super().as_view(**initkwargs)  # type: ignore[misc]

        @functools.wraps(drf_view)
        def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST" and connection.vendor == "postgresql":
                body = cls._plain_call(request)
                if body is not None:
                    context = selectors.annotator_context(body[0], kwargs["slug"], kwargs["campaign"])
                    if context is not None and context.annotator is not None:
                        response = cls.fast(context.annotator, body[1])
                        if response is not None:
                            return response
            return drf_view(request, *args, **kwargs)

        return view

    @staticmethod
    def _plain_call(request: HttpRequest) -> tuple[str, dict[str, Any]] | None:
        """(token, JSON body) of a token-authenticated JSON call; ``None`` otherwise."""
        auth = request.META.get("HTTP_AUTHORIZATION", "").split()
        if len(auth) != 2 or auth[0].lower() != "token" or settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        if request.content_type != "application/json":
            return None
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            return None
        return (auth[1], body) if isinstance(body, dict) else None

    # Each view using this mixin defines ``fast(cls, annotator, body) -> HttpResponse |
    # None`` (a classmethod): the response for a plain call, or ``None`` to let the DRF
    # view answer.
    fast: Callable[[Annotator, dict[str, Any]], HttpResponse | None]


class AssignmentNextApi(_TokenFastPath, _AnnotatorBase):
    """The caller's current or next item (blind: no metadata); 204 when they are done."""

    class NextItemInputSerializer(serializers.Serializer):
        consent = serializers.BooleanField(required=False, help_text="Record consent (first call).")

    InputSerializer = NextItemInputSerializer

    @extend_schema(operation_id="annotation_next_item", request=InputSerializer,
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="item payload"),
                              204: OpenApiResponse(description="nothing left: finished"),
                              403: ERROR, 409: ERROR})
    def post(self, request: Request, slug: str, campaign: str) -> Response:
        c = self.campaign(request, campaign)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            annotator = services.annotator_enrol(campaign=c, user=request.user)
        except services.EnrolError as exc:  # on the project's blocklist
            return _error(exc.field, exc.message, exc.status)
        if data.validated_data.get("consent"):
            services.annotator_step(annotator=annotator, step="consent")
        if annotator.consent_at is None:
            return _error("consent", "give consent first (send consent: true)", 409)
        if (stopped := _stopped(c)) is not None:
            return stopped
        if c.screening and (step := services_crowd.screening_pending(annotator)) is not None:
            return _error("screening", f"take the {step.step} listening check in the browser first: "
                          f"{reverse('annotation:screening', args=[c.project.slug, c.slug])}", 409)
        assignment = services.assignment_next_for_annotator(annotator, c)
        if assignment is None:
            annotator.campaign = c
            services.annotator_complete(annotator=annotator)
            return Response(status=status.HTTP_204_NO_CONTENT)
        assignment.campaign = c
        return Response(selectors.item_payload(assignment))

    @classmethod
    def fast(cls, annotator: Annotator, body: dict[str, Any]) -> HttpResponse | None:
        campaign = annotator.campaign
        if body or annotator.consent_at is None or campaign.status != CampaignStatus.OPEN:
            return None  # consent to record or missing, or a stopped campaign: DRF's path
        if campaign.screening and annotator.qualification == Qualification.PENDING:
            return None  # a listening check may be due: DRF's path says so
        assignment = services.assignment_next_for_annotator(annotator, campaign)
        if assignment is None:
            services.annotator_complete(annotator=annotator)
            return HttpResponse(status=status.HTTP_204_NO_CONTENT, headers={"Vary": "Accept",
                                                                             "Allow": "POST, OPTIONS"})
        assignment.campaign = campaign
        return _json(selectors.item_payload(assignment))


class RatingSubmitApi(_TokenFastPath, _AnnotatorBase):
    """Submit the answers to one assignment; the same client token twice stores one rating."""

    class RatingSubmitInputSerializer(serializers.Serializer):
        assignment = serializers.CharField(max_length=24)
        values = serializers.DictField(child=serializers.JSONField())
        comments = serializers.DictField(child=serializers.CharField(allow_blank=True), required=False)
        client_token = serializers.CharField(max_length=64)
        played = serializers.JSONField(
            required=False, allow_null=True,
            help_text="Listening evidence: the played intervals [[start, end], ...] in clip seconds, as "
                      "Earshot's player reports them; for listening tests with several stimuli an object "
                      "{stimulus id: [[start, end], ...]} covering every stimulus. Required for clips when "
                      "the campaign requires listening.")

    InputSerializer = RatingSubmitInputSerializer

    @extend_schema(operation_id="annotation_rating_submit", request=InputSerializer,
                   responses={201: inline_serializer("RatingSubmitted", fields={
                       "created": serializers.BooleanField(), "ratings": RatingOutput(many=True)}),
                       200: OpenApiResponse(description="duplicate token: the stored ratings"),
                       400: ERROR, 404: ERROR, 409: ERROR})
    def post(self, request: Request, slug: str, campaign: str) -> Response:
        c = self.campaign(request, campaign)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if bad := unstorable({k: data.validated_data.get(k) for k in ("assignment", "client_token", "comments",
                                                                      "values")}):
            return _error(bad[0], bad[1], 400)
        annotator = c.annotators.filter(user=request.user).first()
        if annotator is None:
            return _error("annotator", "ask for an item first", 404)
        values = data.validated_data
        try:
            result = services.rating_submit(
                annotator=annotator, assignment_id=values["assignment"], values=values["values"],
                comments=values.get("comments"), client_token=values["client_token"],
                played=request.data.get("played"))
        except services.RatingError as exc:
            return _error(exc.field, exc.message, exc.status)
        return Response(_submitted(annotator, result), status=201 if result.created else 200)

    @classmethod
    def fast(cls, annotator: Annotator, body: dict[str, Any]) -> HttpResponse | None:
        assignment, values, token = body.get("assignment"), body.get("values"), body.get("client_token")
        comments = body.get("comments")
        plain = (isinstance(assignment, str) and 0 < len(assignment.strip()) <= 24
                 and isinstance(values, dict) and isinstance(token, str) and 0 < len(token.strip()) <= 64
                 and (comments is None or (isinstance(comments, dict)
                                           and all(isinstance(v, str) for v in comments.values())))
                 and unstorable({"assignment": assignment, "client_token": token, "comments": comments,
                                 "values": values}) is None)
        if not plain:  # DRF's serializer words the error
            return None
        try:
            result = services.rating_submit(annotator=annotator, assignment_id=assignment.strip(),
                                            values=values, comments=comments, client_token=token.strip(),
                                            played=body.get("played"))
        except services.RatingError as exc:
            return _json({"error": {"field": exc.field, "message": exc.message}}, exc.status)
        return _json(_submitted(annotator, result), 201 if result.created else 200)


def _submitted(annotator: Annotator, result: services.SubmitResult) -> dict[str, Any]:
    """The body of a submission's answer: whether it was new, and the stored ratings."""
    return {"created": result.created, "ratings": [
        {"id": r.pk, "item_id": None, "rater_id": annotator.public_id, "criterion": r.criterion,
         "value": r.value, "comment": r.comment, "submitted_at": r.submitted_at,
         "elapsed_ms": r.elapsed_ms, "heard_fraction": r.heard_fraction} for r in result.ratings]}
