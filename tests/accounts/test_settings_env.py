"""M-5 / M-13: start-up refuses unsafe or unparseable configuration, naming the variable,
and deploy/env.example's production values pass ``check --deploy`` without warnings.

Each case runs ``manage.py check`` in a fresh interpreter with a controlled
environment (the suite's own process is configured already).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRONG = secrets.token_urlsafe(50)


def _clean_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "EARSHOT_", "CELERY_", "SENTRY_")) and k != "DATABASE_URL"}
    env["EARSHOT_VAR_DIR"] = str(ROOT / "var")
    env.update(values)
    return env


def _manage(*args: str, **values: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=_clean_env(**values),
                          capture_output=True, text=True, timeout=120)


def env_example() -> dict[str, str]:
    """deploy/env.example's values (KEY=value lines), with a freshly generated secret key."""
    values = {}
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    values["DJANGO_SECRET_KEY"] = STRONG
    return values


PROD = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": STRONG, "DJANGO_ALLOWED_HOSTS": "earshot.example.org"}


@pytest.mark.parametrize("values, variable", [
    pytest.param({"DJANGO_SECRET_KEY": ""}, "DJANGO_SECRET_KEY", id="missing-key"),
    pytest.param({"DJANGO_SECRET_KEY": "short-key"}, "DJANGO_SECRET_KEY", id="short-key"),
    pytest.param({"DJANGO_SECRET_KEY": "a" * 60}, "DJANGO_SECRET_KEY", id="few-distinct-characters"),
    pytest.param({"DJANGO_SECRET_KEY": "django-insecure-" + STRONG}, "DJANGO_SECRET_KEY", id="django-insecure"),
    pytest.param({"DJANGO_SECRET_KEY": "earshot-insecure-development-key-change-me"}, "DJANGO_SECRET_KEY",
                 id="development-fallback"),
    pytest.param({"DJANGO_ALLOWED_HOSTS": ""}, "DJANGO_ALLOWED_HOSTS", id="missing-allowed-hosts"),
    pytest.param({"DJANGO_DEBUG": "ture"}, "DJANGO_DEBUG", id="bool-typo"),
    pytest.param({"DJANGO_SECURE_COOKIES": "maybe"}, "DJANGO_SECURE_COOKIES", id="bool-cookies"),
    pytest.param({"DJANGO_SECURE_HSTS_SECONDS": "1y"}, "DJANGO_SECURE_HSTS_SECONDS", id="int-hsts"),
    pytest.param({"EARSHOT_MAX_UPLOAD_BYTES": "50MB"}, "EARSHOT_MAX_UPLOAD_BYTES", id="int-upload"),
    pytest.param({"EARSHOT_MAX_UPLOAD_BYTES": "0"}, "EARSHOT_MAX_UPLOAD_BYTES", id="int-below-minimum"),
    pytest.param({"EARSHOT_LLM_JUDGE_TIMEOUT_S": "thirty"}, "EARSHOT_LLM_JUDGE_TIMEOUT_S", id="float-timeout"),
    pytest.param({"EARSHOT_JUDGE_GREY_LOW": "nan"}, "EARSHOT_JUDGE_GREY_LOW", id="float-nan"),
    pytest.param({"EARSHOT_IRT_STALE_AFTER_S": "10m"}, "EARSHOT_IRT_STALE_AFTER_S", id="float-stale"),
    pytest.param({"EARSHOT_LOGIN_FAILURE_LIMIT": "five"}, "EARSHOT_LOGIN_FAILURE_LIMIT", id="int-lockout"),
    pytest.param({"EARSHOT_API_THROTTLE_ANON": "lots"}, "EARSHOT_API_THROTTLE_ANON", id="rate"),
    pytest.param({"EARSHOT_LOG_FORMAT": "xml"}, "EARSHOT_LOG_FORMAT", id="choice-log-format"),
    pytest.param({"EARSHOT_API_DOCS": "sometimes"}, "EARSHOT_API_DOCS", id="choice-docs"),
    pytest.param({"DATABASE_URL": "nosuchdb://x"}, "DATABASE_URL", id="database-url"),
])
def test_bad_configuration_stops_start_up_naming_the_variable(values, variable):
    result = _manage("check", **{**PROD, **values})
    assert result.returncode != 0, result.stdout
    last = result.stderr.strip().splitlines()[-1]
    assert "ImproperlyConfigured" in last and variable in last, result.stderr[-2000:]


def test_good_production_configuration_starts():
    result = _manage("check", **PROD)
    assert result.returncode == 0, result.stderr[-2000:]


def test_debug_mode_runs_without_a_key_or_hosts():
    result = _manage("check", DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr[-2000:]


def test_env_example_passes_check_deploy_without_warnings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **env_example())
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert "no issues" in result.stdout


def test_env_example_placeholder_key_is_refused():
    values = env_example()
    values["DJANGO_SECRET_KEY"] = next(
        line.split("=", 1)[1] for line in (ROOT / "deploy" / "env.example").read_text().splitlines()
        if line.startswith("DJANGO_SECRET_KEY="))
    result = _manage("check", **values)
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


def test_env_example_documents_every_variable_the_settings_read():
    import re

    names = set(re.findall(r'env_\w+\(\s*"((?:DJANGO|EARSHOT)_[A-Z0-9_]+)"',
                           (ROOT / "config" / "settings.py").read_text()))
    names |= set(re.findall(r'os\.environ\.get\(\s*"((?:DJANGO|EARSHOT)_[A-Z0-9_]+)"',
                            (ROOT / "config" / "settings.py").read_text()))
    documented = (ROOT / "deploy" / "env.example").read_text()
    missing = sorted(n for n in names if n not in documented)
    assert missing == [], f"not in deploy/env.example: {missing}"


SENTRY_PROBE = (
    "import sys, django; django.setup(); "
    "print('sentry_sdk' in sys.modules); "
    "import sentry_sdk; c = sentry_sdk.get_client(); print(bool(c.dsn))"
)


def test_sentry_is_only_imported_with_a_dsn():
    pytest.importorskip("sentry_sdk")
    base = {"DJANGO_DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    off = subprocess.run([sys.executable, "-c", SENTRY_PROBE], cwd=ROOT, env=_clean_env(**base),
                         capture_output=True, text=True, timeout=120)
    assert off.stdout.split()[:2] == ["False", "False"], off.stderr[-2000:]
    on = subprocess.run([sys.executable, "-c", SENTRY_PROBE], cwd=ROOT,
                        env=_clean_env(**base, EARSHOT_SENTRY_DSN="https://public@sentry.invalid/1"),
                        capture_output=True, text=True, timeout=120)
    assert on.stdout.split()[:2] == ["True", "True"], on.stderr[-2000:]
