"""``parquet_safe``: missing values stay null, mixed columns become strings or numbers."""

from __future__ import annotations

import io
import math

import pandas as pd
import pyarrow.parquet as pq

from frontend.exports import parquet_safe, table_bytes


def test_dashboard_parquet_keeps_nulls_and_types():
    table = pd.DataFrame({
        "name": ["a", None, "c", math.nan],
        "mixed": ["x", 1, None, 2.5],
        "numbers": pd.Series([1, None, 3, 4], dtype=object),
        "tags": [["a"], None, [], ["b", "c"]],
    })
    back = pq.read_table(io.BytesIO(table_bytes(table, "parquet"))).to_pandas()
    assert list(back["name"].isna()) == [False, True, False, True]
    assert back["name"][0] == "a" and back["name"][2] == "c"
    assert list(back["mixed"].isna()) == [False, False, True, False]
    assert list(back["mixed"].dropna()) == ["x", "1", "2.5"]
    assert back["numbers"].dtype.kind == "f" and back["numbers"].isna().sum() == 1
    assert back["tags"].isna().tolist() == [False, True, False, False]
    assert "None" not in set(back["name"].dropna()) | set(back["mixed"].dropna())


def test_parquet_safe_leaves_the_input_alone():
    table = pd.DataFrame({"a": pd.Series(["x", None], dtype=object)})
    parquet_safe(table)
    assert table["a"][1] is None
