"""The audit's import cases (M-3, M-7, F-10), table-driven, through the three commands.

Every case either imports, or fails with ``FILE:LINE: field: message`` and a
``CommandError`` (never another exception), and a failure leaves every table and
the media folder exactly as they were. SQLite accepts NUL bytes and over-long
strings that PostgreSQL refuses, so these checks must happen before the database
sees the values; CI also runs this file on PostgreSQL.
"""

from __future__ import annotations

import hashlib
import io
import json
import struct
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from django.conf import settings
from django.core.management import CommandError, call_command

from quiz import synth

pytestmark = pytest.mark.django_db

LONG = "x" * 121
NUL = "a\x00b"
GOOD_Q = {"id": "new-1", "prompt": "p", "answerline": "a", "category": "c", "audio": "a.wav"}
GOOD_OUT = {"system": "m", "condition": "c", "question_id": "q2", "mode": "free", "answer": "Batman"}
GOOD_ITEM = {"id": "it-1", "audio": "a.wav", "system": "tts-a"}


def _wav_header(rate: int, data_bytes: int) -> bytes:
    fmt = struct.pack("<HHIIHH", 1, 1, rate, (rate * 2) % 2**32, 2, 16)
    return (b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", data_bytes))


def _wav(rate: int, frames: int) -> bytes:
    buf = io.BytesIO()
    sf.write(buf, np.zeros(frames, dtype=np.float32), rate, format="WAV", subtype="PCM_16")
    return buf.getvalue()


AUDIO = {
    "trunc.wav": lambda: _wav_header(16000, 100_000) + b"\x00" * 500,
    "one.wav": lambda: _wav(16000, 1),
    "slow.wav": lambda: _wav(1, 1000),
    "fast.wav": lambda: _wav_header(2_147_483_647, 1000) + b"\x00" * 1000,
    "huge-rate.wav": lambda: _wav_header(4_000_000_000, 1000) + b"\x00" * 1000,
    "clip.m4a": lambda: synth.encoded_bytes(synth.tone(440, 1.0), ".m4a", sr=synth.SR),
    "clip.opus": lambda: synth.encoded_bytes(np.zeros(48000, dtype=np.float32) + 0.01, ".opus", sr=48000),
}


def q(**fields):
    return [{**GOOD_Q, **fields}]


def out(*rows):
    return [{**GOOD_OUT, **r} for r in rows]


# (command, file name, rows or raw text, expected: "ok" or "LINE: field" / "item N: field")
CASES = [
    # ---- quiz_import: lengths (model max_length), NUL, bad numbers, JSON, duplicates
    pytest.param("bank", "b.jsonl", q(id=LONG), "1: id", id="bank-id-too-long"),
    pytest.param("bank", "b.jsonl", q(category=LONG), "1: category", id="bank-category-too-long"),
    pytest.param("bank", "b.jsonl", q(source=LONG), "1: source", id="bank-source-too-long"),
    pytest.param("bank", "b.jsonl", q(prompt="y" * 20_001), "1: prompt", id="bank-prompt-too-long"),
    pytest.param("bank", "b.jsonl", q(prompt=NUL), "1: prompt", id="bank-nul-prompt"),
    pytest.param("bank", "b.jsonl", q(answerline=NUL), "1: answerline", id="bank-nul-answerline"),
    pytest.param("bank", "b.jsonl", q(prompt="\ud800 lone"), "1: prompt", id="bank-lone-surrogate"),
    pytest.param("bank", "b.jsonl", '{"id": "n", "prompt": "p", "answerline": "a", "category": "c", '
                 '"audio": "a.wav", "metadata": {"score": NaN}}', "1: metadata.score", id="bank-metadata-nan"),
    pytest.param("bank", "b.jsonl", '{"id": "n", "prompt": "p", "answerline": "a", "category": "c", '
                 '"audio": "a.wav", "metadata": {"x": [1, Infinity]}}', "1: metadata.x[1]", id="bank-metadata-inf"),
    pytest.param("bank", "b.jsonl", q(metadata={"note": NUL}), "1: metadata.note", id="bank-metadata-nul"),
    pytest.param("bank", "b.jsonl", q(metadata=[1, 2]), "1: metadata", id="bank-metadata-list"),
    pytest.param("bank", "b.jsonl", '{"id": "n", "metadata": ' + "[" * 5000 + "]" * 5000 + "}", "1: malformed",
                 id="bank-deep-json"),
    pytest.param("bank", "b.jsonl", '{"id": "n", "metadata": {"n": ' + "9" * 5000 + "}}", "1: malformed",
                 id="bank-5000-digit-number"),
    pytest.param("bank", "b.jsonl", q(choices=["a", "a", "a", "a"], correct=0), "1: choices", id="bank-same-options"),
    pytest.param("bank", "b.jsonl", q(choices=["a", NUL, "c", "d"], correct=0), "1: choices[1]",
                 id="bank-nul-option"),
    pytest.param("bank", "b.jsonl", q(choices=[["a"], "b", "c", "d"], correct=1), "1: choices[0]",
                 id="bank-option-not-text"),
    pytest.param("bank", "b.jsonl", q(id=True), "1: id", id="bank-id-bool"),
    pytest.param("bank", "b.jsonl", q(audio={"file": "a.wav"}), "1: audio", id="bank-audio-object"),
    pytest.param("bank", "b.jsonl", [GOOD_Q, GOOD_Q], "2: id", id="bank-duplicate-id"),
    pytest.param("bank", "b.jsonl", q(audio="../../etc/passwd"), "1: audio", id="bank-path-traversal"),
    pytest.param("bank", "b.jsonl", q(audio="a\x00.wav"), "1: audio", id="bank-nul-audio-name"),
    pytest.param("bank", "b.jsonl", q(audio=["a.wav", 3]), "1: audio", id="bank-audio-list-of-number"),
    pytest.param("bank", "b.jsonl", q(audio="trunc.wav"), "1: audio", id="bank-truncated-wav"),
    pytest.param("bank", "b.jsonl", q(audio="one.wav"), "1: audio", id="bank-one-sample-wav"),
    pytest.param("bank", "b.jsonl", q(audio="slow.wav"), "1: audio", id="bank-1-hz-wav"),
    pytest.param("bank", "b.jsonl", q(audio="fast.wav"), "1: audio", id="bank-2-ghz-wav"),
    pytest.param("bank", "b.jsonl", q(audio="huge-rate.wav"), "1: audio", id="bank-4-ghz-wav"),
    pytest.param("bank", "b.jsonl", b"\xff\xfe not utf-8", "b.jsonl: file is not UTF-8", id="bank-not-utf8"),
    pytest.param("bank", "b.csv", "id,prompt,answerline,category,audio\nn,p\x00q,a,c,a.wav\n", "2: prompt",
                 id="bank-csv-nul"),
    pytest.param("bank", "b.csv", "id,prompt,answerline,category,audio\nn,\"" + "z" * 200_000 + "\",a,c,a.wav\n",
                 "2: malformed CSV", id="bank-csv-huge-field"),
    pytest.param("bank", "b.json", [GOOD_Q, 7], "item 2: ", id="bank-json-array-non-object"),
    pytest.param("bank", "b.json", [GOOD_Q, {**GOOD_Q, "id": "new-2", "prompt": ""}], "item 2: prompt",
                 id="bank-json-array-error-names-item"),
    pytest.param("bank", "b.json", [GOOD_Q, {**GOOD_Q, "id": "new-2", "audio": "clip.m4a"},
                                    {**GOOD_Q, "id": "new-3", "audio": "clip.opus"}], "ok",
                 id="bank-json-array-m4a-opus"),
    # ---- quiz_import_responses
    pytest.param("outputs", "o.jsonl", out({"system": LONG}), "1: system", id="out-system-too-long"),
    pytest.param("outputs", "o.jsonl", out({"condition": "c" * 61}), "1: condition", id="out-condition-too-long"),
    pytest.param("outputs", "o.jsonl", out({"question_id": LONG}), "1: question_id", id="out-question-id-too-long"),
    pytest.param("outputs", "o.jsonl", out({"answer": NUL}), "1: answer", id="out-nul-answer"),
    pytest.param("outputs", "o.jsonl", out({"system": NUL}), "1: system", id="out-nul-system"),
    pytest.param("outputs", "o.jsonl", json.dumps(GOOD_OUT)[:-1] + ', "latency_ms": NaN}', "1: latency_ms",
                 id="out-latency-nan"),
    pytest.param("outputs", "o.jsonl", json.dumps(GOOD_OUT)[:-1] + ', "latency_ms": Infinity}', "1: latency_ms",
                 id="out-latency-infinity"),
    pytest.param("outputs", "o.jsonl", out({"latency_ms": 10**12}), "1: latency_ms", id="out-latency-1e12"),
    pytest.param("outputs", "o.jsonl", out({"latency_ms": True}), "1: latency_ms", id="out-latency-bool"),
    pytest.param("outputs", "o.jsonl", out({"latency_ms": -5}), "1: latency_ms", id="out-latency-negative"),
    pytest.param("outputs", "o.jsonl", out({"client_token": "t"}, {"question_id": "q1", "client_token": "t"}),
                 "2: client_token", id="out-duplicate-token"),
    pytest.param("outputs", "o.jsonl", out({"client_token": "t" * 65}), "1: client_token", id="out-token-too-long"),
    pytest.param("outputs", "o.jsonl", out({"mode": "mcq", "question_id": "q1", "choice": "A",
                                            "option_order": ["a", 1, 2, 3]}), "1: option_order",
                 id="out-option-order-mixed"),
    pytest.param("outputs", "o.jsonl", out({"mode": "mcq", "question_id": "q1", "choice": {"x": 1}}), "1: choice",
                 id="out-choice-object"),
    pytest.param("outputs", "o.jsonl", out({"system": "Qwen2-Audio-7B-Instruct-2024-09",
                                            "condition": "audio+text-transcript-only"},
                                           {"system": "Qwen2-Audio-7B-Instruct-2024-09",
                                            "condition": "audio+text-transcript-only", "question_id": "q1",
                                            "answer": "Canberra"}), "ok", id="out-long-names-f10"),
    pytest.param("outputs", "o.json", out({}, {"question_id": "q1", "answer": "Canberra"}), "ok",
                 id="out-json-array"),
    pytest.param("outputs", "o.json", out({}, {"question_id": "nope"}), "item 2: question_id",
                 id="out-json-array-unknown-question"),
    pytest.param("outputs", "o.csv", "system,question_id,mode,answer,latency_ms\nm,q2,free,Batman,1e12\n",
                 "2: latency_ms", id="out-csv-latency-range"),
    pytest.param("outputs", "o.csv", "system,question_id,mode,answer,latency_ms\nm,q2,free,Batman,1200\n",
                 "ok", id="out-csv-latency-ok"),
    # ---- annotation_import
    pytest.param("items", "i.jsonl", [{**GOOD_ITEM, "source": "s" * 201}], "1: source", id="items-source-too-long"),
    pytest.param("items", "i.jsonl", [{**GOOD_ITEM, "system": LONG}], "1: system", id="items-system-too-long"),
    pytest.param("items", "i.jsonl", [{**GOOD_ITEM, "context": NUL}], "1: context", id="items-nul-context"),
    pytest.param("items", "i.jsonl", [{**GOOD_ITEM, "response": "\udfff"}], "1: response", id="items-surrogate"),
    pytest.param("items", "i.jsonl", json.dumps(GOOD_ITEM)[:-1] + ', "metadata": {"w": -Infinity}}',
                 "1: metadata.w", id="items-metadata-inf"),
    pytest.param("items", "i.jsonl", [GOOD_ITEM, GOOD_ITEM], "2: id", id="items-duplicate-id"),
    pytest.param("items", "i.jsonl", json.dumps({**GOOD_ITEM, "kind": "gold"})[:-1] + ', "gold": NaN}',
                 "1: expected", id="items-gold-nan"),
    pytest.param("items", "i.jsonl", [{**GOOD_ITEM, "audio": "trunc.wav"}], "1: audio", id="items-truncated-wav"),
    pytest.param("items", "i.jsonl", [{**GOOD_ITEM, "audio": 5}], "1: audio", id="items-audio-number"),
    pytest.param("items", "i.json", [GOOD_ITEM, {**GOOD_ITEM, "id": "it-2", "audio": "clip.opus"}], "ok",
                 id="items-json-array"),
    pytest.param("items", "i.json", "7", "i.json: a .json file must hold an array", id="items-json-number"),
    pytest.param("items", "i.json", json.dumps(GOOD_ITEM, indent=2), "ok", id="items-json-one-pretty-object"),
]


def _write(path: Path, rows) -> Path:
    if isinstance(rows, bytes):
        path.write_bytes(rows)
    elif isinstance(rows, str):
        path.write_text(rows + "\n", encoding="utf-8", errors="surrogatepass")
    elif path.suffix == ".json":
        path.write_text(json.dumps(rows), encoding="utf-8")
    else:
        path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def _state() -> tuple:
    """8 table counts, a digest of the question bank, and the media files."""
    from annotation.models import Item
    from quiz.models import Category, Clip, ModelSystem, Question, QuestionClip, Responder, Response

    counts = tuple(m.objects.count() for m in (Question, Clip, QuestionClip, Category, Response, Responder,
                                               ModelSystem, Item))
    bank = hashlib.sha256(repr(list(Question.objects.order_by("pk").values_list(
        "external_id", "prompt", "answerline", "choices", "correct_choice", "metadata"))).encode()).hexdigest()
    media = sorted(str(p) for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file())
    return counts, bank, media


@pytest.fixture
def campaign(imported):
    from annotation import services

    return services.campaign_create(project=imported, name="Listening", slug="listen")


@pytest.mark.parametrize("command,name,rows,expected", CASES)
def test_import_case_is_a_clear_error_or_accepted(imported, campaign, bank_dir, command, name, rows, expected):
    for audio_name, make in AUDIO.items():
        (bank_dir / audio_name).write_bytes(make())
    path = _write(bank_dir / name, rows)
    args = {
        "bank": ("quiz_import", str(path), "--project", "t"),
        "outputs": ("quiz_import_responses", str(path), "--project", "t"),
        "items": ("annotation_import", "listen", str(path), "--project", "t"),
    }[command]
    before = _state()
    stdout, stderr = io.StringIO(), io.StringIO()
    if expected == "ok":
        call_command(*args, stdout=stdout, stderr=stderr)
        assert _state() != before
        return
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command(*args, stdout=stdout, stderr=stderr)
    errors = stderr.getvalue()
    where = expected if expected.startswith(name) else f"{name}:{expected}"
    assert where in errors, errors[:2000]
    assert "Traceback" not in errors and "object at 0x" not in errors
    assert _state() == before


def test_long_model_names_get_distinct_stable_tokens(imported, tmp_path):
    """F-10: tokens for long names are hashed, distinct per question, and the same on re-import."""
    from quiz.importing import default_client_token
    from quiz.models import Response
    from quiz.services import model_responses_import

    system, condition = "Qwen2-Audio-7B-Instruct-2024-09", "audio+text-transcript-only"
    rows = out({"system": system, "condition": condition},
               {"system": system, "condition": condition, "question_id": "q1", "answer": "Canberra"},
               {"system": "m", "condition": "c", "question_id": "q1", "answer": "Canberra"})
    path = _write(tmp_path / "o.jsonl", rows)
    assert model_responses_import(project=imported, path=path).created == 3
    tokens = dict(Response.objects.values_list("question__external_id", "client_token").filter(
        responder__system__name=system))
    assert len(set(tokens.values())) == 2
    assert tokens["q2"] == default_client_token(system, condition, "q2", "free")
    assert tokens["q2"].startswith("import-h:") and len(tokens["q2"]) <= 64
    # Short names keep the readable token earlier imports stored.
    assert Response.objects.get(responder__system__name="m").client_token == "import:m:c:q1:free"
    again = model_responses_import(project=imported, path=path)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)


def test_given_token_clashing_with_a_stored_answer_is_refused(imported, tmp_path):
    from quiz.models import Response
    from quiz.services import model_responses_import

    first = _write(tmp_path / "a.jsonl", out({"client_token": "tok-1"}))
    model_responses_import(project=imported, path=first)
    second = _write(tmp_path / "b.jsonl", out({"question_id": "q1", "answer": "Canberra", "client_token": "tok-1"}))
    with pytest.raises(Exception) as err:
        model_responses_import(project=imported, path=second)
    assert "b.jsonl:1: client_token: 'tok-1' is already the token" in str(err.value)
    assert Response.objects.count() == 1
