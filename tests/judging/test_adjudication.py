"""The adjudication page and the judging REST API: queue, overrides, trail, permissions."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from judging.models import HumanJudgement, JudgementSource
from quiz.models import Response
from tests.judging.django_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db

PAGES = [
    pytest.param("judging:adjudicate", False, id="queue"),
    pytest.param("judging:response_adjudicate", True, id="trail"),
    pytest.param("judging:agreement", False, id="agreement"),
]


def _url(name, with_response, judged, slug="t"):
    args = [slug, judged.model_grey.pk] if with_response else [slug]
    return reverse(name, args=args)


@pytest.mark.parametrize(("name", "with_response"), PAGES)
@pytest.mark.parametrize(
    ("who", "status"),
    [
        pytest.param(None, 302, id="anonymous-login"),
        pytest.param("alice", 403, id="participant"),
        pytest.param("outsider", 404, id="researcher-of-another-project"),
        pytest.param("researcher", 200, id="researcher"),
    ],
)
def test_research_pages_permissions(client, judged, people, name, with_response, who, status):
    if who:
        client.force_login(getattr(people, who))
    reply = client.get(_url(name, with_response, judged))
    assert reply.status_code == status
    if status == 302:
        assert reply["Location"].startswith(reverse("accounts:login"))


def test_queue_lists_grey_zone_with_explanation(client, judged, people):
    client.force_login(people.researcher)
    html = client.get(reverse("judging:adjudicate", args=["t"])).content.decode()
    grey = judged.model_grey
    assert "I am fairly sure it is the caped crusader" in html
    assert "Dark Knight" in html  # the answerline
    assert grey.explanation.replace("'", "&#x27;").replace('"', "&quot;") in html
    assert "calibrated" in html  # the rule
    assert 'name="csrfmiddlewaretoken"' in html
    assert "Bruce Wayne</dd>" not in html  # bob's confident verdict is not in the queue
    # A narrower grey zone leaves it out.
    narrow = client.get(reverse("judging:adjudicate", args=["t"]) + "?low=0.6&high=0.7").content.decode()
    assert "caped crusader" not in narrow


def test_override_from_page_is_stored_and_leaves_queue(client, judged, people):
    client.force_login(people.researcher)
    url = reverse("judging:response_adjudicate", args=["t", judged.model_grey.pk])
    reply = client.post(url, {"correct": "1", "note": "epithet of Batman", "next": "/p/t/adjudicate/"})
    assert reply.status_code == 302 and reply["Location"] == "/p/t/adjudicate/"
    judgement = HumanJudgement.objects.get(response=judged.model_grey)
    assert (judgement.correct, judgement.by, judgement.note, judgement.source) == (
        True, people.researcher, "epithet of Batman", JudgementSource.ADJUDICATION,
    )
    html = client.get(reverse("judging:adjudicate", args=["t"])).content.decode()
    assert "caped crusader" not in html.split('id="trail-h"')[0]
    assert "epithet of Batman" in html  # the trail
    trail = client.get(url).content.decode()
    assert "epithet of Batman" in trail and "res" in trail
    # a model responder's label already names its condition: said once, not twice
    assert "gpt-audio (audio+text)</dd>" in trail and "(audio+text) (audio+text)" not in trail
    # The automatic verdict itself is untouched.
    assert Response.objects.get(pk=judged.model_grey.pk).correct is False


@pytest.mark.parametrize(
    ("data", "next_url", "location"),
    [
        pytest.param({"correct": "maybe"}, "", "/p/t/adjudicate/", id="invalid-choice"),
        pytest.param({"correct": "0"}, "https://evil.example/", "/p/t/adjudicate/", id="open-redirect"),
    ],
)
def test_override_form_validation(client, judged, people, data, next_url, location):
    client.force_login(people.researcher)
    reply = client.post(
        reverse("judging:response_adjudicate", args=["t", judged.model_grey.pk]), {**data, "next": next_url}
    )
    assert reply.status_code == 302 and reply["Location"] == location
    assert HumanJudgement.objects.count() == (1 if data["correct"] == "0" else 0)


@pytest.mark.parametrize(
    ("who", "slug", "status"),
    [
        pytest.param("alice", "t", 403, id="participant"),
        pytest.param("outsider", "t", 404, id="other-project-researcher"),
        pytest.param("outsider", "private", 404, id="response-of-another-project"),
    ],
)
def test_override_post_refused(client, judged, people, who, slug, status):
    client.force_login(getattr(people, who))
    reply = client.post(reverse("judging:response_adjudicate", args=[slug, judged.model_grey.pk]), {"correct": "1"})
    assert reply.status_code == status
    assert not HumanJudgement.objects.exists()


def test_override_post_needs_csrf(judged, people):
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(people.researcher)
    reply = csrf_client.post(reverse("judging:response_adjudicate", args=["t", judged.model_grey.pk]), {"correct": "1"})
    assert reply.status_code == 403 and not HumanJudgement.objects.exists()


# ------------------------------------------------------------------------ REST API

API = [
    pytest.param("judging-verdicts", id="verdicts"),
    pytest.param("judging-overrides", id="overrides"),
    pytest.param("judging-challenges", id="challenges"),
    pytest.param("judging-agreement", id="agreement"),
]


@pytest.mark.parametrize("name", API)
@pytest.mark.parametrize(
    ("who", "status"),
    [
        pytest.param(None, 401, id="anonymous"),  # no credentials: 401 (M-13)
        pytest.param("alice", 403, id="participant"),
        pytest.param("outsider", 404, id="researcher-of-another-project"),
        pytest.param("researcher", 200, id="researcher"),
    ],
)
def test_api_permission_matrix(client, judged, people, name, who, status):
    if who:
        client.force_login(getattr(people, who))
    assert client.get(reverse(name, args=["t"])).status_code == status


def test_api_override_create_and_effective_verdicts(client, judged, people):
    client.force_login(people.researcher)
    url = reverse("judging-overrides", args=["t"])
    reply = client.post(url, {"response_id": judged.model_grey.pk, "correct": True, "quality": 4, "note": "ok"},
                        content_type="application/json")
    assert reply.status_code == 201, reply.content
    assert reply.json()["by"] == "res" and reply.json()["source"] == "api"
    listed = client.get(url).json()
    assert listed["count"] == 1 and listed["results"][0]["quality"] == 4
    verdicts = client.get(reverse("judging-verdicts", args=["t"]) + "?source=human").json()
    assert [(v["response_id"], v["effective_correct"], v["rules_correct"]) for v in verdicts["results"]] == [
        (judged.model_grey.pk, True, False)
    ]
    grey = client.get(reverse("judging-verdicts", args=["t"]) + "?min_score=0.3&max_score=0.7").json()
    assert [v["response_id"] for v in grey["results"]] == [judged.model_grey.pk]


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param({"correct": True}, id="no-response"),
        pytest.param({"response_id": 10_000, "correct": True}, id="unknown-response"),
        pytest.param({"response_id": "RID", "correct": True, "quality": 9}, id="quality-out-of-range"),
    ],
)
def test_api_override_validation(client, judged, people, payload):
    client.force_login(people.researcher)
    if payload.get("response_id") == "RID":
        payload = {**payload, "response_id": judged.model_grey.pk}
    reply = client.post(reverse("judging-overrides", args=["t"]), payload, content_type="application/json")
    assert reply.status_code == 400
    assert not HumanJudgement.objects.exists()


def test_api_participant_cannot_override(client, judged, people):
    client.force_login(people.alice)
    reply = client.post(reverse("judging-overrides", args=["t"]), {"response_id": judged.alice_wrong.pk, "correct": True},
                        content_type="application/json")
    assert reply.status_code == 403 and not HumanJudgement.objects.exists()
