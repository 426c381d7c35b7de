"""The quiz REST API: round trip, bulk upload errors, clips, questions, tokens, OpenAPI schema."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from rest_framework.test import APIClient

from quiz.models import Clip, Question, Response

pytestmark = pytest.mark.django_db

BASE = "/api/v1/projects/t/"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    from django.core.cache import cache

    cache.clear()  # dashboard results are cached by data version; start each test empty
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def researcher(imported):
    from accounts.models import Role
    from accounts.services import membership_set, user_create

    user = user_create(username="api-researcher", password="pw-123456!")
    membership_set(project=imported, user=user, role=Role.RESEARCHER)
    return user


@pytest.fixture
def api(researcher):
    from rest_framework.authtoken.models import Token

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=researcher).key}")
    return client


OUTPUTS = [
    {"system": "roundtrip-alm", "condition": "audio+text", "question_id": "q1", "mode": "free", "answer": "Canberra"},
    {"system": "roundtrip-alm", "condition": "audio+text", "question_id": "q2", "mode": "free",
     "answer": "It is Bruce Wayne"},
    {"system": "roundtrip-alm", "condition": "audio+text", "question_id": "q1", "mode": "mcq", "choice": "A"},
    {"system": "roundtrip-alm", "condition": "text-only", "question_id": "q3", "mode": "mcq", "choice": "Ode to Joy"},
]


def test_round_trip_upload_judged_and_on_the_dashboard(api):
    """Upload model outputs → judged with the same code as humans → counted on the dashboard."""
    created = api.post(BASE + "model-responses/", OUTPUTS, format="json")
    assert created.status_code == 201, created.content
    assert created.json() == {"created": 4, "updated": 0, "unchanged": 0}
    listed = api.get(BASE + "model-responses/", {"system": "roundtrip-alm", "ordering": "id"}).json()
    verdicts = {(r["question"], r["mode"], r["condition"]): r["correct"] for r in listed["results"]}
    assert verdicts == {("q1", "free", "audio+text"): True, ("q2", "free", "audio+text"): True,
                        ("q1", "mcq", "audio+text"): False, ("q3", "mcq", "text-only"): True}
    assert all(r["rule"] and r["explanation"] for r in listed["results"])
    dashboard = api.get(BASE + "dashboard/").json()
    assert dashboard["counts"]["responses"] == 4 and dashboard["counts"]["model_systems"] == 1
    head = {row["mode"]: row for row in dashboard["tables"]["headline"]}
    assert (head["free"]["model_n"], head["free"]["model_correct"]) == (2, 2)
    assert (head["mcq"]["model_n"], head["mcq"]["model_correct"]) == (2, 1)
    conditions = {row["group"]: row for row in dashboard["tables"]["condition"]}
    assert conditions["text-only"]["mcq_accuracy"] == 1.0
    # Filtered like the page.
    only_text = api.get(BASE + "dashboard/", {"condition": "text-only"}).json()
    assert only_text["counts"]["responses"] == 1
    # Re-uploading the same outputs changes nothing.
    again = api.post(BASE + "model-responses/", OUTPUTS, format="json")
    assert again.json() == {"created": 0, "updated": 0, "unchanged": 4}


def test_upload_jsonl_body(api):
    body = "\n".join(json.dumps(r) for r in OUTPUTS[:2]) + "\n"
    response = api.generic("POST", BASE + "model-responses/", body, content_type="application/x-ndjson")
    assert response.status_code == 201, response.content
    assert response.json()["created"] == 2


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        pytest.param([OUTPUTS[0], {**OUTPUTS[1], "question_id": "nope"}],
                     [{"line": 2, "field": "question_id"}], id="unknown-question"),
        pytest.param([{**OUTPUTS[0], "mode": "essay"}, {**OUTPUTS[2], "option_order": [0, 0, 1, 2]}],
                     [{"line": 1, "field": "mode"}, {"line": 2, "field": "option_order"}], id="bad-mode-and-order"),
        pytest.param([OUTPUTS[0], {**OUTPUTS[2], "choice": "Z"}], [{"line": 2, "field": "choice"}],
                     id="not-an-option"),
        pytest.param([OUTPUTS[0], OUTPUTS[0]], [{"line": 2, "field": "question_id"}], id="duplicate"),
        pytest.param([{"question_id": "q1", "mode": "free", "answer": "x"}], [{"line": 1, "field": "system"}],
                     id="missing-system"),
    ],
)
def test_upload_reports_every_bad_line_and_writes_nothing(api, rows, expected):
    response = api.post(BASE + "model-responses/", rows, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [{"line": e["line"], "field": e["field"]} for e in errors] == expected
    assert all(e["message"] for e in errors)
    assert not Response.objects.exists()


def test_upload_rejects_a_body_that_is_not_a_list(api):
    response = api.post(BASE + "model-responses/", {"system": "x"}, format="json")
    assert response.status_code == 400 and "body" in response.json()


def test_clip_upload_checks_audio_and_size(api, wav, settings):
    ok = api.post(BASE + "clips/", {"file": SimpleUploadedFile("new.wav", wav(880), "audio/wav")}, format="multipart")
    assert ok.status_code == 201, ok.content
    assert ok.json()["duration_s"] == pytest.approx(0.5, abs=0.01)
    assert "new.wav" not in Clip.objects.get(public_id=ok.json()["public_id"]).file.name
    same = api.post(BASE + "clips/", {"file": SimpleUploadedFile("again.wav", wav(880), "audio/wav")}, format="multipart")
    assert same.status_code == 200  # deduplicated by content
    corrupt = api.post(BASE + "clips/", {"file": SimpleUploadedFile("bad.wav", b"RIFF....garbage", "audio/wav")},
                       format="multipart")
    assert corrupt.status_code == 400 and "file" in corrupt.json()
    wrong_type = api.post(BASE + "clips/", {"file": SimpleUploadedFile("x.txt", b"hello", "text/plain")},
                          format="multipart")
    assert wrong_type.status_code == 400 and "unsupported" in wrong_type.json()["file"][0]
    missing = api.post(BASE + "clips/", {}, format="multipart")
    assert missing.status_code == 400 and "file" in missing.json()
    settings.EARSHOT_MAX_UPLOAD_BYTES = 1000
    big = api.post(BASE + "clips/", {"file": SimpleUploadedFile("big.wav", wav(990), "audio/wav")}, format="multipart")
    assert big.status_code == 400 and "limit" in big.json()["file"][0]


def test_question_create_update_and_filter(api, wav):
    clip = api.post(BASE + "clips/", {"file": SimpleUploadedFile("n.wav", wav(777), "audio/wav")},
                    format="multipart").json()["public_id"]
    payload = {"external_id": "api-1", "prompt": "Which bird?", "answerline": "Robin", "category": "Birds",
               "choices": ["Robin", "Wren", "Owl", "Crow"], "correct_choice": 0, "clips": [clip], "source": "api"}
    created = api.post(BASE + "questions/", payload, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["clips"] == [clip] and created.json()["category"] == "Birds"
    duplicate = api.post(BASE + "questions/", payload, format="json")
    assert duplicate.status_code == 400 and "external_id" in duplicate.json()
    bad = api.post(BASE + "questions/", {**payload, "external_id": "api-2", "choices": ["a"]}, format="json")
    assert bad.status_code == 400 and "choices" in bad.json()
    unknown_clip = api.post(BASE + "questions/", {**payload, "external_id": "api-3", "clips": ["nope"]}, format="json")
    assert unknown_clip.status_code == 400 and "clips" in unknown_clip.json()
    patched = api.patch(BASE + "questions/api-1/", {"prompt": "Which songbird?"}, format="json")
    assert patched.status_code == 200 and patched.json()["prompt"] == "Which songbird?"
    assert Question.objects.get(external_id="api-1").answerline == "Robin"
    listed = api.get(BASE + "questions/", {"source": "api"}).json()
    assert [q["external_id"] for q in listed["results"]] == ["api-1"]
    ordered = api.get(BASE + "questions/", {"ordering": "-external_id"}).json()
    assert [q["external_id"] for q in ordered["results"]] == ["q3", "q2", "q1", "api-1"]
    assert ordered["count"] == 4 and "next" in ordered  # paginated envelope


def test_human_responses_are_pseudonymous(api, imported):
    from accounts.services import contact_set, guest_create
    from quiz.services import responder_for_user, response_submit

    user = guest_create(handle="quiet-wren-5")
    user.email = "secret@example.org"
    user.save()
    contact_set(user=user, email="secret@example.org")
    responder = responder_for_user(project=imported, user=user)
    response_submit(responder=responder, question=Question.objects.get(external_id="q2"), mode="free",
                    client_token="t1", answer_text="Batman")
    body = api.get(BASE + "responses/").content.decode()
    assert "quiet-wren-5" in body
    assert user.username not in body and "secret@example.org" not in body


def test_token_endpoint_and_projects_list(researcher):
    client = APIClient()
    token = client.post("/api/v1/auth/token/", {"username": "api-researcher", "password": "pw-123456!"},
                        format="json")
    assert token.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    projects = client.get("/api/v1/projects/").json()
    assert [(p["slug"], p["role"]) for p in projects["results"]] == [("t", "researcher")]
    assert client.get("/api/v1/projects/t/").json()["slug"] == "t"


def test_openapi_schema_is_valid(tmp_path):
    """The CI check: the schema generates with no warning and validates against OpenAPI 3."""
    out = tmp_path / "openapi.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert text.startswith("openapi: 3")
    for path in ("/api/v1/projects/{slug}/model-responses/", "/api/v1/projects/{slug}/clips/",
                 "/api/v1/projects/{slug}/dashboard/", "/api/v1/projects/{slug}/questions/{external_id}/"):
        assert path in text


def test_api_docs_page_needs_no_network(client):
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "cdn." not in html and "unpkg" not in html
    import re

    external = [u for u in re.findall(r"""(?:src|href)=["']([^"']+)""", html) if u.startswith(("http:", "https:", "//"))]
    assert external == []
    redoc = client.get("/api/v1/redoc/").content.decode()
    assert "redoc.standalone.js" in redoc and "cdn." not in redoc  # the sidecar bundle, logo made local


def test_question_api_takes_five_options_and_a_counterfactual_key(api, wav):
    clip = api.post(BASE + "clips/", {"file": SimpleUploadedFile("k.wav", wav(888), "audio/wav")},
                    format="multipart").json()["public_id"]
    payload = {"external_id": "kcsat-1", "prompt": "Who is right?", "answerline": "E", "category": "KCSAT",
               "choices": ["A1", "B1", "C1", "D1", "E1"], "correct_choice": 4, "clips": [clip],
               "counterfactual_answerline": "B1"}
    created = api.post(BASE + "questions/", payload, format="json")
    assert created.status_code == 201, created.content
    body = api.get(BASE + "questions/kcsat-1/").json()
    assert body["correct_choice"] == 4 and body["counterfactual_answerline"] == "B1"
    eleven = api.post(BASE + "questions/", {**payload, "external_id": "k-2", "choices": [str(i) for i in range(11)]},
                      format="json")
    assert eleven.status_code == 400 and "choices" in eleven.json()
