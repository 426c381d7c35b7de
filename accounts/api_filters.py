"""Query-parameter filters for the REST lists, strict: a value they do not know is a 400.

A list that silently ignores ``?mode=fre`` or ``?corect=true`` returns everything, and
a script computing accuracy over "the free answers" gets all answers without noticing.
Every list view declares its parameters here; :func:`parse_filters` returns the
cleaned values or raises DRF's ``ValidationError`` (HTTP 400, ``{param: [message]}``)
for an unknown parameter name, a value outside an enumeration, a malformed boolean or
number, or an ordering that is not allowed. ``page``, ``page_size`` and ``format``
(DRF's own) are always accepted.

This is django-filter's job done in ~100 lines: the lists here filter on a handful of
plain fields, and the declarations double as the OpenAPI parameters
(:func:`openapi_parameters`), so the schema and the check cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError

#: Parameters every paginated list takes, besides its filters.
ALWAYS_ALLOWED = ("page", "page_size", "format")
TRUE, FALSE = ("true", "1", "yes"), ("false", "0", "no")


@dataclass(frozen=True)
class Param:
    """One query parameter: ``kind`` is ``text``, ``choice``, ``bool``, ``number`` or ``ordering``."""

    name: str
    kind: str = "text"
    choices: tuple[str, ...] = ()
    description: str = ""
    max_length: int = 200

    def clean(self, raw: str) -> Any:
        """The value, or raise ``ValueError`` with the message for the 400."""
        value = raw.strip()
        if "\x00" in value:
            raise ValueError("must not contain NUL characters")
        if len(value) > self.max_length:
            raise ValueError(f"is longer than {self.max_length} characters")
        if self.kind == "choice":
            if value not in self.choices:
                raise ValueError(f"unknown value {value[:60]!r}; one of {', '.join(self.choices)}")
            return value
        if self.kind == "bool":
            if value.lower() in TRUE:
                return True
            if value.lower() in FALSE:
                return False
            raise ValueError(f"must be true or false, got {value[:60]!r}")
        if self.kind == "number":
            try:
                number = float(value)
            except ValueError:
                raise ValueError(f"must be a number, got {value[:60]!r}") from None
            if not math.isfinite(number):
                raise ValueError(f"must be a finite number, got {value[:60]!r}")
            return number
        if self.kind == "ordering":
            if value.lstrip("-") not in self.choices:
                raise ValueError(f"cannot order by {value[:60]!r}; one of {', '.join(self.choices)} "
                                 "(prefix - for descending)")
            return value
        return value

    def openapi(self) -> OpenApiParameter:
        kinds = {"bool": bool, "number": float}
        if self.kind == "choice":
            return OpenApiParameter(self.name, str, enum=list(self.choices), description=self.description)
        if self.kind == "ordering":
            return OpenApiParameter(self.name, str, description=self.description or (
                f"One of {', '.join(self.choices)} (prefix - for descending)."))
        return OpenApiParameter(self.name, kinds.get(self.kind, str), description=self.description)


def ordering(*fields: str) -> Param:
    return Param("ordering", "ordering", choices=fields)


def parse_filters(query: Mapping[str, Any], params: tuple[Param, ...] | list[Param],
                  *, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """The given parameters, cleaned (absent or empty ones are left out); 400 on anything unknown.

    ``extra`` names parameters the view reads itself (e.g. ``as``, ``allow_empty``).
    """
    by_name = {p.name: p for p in params}
    errors: dict[str, list[str]] = {}
    known = set(by_name) | set(ALWAYS_ALLOWED) | set(extra)
    for name in query:
        if name not in known:
            errors[str(name)[:60]] = [f"unknown filter; this list takes {', '.join(sorted(known - set(ALWAYS_ALLOWED))) or 'no filters'}"]
    values: dict[str, Any] = {}
    for name, param in by_name.items():
        raw = query.get(name)
        if raw is None or str(raw).strip() == "":
            continue
        try:
            values[name] = param.clean(str(raw))
        except ValueError as exc:
            errors[name] = [str(exc)]
    if errors:
        raise ValidationError(errors)
    return values


def openapi_parameters(params: tuple[Param, ...] | list[Param]) -> list[OpenApiParameter]:
    """The declarations as drf-spectacular parameters (for ``@extend_schema``)."""
    return [p.openapi() for p in params]
