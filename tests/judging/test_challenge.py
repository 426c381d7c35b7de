"""Player challenges: only the answer's own player, only after a wrong verdict; into the queue."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from judging import services
from judging.models import Challenge, ChallengeStatus, HumanJudgement
from tests.judging.django_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db


def _challenge(client, response, text="Robin is Batman's partner, close enough"):
    return client.post(
        reverse("judging:challenge_submit", args=[response.project.slug]),
        data=json.dumps({"response_id": response.pk, "text": text}),
        content_type="application/json",
    )


def test_player_challenges_own_wrong_answer(client, judged, people):
    client.force_login(people.alice)
    reply = _challenge(client, judged.alice_wrong)
    assert reply.status_code == 201, reply.content
    challenge = Challenge.objects.get(response=judged.alice_wrong)
    assert (challenge.status, challenge.by, challenge.text) == (
        ChallengeStatus.OPEN, people.alice, "Robin is Batman's partner, close enough",
    )
    again = _challenge(client, judged.alice_wrong, text="again")
    assert again.status_code == 200 and again.json()["id"] == challenge.pk
    assert Challenge.objects.count() == 1


@pytest.mark.parametrize(
    ("who", "target", "status"),
    [
        pytest.param("bob", "alice_wrong", 404, id="another-player"),
        pytest.param("researcher", "alice_wrong", 404, id="researcher-not-the-player"),
        pytest.param("researcher", "model_grey", 404, id="model-answer"),
        pytest.param("outsider", "alice_wrong", 404, id="other-project-member"),
        pytest.param("bob", "bob_right", 400, id="already-correct"),
        pytest.param(None, "alice_wrong", 403, id="anonymous"),
    ],
)
def test_challenge_refused(client, judged, people, who, target, status):
    if who:
        client.force_login(getattr(people, who))
    reply = _challenge(client, getattr(judged, target))
    assert reply.status_code == status, reply.content
    assert "error" in reply.json()
    assert not Challenge.objects.exists()


def test_challenge_needs_csrf_token(judged, people):
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(people.alice)
    assert _challenge(csrf_client, judged.alice_wrong).status_code == 403


@pytest.mark.parametrize(
    "body",
    [pytest.param(b"not json", id="not-json"), pytest.param(b"[]", id="not-object"),
     pytest.param(b"{}", id="no-response-id")],
)
def test_challenge_bad_body(client, judged, people, body):
    client.force_login(people.alice)
    reply = client.post(reverse("judging:challenge_submit", args=["t"]), data=body,
                        content_type="application/json")
    assert reply.status_code == 400


def test_challenge_reaches_queue_and_override_resolves_it(client, judged, people):
    client.force_login(people.alice)
    _challenge(client, judged.alice_wrong)
    client.force_login(people.researcher)
    page = client.get(reverse("judging:adjudicate", args=["t"]))
    assert page.status_code == 200
    assert "Robin is Batman&#x27;s partner" in page.content.decode()
    reply = client.post(
        reverse("judging:response_adjudicate", args=["t", judged.alice_wrong.pk]),
        {"correct": "1", "note": "accepting sidekick"},
    )
    assert reply.status_code == 302
    challenge = Challenge.objects.get(response=judged.alice_wrong)
    assert (challenge.status, challenge.resolved_by) == (ChallengeStatus.UPHELD, people.researcher)
    assert challenge.judgement.note == "accepting sidekick" and challenge.resolved_at is not None


@pytest.mark.parametrize(
    ("upheld", "status"),
    [pytest.param(True, ChallengeStatus.UPHELD, id="upheld"),
     pytest.param(False, ChallengeStatus.REJECTED, id="rejected")],
)
def test_challenge_resolve_service(judged, people, upheld, status):
    challenge, created = services.challenge_submit(response=judged.alice_wrong, by=people.alice, text="")
    assert created
    resolved = services.challenge_resolve(challenge=challenge, by=people.researcher, upheld=upheld, note="n")
    assert resolved.status == status
    judgement = HumanJudgement.objects.get(response=judged.alice_wrong)
    assert (judgement.correct, judgement.source, judgement.by) == (upheld, "challenge", people.researcher)
    with pytest.raises(services.JudgingError):
        services.challenge_resolve(challenge=resolved, by=people.researcher, upheld=True)


def test_cannot_challenge_after_human_said_correct(judged, people):
    services.override_set(response=judged.alice_wrong, correct=True, by=people.researcher)
    with pytest.raises(services.JudgingError):
        services.challenge_submit(response=judged.alice_wrong, by=people.alice)
