"""Shared fixtures: projects, users, generated audio, a small question bank."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser import browser, page  # noqa: F401 - shared browser fixtures

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path_factory):
    """Media in a temporary folder; static files without a collectstatic manifest."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def project(db):
    from accounts.services import project_create

    return project_create(slug="t", name="Test project", is_public=True)


@pytest.fixture
def private_project(db):
    from accounts.services import project_create

    return project_create(slug="private", name="Private project", is_public=False)


@pytest.fixture
def make_user(db):
    from accounts.services import user_create

    counter = {"n": 0}

    def make(**extra):
        counter["n"] += 1
        return user_create(username=f"user{counter['n']}", password="pw-123456!", **extra)

    return make


@pytest.fixture
def wav():
    """Make WAV bytes of a tone (numpy + soundfile)."""
    from quiz import synth

    def make(freq: float = 440.0, seconds: float = 0.5) -> bytes:
        return synth.wav_bytes(synth.tone(freq, seconds))

    return make


@pytest.fixture
def bank_dir(tmp_path, wav):
    """A folder with three clips and a valid 3-question bank.jsonl."""
    (tmp_path / "a.wav").write_bytes(wav(440))
    (tmp_path / "b.wav").write_bytes(wav(550))
    (tmp_path / "c.wav").write_bytes(wav(660))
    rows = [
        {"id": "q1", "prompt": "Which city?", "answerline": "Canberra [accept Canberra, ACT]",
         "category": "Cultural Geography in Sound", "audio": "a.wav",
         "choices": ["Sydney", "Canberra", "Melbourne", "Perth"], "correct": 1},
        {"id": "q2", "prompt": "Who is this?", "answerline": "Batman [accept Bruce Wayne or Dark Knight]",
         "category": "Who's Who? Name That Persona", "audio": ["b.wav"], "source": "test-src"},
        {"id": "q3", "prompt": "Name the piece", "answerline": "Ode to Joy [prompt on Beethoven]",
         "category": "Name The Music: Songs, Artists & Composers", "audio": ["a.wav", "b.wav", "c.wav"],
         "pyramidal": True, "choices": [{"text": "Ode to Joy", "correct": True}, {"text": "Für Elise"},
                                        {"text": "Canon"}, {"text": "Bolero"}]},
    ]
    (tmp_path / "bank.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return tmp_path


@pytest.fixture
def imported(project, bank_dir):
    from quiz.services import bank_import

    bank_import(project=project, path=bank_dir / "bank.jsonl")
    return project
