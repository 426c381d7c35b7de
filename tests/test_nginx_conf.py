"""deploy/nginx.conf as shipped: TLS on 443, port 80 only redirects (and answers /healthz).

Runs Debian's nginx (skipped when absent; ``.ci/run`` installs it) on two free loopback
ports with the shipped server blocks, a throw-away self-signed certificate and a live
Django server as the upstream, and checks what a browser and a load balancer see.
"""

from __future__ import annotations

import http.client
import re
import shutil
import ssl
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.faults import free_port, wait_for
from tests.nginx import nginx_binary, write_wrapper_conf

ROOT = Path(__file__).resolve().parents[1]
# /healthz reads the database
pytestmark = pytest.mark.django_db(transaction=True)


def _shipped_servers(*, http_port: int, https_port: int, upstream: str, work: Path) -> str:
    """The shipped upstream and server blocks, pointed at loopback ports and ``work``."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    conf = re.sub(r"server 127\.0\.0\.1:8000[^;]*;", f"server {upstream};", conf)
    # the ASGI upstream (rooms' websockets) too: the test's one Django server stands in for it
    assert re.search(r"server 127\.0\.0\.1:8001[^;]*;", conf), "deploy/nginx.conf has no ASGI upstream"
    conf = re.sub(r"server 127\.0\.0\.1:8001[^;]*;", f"server {upstream};", conf)
    conf = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", conf)
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    conf = re.sub(r"listen 443 ([^;]*);", rf"listen 127.0.0.1:{https_port} \1;", conf)
    conf = re.sub(r"ssl_certificate (\S+);", f"ssl_certificate {work}/cert.pem;", conf)
    conf = re.sub(r"ssl_certificate_key (\S+);", f"ssl_certificate_key {work}/key.pem;", conf)
    conf = conf.replace("/srv/earshot/", f"{work}/")
    assert f"127.0.0.1:{https_port} ssl" in conf, "deploy/nginx.conf has no `listen 443 ssl` server"
    return conf


@pytest.fixture
def shipped_nginx(live_server, monkeypatch):
    binary = nginx_binary(need_openssl=True)
    # no broker or worker runs beside this test: only /healthz reaching Django counts
    # (its first call loads the migration graph: seconds on a busy machine)
    monkeypatch.setattr("config.health._broker_and_workers", lambda: ({"ok": True}, {"ok": True}))
    work = Path(tempfile.mkdtemp(prefix="earshot-tls-"))
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=earshot.example.org", "-keyout", str(work / "key.pem"), "-out", str(work / "cert.pem")],
        check=True, capture_output=True,
    )
    http_port, https_port = free_port(), free_port()
    servers = _shipped_servers(http_port=http_port, https_port=https_port,
                               upstream=live_server.url.removeprefix("http://"), work=work)
    write_wrapper_conf(work, servers)
    check = subprocess.run([binary, "-t", "-c", str(work / "nginx.conf"), "-p", str(work)],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([binary, "-c", str(work / "nginx.conf"), "-p", str(work)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def up() -> bool:
        try:
            http.client.HTTPConnection("127.0.0.1", http_port, timeout=1).request("HEAD", "/")
        except OSError:
            return False
        return True

    try:
        assert wait_for(up, timeout=60), (work / "error.log").read_text()
        yield http_port, https_port
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


def _get(conn: http.client.HTTPConnection, path: str, host: str = "localhost") -> http.client.HTTPResponse:
    """GET with a Host header the test settings allow (nginx passes it on upstream)."""
    conn.request("GET", path, headers={"Host": host})
    resp = conn.getresponse()
    resp.body = resp.read()
    return resp


def test_port_80_redirects_to_https_but_answers_healthz(shipped_nginx):
    http_port, _ = shipped_nginx
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=60)
    resp = _get(conn, "/p/some-project/?x=1", host="earshot.example.org")
    assert resp.status == 301
    assert resp.getheader("Location") == "https://earshot.example.org/p/some-project/?x=1"
    assert resp.getheader("Server") == "nginx"  # server_tokens off: no version
    health = _get(conn, "/healthz")  # Django's own answer, not a redirect
    assert health.status == 200 and b'"checks"' in health.body


def test_https_serves_the_site_over_tls_1_2_and_1_3(shipped_nginx):
    _, https_port = shipped_nginx
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the throw-away certificate is self-signed
    conn = http.client.HTTPSConnection("127.0.0.1", https_port, timeout=60, context=context)
    resp = _get(conn, "/healthz")
    assert resp.status == 200 and b'"checks"' in resp.body
    assert conn.sock.version() in ("TLSv1.2", "TLSv1.3")

    # a client that stops at TLS 1.2 (older browsers, load balancers) still gets in
    tls12 = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    tls12.check_hostname = False
    tls12.verify_mode = ssl.CERT_NONE
    tls12.maximum_version = ssl.TLSVersion.TLSv1_2
    conn12 = http.client.HTTPSConnection("127.0.0.1", https_port, timeout=60, context=tls12)
    assert _get(conn12, "/healthz").status == 200
    assert conn12.sock.version() == "TLSv1.2"


def test_ws_location_upgrades_to_the_asgi_upstream(shipped_nginx):
    """/ws/ goes to the ASGI upstream with the Upgrade and Connection headers passed on."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    block = conf[conf.index("location /ws/"):]
    block = block[: block.index("}")]
    assert "proxy_http_version 1.1;" in block and "proxy_set_header Upgrade $http_upgrade;" in block
    assert "proxy_set_header Connection $connection_upgrade;" in block and "proxy_pass http://earshot_asgi;" in block
    _, https_port = shipped_nginx
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    conn = http.client.HTTPSConnection("127.0.0.1", https_port, timeout=60, context=context)
    # the stand-in upstream is Django over WSGI: its own 404 (not nginx's 502) shows the request got there
    resp = _get(conn, "/ws/rooms/NOPE1/")
    assert resp.status == 404 and resp.getheader("Server") == "nginx"
