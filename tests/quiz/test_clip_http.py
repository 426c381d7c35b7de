"""Clip serving: RFC 9110 conditional requests, and nginx X-Accel-Redirect.

The nginx test runs Debian's nginx (``/usr/sbin/nginx``, skipped when absent) on a
free loopback port with the internal location of ``deploy/nginx.conf``, in front of
a live server with ``EARSHOT_X_ACCEL`` on, and checks Range bytes through it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse

from quiz.http import if_range_allows, none_match
from quiz.models import Clip
from tests.faults import free_port, wait_for
from tests.nginx import nginx_binary, write_wrapper_conf

ROOT = Path(__file__).resolve().parents[2]
E = '"abc"'


@pytest.fixture
def owner(imported, make_user):
    """A researcher of the project: players hear a clip only once it was served to them
    (tests/quiz/test_study.py), researchers hear every clip of their projects."""
    from accounts.models import Role
    from accounts.services import membership_set

    user = make_user()
    membership_set(project=imported, user=user, role=Role.OWNER)
    return user


@pytest.mark.parametrize(("header", "matches"), [
    pytest.param("", False, id="absent"),
    pytest.param(E, True, id="same-strong"),
    pytest.param('W/"abc"', True, id="weak-matches-weakly"),
    pytest.param('"x", W/"abc"', True, id="list-second"),
    pytest.param('"x","y"', False, id="list-none"),
    pytest.param("*", True, id="star"),
    pytest.param('"abcd"', False, id="prefix-only"),
])
def test_if_none_match_compares_weakly_over_a_list(header, matches):
    assert none_match(header, E) is matches


@pytest.mark.parametrize(("header", "allows"), [
    pytest.param("", True, id="absent"),
    pytest.param(E, True, id="same-strong"),
    pytest.param('W/"abc"', False, id="weak-never"),
    pytest.param('"other"', False, id="other-tag"),
    pytest.param("Tue, 01 Dec 2026 10:00:00 GMT", False, id="date-no-last-modified"),
])
def test_if_range_compares_strongly(header, allows):
    assert if_range_allows(header, E) is allows


def _body(resp) -> bytes:
    return b"".join(resp.streaming_content) if resp.streaming else resp.content


def test_clip_conditional_requests(client, imported, owner):
    client.force_login(owner)
    clip = Clip.objects.first()
    url = reverse("quiz:clip_audio", args=[clip.public_id])
    full = client.get(url)
    data, etag = _body(full), full["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"nope", {etag}').status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH="*").status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"nope"').status_code == 200

    part = client.get(url, HTTP_RANGE="bytes=10-19", HTTP_IF_RANGE=etag)
    assert part.status_code == 206 and _body(part) == data[10:20]
    for stale in (f"W/{etag}", '"changed"', "Tue, 01 Dec 2026 10:00:00 GMT"):
        whole = client.get(url, HTTP_RANGE="bytes=10-19", HTTP_IF_RANGE=stale)
        assert whole.status_code == 200 and _body(whole) == data, stale


def test_clip_x_accel_redirect_hands_the_bytes_to_nginx(client, imported, settings, owner):
    client.force_login(owner)
    settings.EARSHOT_X_ACCEL = True
    clip = Clip.objects.first()
    url = reverse("quiz:clip_audio", args=[clip.public_id])
    resp = client.get(url, HTTP_RANGE="bytes=0-9")
    assert resp.status_code == 200 and resp.content == b""
    assert resp["X-Accel-Redirect"] == "/_earshot_media/" + clip.file.name
    assert resp["Content-Type"] == clip.content_type and resp["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=resp["ETag"]).status_code == 304  # Django answers


def _internal_location(media_root: Path) -> str:
    """deploy/nginx.conf's internal media location, pointed at ``media_root``."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    block = re.search(r"location /_earshot_media/ \{.*?\n    \}", conf, re.S)
    assert block, "deploy/nginx.conf has no internal /_earshot_media/ location"
    return block.group(0).replace("/srv/earshot/media/", f"{media_root}/")


@pytest.fixture
def nginx_front(live_server, settings):
    binary = nginx_binary()
    settings.EARSHOT_X_ACCEL = True
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="earshot-nginx-"))
    upstream = live_server.url.removeprefix("http://")
    write_wrapper_conf(work, f"""server {{
    listen 127.0.0.1:{port};
    {_internal_location(Path(settings.MEDIA_ROOT))}
    location / {{
      proxy_set_header Host $host;
      proxy_pass http://{upstream};
    }}
  }}""")
    proc = subprocess.Popen([binary, "-c", str(work / "nginx.conf"), "-p", str(work)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def up() -> bool:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz-nonexistent", timeout=1)
        except urllib.error.HTTPError:
            return True
        except OSError:
            return False
        return True

    try:
        wait_for(up, timeout=10, what="nginx")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.django_db(transaction=True)
def test_range_request_through_nginx_x_accel(imported, nginx_front, owner):
    from django.conf import settings
    from django.test import Client

    session = Client()
    session.force_login(owner)
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.cookies[settings.SESSION_COOKIE_NAME].value}"
    clip = Clip.objects.first()
    data = clip.file.open("rb").read()
    url = nginx_front + reverse("quiz:clip_audio", args=[clip.public_id])

    def get(**headers):
        req = urllib.request.Request(url, headers={"Cookie": cookie, **headers})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, dict(resp.headers), resp.read()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read()

    status, headers, body = get()
    assert status == 200 and body == data, (status, headers)
    assert headers["Content-Type"] == clip.content_type and "X-Accel-Redirect" not in headers
    etag = headers["ETag"]
    assert etag == f'"{clip.sha256}"' or etag.startswith('"')  # Django's validator, not nginx's
    assert "Last-Modified" not in headers and headers["X-Content-Type-Options"] == "nosniff"

    status, headers, body = get(Range="bytes=100-1099")
    assert status == 206 and body == data[100:1100]
    assert headers["Content-Range"] == f"bytes 100-1099/{len(data)}"
    status, _, body = get(Range="bytes=-10")
    assert status == 206 and body == data[-10:]
    status, _, body = get(Range="bytes=5-9", **{"If-Range": etag})
    assert status == 206 and body == data[5:10]
    status, _, body = get(Range="bytes=5-9", **{"If-Range": '"changed"'})
    assert status == 200 and body == data
    status, _, _ = get(Range=f"bytes={len(data) + 10}-")
    assert status == 416
    status, _, body = get(**{"If-None-Match": f"W/{etag}"})
    assert status == 304 and body == b""
    # the internal location is not reachable by a client's own URL
    direct = urllib.request.Request(nginx_front + "/_earshot_media/" + clip.file.name)
    with pytest.raises(urllib.error.HTTPError) as exc:
        urllib.request.urlopen(direct, timeout=10)
    assert exc.value.code == 404
