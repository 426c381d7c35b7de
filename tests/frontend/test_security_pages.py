"""M-13, M-14, M-6, D25, D28, D29 and the health endpoint: headers, CSP, error pages,
favicon, API reference pages, clip ETags, /healthz, JSON logs."""

from __future__ import annotations

import hashlib
import json
import logging
import re

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _csp(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def test_pages_send_a_strict_content_security_policy(client, imported):
    response = client.get(reverse("frontend:home"))
    policy = _csp(response)
    assert policy["script-src"] == ["'self'"]  # no inline script, no third party
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and "'unsafe-inline'" not in policy["style-src-elem"]
    assert response["X-Frame-Options"] == "DENY" and response["X-Content-Type-Options"] == "nosniff"


def test_no_template_has_inline_script_or_event_handlers():
    """CSP would block them: every script is a same-origin file (data blocks excepted)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = []
    for template in root.glob("*/templates/**/*.html"):
        if ".venv" in template.parts:
            continue
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag and 'type="application/json"' not in tag:
                offenders.append(f"{template.relative_to(root)}: {tag}")
        if re.search(r"\son[a-z]+=\"", text) or "javascript:" in text:
            offenders.append(f"{template.relative_to(root)}: inline handler")
        if "<style" in text and "report.html" not in template.name:  # the bundle's report is a file
            offenders.append(f"{template.relative_to(root)}: <style>")
    assert offenders == []


def test_production_security_settings(settings):
    """What production (DEBUG off, outside the suite) gets by default: see tests/accounts/test_settings_env.py
    for check --deploy; here the header values the middleware sends once enabled."""
    from django.test import override_settings

    with override_settings(SECURE_HSTS_SECONDS=31536000, SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
                           SECURE_HSTS_PRELOAD=True, SECURE_SSL_REDIRECT=True):
        from django.test import Client

        client = Client()
        assert client.get("/").status_code == 301  # plain HTTP goes to HTTPS
        assert client.get("/healthz").status_code in (200, 503)  # the probe is exempt
        secure = client.get("/", secure=True)
        assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


def test_guest_gets_a_styled_403_with_a_login_link(client, imported):
    from accounts.models import Role
    from accounts.services import guest_create, membership_set

    guest = guest_create()
    membership_set(project=imported, user=guest, role=Role.PARTICIPANT)
    client.force_login(guest)
    response = client.get(reverse("frontend:dashboard", args=[imported.slug]))
    assert response.status_code == 403
    html = response.content.decode()
    assert 'id="forbidden"' in html and "Your role in this project does not allow this." in html
    assert reverse("accounts:login") + "?next=" in html and "earshot.css" in html


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("frontend/favicon.svg")
    assert finders.find("frontend/favicon.svg")
    assert 'rel="icon"' in client.get("/").content.decode()


def test_api_reference_pages_load_nothing_from_third_parties(client):
    redoc = client.get("/api/v1/redoc/")
    html = redoc.content.decode()
    assert redoc.status_code == 200 and "fonts.googleapis" not in html and "fonts.gstatic" not in html
    assert "<script>" not in html and "redoc.standalone.js" in html
    swagger = client.get("/api/v1/docs/")
    assert swagger.status_code == 200 and "<script>" not in swagger.content.decode()
    script = client.get("/api/v1/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
    assert "'unsafe-inline'" in _csp(redoc)["style-src-elem"]  # ReDoc styles itself from script
    bundle = client.get(reverse("api-redoc-js"))
    assert bundle.status_code == 200 and b"cdn.redoc.ly" not in bundle.content and b"Redoc" in bundle.content


@pytest.mark.parametrize("mode, anonymous, signed_in", [("public", 200, 200), ("authenticated", 401, 200),
                                                         ("off", 404, 404)])
def test_api_docs_exposure_setting(client, settings, make_user, mode, anonymous, signed_in):
    settings.EARSHOT_API_DOCS = mode
    for url in ("/api/v1/schema/", "/api/v1/redoc/"):
        assert client.get(url).status_code == anonymous
    client.force_login(make_user())
    assert client.get("/api/v1/schema/").status_code == signed_in


def test_clip_etag_is_not_the_file_sha256(client, imported, make_user):
    from quiz.models import Clip

    client.force_login(make_user(is_staff=True))  # researchers hear every clip

    clip = Clip.objects.filter(project=imported).first()
    data = clip.file.open("rb").read()
    response = client.get(reverse("quiz:clip_audio", args=[clip.public_id]))
    etag = response["ETag"].strip('"')
    assert etag and hashlib.sha256(data).hexdigest() != etag and clip.sha256 not in response["ETag"]
    again = client.get(reverse("quiz:clip_audio", args=[clip.public_id]), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_demo_creates_no_admin_without_debug(settings):
    from accounts.models import User

    settings.DEBUG = False
    call_command("quiz_demo", players=1)
    assert not User.objects.filter(username="admin").exists()
    settings.DEBUG = True
    call_command("quiz_demo", players=1)
    assert User.objects.get(username="admin").is_superuser


def test_healthz_reports_every_check(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response["Cache-Control"].startswith("max-age=0")
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "migrations", "broker", "workers"}
    assert body["checks"]["broker"] == {"ok": True, "mode": "inline"}


def test_healthz_503_when_migrations_are_pending(client, monkeypatch):
    from django.db.migrations.executor import MigrationExecutor

    monkeypatch.setattr(MigrationExecutor, "migration_plan",
                        lambda self, targets: [(type("M", (), {"app_label": "quiz", "name": "0099_x"})(), False)])
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"]["pending"] == ["quiz.0099_x"]


def test_healthz_503_when_broker_is_down(client, settings):
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    old = app.conf.broker_url
    app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = old
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["broker"]["ok"] is False and "broker unreachable" in checks["broker"]["error"]
    assert checks["database"]["ok"] is True


def test_healthz_503_when_no_worker_answers(client, settings):
    import os

    import redis

    url = os.environ.get("CELERY_TEST_BROKER_URL", "redis://127.0.0.1:6379/12")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {url}")
    from config.celery import app

    settings.CELERY_BROKER_URL = url
    old = app.conf.broker_url
    app.conf.broker_url = url
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = old
    checks = response.json()["checks"]
    assert checks["broker"]["ok"] is True
    if not checks["workers"]["ok"]:  # a worker of another test run may share the broker
        assert response.status_code == 503 and "no Celery worker answered" in checks["workers"]["error"]


def test_json_log_formatter():
    from config.logs import JsonFormatter

    record = logging.LogRecord("earshot.test", logging.ERROR, __file__, 1, "fit %s failed", (7,), None)
    record.fit_id = 7
    try:
        raise ValueError("bad")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "ERROR" and line["logger"] == "earshot.test" and line["message"] == "fit 7 failed"
    assert line["fit_id"] == 7 and "ValueError: bad" in line["exception"] and line["time"].endswith("+00:00")
