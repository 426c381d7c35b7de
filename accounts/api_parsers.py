"""The API's JSON parser: strings the database cannot store are a 400 at the door.

PostgreSQL refuses NUL (``\\u0000``) in text and jsonb, and a lone UTF-16 surrogate
(``\\ud800``) cannot be encoded for the connection; either one, anywhere in a body,
used to surface as an HTML 500 from whichever view first wrote it. No field of any
Earshot endpoint can hold them, so :class:`StorableJSONParser` rejects such a body
while parsing, naming where the string is (``values.mos``, ``rows[3].answer``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from quiz.validation import text_problem


def first_unstorable(value: Any, path: str = "body", depth: int = 0) -> str | None:
    """``"path: problem"`` for the first string (or key) that cannot be stored, else ``None``."""
    if depth > 64:
        return f"{path}: is nested too deeply"
    if isinstance(value, str):
        problem = text_problem(value, max_length=len(value))
        return f"{path}: {problem}" if problem else None
    if isinstance(value, dict):
        for key, item in value.items():
            if problem := text_problem(str(key), max_length=len(str(key))):
                return f"{path}: key {problem}"
            if found := first_unstorable(item, f"{path}.{str(key)[:40]}", depth + 1):
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if found := first_unstorable(item, f"{path}[{index}]", depth + 1):
                return found
    return None


class StorableJSONParser(JSONParser):
    """DRF's JSON parser (strict: no NaN/Infinity), plus :func:`first_unstorable`."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        if found := first_unstorable(data):
            raise ParseError(f"JSON parse error - {found}")
        return data
