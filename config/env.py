"""Typed, strict reading of Earshot's environment variables (django-environ underneath).

Settings read every variable through these functions, so a value that does not
parse stops start-up with :class:`~django.core.exceptions.ImproperlyConfigured`
naming the variable and what it expected: ``DJANGO_DEBUG=ture`` is an error, not
"false"; ``EARSHOT_MAX_UPLOAD_BYTES=50MB`` is an error, not a traceback at the
first upload. (django-environ reads the variables and env files; numbers are parsed
here with ``int()``/``float()`` because its own parser drops letters: "10m" -> 10.0.)
New settings should use :func:`env_bool`, :func:`env_int`,
:func:`env_float` or :func:`env_rate` rather than ``os.environ`` directly.
"""

from __future__ import annotations

import math
import re

import environ
from django.core.exceptions import ImproperlyConfigured

_env = environ.Env()

TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})
_RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")

#: Secret keys that are public (docs, examples, the development fallback).
PUBLIC_KEYS = frozenset({
    "earshot-insecure-development-key-change-me",
    "change-me-to-a-long-random-string",
})


def read_env_file(path: str) -> None:
    """Load ``KEY=value`` lines from ``path``; variables already set are kept."""
    try:
        environ.Env.read_env(path, overwrite=False)
    except OSError as exc:
        raise ImproperlyConfigured(f"EARSHOT_ENV_FILE: cannot read {path!r}: {exc}") from exc


def _raw(name: str) -> str | None:
    value = _env.str(name, default=None)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_bool(name: str, default: bool = False) -> bool:
    """A boolean: 1/true/yes/on or 0/false/no/off (any case); unset or empty -> ``default``."""
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in TRUE:
        return True
    if value.lower() in FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean: use 1/0, true/false, yes/no or on/off.")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """An integer (unset or empty -> ``default``), at least ``minimum`` when given."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}.")
    return number


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    """A finite number (unset or empty -> ``default``), at least ``minimum`` when given."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number.") from None
    if not math.isfinite(number):
        raise ImproperlyConfigured(f"{name}={value!r} must be a finite number.")
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}.")
    return number


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list of non-empty strings."""
    value = _env.str(name, default=default)
    return [part.strip() for part in value.split(",") if part.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (case-insensitive)."""
    value = _raw(name)
    if value is None:
        return default
    if value.lower() not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(choices)}.")
    return value.lower()


def env_rate(name: str, default: str) -> str:
    """A DRF throttle rate such as ``60/min`` (count / s, min, hour or day)."""
    value = _raw(name) or default
    if not _RATE.match(value):
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate: use COUNT/PERIOD, e.g. 60/min or 1000/day.")
    return value


def require_strong_secret_key(name: str, key: str) -> None:
    """Refuse a missing, public or weak key (Django's own W009 rule: 50+ characters,
    5+ distinct, not ``django-insecure-``)."""
    if not key:
        raise ImproperlyConfigured(
            f"{name} must be set when DJANGO_DEBUG is off. Generate one with: python -c "
            "'import secrets; print(secrets.token_urlsafe(50))'"
        )
    if key in PUBLIC_KEYS or key.startswith("django-insecure-") or len(key) < 50 or len(set(key)) < 5:
        raise ImproperlyConfigured(
            f"{name} is too weak (a published example, or under 50 characters / 5 distinct ones). "
            "Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
