"""Debian's nginx for the tests that run the shipped deploy/nginx.conf blocks.

:func:`nginx_binary` finds it (or skips the test); :func:`write_wrapper_conf` writes
the throw-away top-level config around the server blocks under test: one worker in
the foreground, its pid, log and temp files in ``work``, so nothing outside that
folder is touched and a non-root run needs no privileges.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


def nginx_binary(*, need_openssl: bool = False) -> str:
    """The nginx executable; skips the test when it (or openssl, if needed) is absent."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None or (need_openssl and shutil.which("openssl") is None):
        what = "nginx or openssl is" if need_openssl else "nginx is"
        pkgs = "nginx openssl" if need_openssl else "nginx"
        pytest.skip(f"{what} not installed (Debian: apt-get install {pkgs})")
    return binary


def write_wrapper_conf(work: Path, servers: str) -> Path:
    """Write ``work/nginx.conf``: the ``http`` context around ``servers``; returns its path."""
    temps = " ".join(f"{k}_temp_path {work};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # as root, nginx's workers would run as nobody and not read pytest's 0700 folders
    user = "user root;" if os.geteuid() == 0 else ""
    path = work / "nginx.conf"
    path.write_text(f"""
{user}
worker_processes 1;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 64; }}
http {{
  include /etc/nginx/mime.types;
  access_log off;
  {temps}
  {servers}
}}
""")
    return path
