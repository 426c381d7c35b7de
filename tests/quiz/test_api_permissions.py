"""Role × endpoint permission matrix for the REST API and the workspace pages.

Roles: anonymous, participant, researcher of this project, researcher of another
project, owner, staff. Every API endpoint is called with a token (script access)
for safe and unsafe methods; the workspace pages with a browser session. The
rules are those of ``accounts.permissions`` (the UI's): research data needs a
research role; people who cannot see a private project get 404, members without
the role 403, anonymous callers 401/403 (API) or a login redirect (pages).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "participant", "researcher", "other_researcher", "owner", "staff")

#: Expected outcome per access level and role: "ok", 403, 404 or "anon" (401/403 or login redirect).
EXPECTED = {
    "auth": {"anonymous": "anon", "participant": "ok", "researcher": "ok", "other_researcher": "ok",
             "owner": "ok", "staff": "ok"},
    "play": {"anonymous": "anon", "participant": "ok", "researcher": "ok", "other_researcher": 404,
             "owner": "ok", "staff": "ok"},
    "research": {"anonymous": "anon", "participant": 403, "researcher": "ok", "other_researcher": 404,
                 "owner": "ok", "staff": "ok"},
}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    from django.core.cache import cache

    cache.clear()  # dashboard results are cached by data version; start each test empty
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(private_project, wav):
    """A private project with one question and users in every role."""
    from accounts.models import Role
    from accounts.services import membership_set, project_create, user_create
    from quiz.models import Category, Question

    other = project_create(slug="other", name="Other project")
    users = {
        "participant": user_create(username="u-participant"),
        "researcher": user_create(username="u-researcher"),
        "other_researcher": user_create(username="u-other"),
        "owner": user_create(username="u-owner"),
        "staff": user_create(username="u-staff", is_staff=True),
    }
    membership_set(project=private_project, user=users["participant"], role=Role.PARTICIPANT)
    membership_set(project=private_project, user=users["researcher"], role=Role.RESEARCHER)
    membership_set(project=other, user=users["other_researcher"], role=Role.RESEARCHER)
    membership_set(project=private_project, user=users["owner"], role=Role.OWNER)
    category = Category.objects.filter(project=private_project).first()
    Question.objects.create(project=private_project, external_id="pq1", prompt="Which city?",
                            answerline="Canberra", category=category)
    return {"project": private_project, "users": users, "wav": wav}


def _api_client(world, role: str) -> APIClient:
    from rest_framework.authtoken.models import Token

    client = APIClient()
    if role != "anonymous":
        token, _ = Token.objects.get_or_create(user=world["users"][role])
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _clip_payload(world, role):
    from django.core.files.uploadedfile import SimpleUploadedFile

    freq = 300 + 40 * ROLES.index(role)  # distinct content per role
    return {"file": SimpleUploadedFile(f"{role}.wav", world["wav"](freq), content_type="audio/wav")}


API = "/api/v1/projects/private/"
#: (id, method, path, level, payload(world, role) or None, format)
ENDPOINTS = [
    ("projects-list", "get", "/api/v1/projects/", "auth", None, None),
    ("project-detail", "get", API, "play", None, None),
    ("questions-list", "get", API + "questions/", "research", None, None),
    ("questions-create", "post", API + "questions/", "research",
     lambda w, r: {"external_id": f"new-{r}", "prompt": "P?", "answerline": "A", "category": "New cat"}, "json"),
    ("question-detail", "get", API + "questions/pq1/", "research", None, None),
    ("question-update", "patch", API + "questions/pq1/", "research", lambda w, r: {"prompt": f"by {r}"}, "json"),
    ("clips-list", "get", API + "clips/", "research", None, None),
    ("clips-upload", "post", API + "clips/", "research", _clip_payload, "multipart"),
    ("model-systems-list", "get", API + "model-systems/", "research", None, None),
    ("model-systems-create", "post", API + "model-systems/", "research", lambda w, r: {"name": f"sys-{r}"}, "json"),
    ("model-responses-list", "get", API + "model-responses/", "research", None, None),
    ("model-responses-upload", "post", API + "model-responses/", "research",
     lambda w, r: [{"system": f"m-{r}", "question_id": "pq1", "mode": "free", "answer": "Canberra"}], "json"),
    ("human-responses-list", "get", API + "responses/", "research", None, None),
    ("dashboard", "get", API + "dashboard/", "research", None, None),
    ("export-responses", "get", API + "export/responses/?as=csv", "research", None, None),
    ("export-bundle", "get", API + "export/bundle/", "research", None, None),
]


def _outcome(status: int, *, page: bool = False) -> str | int:
    if 200 <= status < 300:
        return "ok"
    if page and status == 302:
        return "anon"
    if not page and status in (401, 403):
        return status  # resolved below for anonymous callers
    return status


@pytest.mark.parametrize(("method", "path", "level", "payload", "fmt"),
                         [pytest.param(*e[1:], id=e[0]) for e in ENDPOINTS])
def test_api_permission_matrix(world, method, path, level, payload, fmt):
    got, want = {}, {}
    for role in ROLES:
        client = _api_client(world, role)
        kwargs = {}
        if payload is not None:
            kwargs = {"data": payload(world, role), "format": fmt}
        response = getattr(client, method)(path, **kwargs)
        outcome = _outcome(response.status_code)
        if role == "anonymous" and response.status_code in (401, 403):
            outcome = "anon"
        got[role] = outcome
        want[role] = EXPECTED[level][role]
    assert got == want


PAGES = [
    ("workspace", "frontend:workspace", ()),
    ("dashboard", "frontend:dashboard", ()),
    ("dashboard-csv", "frontend:dashboard_table", ("category", "csv")),
    ("dashboard-chart", "frontend:dashboard_chart", ("headline", "svg")),
    ("responses", "frontend:responses", ()),
    ("questions", "frontend:questions", ()),
    ("question", "frontend:question", ("pq1",)),
    ("export-csv", "frontend:export_responses", ("csv",)),
]


@pytest.mark.parametrize(("name", "args"), [pytest.param(p[1], p[2], id=p[0]) for p in PAGES])
def test_page_permission_matrix_matches_api(client, world, name, args):
    got, want = {}, {}
    url = reverse(name, args=["private", *args])
    for role in ROLES:
        client.logout()
        if role != "anonymous":
            client.force_login(world["users"][role])
        got[role] = _outcome(client.get(url).status_code, page=True)
        want[role] = EXPECTED["research"][role]
    assert got == want


def test_token_post_is_refused_to_non_members_for_unsafe_writes_too(world):
    """A researcher of another project cannot write here, and nothing is written."""
    from quiz.models import ModelSystem

    client = _api_client(world, "other_researcher")
    response = client.post(API + "model-systems/", {"name": "intruder"}, format="json")
    assert response.status_code == 404
    assert not ModelSystem.objects.filter(name="intruder").exists()
