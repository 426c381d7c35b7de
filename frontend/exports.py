"""Exports: dashboard tables as CSV/JSON/Parquet, and all responses streamed.

Only pseudonymous identifiers leave the server: responder ids and labels (a
player's public handle, a model's "system (condition)"), never usernames,
e-mail addresses, names or IP addresses — those live in ``accounts.User`` /
``accounts.ContactInfo`` and are never selected here.

The responses export never holds the whole table: rows come from a server-side
cursor (``.iterator(chunk_size=...)``) and go out as they are formatted (CSV and
JSONL via :class:`~django.http.StreamingHttpResponse`); Parquet is written in row
groups to a temporary file with :class:`pyarrow.parquet.ParquetWriter` and then
streamed from disk.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from django.db.models import QuerySet

from accounts.models import Project

from .csv_safety import escape_frame, escape_row, sql_escape
from .dashboard import Filters
from .selectors import responses_filtered

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "jsonl": "application/x-ndjson",
    "parquet": "application/vnd.apache.parquet",
    "svg": "image/svg+xml",
    "png": "image/png",
    "zip": "application/zip",
}

#: Exported response columns → ORM path. Pseudonymous only (see module docstring).
RESPONSE_COLUMNS: dict[str, str] = {
    "response_id": "id",
    "question_id": "question__external_id",
    "category": "question__category__name",
    "source": "question__source",
    "responder_id": "responder_id",
    "responder": "responder__label",
    "kind": "responder__kind",
    "system": "responder__system__name",
    "condition": "responder__condition",
    "mode": "mode",
    "answer_text": "answer_text",
    "choice": "choice",
    "choice_position": "choice_position",
    "clue_index": "clue_index",
    "clue_time_s": "clue_time_s",
    "stage": "stage",
    "design": "design",
    "feedback": "feedback",
    "prompted": "prompted",
    "outcome": "outcome",
    "buzz_position": "buzz_position",
    "listened_fraction": "listened_fraction",
    "protocol_version": "responder__enrolment__protocol_version",
    "latency_ms": "latency_ms",
    "correct": "verdict",
    "auto_correct": "correct",
    "prompt": "prompt",
    "score": "score",
    "rule": "rule",
    "rule_version": "rule_version",
    "matched": "matched",
    "explanation": "explanation",
    "created_at": "created_at",
}

ARROW_SCHEMA = pa.schema([
    ("response_id", pa.int64()), ("question_id", pa.string()), ("category", pa.string()),
    ("source", pa.string()), ("responder_id", pa.int64()), ("responder", pa.string()),
    ("kind", pa.string()), ("system", pa.string()), ("condition", pa.string()), ("mode", pa.string()),
    ("answer_text", pa.string()), ("choice", pa.int16()), ("choice_position", pa.int16()),
    ("clue_index", pa.int16()), ("clue_time_s", pa.float64()), ("stage", pa.int16()),
    ("design", pa.string()), ("feedback", pa.string()), ("prompted", pa.bool_()),
    ("outcome", pa.string()), ("buzz_position", pa.float64()),
    ("listened_fraction", pa.float64()), ("protocol_version", pa.int32()), ("latency_ms", pa.int64()), ("correct", pa.bool_()),
    ("auto_correct", pa.bool_()), ("prompt", pa.bool_()), ("score", pa.float64()), ("rule", pa.string()),
    ("rule_version", pa.string()), ("matched", pa.string()), ("explanation", pa.string()),
    ("created_at", pa.timestamp("us", tz="UTC")),
])

CHUNK = 2000
ROW_GROUP = 100_000


# ------------------------------------------------------------------------------ tables


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalar
        return value.item()
    return value


def table_records(table: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON-ready records (NaN → null, numpy scalars → Python)."""
    return [{k: _clean(v) for k, v in row.items()} for row in table.to_dict(orient="records")]


def table_bytes(table: pd.DataFrame, fmt: str, *, raw: bool = False) -> bytes:
    """Serialize a dashboard table as ``csv``, ``json`` or ``parquet``.

    CSV text cells that start like a formula are quoted (:mod:`frontend.csv_safety`)
    unless ``raw``; JSON and Parquet are typed formats and carry values unchanged.
    """
    if fmt == "csv":
        return (table if raw else escape_frame(table)).to_csv(index=False).encode("utf-8")
    if fmt == "json":
        return json.dumps(table_records(table), ensure_ascii=False, indent=1, default=str).encode("utf-8")
    if fmt == "parquet":
        buffer = io.BytesIO()
        parquet_safe(table).to_parquet(buffer, index=False)
        return buffer.getvalue()
    raise ValueError(f"unsupported table format {fmt!r}")


def parquet_safe(table: pd.DataFrame) -> pd.DataFrame:
    """A copy whose mixed (object) columns Arrow can store: all-numeric ones become
    numbers, the rest strings, and missing values (None, NaN, NA) stay null.

    Why: ``astype(str)`` turns None into the string "None" under pandas 2.x (pandas 3
    keeps it missing), and Arrow refuses object columns mixing strings and numbers.
    """
    frame = table.copy()
    for column in frame.columns:
        if frame[column].dtype != object:
            continue
        values = frame[column].dropna()
        if len(values) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            frame[column] = pd.to_numeric(frame[column])
        else:
            frame[column] = pd.Series(
                [None if _missing(v) else str(v) for v in frame[column]], index=frame.index, dtype=object
            )
    return frame


def _missing(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # lists and arrays are values, not missing
        return False


# --------------------------------------------------------------------------- responses


def responses_rows(project: Project, filters: Filters | None = None, *, chunk_size: int = CHUNK) -> Iterator[tuple]:
    """Yield response tuples (``RESPONSE_COLUMNS`` order) from a server-side cursor."""
    qs: QuerySet = responses_filtered(project, filters or Filters()).order_by("id")
    return qs.values_list(*RESPONSE_COLUMNS.values()).iterator(chunk_size=chunk_size)


class _Echo:
    """A file-like object whose ``write`` returns what it was given (for csv.writer)."""

    def write(self, value: str) -> str:
        return value


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.datetime) else value


def _csv_value(value: Any) -> Any:
    """CSV cell: booleans as ``true``/``false`` (as PostgreSQL writes them), times in ISO 8601."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return _iso(value)


def csv_stream(rows: Iterable[tuple], *, batch: int = 500, raw: bool = False) -> Iterator[bytes]:
    """CSV lines for ``rows`` with a header, in small byte chunks (formula cells quoted unless ``raw``)."""
    writer = csv.writer(_Echo(), lineterminator="\n")
    yield writer.writerow(list(RESPONSE_COLUMNS)).encode("utf-8")
    parts: list[str] = []
    for row in rows:
        cells = [_csv_value(v) for v in row]
        parts.append(writer.writerow(cells if raw else escape_row(cells)))
        if len(parts) >= batch:
            yield "".join(parts).encode("utf-8")
            parts = []
    if parts:
        yield "".join(parts).encode("utf-8")


BOOL_COLUMNS = ("correct", "auto_correct", "prompt", "prompted")
#: Free-text columns of the responses export (escaped in the CSV, see csv_safety).
TEXT_COLUMNS = ("question_id", "category", "source", "responder", "kind", "system", "condition",
                "mode", "answer_text", "design", "feedback", "outcome", "rule", "rule_version", "matched",
                "explanation")


def postgres_copy_sql(project: Project, filters: Filters | None = None, *, as_json: bool = False,
                      raw: bool = False) -> tuple[str, tuple]:
    """``COPY (SELECT ...) TO STDOUT`` of the export query: the ORM's SQL, wrapped.

    The inner query is exactly the one :func:`responses_rows` iterates (same
    filters, same effective verdict); the outer select only names the columns and
    formats booleans and times like :func:`csv_stream` does, and (CSV, not ``raw``)
    quotes formula-like text cells with the shared rule (:func:`csv_safety.sql_escape`).
    """
    qs = responses_filtered(project, filters or Filters()).order_by("id")
    sql, params = qs.values_list(*RESPONSE_COLUMNS.values()).query.sql_with_params()
    names = list(RESPONSE_COLUMNS)
    outer = []
    for name in names:
        if name in BOOL_COLUMNS and not as_json:
            outer.append(f't."{name}"::text AS "{name}"')
        elif name == "created_at":
            outer.append(
                "to_char(t.\"created_at\" AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"')"
                ' AS "created_at"'
            )
        elif name in TEXT_COLUMNS and not as_json and not raw:
            column = f't."{name}"'
            outer.append(f'{sql_escape(column)} AS "{name}"')
        else:
            outer.append(f't."{name}"')
    alias = ", ".join(f'"{n}"' for n in names)
    select = f"SELECT {', '.join(outer)} FROM ({sql}) AS t({alias})"
    if as_json:
        # One JSON object per line. row_to_json escapes control characters, so with
        # CSV quote/delimiter bytes that JSON never contains raw, COPY emits it verbatim.
        return (f"COPY (SELECT row_to_json(j)::text FROM ({select}) AS j) TO STDOUT "
                "WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"), tuple(params)
    return f"COPY ({select}) TO STDOUT WITH (FORMAT csv, HEADER true)", tuple(params)


def postgres_csv_stream(project: Project, filters: Filters | None = None, *, as_json: bool = False,
                        raw: bool = False) -> Iterator[bytes]:
    """CSV straight from PostgreSQL's ``COPY ... TO STDOUT``, block by block.

    The server formats the rows and the client only passes bytes on, so a million
    rows stream in seconds with constant memory. Same columns and values as
    :func:`csv_stream` (the portable path used on SQLite).
    """
    from django.db import connection

    sql, params = postgres_copy_sql(project, filters, as_json=as_json, raw=raw)
    with connection.cursor() as cursor, cursor.cursor.copy(sql, params or None) as copy:
        buffer = bytearray()
        for block in copy:
            buffer += block
            if len(buffer) >= 256 * 1024:
                yield bytes(buffer)
                buffer.clear()
        if buffer:
            yield bytes(buffer)


def csv_export(project: Project, filters: Filters | None = None, *, raw: bool = False) -> Iterator[bytes]:
    """The responses CSV: PostgreSQL COPY when available, else the portable cursor path.

    Formula-like text cells are quoted unless ``raw`` (``?raw=1``).
    """
    from django.db import connection

    if connection.vendor == "postgresql":
        return postgres_csv_stream(project, filters, raw=raw)
    return csv_stream(responses_rows(project, filters), raw=raw)


def jsonl_export(project: Project, filters: Filters | None = None) -> Iterator[bytes]:
    """The responses as JSON lines: PostgreSQL COPY when available, else the cursor path."""
    from django.db import connection

    if connection.vendor == "postgresql":
        return postgres_csv_stream(project, filters, as_json=True)
    return jsonl_stream(responses_rows(project, filters))


def jsonl_stream(rows: Iterable[tuple], *, batch: int = 500) -> Iterator[bytes]:
    """One JSON object per response per line."""
    keys = list(RESPONSE_COLUMNS)
    parts: list[str] = []
    for row in rows:
        parts.append(json.dumps(dict(zip(keys, (_iso(v) for v in row), strict=True)), ensure_ascii=False))
        if len(parts) >= batch:
            yield ("\n".join(parts) + "\n").encode("utf-8")
            parts = []
    if parts:
        yield ("\n".join(parts) + "\n").encode("utf-8")


def parquet_file(rows: Iterable[tuple], *, row_group: int = ROW_GROUP) -> IO[bytes]:
    """Write ``rows`` to an anonymous temporary Parquet file in row groups; return it rewound.

    At most ``row_group`` rows are held in memory at a time.
    """
    handle = tempfile.TemporaryFile()  # noqa: SIM115 -- returned open, closed by the caller
    keys = list(RESPONSE_COLUMNS)
    with pq.ParquetWriter(handle, ARROW_SCHEMA, compression="zstd") as writer:
        buffer: list[tuple] = []

        def flush() -> None:
            columns = list(zip(*buffer, strict=True))
            arrays = [pa.array(list(col), type=ARROW_SCHEMA.field(key).type) for key, col in zip(keys, columns, strict=True)]
            writer.write_table(pa.Table.from_arrays(arrays, schema=ARROW_SCHEMA))
            buffer.clear()

        for row in rows:
            buffer.append(row)
            if len(buffer) >= row_group:
                flush()
        if buffer:
            flush()
    handle.seek(0)
    return handle


def file_chunks(handle: IO[bytes], *, size: int = 256 * 1024) -> Iterator[bytes]:
    """Read a file in chunks and close it at the end."""
    try:
        while chunk := handle.read(size):
            yield chunk
    finally:
        handle.close()
