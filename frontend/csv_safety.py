"""Formula-injection guard for every CSV Earshot writes (OWASP "CSV Injection").

A spreadsheet opening a CSV runs a cell that begins with ``=``, ``+``, ``-`` or
``@`` as a formula, and tab or carriage return can smuggle one past a naive check.
Guests choose their handle and answers, bank files supply categories and sources,
model names come from uploads: all of that reaches the exports. So every *text*
cell that begins with one of those characters gets a leading single quote, which
spreadsheets show as-is and do not evaluate.

Numbers stay numbers: an ``int``/``float`` cell (``-0.5`` in a score, a negative
θ, a gap) is not text and is written unchanged, so numeric columns parse as
numbers. One narrow exception to the text rule: a cell of ``-`` or ``+`` followed
only by letters, digits, ``_``, ``.`` and ``-`` (a generated rater id such as
``-Y_I-RbTO-zAy7uI``, an answer typed as ``-5``) is left alone: without spaces,
parentheses, quotes, ``|``, ``!``, ``=`` or ``@`` it cannot call a function or DDE,
and quoting it would break ids that join across exports. ``=``, ``@``, tab and CR
always get the quote.

Programmatic users who parse the CSV with a CSV library, not a spreadsheet, ask
for ``?raw=1`` and get the cells exactly as stored (:func:`raw_requested`).

This module is the one place the rule lives: pandas frames (:func:`escape_frame`),
row tuples (:func:`escape_row`), and PostgreSQL ``COPY`` queries
(:func:`sql_escape`) all use :data:`FORMULA_PREFIXES`. It imports no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

#: First characters that make a spreadsheet treat a cell as a formula.
FORMULA_PREFIXES: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")

#: ``-``/``+`` cells that cannot carry a function call or DDE payload (see module doc).
INERT_SIGNED = r"[-+][A-Za-z0-9_.-]*"
_INERT_SIGNED = re.compile(INERT_SIGNED)

#: Query values that turn the guard off (``?raw=1``).
RAW_VALUES = frozenset({"1", "true", "yes", "on"})


def escape_cell(value: Any) -> Any:
    """``value`` with a leading ``'`` if it is text that begins like a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        if value[0] in "-+" and _INERT_SIGNED.fullmatch(value):
            return value
        return "'" + value
    return value


def escape_row(values: Iterable[Any]) -> list[Any]:
    """Every cell of one row through :func:`escape_cell`."""
    return [escape_cell(v) for v in values]


def escape_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with text cells and column names escaped; numeric columns untouched."""
    out = frame.copy()
    for column in out.columns:
        series = out[column]
        if isinstance(series.dtype, pd.CategoricalDtype):
            series = series.astype(object)
        if series.dtype == object or pd.api.types.is_string_dtype(series.dtype):
            out[column] = series.map(escape_cell, na_action="ignore")
    out.columns = [escape_cell(c) for c in out.columns]
    return out


def escape_mapping(row: Mapping[str, Any]) -> dict[str, Any]:
    """A dict row (``csv.DictWriter``) with its values escaped."""
    return {k: escape_cell(v) for k, v in row.items()}


def sql_escape(expression: str) -> str:
    """A PostgreSQL expression that applies the same rule to a text ``expression``.

    Used inside ``COPY (SELECT ...)`` so the server-side CSV path escapes exactly
    like the Python path (the same :data:`INERT_SIGNED` exception, as a POSIX regular
    expression). ``left(x, 1)`` of NULL is NULL, so NULLs stay NULL.
    """
    literals = ", ".join("E'\\t'" if p == "\t" else "E'\\r'" if p == "\r" else f"'{p}'"
                         for p in FORMULA_PREFIXES)
    return (f"CASE WHEN left({expression}, 1) IN ({literals}) "
            f"AND {expression} !~ '^{INERT_SIGNED}$' "
            f"THEN '''' || {expression} ELSE {expression} END")


def raw_requested(query: Mapping[str, Any]) -> bool:
    """Whether the request's query (``request.GET``) asks for unescaped cells (``raw=1``)."""
    return str(query.get("raw", "")).strip().lower() in RAW_VALUES
