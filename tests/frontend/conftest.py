"""A hand-built project whose every dashboard number is computed by hand in the tests.

Three questions (from the shared ``imported`` bank): q1 (MCQ, Cultural Geography,
no source), q2 (free only, Who's Who, source "test-src"), q3 (pyramidal with MCQ,
Name The Music, no source). Three human players and three model responders:
``alpha (audio+text)``, ``alpha (text-only)``, ``beta (audio+text)``.

Verdicts are set directly (not judged) so the expected numbers depend on this
table only::

    responder  q1 free  q2 free  q3 free (clue)  q1 mcq (pos, choice)  q3 mcq (pos, choice)
    H1         ✓        ✗        ✓ (0)           ✓ (0, 1)              ✓ (1, 0)
    H2         ✓        ✗        ✗ (2)           ✗ (0, 0)              ✓ (0, 0)
    H3         ✗        ✗        ✗ (1)           ✗ (2, 2)              —
    M1 alpha/a+t ✓      ✗        ✓               ✓ (1, 1)              ✗ (1, 1)
    M2 alpha/txt ✗      ✗        ✗               ✗ (0, 0)              ✗ (2, 2)
    M3 beta/a+t  ✓      ✓        ✗               ✓ (1, 1)              ✓ (0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.utils import timezone

Y, N = True, False

HUMAN_ROWS = {
    "H1": [("q1", "free", Y, None, None, None), ("q2", "free", N, None, None, None), ("q3", "free", Y, 0, None, None),
           ("q1", "mcq", Y, None, 0, 1), ("q3", "mcq", Y, None, 1, 0)],
    "H2": [("q1", "free", Y, None, None, None), ("q2", "free", N, None, None, None), ("q3", "free", N, 2, None, None),
           ("q1", "mcq", N, None, 0, 0), ("q3", "mcq", Y, None, 0, 0)],
    "H3": [("q1", "free", N, None, None, None), ("q2", "free", N, None, None, None), ("q3", "free", N, 1, None, None),
           ("q1", "mcq", N, None, 2, 2)],
}
MODEL_ROWS = {
    ("alpha", "audio+text"): [("q1", "free", Y), ("q2", "free", N), ("q3", "free", Y), ("q1", "mcq", Y, 1), ("q3", "mcq", N, 1)],
    ("alpha", "text-only"): [("q1", "free", N), ("q2", "free", N), ("q3", "free", N), ("q1", "mcq", N, 0), ("q3", "mcq", N, 2)],
    ("beta", "audio+text"): [("q1", "free", Y), ("q2", "free", Y), ("q3", "free", N), ("q1", "mcq", Y, 1), ("q3", "mcq", Y, 0)],
}

#: Fixture people: usernames and e-mails that must never appear in an export.
PII = {
    "H1": ("alice.secret-username", "alice@private.example", "swift-otter-1"),
    "H2": ("bob.secret-username", "bob@private.example", "calm-heron-2"),
    "H3": ("carol.secret-username", "carol@private.example", "misty-lynx-3"),
}


@dataclass
class Dash:
    project: object
    humans: dict
    models: dict
    researcher: object
    participant: object


def _response(project, question, responder, mode, correct, *, clue=None, pos=None, choice=None, token=""):
    from quiz.models import Response

    return Response.objects.create(
        project=project, question=question, responder=responder, mode=mode,
        answer_text="x" if mode == "free" else question.choices[choice], choice=choice,
        choice_position=pos, option_order=[0, 1, 2, 3] if mode == "mcq" else [], clue_index=clue,
        client_token=token, correct=correct, score=1.0 if correct else 0.0, rule="test", rule_version="test-1",
        explanation="set by the fixture", judged_at=timezone.now(),
    )


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    from django.core.cache import cache

    cache.clear()  # dashboard results are cached by data version; start each test empty
    """Fixture users are created with passwords; hash them cheaply in tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def dash(imported):
    from accounts.models import Role
    from accounts.services import contact_set, membership_set, user_create
    from quiz.models import Question
    from quiz.services import responder_for_model, responder_for_user

    project = imported
    questions = {q.external_id: q for q in Question.objects.filter(project=project)}
    humans = {}
    for key, rows in HUMAN_ROWS.items():
        username, email, handle = PII[key]
        user = user_create(username=username, password="pw-123456!", handle=handle, email=email,
                           first_name=f"First{key}", last_name=f"Last{key}")
        contact_set(user=user, email=email, payment_note="pay me")
        membership_set(project=project, user=user, role=Role.PARTICIPANT)
        responder = responder_for_user(project=project, user=user)
        humans[key] = responder
        for i, (qid, mode, correct, clue, pos, choice) in enumerate(rows):
            _response(project, questions[qid], responder, mode, correct, clue=clue, pos=pos, choice=choice,
                      token=f"{key}-{i}")
    models = {}
    for (system, condition), rows in MODEL_ROWS.items():
        responder = responder_for_model(project=project, system_name=system, condition=condition)
        models[(system, condition)] = responder
        for i, row in enumerate(rows):
            qid, mode, correct = row[:3]
            choice = row[3] if len(row) > 3 else None
            _response(project, questions[qid], responder, mode, correct, pos=choice, choice=choice,
                      token=f"{system}-{condition}-{i}")
    researcher = user_create(username="rita.researcher-secret", password="pw-123456!", handle="res-handle",
                             email="rita@private.example")
    membership_set(project=project, user=researcher, role=Role.RESEARCHER)
    participant = humans["H1"].user
    return Dash(project, humans, models, researcher, participant)
