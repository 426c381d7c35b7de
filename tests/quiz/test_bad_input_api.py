"""The audit's REST cases (M-3, M-4 ratings, M-7, M-8, F-10), table-driven.

Every case answers JSON: 2xx when the input is fine, 4xx with the field named when it
is not, never a 500; a refused request leaves every table and the media folder as
they were. Model-output and item uploads answer the command line's problems as
``{"errors": [{"line", "unit", "field", "message", "text"}]}``.
"""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from quiz import synth

from .test_bad_input_cli import _state

pytestmark = pytest.mark.django_db

P = "/api/v1/projects/t/"
OUT = {"system": "m", "condition": "c", "question_id": "q2", "mode": "free", "answer": "Batman"}
LONG = "x" * 121


def _trunc_wav() -> bytes:
    fmt = struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16)
    return (b"RIFF" + struct.pack("<I", 100_036) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", 100_000) + b"\x00" * 500)


def _slow_wav() -> bytes:
    import soundfile as sf

    buf = io.BytesIO()
    sf.write(buf, np.zeros(1000, dtype=np.float32), 1, format="WAV", subtype="PCM_16")
    return buf.getvalue()


def outputs(rows, **kw):
    return lambda c, ctx: c.post(P + "model-responses/", rows, format="json", **kw)


def ndjson(body: bytes):
    return lambda c, ctx: c.generic("POST", P + "model-responses/", body, content_type="application/x-ndjson")


def clip(name: str, make):
    return lambda c, ctx: c.post(P + "clips/", {"file": SimpleUploadedFile(name, make(), "audio/wav")},
                                 format="multipart")


def question(body, method="post", path="questions/"):
    return lambda c, ctx: getattr(c, method)(P + path, body, format="json")


def raw_json(path: str, text: str, method: str = "POST"):
    return lambda c, ctx: c.generic(method, P + path, text.encode("utf-8", "surrogatepass"),
                                    content_type="application/json")


def items(rows, name="items.jsonl", audio=()):
    def call(c, ctx):
        text = json.dumps(rows) if name.endswith(".json") else "\n".join(json.dumps(r) for r in rows)
        files = [SimpleUploadedFile(n, data) for n, data in audio]
        return c.post(P + "campaigns/listen/items/import/",
                      {"items": SimpleUploadedFile(name, text.encode()), "audio": files}, format="multipart")
    return call


def rate(**changes):
    def call(c, ctx):
        body = {"assignment": ctx["assignment"], "values": {"mos": "4"}, "client_token": "tok-1", **changes}
        return c.post(P + "campaigns/listen/ratings/submit/", body, format="json")
    return call


ITEM = {"id": "it-9", "response": "a reply", "system": "tts"}

# (call, expected status)
CASES = [
    # model-output upload: JSON list (errors name "item N") and JSON lines
    pytest.param(outputs([{**OUT, "answer": "a\x00b"}]), 400, "item 1: answer", id="out-nul-answer"),
    pytest.param(outputs([{**OUT, "system": LONG}]), 400, "item 1: system", id="out-system-too-long"),
    pytest.param(outputs([{**OUT, "condition": "c" * 61}]), 400, "item 1: condition", id="out-condition-too-long"),
    pytest.param(outputs([{**OUT, "latency_ms": 10**12}]), 400, "item 1: latency_ms", id="out-latency-1e12"),
    pytest.param(raw_json("model-responses/", json.dumps([{**OUT, "answer": "\ud800"}])), 400, "item 1: answer",
                 id="out-lone-surrogate"),
    pytest.param(outputs([OUT, {**OUT, "question_id": "q1", "client_token": "import:m:c:q2:free"}]), 400,
                 "item 2: client_token", id="out-token-collides"),
    pytest.param(outputs([OUT, 5]), 400, "item 2: ", id="out-row-not-object"),
    pytest.param(outputs({"system": "x"}), 400, "body", id="out-not-a-list"),
    pytest.param(outputs([{**OUT, "system": "Qwen2-Audio-7B-Instruct-2024-09",
                           "condition": "audio+text-transcript-only"},
                          {**OUT, "system": "Qwen2-Audio-7B-Instruct-2024-09",
                           "condition": "audio+text-transcript-only", "question_id": "q1", "answer": "Canberra"}]),
                 201, "", id="out-long-names-f10"),
    pytest.param(ndjson((json.dumps(OUT)[:-1] + ', "latency_ms": NaN}\n').encode()), 400, "upload.jsonl:1: latency_ms",
                 id="ndjson-latency-nan"),
    pytest.param(ndjson((json.dumps(OUT)[:-1] + ', "latency_ms": Infinity}\n').encode()), 400,
                 "upload.jsonl:1: latency_ms", id="ndjson-latency-infinity"),
    pytest.param(ndjson(b'{"system": "m\xff\xfe"}\n'), 400, "UTF-8", id="ndjson-invalid-utf8"),
    pytest.param(ndjson(b'{"system": "m", ' + b"[" * 3000 + b"\n"), 400, "upload.jsonl:1:", id="ndjson-deep"),
    pytest.param(outputs([OUT], QUERY_STRING="allow_empty=perhaps"), 400, "allow_empty", id="out-allow-empty-bad"),
    # clips (M-7)
    pytest.param(clip("t.wav", _trunc_wav), 400, "truncated", id="clip-truncated"),
    pytest.param(clip("s.wav", _slow_wav), 400, "sample rate 1 Hz", id="clip-1-hz"),
    pytest.param(clip("g.wav", lambda: b"RIFF garbage" * 40), 400, "unreadable", id="clip-garbage"),
    pytest.param(clip("a.m4a", lambda: synth.encoded_bytes(synth.tone(440, 1.0), ".m4a", sr=synth.SR)), 201, "",
                 id="clip-m4a"),
    pytest.param(clip("a.opus", lambda: synth.encoded_bytes(np.full(48000, 0.01, np.float32), ".opus", sr=48000)),
                 201, "", id="clip-opus"),
    pytest.param(clip("n\x00ame.wav", lambda: synth.wav_bytes(synth.tone(300, 0.5))), 201, "", id="clip-nul-name"),
    # questions (M-8 and lengths / NUL / JSON)
    pytest.param(question({"external_id": "n1", "prompt": "p", "answerline": "a", "category": "c",
                           "choices": ["a", "a", "a", "a"], "correct_choice": 0}), 400, "distinct",
                 id="question-identical-options"),
    pytest.param(question({"choices": []}, "patch", "questions/q1/"), 400, "correct_choice",
                 id="question-patch-drops-options-keeps-correct"),
    pytest.param(question({"choices": [], "correct_choice": None}, "patch", "questions/q1/"), 200, "",
                 id="question-patch-drops-options-and-correct"),
    pytest.param(question({"choices": ["w", "x", "y", "z"]}, "patch", "questions/q2/"), 400, "correct",
                 id="question-patch-options-without-correct"),
    pytest.param(question({"correct_choice": 3}, "patch", "questions/q1/"), 200, "", id="question-patch-correct"),
    pytest.param(question({"external_id": LONG, "prompt": "p", "answerline": "a", "category": "c"}), 400,
                 "external_id", id="question-id-too-long"),
    pytest.param(raw_json("questions/", '{"external_id": "n2", "prompt": "p\\u0000", "answerline": "a", '
                          '"category": "c"}'), 400, "NUL", id="question-nul-prompt"),
    pytest.param(raw_json("questions/", '{"external_id": "n3", "prompt": "p", "answerline": "a", "category": "c", '
                          '"metadata": {"k": "\\u0000"}}'), 400, "NUL", id="question-nul-metadata"),
    pytest.param(raw_json("questions/", '{"external_id": "n4", "prompt": "\\ud800", "answerline": "a", '
                          '"category": "c"}'), 400, "surrogate", id="question-lone-surrogate"),
    pytest.param(raw_json("questions/", '{"external_id": "n5", "prompt": "p", "answerline": "a", "category": "c", '
                          '"metadata": {"k": NaN}}'), 400, "JSON", id="question-nan-metadata"),
    pytest.param(question({"external_id": "n6", "prompt": "p", "answerline": "a", "category": "c",
                           "pyramidal": True}), 400, "pyramidal", id="question-pyramid-without-clips"),
    # campaign items (multipart upload)
    pytest.param(items([{**ITEM, "context": "a\x00b"}]), 400, "items.jsonl:1: context", id="items-nul-context"),
    pytest.param(items([{**ITEM, "source": "s" * 201}]), 400, "items.jsonl:1: source", id="items-source-too-long"),
    pytest.param(items([ITEM, {**ITEM, "id": "it-10"}], name="items.json"), 201, "", id="items-json-array"),
    pytest.param(items([ITEM, {**ITEM, "kind": "nonsense"}], name="items.json"), 400, "items.json:item 2: kind",
                 id="items-json-array-bad-item"),
    pytest.param(items([{**ITEM, "audio": "t.wav"}], audio=[("t.wav", _trunc_wav())]), 400, "truncated",
                 id="items-truncated-audio"),
    pytest.param(items([ITEM], name="???"), 201, "", id="items-name-of-odd-characters"),
    # ratings (M-4: NUL and odd types in request parsing)
    pytest.param(rate(client_token="t\x00k"), 400, "client_token", id="rate-nul-token"),
    pytest.param(rate(comments={"mos": "nice\x00"}), 400, "comments", id="rate-nul-comment"),
    pytest.param(rate(values={"mos": "4\x00"}), 400, "values", id="rate-nul-value"),
    pytest.param(rate(assignment=["x"]), 400, "assignment", id="rate-assignment-list"),
    pytest.param(rate(values="4"), 400, "values", id="rate-values-string"),
    pytest.param(rate(), 201, "", id="rate-ok"),
    pytest.param(lambda c, ctx: c.post(P + "campaigns/", {"name": "bad\x00", "slug": "bad"}, format="json"), 400,
                 "NUL", id="campaign-nul-name"),
]


@pytest.fixture
def ctx(imported, bank_dir):
    from accounts.models import Role
    from accounts.services import membership_set, user_create
    from annotation import services as annotation

    user = user_create(username="bad-input-researcher", password="pw-123456!")
    membership_set(project=imported, user=user, role=Role.RESEARCHER)
    campaign = annotation.campaign_create(project=imported, name="Listening", slug="listen")
    folder = Path(bank_dir) / "items"
    folder.mkdir()
    (folder / "items.jsonl").write_text(json.dumps({"id": "it-1", "response": "hello", "system": "tts"}) + "\n")
    annotation.items_import(campaign=campaign, path=folder / "items.jsonl")
    annotation.campaign_set_status(campaign=campaign, status="open")
    client = APIClient()
    client.force_authenticate(user)
    served = client.post(P + "campaigns/listen/next/", {"consent": True}, format="json")
    assert served.status_code == 200, served.content
    return {"client": client, "assignment": served.json()["assignment"]}


@pytest.mark.parametrize("call,status,text", CASES)
def test_rest_case_is_json_and_never_a_500(ctx, call, status, text):
    client = ctx["client"]
    before = _state()
    response = call(client, ctx)
    assert response.status_code == status, response.content[:600]
    assert response["Content-Type"].startswith("application/json")
    body = response.content.decode("utf-8", "replace")
    assert text in body, body[:600]
    assert "object at 0x" not in body and "Traceback" not in body
    if status >= 400:
        assert _state() == before
    if "errors" in response.json():
        for error in response.json()["errors"]:
            assert set(error) == {"line", "unit", "field", "message", "text"}


def test_token_rating_with_nul_is_a_400(ctx):
    """Token calls take the PostgreSQL fast path, which must not send a NUL to the database either."""
    from rest_framework.authtoken.models import Token

    from accounts.models import User

    token = Token.objects.create(user=User.objects.get(username="bad-input-researcher"))
    raw = APIClient()
    raw.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    for body in ({"client_token": "t\x00k"}, {"comments": {"mos": "\x00"}}, {"assignment": "a\x00"}):
        response = raw.post(P + "campaigns/listen/ratings/submit/",
                            {"assignment": ctx["assignment"], "values": {"mos": "4"}, "client_token": "t1", **body},
                            format="json")
        assert response.status_code == 400, response.content


def test_browser_rate_endpoint_refuses_nul_with_a_400(ctx, client):
    """M-4, rating part: the campaign page's JSON endpoint, same checks as the API."""
    from django.urls import reverse

    from accounts.models import User

    client.force_login(User.objects.get(username="bad-input-researcher"))
    url = reverse("annotation:rate", args=["t", "listen"])
    for extra in ({"client_token": "t\x00k"}, {"comments": {"mos": "x\x00"}}, {"assignment": "\x00"}):
        body = {"assignment": ctx["assignment"], "values": {"mos": "4"}, "client_token": "t1", **extra}
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code == 400, response.content
        assert response.json()["error"]["field"] in ("client_token", "comments.mos", "assignment")
