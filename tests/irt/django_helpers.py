"""Fixtures and helpers for the Django side of IRT (imported by tests/irt/test_django_*.py).

``irt_data`` stores a tiny, hand-checkable response set on the ``imported`` bank
(questions q1, q2 [source test-src], q3): two humans and two model systems.

Free-form verdicts (1 = correct)::

             q1  q2  q3
    human-a   1   0   1
    human-b   0   0   .
    model-A   1   1   1
    model-B   0   1   0

plus one MCQ response (human-a, q1, correct) that a free-form fit must ignore.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest
from django.utils import timezone

FREE = {
    ("human-a", "q1"): 1, ("human-a", "q2"): 0, ("human-a", "q3"): 1,
    ("human-b", "q1"): 0, ("human-b", "q2"): 0,
    ("model-A", "q1"): 1, ("model-A", "q2"): 1, ("model-A", "q3"): 1,
    ("model-B", "q1"): 0, ("model-B", "q2"): 1, ("model-B", "q3"): 0,
}
_tokens = itertools.count()


@dataclass
class IrtData:
    project: object
    researcher: object
    participant: object
    responders: dict  # name -> Responder
    questions: dict  # external id -> Question
    responses: dict  # (name, qid) -> Response (free mode)


def add_response(responder, question, mode: str, correct: int, *, rule_version: str = "rules-test-1"):
    """Store one judged response directly (the verdict is given, not computed)."""
    from quiz.models import Response

    return Response.objects.create(
        project_id=question.project_id, question=question, responder=responder, mode=mode,
        answer_text="x", client_token=f"t{next(_tokens)}", correct=bool(correct),
        score=float(correct), rule="test", rule_version=rule_version, judged_at=timezone.now(),
    )


@pytest.fixture(autouse=True)
def django_test_settings(settings, tmp_path_factory):
    """tests/conftest.py's ``_test_settings`` again (tests/irt/conftest.py turns it off
    for the pure tests): media in a temporary folder, static files without a manifest (and a fast
    password hasher: these tests create many users).
    Test modules bind it as ``_test_settings`` so it overrides the folder's no-op."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast fixtures
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def irt_data(imported, make_user) -> IrtData:
    from accounts.models import Role
    from accounts.services import membership_set
    from quiz.models import Question
    from quiz.services import responder_for_model, responder_for_user

    project = imported
    researcher = make_user(handle="res-1", email="researcher@example.org")
    membership_set(project=project, user=researcher, role=Role.RESEARCHER)
    participant = make_user(handle="player-1", email="player@example.org")
    membership_set(project=project, user=participant, role=Role.PARTICIPANT)
    questions = {q.external_id: q for q in Question.objects.filter(project=project)}
    responders = {}
    for name in ("human-a", "human-b"):
        user = make_user(handle=name, email=f"{name}@secret.example")
        responders[name] = responder_for_user(project=project, user=user)
    responders["model-A"] = responder_for_model(project=project, system_name="model-A", condition="audio+text")
    responders["model-B"] = responder_for_model(project=project, system_name="model-B", condition="audio+text")
    responses = {
        (name, qid): add_response(responders[name], questions[qid], "free", ok)
        for (name, qid), ok in FREE.items()
    }
    add_response(responders["human-a"], questions["q1"], "mcq", 1)
    return IrtData(project, researcher, participant, responders, questions, responses)


def fast_result(subjects, items, correct, **kw):
    """A stand-in for :func:`irt.fit.fit` (page/permission tests need a stored fit,
    not statistics): theta = logit of smoothed accuracy, a = 1, b = -logit of the
    item's smoothed p-correct."""
    from irt.fit import IrtResult

    s, it, y = np.asarray(subjects), np.asarray(items), np.asarray(correct, dtype=float)
    n_s, n_i = kw.get("n_subjects") or s.max() + 1, kw.get("n_items") or it.max() + 1
    ps = (np.bincount(s, y, n_s) + 0.5) / (np.bincount(s, None, n_s) + 1)
    pi = (np.bincount(it, y, n_i) + 0.5) / (np.bincount(it, None, n_i) + 1)
    theta = np.log(ps / (1 - ps))
    progress = kw.get("progress")
    if progress is not None:
        progress(1, 2, 1.0)
        progress(2, 2, 0.5)
    return IrtResult(
        theta=theta, theta_sd=np.full(n_s, 0.5), theta_ci=np.stack([theta - 0.98, theta + 0.98], 1),
        a=np.ones(n_i), a_sd=np.full(n_i, 0.1), b=-np.log(pi / (1 - pi)), b_sd=np.full(n_i, 0.2),
        c=None, loss=np.array([1.0, 0.5]), method="map", model=kw.get("model", "2pl"),
        seed=kw.get("seed", 0), timings={"total": 0.0}, n_obs=int(s.size), warnings=["stand-in fit"],
    )


@pytest.fixture
def fast_fit(monkeypatch):
    """Replace the estimator by :func:`fast_result` inside the fit service."""
    import irt.services

    monkeypatch.setattr(irt.services, "irt_fit", fast_result)
    return fast_result


@pytest.fixture
def succeeded_fit(irt_data, fast_fit):
    """A stored, succeeded free-form fit of ``irt_data`` (stand-in estimator)."""
    from irt.services import irt_fit_create, irt_fit_run

    fit = irt_fit_create(project=irt_data.project, options={"mode": "free"}, by=irt_data.researcher, dispatch=False)
    fit = irt_fit_run(fit.pk)
    assert fit.status == "succeeded", fit.error
    return fit
