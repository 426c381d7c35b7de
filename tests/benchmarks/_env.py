"""Settings for benchmark processes: production-like (DEBUG off), but over plain HTTP
on 127.0.0.1, with a throwaway key. With DEBUG off config/settings.py refuses to start
without a strong key and host names, and redirects HTTP to HTTPS by default."""

from __future__ import annotations

import os
import secrets


def configure() -> None:
    """Fill in what a benchmark's own processes (and their children) need, unless set."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
    os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SECURE_COOKIES", "0")
    os.environ.setdefault("DJANGO_SECURE_HSTS_SECONDS", "0")
    # benchmarks fire thousands of API calls a minute from one client
    os.environ.setdefault("EARSHOT_API_THROTTLE_ANON", "1000000/min")
    os.environ.setdefault("EARSHOT_API_THROTTLE_USER", "1000000/min")
    os.environ.setdefault("EARSHOT_LOGIN_LOCKOUT", "0")
