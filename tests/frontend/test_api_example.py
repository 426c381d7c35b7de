"""Smoke test of docs/examples/upload_and_report.py against a live server (urllib, token auth)."""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "upload_and_report.py"


def _example():
    spec = importlib.util.spec_from_file_location("upload_and_report", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_example_uploads_outputs_and_downloads_reports(live_server, imported, tmp_path, capsys):
    from accounts.models import Role
    from accounts.services import membership_set, user_create

    user = user_create(username="script-user", password="pw-123456!")
    membership_set(project=imported, user=user, role=Role.RESEARCHER)
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text("\n".join(json.dumps(r) for r in [
        {"system": "script-alm", "question_id": "q1", "mode": "free", "answer": "Canberra"},
        {"system": "script-alm", "question_id": "q2", "mode": "free", "answer": "Superman"},
    ]) + "\n")
    example = _example()
    code = example.main([imported.slug, str(outputs), "--url", live_server.url, "--username", "script-user",
                         "--password", "pw-123456!", "--out", str(tmp_path / "out"), "--no-fit"])
    assert code == 0, capsys.readouterr()
    dashboard = json.loads((tmp_path / "out" / "dashboard.json").read_text())
    free = next(r for r in dashboard["tables"]["headline"] if r["mode"] == "free")
    assert (free["model_n"], free["model_correct"]) == (2, 1)
    assert "t-report/manifest.json" in zipfile.ZipFile(tmp_path / "out" / "bundle.zip").namelist()

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"system": "s", "question_id": "nope", "mode": "free", "answer": "x"}) + "\n")
    assert example.main([imported.slug, str(bad), "--url", live_server.url, "--username", "script-user",
                         "--password", "pw-123456!", "--no-fit"]) == 1
    assert "bad.jsonl:1: question_id: unknown question id 'nope'" in capsys.readouterr().err
