"""Field checks shared by every import path and the REST writes (no Django).

The bank import, the model-output import, the campaign-item import and the REST
question API all accept text, numbers and JSON from people's files. Each value must
fit the column it lands in, or the database refuses it mid-transaction and the user
sees a traceback (PostgreSQL: ``value too long``, ``cannot contain NUL``, jsonb
rejecting ``NaN``, ``integer out of range``). These functions turn every such case
into a message for one field, before anything is written.

Each check returns the cleaned value and appends ``(field, message)`` pairs to a
list; :class:`RowChecker` binds that list to a file, a line and the ``Problem`` type
of :mod:`quiz.importing`, so the importers call ``check.text(record, "id", ...)``.

The length limits mirror the model fields' ``max_length``
(``tests/quiz/test_validation.py`` keeps them in sync).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

#: Longest free text (prompt, answerline, answers, item texts): TextField, but a
#: bound keeps one row from holding a megabyte.
MAX_TEXT = 20_000
#: Longest MCQ option text.
MAX_OPTION = 2_000
#: Largest value a PositiveIntegerField holds (PostgreSQL ``integer``).
MAX_INT32 = 2_147_483_647
#: Deepest nesting accepted in JSON metadata.
MAX_JSON_DEPTH = 20

#: ``max_length`` of the columns that imported text lands in, by model and field.
LIMITS: dict[str, dict[str, int]] = {
    "question": {"id": 120, "category": 120, "source": 120},
    "model_output": {"system": 120, "condition": 60, "question_id": 120, "client_token": 64},
    "item": {"id": 120, "system": 120, "task": 120, "condition": 120, "source": 200, "batch": 120},
}

Errors = list[tuple[str, str]]


def text_problem(value: str, max_length: int) -> str | None:
    """Why ``value`` cannot be stored in a text column of ``max_length``, or ``None``."""
    if "\x00" in value:
        return "contains a NUL character (\\x00), which cannot be stored"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "contains an invalid character (a lone UTF-16 surrogate)"
    if len(value) > max_length:
        return f"is {len(value)} characters long; the limit is {max_length}"
    return None


def clean_text(value: Any, field: str, errors: Errors, *, max_length: int = MAX_TEXT,
               required: bool = False) -> str:
    """``value`` as stripped text: strings and plain numbers pass; other types are errors."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            errors.append((field, "is required and must not be empty"))
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        errors.append((field, f"must be a string, not {_json_type(value)}"))
        return ""
    if isinstance(value, float) and not math.isfinite(value):
        errors.append((field, f"must be a string, not {value!r}"))
        return ""
    text = str(value).strip()
    problem = text_problem(text, max_length)
    if problem:
        errors.append((field, problem))
    return text


def clean_int(value: Any, field: str, errors: Errors, *, minimum: int = 0,
              maximum: int = MAX_INT32) -> int | None:
    """An integer in ``[minimum, maximum]`` from a JSON number or a CSV cell; ``None`` if absent.

    Integral floats (``1200.0``) are accepted; NaN, Infinity, fractions, booleans and
    numbers outside the range are errors.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    number: Any = value
    if isinstance(value, str):
        try:
            number = float(value.strip()) if any(c in value for c in ".eEnN") else int(value.strip())
        except ValueError:
            errors.append((field, f"must be a whole number, got {value.strip()[:40]!r}"))
            return None
    if isinstance(number, bool) or not isinstance(number, int | float):
        errors.append((field, f"must be a whole number, not {_json_type(value)}"))
        return None
    if isinstance(number, float):
        if not math.isfinite(number):
            errors.append((field, f"must be a finite number, got {number!r}"))
            return None
        if not number.is_integer():
            errors.append((field, f"must be a whole number, got {number!r}"))
            return None
        number = int(number)
    if not minimum <= number <= maximum:
        errors.append((field, f"must be between {minimum} and {maximum}, got {_short(number)}"))
        return None
    return number


def json_problems(value: Any, field: str, *, depth: int = 0) -> Errors:
    """Every value in a JSON document that the database's JSON column would refuse.

    NaN and Infinity (not JSON; jsonb rejects them), NUL and lone surrogates in
    strings or keys, and nesting deeper than :data:`MAX_JSON_DEPTH`. ``field`` is the
    path so far (``metadata.scores[2]``), so the message points at the value.
    """
    if depth > MAX_JSON_DEPTH:
        return [(field, f"is nested more than {MAX_JSON_DEPTH} levels deep")]
    if isinstance(value, float) and not math.isfinite(value):
        return [(field, f"{value!r} is not a JSON number (use null or a finite number)")]
    if isinstance(value, str):  # characters only: jsonb has no length limit per string
        problem = text_problem(value, len(value))
        return [(field, problem)] if problem else []
    errors: Errors = []
    if isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem(str(key), 200)
            if problem:
                errors.append((f"{field}", f"key {str(key)[:40]!r} {problem}"))
            errors.extend(json_problems(item, f"{field}.{str(key)[:40]}", depth=depth + 1))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            errors.extend(json_problems(item, f"{field}[{index}]", depth=depth + 1))
    return errors[:5]


def clean_metadata(value: Any, field: str, errors: Errors) -> dict[str, Any]:
    """A JSON object for a ``metadata`` column (``{}`` when absent)."""
    if value in (None, ""):
        return {}
    if not isinstance(value, dict):
        errors.append((field, f"must be a JSON object, not {_json_type(value)}"))
        return {}
    found = json_problems(value, field)
    errors.extend(found)
    return value if not found else {}


#: How many options a multiple-choice question may have (yes/no up to ten).
MIN_OPTIONS, MAX_OPTIONS = 2, 10


def check_choices(texts: list[str], correct: int | None, *, field: str = "choices",
                  correct_field: str = "correct") -> Errors:
    """The MCQ rules, for imports and the REST API alike.

    No options, or :data:`MIN_OPTIONS` to :data:`MAX_OPTIONS` (2-10: yes/no, the usual
    four, KCSAT's five) non-empty, distinct (case-insensitively) options of at most
    :data:`MAX_OPTION` characters with exactly one correct index; a correct index
    without options is an error too.
    """
    errors: Errors = []
    if not texts:
        if correct is not None:
            errors.append((correct_field, "given but there are no choices"))
        return errors
    for index, text in enumerate(texts):
        if not text:
            errors.append((f"{field}[{index}]", "empty option"))
        elif problem := text_problem(text, MAX_OPTION):
            errors.append((f"{field}[{index}]", problem))
    if not MIN_OPTIONS <= len(texts) <= MAX_OPTIONS:
        errors.append((field, f"needs {MIN_OPTIONS} to {MAX_OPTIONS} options, got {len(texts)}"))
    if len({t.casefold() for t in texts}) != len(texts):
        errors.append((field, "options must be distinct"))
    if correct is None:
        errors.append((field, "MCQ needs exactly one correct option, got 0"))
    elif not 0 <= correct < len(texts):
        errors.append((correct_field, f"{correct} is not an option index (0-{len(texts) - 1})"))
    return errors


def unstorable(fields: dict[str, Any], *, max_length: int = MAX_TEXT) -> tuple[str, str] | None:
    """The first ``(field, message)`` whose string value the database cannot hold, or ``None``.

    For request bodies (rating submissions) whose strings go straight into a query:
    a NUL makes PostgreSQL refuse the statement, a lone surrogate the encoder. A
    ``dict`` value is checked key by key as ``field.key``.
    """
    for field, value in fields.items():
        items = value.items() if isinstance(value, dict) else [("", value)]
        for key, text in items:
            name = f"{field}.{key}" if key else field
            if isinstance(key, str) and key and (problem := text_problem(key, 200)):
                return name, problem
            if isinstance(text, str) and (problem := text_problem(text, max_length)):
                return name, problem
    return None


class DuplicateTracker:
    """Remembers where each key was first seen, to name both lines of a duplicate."""

    def __init__(self) -> None:
        self._seen: dict[Any, int] = {}

    def first(self, key: Any, line: int) -> int | None:
        """The line that used ``key`` before, or ``None`` (and remember this one)."""
        if key in self._seen:
            return self._seen[key]
        self._seen[key] = line
        return None


class RowChecker:
    """The checks above, bound to one row: errors become ``make(field, message)`` problems."""

    def __init__(self, problems: list, make: Callable[[str, str], Any]):
        self.problems = problems
        self._make = make

    def add(self, field: str, message: str) -> None:
        self.problems.append(self._make(field, message))

    def extend(self, errors: Iterable[tuple[str, str]]) -> None:
        for field, message in errors:
            self.add(field, message)

    def text(self, record: dict, key: str, *, max_length: int = MAX_TEXT, required: bool = False) -> str:
        errors: Errors = []
        value = clean_text(record.get(key), key, errors, max_length=max_length, required=required)
        self.extend(errors)
        return value

    def integer(self, record: dict, key: str, *, minimum: int = 0, maximum: int = MAX_INT32) -> int | None:
        errors: Errors = []
        value = clean_int(record.get(key), key, errors, minimum=minimum, maximum=maximum)
        self.extend(errors)
        return value

    def metadata(self, record: dict, key: str = "metadata") -> dict[str, Any]:
        errors: Errors = []
        value = clean_metadata(record.get(key), key, errors)
        self.extend(errors)
        return value


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "a list", bool: "true/false"}.get(type(value), type(value).__name__)


def _short(number: int) -> str:
    text = str(number)
    return text if len(text) <= 20 else f"{text[:8]}…({len(text)} digits)"
