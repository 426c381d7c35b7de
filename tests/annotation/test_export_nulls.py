"""Parquet exports keep nulls null: under pandas 2.2 ``astype(str)`` wrote the string
"None" for every missing value (pyproject admits pandas >= 2.2)."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest
from django.urls import reverse

from tests.annotation.test_campaign_report import mos_campaign, researcher_client  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("table", ["ratings", "mos", "raters", "exclusions", "decisions", "agreement"])
def test_parquet_export_nulls_match_the_json_export(researcher_client, mos_campaign, table):  # noqa: F811
    campaign, _ = mos_campaign

    def get(fmt: str) -> bytes:
        resp = researcher_client.get(reverse("annotation:campaign_export", args=["t", campaign.slug, table, fmt]))
        assert resp.status_code == 200
        return resp.content

    rows = json.loads(get("json"))
    frame = pd.read_parquet(io.BytesIO(get("parquet")))
    assert len(frame) == len(rows)
    nulls_seen = 0
    for column in frame.columns:
        expected = [row.get(column) is None for row in rows]
        got = [bool(v) for v in frame[column].isna()]
        assert got == expected, column
        nulls_seen += sum(expected)
        written = [v for v in frame[column] if isinstance(v, str)]
        assert "None" not in written and "nan" not in written, column
    assert nulls_seen >= 0


def test_parquet_export_writes_missing_values_as_nulls(researcher_client, mos_campaign, monkeypatch):  # noqa: F811
    """A table with missing values in text columns (e.g. an unanswered criterion)."""
    import annotation.exports

    campaign, _ = mos_campaign
    table = pd.DataFrame({
        "item_id": ["i0", "i1", "i2"],
        "comment": ["fine", None, float("nan")],
        "decision": [None, "keep", "tie"],
        "value": [None, 3, "4"],
    })
    monkeypatch.setattr(annotation.exports, "report_table", lambda c, t, **_: table.copy())
    resp = researcher_client.get(reverse("annotation:campaign_export", args=["t", campaign.slug, "mos", "parquet"]))
    back = pd.read_parquet(io.BytesIO(resp.content))
    assert back["comment"].isna().tolist() == [False, True, True]
    assert back["decision"].isna().tolist() == [True, False, False]
    assert back["value"].isna().tolist() == [True, False, False]
    assert back["comment"][0] == "fine" and list(back["value"][1:]) == ["3", "4"]
