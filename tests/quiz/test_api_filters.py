"""Every REST list's filters: known values filter, unknown names or values answer 400.

Before, ``?mode=fre`` or ``?corect=true`` were ignored and the list came back whole,
so a script "counting the free answers" counted everything without noticing.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from quiz.models import Response

pytestmark = pytest.mark.django_db

P = "/api/v1/projects/t/"

#: (list URL, good query, bad query, the parameter the 400 names)
CASES = [
    pytest.param("/api/v1/projects/", {"ordering": "-name"}, {"ordering": "password"}, "ordering", id="projects-ordering"),
    pytest.param("/api/v1/projects/", {}, {"slug": "t"}, "slug", id="projects-unknown-name"),
    pytest.param(P + "questions/", {"active": "true"}, {"active": "maybe"}, "active", id="questions-active"),
    pytest.param(P + "questions/", {"mcq": "false"}, {"mcq": "2"}, "mcq", id="questions-mcq"),
    pytest.param(P + "questions/", {"category": "geo"}, {"category": "no-such-category"}, "category",
                 id="questions-category"),
    pytest.param(P + "questions/", {"source": "test-src"}, {"sourse": "test-src"}, "sourse", id="questions-typo"),
    pytest.param(P + "questions/", {"ordering": "-updated_at"}, {"ordering": "answerline"}, "ordering",
                 id="questions-ordering"),
    pytest.param(P + "clips/", {"ordering": "duration_s"}, {"ordering": "file"}, "ordering", id="clips-ordering"),
    pytest.param(P + "clips/", {}, {"format_": "x"}, "format_", id="clips-unknown-name"),
    pytest.param(P + "model-systems/", {"ordering": "name"}, {"ordering": "id; drop"}, "ordering",
                 id="model-systems-ordering"),
    pytest.param(P + "responses/", {"mode": "free"}, {"mode": "fre"}, "mode", id="responses-mode"),
    pytest.param(P + "responses/", {"correct": "1"}, {"correct": "yes please"}, "correct", id="responses-correct"),
    pytest.param(P + "responses/", {"question": "q1"}, {"system": "m"}, "system", id="responses-system-is-for-models"),
    pytest.param(P + "responses/", {"ordering": "-latency_ms"}, {"ordering": "answer_text"}, "ordering",
                 id="responses-ordering"),
    pytest.param(P + "model-responses/", {"system": "m", "condition": "c"}, {"mode": "essay"}, "mode",
                 id="model-responses-mode"),
    pytest.param(P + "model-responses/", {"correct": "false"}, {"corect": "false"}, "corect",
                 id="model-responses-typo"),
    pytest.param(P + "dashboard/", {"mode": "mcq", "category": "geo"}, {"mode": "both"}, "mode", id="dashboard-mode"),
    pytest.param(P + "dashboard/", {"condition": "text-only"}, {"category": "nope"}, "category",
                 id="dashboard-category"),
    pytest.param(P + "dashboard/", {"source": "test-src"}, {"kind": "human"}, "kind", id="dashboard-unknown-name"),
    pytest.param(P + "export/responses/", {"as": "jsonl", "mode": "free"}, {"as": "xlsx"}, "as", id="export-as"),
    pytest.param(P + "export/responses/", {"as": "csv"}, {"mode": "x"}, "mode", id="export-mode"),
    pytest.param(P + "judging/verdicts/", {"mode": "free", "source": "rules", "min_score": "0.5"},
                 {"source": "oracle"}, "source", id="verdicts-source"),
    pytest.param(P + "judging/verdicts/", {"max_score": "1"}, {"min_score": "NaN"}, "min_score", id="verdicts-nan"),
    pytest.param(P + "judging/verdicts/", {"max_score": "0.9"}, {"max_score": "high"}, "max_score",
                 id="verdicts-number"),
    pytest.param(P + "judging/verdicts/", {"mode": "mcq"}, {"mode": "MCQ!"}, "mode", id="verdicts-mode"),
    pytest.param(P + "judging/overrides/", {}, {"correct": "true"}, "correct", id="overrides-unknown-name"),
    pytest.param(P + "judging/challenges/", {"status": "open"}, {"status": "pending-ish"}, "status",
                 id="challenges-status"),
    pytest.param(P + "irt/fits/", {}, {"status": "done"}, "status", id="irt-fits-unknown-name"),
    pytest.param(P + "campaigns/", {}, {"status": "open"}, "status", id="campaigns-unknown-name"),
    pytest.param(P + "campaigns/c1/ratings/", {}, {"rater": "x"}, "rater", id="ratings-unknown-name"),
]


@pytest.fixture
def api(imported):
    from accounts.models import Role
    from accounts.services import membership_set, user_create
    from annotation import services as annotation
    from quiz.models import Category
    from quiz.services import model_responses_import

    Category.objects.filter(project=imported, name="Cultural Geography in Sound").update(slug="geo")
    user = user_create(username="filters-researcher", password="pw-123456!")
    membership_set(project=imported, user=user, role=Role.RESEARCHER)
    annotation.campaign_create(project=imported, name="C1", slug="c1")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "o.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in [
            {"system": "m", "condition": "c", "question_id": "q1", "mode": "free", "answer": "Canberra"},
            {"system": "m", "condition": "c", "question_id": "q2", "mode": "free", "answer": "Robin"},
        ]))
        model_responses_import(project=imported, path=path)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("url,good,bad,param", CASES)
def test_list_filters_reject_unknown_names_and_values(api, url, good, bad, param):
    ok = api.get(url, good)
    assert ok.status_code == 200, (ok.status_code, ok.content[:300])
    refused = api.get(url, bad)
    assert refused.status_code == 400, (refused.status_code, refused.content[:300])
    body = refused.json()
    assert param in body and body[param][0]


def test_known_filters_still_filter(api):
    every = api.get(P + "model-responses/").json()["count"]
    assert every == Response.objects.count() == 2
    right = api.get(P + "model-responses/", {"correct": "true"}).json()
    assert [r["question"] for r in right["results"]] == ["q1"]
    wrong = api.get(P + "model-responses/", {"correct": "false"}).json()
    assert [r["question"] for r in wrong["results"]] == ["q2"]
    no_mcq = api.get(P + "questions/", {"mcq": "false"}).json()
    assert [q["external_id"] for q in no_mcq["results"]] == ["q2"]
    geo = api.get(P + "questions/", {"category": "geo"}).json()
    assert [q["external_id"] for q in geo["results"]] == ["q1"]
    assert api.get(P + "questions/", {"page": "1", "format": "json"}).status_code == 200


def test_filters_are_in_the_openapi_schema(tmp_path):
    from django.core.management import call_command

    out = tmp_path / "openapi.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    import yaml

    schema = yaml.safe_load(out.read_text())
    params = {p["name"] for p in schema["paths"]["/api/v1/projects/{slug}/model-responses/"]["get"]["parameters"]}
    assert {"mode", "question", "correct", "system", "condition", "ordering"} <= params
