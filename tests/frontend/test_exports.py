"""Exports: table formats, streamed responses (never materialised), report bundle, no PII anywhere."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pandas as pd
import pyarrow.parquet as pq
import pytest
from django.core.management import call_command
from django.db.models.query import QuerySet
from django.urls import reverse

from frontend import exports, report_bundle
from frontend.dashboard import Filters

from .conftest import PII

pytestmark = pytest.mark.django_db


def _secrets(dash) -> list[str]:
    """Everything that identifies a person and must never leave the server."""
    values = []
    for username, email, _handle in PII.values():
        values += [username, email, email.split("@")[0]]
    values += ["rita.researcher-secret", "rita@private.example", "FirstH1", "LastH1", "pay me"]
    return values


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.fixture
def researcher_client(client, dash):
    client.force_login(dash.researcher)
    return client


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_responses_export_is_complete_and_pseudonymous(researcher_client, dash, fmt):
    response = researcher_client.get(reverse("frontend:export_responses", args=[dash.project.slug, fmt]))
    assert response.status_code == 200
    assert response.streaming  # StreamingHttpResponse / FileResponse: sent in chunks
    body = _body(response)
    if fmt == "csv":
        frame = pd.read_csv(io.BytesIO(body))
    elif fmt == "jsonl":
        frame = pd.DataFrame([json.loads(line) for line in body.decode().splitlines()])
    else:
        frame = pq.read_table(io.BytesIO(body)).to_pandas()
    assert len(frame) == 29
    assert list(frame.columns) == list(exports.RESPONSE_COLUMNS)
    assert set(frame.loc[frame["kind"] == "human", "responder"]) == {h for _, _, h in PII.values()}
    text = body.decode("utf-8", errors="replace") if fmt != "parquet" else frame.to_csv()
    for secret in _secrets(dash):
        assert secret not in text


def test_export_respects_dashboard_filters(researcher_client, dash):
    url = reverse("frontend:export_responses", args=[dash.project.slug, "csv"])
    frame = pd.read_csv(io.BytesIO(_body(researcher_client.get(url, {"mode": "mcq"}))))
    assert len(frame) == 11 and set(frame["mode"]) == {"mcq"}


def test_streaming_export_reads_through_a_server_side_cursor(dash, monkeypatch):
    """The export asks the ORM for an iterator (chunked cursor) and never evaluates the queryset."""
    calls = []
    original_iterator = QuerySet.iterator

    def spy_iterator(self, chunk_size=None):
        calls.append(chunk_size)
        return original_iterator(self, chunk_size=chunk_size)

    def refuse_fetch_all(self):
        raise AssertionError("the export materialised the whole queryset")

    monkeypatch.setattr(QuerySet, "iterator", spy_iterator)
    monkeypatch.setattr(QuerySet, "_fetch_all", refuse_fetch_all)
    rows = exports.responses_rows(dash.project, Filters(), chunk_size=7)
    stream = exports.csv_stream(rows, batch=5)
    first = next(stream)
    assert first.startswith(b"response_id,question_id")
    assert calls == [7]
    chunks = list(stream)
    assert len(chunks) == 6  # 29 rows in batches of 5: one chunk at a time, not one big string
    assert sum(chunk.count(b"\n") for chunk in chunks) == 29


def test_parquet_export_is_written_in_row_groups(dash):
    handle = exports.parquet_file(exports.responses_rows(dash.project), row_group=10)
    parquet = pq.ParquetFile(handle)
    assert parquet.metadata.num_rows == 29
    assert parquet.metadata.num_row_groups == 3


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
@pytest.mark.parametrize("table", ["headline", "category", "models", "mcq_positions", "agreement", "unsolved"])
def test_table_exports_parse_and_hold_no_pii(researcher_client, dash, table, fmt):
    response = researcher_client.get(reverse("frontend:dashboard_table", args=[dash.project.slug, table, fmt]))
    assert response.status_code == 200
    body = response.content
    if fmt == "csv":
        frame = pd.read_csv(io.BytesIO(body))
    elif fmt == "json":
        frame = pd.DataFrame(json.loads(body))
    else:
        frame = pd.read_parquet(io.BytesIO(body))
    assert len(frame) >= 1
    text = frame.to_csv()
    for secret in _secrets(dash):
        assert secret not in text


def test_report_bundle_contents_and_manifest(researcher_client, dash, tmp_path):
    response = researcher_client.get(reverse("frontend:export_bundle", args=[dash.project.slug]))
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(_body(response)))
    names = {n.split("/", 1)[1] for n in archive.namelist()}
    assert {"report.html", "manifest.json", "figures/headline.svg", "figures/headline.png",
            "figures/category.svg", "tables/headline.csv", "tables/models.csv", "tables/category.csv",
            "tables/agreement.csv", "tables/mcq_positions.csv"} <= names
    prefix = f"{dash.project.slug}-report/"
    manifest = json.loads(archive.read(prefix + "manifest.json"))
    assert manifest["rule_versions"] == ["test-1"]
    assert len(manifest["data_hash"]) == 64
    assert manifest["fit_ids"] == []
    assert {o["section"] for o in manifest["omitted"]} >= {"irt", "annotation"}
    # The report names the study design the human scores were collected under.
    assert manifest["quiz_study"]["design"] == "between" and manifest["quiz_study"]["feedback"] == "full"
    assert manifest["quiz_study"]["selection"] == "random"
    assert "design <code>between</code>" in archive.read(prefix + "report.html").decode()
    for path, digest in manifest["files"].items():
        assert hashlib.sha256(archive.read(prefix + path)).hexdigest() == digest
    html = archive.read(prefix + "report.html").decode()
    assert "Humans vs models" in html and "Per-model ranking" in html
    assert "landis_koch" in archive.read(prefix + "tables/agreement.csv").decode()
    everything = b"".join(archive.read(n) for n in archive.namelist() if not n.endswith(".png")).decode()
    for secret in _secrets(dash):
        assert secret not in everything
    # The command writes the same data hash.
    out = tmp_path / "bundle.zip"
    call_command("project_report", dash.project.slug, "--out", str(out))
    again = json.loads(zipfile.ZipFile(out).read(prefix + "manifest.json"))
    assert again["data_hash"] == manifest["data_hash"]


def test_data_hash_changes_with_a_verdict(dash):
    from frontend.selectors import data_hash
    from quiz.models import Response

    before = data_hash(dash.project)
    response = Response.objects.filter(project=dash.project).first()
    Response.objects.filter(pk=response.pk).update(correct=not response.correct)
    assert data_hash(dash.project) != before


def test_report_bundle_build_is_reproducible(dash):
    files_a, _ = report_bundle.build(dash.project)
    files_b, _ = report_bundle.build(dash.project)
    for name in ("tables/category.csv", "figures/category.svg"):
        assert files_a[name] == files_b[name]


@pytest.mark.postgres
@pytest.mark.parametrize("as_json", [False, True], ids=["csv", "jsonl"])
def test_postgres_copy_export_equals_the_portable_export(dash, as_json):
    """On PostgreSQL the export is COPY ... TO STDOUT; it must match the cursor path value for value."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL COPY path: needs DATABASE_URL=postgres://...")
    from quiz.models import Response

    Response.objects.filter(pk=Response.objects.filter(project=dash.project).first().pk).update(
        explanation='a "quote", a back\\slash,\na new line and \x01')
    fast = b"".join(exports.postgres_csv_stream(dash.project, Filters(), as_json=as_json))
    rows = exports.responses_rows(dash.project, Filters())
    slow = b"".join(exports.jsonl_stream(rows) if as_json else exports.csv_stream(rows))
    if as_json:
        a = pd.DataFrame([json.loads(line) for line in fast.decode().splitlines()])
        b = pd.DataFrame([json.loads(line) for line in slow.decode().splitlines()])
    else:
        a, b = pd.read_csv(io.BytesIO(fast)), pd.read_csv(io.BytesIO(slow))
    assert len(a) == len(b) == 29
    pd.testing.assert_frame_equal(a, b, check_dtype=False)
