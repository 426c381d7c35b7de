"""Fixtures for the Django-side judging tests (players, researchers, judged answers, fake LLM).

tests/judging/conftest.py belongs to the pure-core tests, so these fixtures live in
this module and the Django-side test files import them with
``from tests.judging.django_fixtures import *``.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest

__all__ = ["FakeLlm", "answer", "fake_llm", "judged", "people"]


@pytest.fixture
def people(imported, private_project, make_user, settings):
    """Users with roles: two players, a researcher, a researcher of another project."""
    from accounts.services import membership_set

    # Fast hashing: the slow default hasher costs seconds per user on a busy machine.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    users = SimpleNamespace(
        alice=make_user(handle="alice"),
        bob=make_user(handle="bob"),
        researcher=make_user(handle="res"),
        outsider=make_user(handle="outsider"),
    )
    membership_set(project=imported, user=users.alice, role="participant")
    membership_set(project=imported, user=users.bob, role="participant")
    membership_set(project=imported, user=users.researcher, role="researcher")
    membership_set(project=private_project, user=users.outsider, role="researcher")
    return users


def answer(project, user_or_system, external_id: str, text: str, *, condition: str = "audio+text"):
    """Store (and judge) a free answer by a user or a model system name."""
    from quiz import services
    from quiz.models import Question

    if isinstance(user_or_system, str):
        responder = services.responder_for_model(project=project, system_name=user_or_system, condition=condition)
    else:
        responder = services.responder_for_user(project=project, user=user_or_system)
    question = Question.objects.get(project=project, external_id=external_id)
    response, _ = services.response_submit(
        responder=responder, question=question, mode="free",
        client_token=f"{responder.pk}:{external_id}", answer_text=text,
    )
    return response


@pytest.fixture
def judged(imported, people):
    """A few judged free answers: alice wrong, bob right, a model in the grey zone."""
    from quiz.models import Response

    r = SimpleNamespace(
        alice_wrong=answer(imported, people.alice, "q2", "Robin"),
        bob_right=answer(imported, people.bob, "q2", "Bruce Wayne"),
        model_grey=answer(imported, "gpt-audio", "q2", "I am fairly sure it is the caped crusader"),
        model_right=answer(imported, "gpt-audio", "q1", "Canberra"),
    )
    assert not r.alice_wrong.correct and r.bob_right.correct
    Response.objects.filter(pk=r.model_grey.pk).update(score=0.5, correct=False, rule="calibrated")
    r.model_grey.refresh_from_db()
    return r


# --------------------------------------------------------------------- fake LLM server


@dataclass
class FakeLlm:
    """State of the fake OpenAI-compatible server; tests tune it and read ``calls``."""

    url: str = ""
    calls: int = 0
    requests: list[dict] = field(default_factory=list)
    fail_first: int = 0          # answer ``fail_status`` to the first N requests
    fail_status: int = 500
    retry_after: str | None = None  # Retry-After header sent with those failures
    retry_after_ms: str | None = "5"  # retry-after-ms header (keeps the SDK's waits short)
    retry_counts: list[str] = field(default_factory=list)  # x-stainless-retry-count of each request
    sleep_first: int = 0         # sleep ``sleep_s`` before answering the first N requests
    sleep_s: float = 0.0
    reply: object = None         # callable(request_json) -> content string
    lock: threading.Lock = field(default_factory=threading.Lock)

    def content_for(self, body: dict) -> str:
        if callable(self.reply):
            return self.reply(body)
        return json.dumps({"correct": True, "reason": "It names Batman by his epithet."})


def _handler(state: FakeLlm):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # keep test output clean
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            with state.lock:
                state.calls += 1
                n = state.calls
                state.requests.append(body)
                state.retry_counts.append(self.headers.get("x-stainless-retry-count", ""))
            if not self.path.endswith("/chat/completions"):
                self.send_response(404)
                self.end_headers()
                return
            if n <= state.sleep_first:
                time.sleep(state.sleep_s)
            headers = {}
            if n <= state.fail_first:
                payload, code = {"error": {"message": "boom", "type": "server_error"}}, state.fail_status
                if state.retry_after is not None:
                    headers["Retry-After"] = state.retry_after
                if state.retry_after_ms is not None:
                    headers["retry-after-ms"] = state.retry_after_ms
            else:
                code = 200
                payload = {
                    "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": state.content_for(body)}}],
                    "usage": {"prompt_tokens": 50, "completion_tokens": 7, "total_tokens": 57},
                }
            data = json.dumps(payload).encode()
            try:
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler


@pytest.fixture
def fake_llm(settings):
    """A tiny OpenAI-compatible HTTP server on localhost, wired into the settings."""
    state = FakeLlm()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    settings.OPENAI_BASE_URL = state.url
    settings.OPENAI_API_KEY = "test-key"
    settings.EARSHOT_LLM_JUDGE_MODEL = "fake-judge"
    settings.EARSHOT_LLM_JUDGE_ENABLED = True
    settings.EARSHOT_LLM_JUDGE_TIMEOUT_S = 5.0
    yield state
    server.shutdown()
    server.server_close()
