"""Earshot settings: one module, driven by environment variables.

Every variable is documented in ``deploy/env.example``. Without any of them the
project runs on the embedded default: a SQLite file under ``var/`` and background
jobs run inline (no broker).
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config import env as envcheck
from config.channel_layers import channel_layers

BASE_DIR = Path(__file__).resolve().parent.parent
# An optional env file (KEY=value lines, e.g. /etc/earshot/env); real variables win.
if os.environ.get("EARSHOT_ENV_FILE"):
    envcheck.read_env_file(os.environ["EARSHOT_ENV_FILE"])

# Typed, strict readers: a value that does not parse stops start-up naming the
# variable ("DJANGO_DEBUG='ture' is not a boolean"). Use them for new settings too.
env_bool = envcheck.env_bool
env_int = envcheck.env_int
env_float = envcheck.env_float
env_list = envcheck.env_list

DEBUG = env_bool("DJANGO_DEBUG", False)
# The test suite (pytest) brings its own throwaway key and host names, and runs over
# plain HTTP; everything else with DEBUG off is production and must be configured.
RUNNING_TESTS = "pytest" in sys.modules
PRODUCTION = not DEBUG and not RUNNING_TESTS

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if PRODUCTION:
    envcheck.require_strong_secret_key("DJANGO_SECRET_KEY", SECRET_KEY)
elif not SECRET_KEY:
    # Development (DJANGO_DEBUG=1) and the test suite only: never accepted in production.
    SECRET_KEY = "earshot-insecure-development-key-change-me"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "" if PRODUCTION else "localhost,127.0.0.1,[::1],testserver")
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is off: the host names this server "
        "answers to, comma-separated (e.g. earshot.example.org)."
    )
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    # first: `runserver` then serves the ASGI app (live rooms' websockets) too
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "accounts.apps.AccountsConfig",
    "quiz.apps.QuizConfig",
    "judging.apps.JudgingConfig",
    "annotation.apps.AnnotationConfig",
    "irt.apps.IrtConfig",
    "frontend.apps.FrontendConfig",
    "rooms.apps.RoomsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # last, as django-axes asks: turns a locked-out login into the 429 lockout answer
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
# Live rooms (rooms/, Django Channels) are served by the ASGI app: daphne in deploy/,
# `runserver` in development. With EARSHOT_CHANNEL_REDIS_URL set, rooms talk through
# Redis (several ASGI processes); otherwise through memory (one process: the embedded
# default).
ASGI_APPLICATION = "config.asgi.application"
# seconds a room question stays open after its last clue ends (rooms.protocol)
EARSHOT_ROOM_FINAL_WINDOW_S = env_float("EARSHOT_ROOM_FINAL_WINDOW_S", 6.0)
CHANNEL_LAYERS = channel_layers(os.environ.get("EARSHOT_CHANNEL_REDIS_URL", ""))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: SQLite file by default; DATABASE_URL (postgres://user@host:port/name) for
# production and CI. psycopg 3 is the PostgreSQL driver.
VAR_DIR = Path(os.environ.get("EARSHOT_VAR_DIR", BASE_DIR / "var"))
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    try:
        DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL cannot be parsed: {exc}") from None
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "earshot.sqlite3",
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # A file, not the shared-cache in-memory default: browser tests run a live
            # server and background threads beside the test, and shared-cache SQLite
            # answers "table is locked" at once instead of waiting for the lock.
            "TEST": {"NAME": VAR_DIR / "test-earshot.sqlite3"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "frontend:home"
LOGOUT_REDIRECT_URL = "frontend:home"
AUTHENTICATION_BACKENDS = [
    # django-axes first: refuses a locked-out username/address before any password check
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ko", "한국어"),
    ("th", "ไทย"),
    ("vi", "Tiếng Việt"),
    ("id", "Bahasa Indonesia"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
MEDIA_ROOT = Path(os.environ.get("EARSHOT_MEDIA_ROOT", VAR_DIR / "media"))
# Media is never served by URL: clips go through quiz.views (opaque ids, Range).
MEDIA_URL = "/media-not-served/"

# Uploads: audio clips and banks. Larger requests are refused with a clear error.
EARSHOT_MAX_UPLOAD_BYTES = env_int("EARSHOT_MAX_UPLOAD_BYTES", 50 * 1024 * 1024, minimum=1)
DATA_UPLOAD_MAX_MEMORY_SIZE = EARSHOT_MAX_UPLOAD_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# What a usable clip is (quiz.audio.AudioLimits): refused at import with a plain message.
EARSHOT_CLIP_MIN_SECONDS = env_float("EARSHOT_CLIP_MIN_SECONDS", 0.1)
EARSHOT_CLIP_MAX_SECONDS = env_float("EARSHOT_CLIP_MAX_SECONDS", 1800)
EARSHOT_CLIP_MAX_BYTES = env_int("EARSHOT_CLIP_MAX_BYTES", 200 * 1024 * 1024)
EARSHOT_AUDIO_MIN_SAMPLE_RATE = env_int("EARSHOT_AUDIO_MIN_SAMPLE_RATE", 8000)
EARSHOT_AUDIO_MAX_SAMPLE_RATE = env_int("EARSHOT_AUDIO_MAX_SAMPLE_RATE", 192000)

# --- HTTPS and browser hardening (docs/deployment.md, "Security settings") ------------
# Production defaults are the safe ones; a plain-HTTP lab install turns them off
# explicitly. The test suite runs over plain HTTP, so they default off there.
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", PRODUCTION)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", PRODUCTION)
# the load balancer's health probe may come over plain HTTP
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# Content-Security-Policy (django-csp): scripts and styles only from this server, no
# inline script anywhere. ``style-src-attr`` allows style *attributes* (progress-bar
# widths, matplotlib's inline SVG charts): an attribute can neither load nor run anything.
# The API reference pages relax it for themselves (config/api_docs.py).
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-elem": [SELF],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "media-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Background jobs: Celery with a Redis broker when CELERY_BROKER_URL is set; otherwise
# tasks run inline in the calling process (the embedded default).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL or None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE

# Optional LLM judge through any OpenAI-compatible endpoint; off unless configured.
OPENAI_BASE_URL = os.environ.get("OPENAI_BASE_URL", "")
OPENAI_API_KEY = os.environ.get("OPENAI_API_KEY", "")
EARSHOT_LLM_JUDGE_MODEL = os.environ.get("EARSHOT_LLM_JUDGE_MODEL", "gpt-4o-mini")
EARSHOT_LLM_JUDGE_ENABLED = bool(OPENAI_BASE_URL or OPENAI_API_KEY)
EARSHOT_LLM_JUDGE_TIMEOUT_S = env_float("EARSHOT_LLM_JUDGE_TIMEOUT_S", 30, minimum=0)
EARSHOT_LLM_JUDGE_MAX_ATTEMPTS = env_int("EARSHOT_LLM_JUDGE_MAX_ATTEMPTS", 4, minimum=1)
# Calibrated scores in this closed range are "uncertain": adjudication queue, LLM judge.
EARSHOT_JUDGE_GREY_ZONE = (
    env_float("EARSHOT_JUDGE_GREY_LOW", 0.3),
    env_float("EARSHOT_JUDGE_GREY_HIGH", 0.7),
)

# --- Faults heal by themselves (F-11, M-9, M-10; docs/deployment.md "Workers and faults").
# Health-checked persistent connections: after a database restart the first query of a
# request reconnects instead of answering 500.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# The longest IRT fit allowed (its soft time limit); the broker's visibility timeout is
# longer, so a running fit's message is never handed to a second worker.
EARSHOT_IRT_MAX_FIT_S = env_float("EARSHOT_IRT_MAX_FIT_S", 6 * 3600)
# A running fit stamps a heartbeat this often; silent for STALE_AFTER_S, the worker-side
# reaper (every MAINTENANCE_INTERVAL_S; 0 = off) re-queues it, up to MAX_ATTEMPTS claims.
EARSHOT_IRT_HEARTBEAT_S = env_float("EARSHOT_IRT_HEARTBEAT_S", 15)
EARSHOT_IRT_STALE_AFTER_S = env_float("EARSHOT_IRT_STALE_AFTER_S", 60)
EARSHOT_IRT_MAINTENANCE_INTERVAL_S = env_float("EARSHOT_IRT_MAINTENANCE_INTERVAL_S", 60)
EARSHOT_IRT_MAX_ATTEMPTS = env_int("EARSHOT_IRT_MAX_ATTEMPTS", 3)
# A queued fit no worker took within this long (broker or workers down) is failed.
EARSHOT_IRT_QUEUE_GIVE_UP_S = env_float("EARSHOT_IRT_QUEUE_GIVE_UP_S", 24 * 3600)
# Publishing never retries inside a request thread and gives up connecting after 1 s.
CELERY_BROKER_CONNECTION_TIMEOUT = env_float("EARSHOT_BROKER_CONNECT_TIMEOUT_S", 1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = CELERY_BROKER_CONNECTION_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,
    "max_retries": 0,  # a publisher's first connect; workers reconnect by their own policy
    "visibility_timeout": env_int("EARSHOT_BROKER_VISIBILITY_TIMEOUT_S", int(EARSHOT_IRT_MAX_FIT_S + 1800),
                                  minimum=1),
}
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Clip bytes through nginx's X-Accel-Redirect (deploy/nginx.conf's internal location)
# instead of gunicorn threads; Django still checks access and answers 304/416 itself.
EARSHOT_X_ACCEL = env_bool("EARSHOT_X_ACCEL", False)
EARSHOT_X_ACCEL_PREFIX = os.environ.get("EARSHOT_X_ACCEL_PREFIX", "/_earshot_media/")
# --- end of faults block

# --- Login lockout (django-axes) and API throttling -------------------------------------
# Reverse proxies in front of Earshot (nginx: 1). The client address is then taken from
# X-Forwarded-For, for the lockout and the throttles; 0 trusts REMOTE_ADDR only.
EARSHOT_TRUSTED_PROXIES = env_int("EARSHOT_TRUSTED_PROXIES", 0, minimum=0)
AXES_ENABLED = env_bool("EARSHOT_LOGIN_LOCKOUT", True)
AXES_FAILURE_LIMIT = env_int("EARSHOT_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_float("EARSHOT_LOGIN_COOLOFF_MINUTES", 15, minimum=0.01))
# one username from one address: a guessing client is stopped, and nobody can lock a
# researcher out from elsewhere by typing their username wrong
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_IPWARE_PROXY_COUNT = EARSHOT_TRUSTED_PROXIES or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if EARSHOT_TRUSTED_PROXIES else ["REMOTE_ADDR"]
)
AXES_VERBOSE = False
# Browser endpoints (accounts/ratelimit.py): new guest players per client address, and
# answers per player. Generous for a class behind one address; a script is stopped.
EARSHOT_GUEST_RATE = envcheck.env_rate("EARSHOT_GUEST_RATE", "100000/min" if RUNNING_TESTS else "60/hour")
EARSHOT_ANSWER_RATE = envcheck.env_rate("EARSHOT_ANSWER_RATE", "100000/min" if RUNNING_TESTS else "30/min")

# API tokens older than this many days are refused (401); 0 = no limit.
EARSHOT_API_TOKEN_MAX_AGE_DAYS = env_float("EARSHOT_API_TOKEN_MAX_AGE_DAYS", 180, minimum=0)

REST_FRAMEWORK = {
    # Token first: a request without valid credentials answers 401 with
    # "WWW-Authenticate: Token", not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        # the suite makes thousands of calls a minute; tests/accounts/test_throttling.py
        # checks the production defaults
        "anon": envcheck.env_rate("EARSHOT_API_THROTTLE_ANON", "100000/min" if RUNNING_TESTS else "120/min"),
        "user": envcheck.env_rate("EARSHOT_API_THROTTLE_USER", "100000/min" if RUNNING_TESTS else "1200/min"),
    },
    "NUM_PROXIES": EARSHOT_TRUSTED_PROXIES or None,
    # JSON bodies with NUL or lone surrogates are a 400 (accounts.api_parsers), not a 500.
    "DEFAULT_PARSER_CLASSES": [
        "accounts.api_parsers.StorableJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Earshot API",
    "DESCRIPTION": "Audio trivia, listening tests, answer judging and IRT for audio-AI evaluation.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The reference pages' JS/CSS ship in drf-spectacular-sidecar: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Logs, errors, health ---------------------------------------------------------------
# EARSHOT_LOG_FORMAT=json: one JSON object per line (time, level, logger, message,
# exception, request path/status) for log shippers; "plain" (default) for people.
EARSHOT_LOG_FORMAT = envcheck.env_choice("EARSHOT_LOG_FORMAT", "plain", ("plain", "json"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": EARSHOT_LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": envcheck.env_choice(
        "DJANGO_LOG_LEVEL", "info", ("debug", "info", "warning", "error", "critical")).upper()},
    # django-axes logs every log-in at INFO; failures and lockouts are WARNING
    "loggers": {"django.db.backends": {"level": "WARNING"}, "axes": {"level": "WARNING"}},
}
# Optional error reporting: only with a DSN, and only then is sentry-sdk imported
# (pip install 'earshot[sentry]').
EARSHOT_SENTRY_DSN = os.environ.get("EARSHOT_SENTRY_DSN", "").strip()
EARSHOT_SENTRY_TRACES_SAMPLE_RATE = env_float("EARSHOT_SENTRY_TRACES_SAMPLE_RATE", 0.0, minimum=0)
if EARSHOT_SENTRY_DSN:
    from config.logs import sentry_init

    sentry_init(EARSHOT_SENTRY_DSN, traces_sample_rate=EARSHOT_SENTRY_TRACES_SAMPLE_RATE)
# /healthz: how long to wait for a Celery worker's reply (seconds).
EARSHOT_HEALTH_WORKER_TIMEOUT_S = env_float("EARSHOT_HEALTH_WORKER_TIMEOUT_S", 1.0, minimum=0.1)
# Who may read the OpenAPI schema and the reference pages under /api/v1/: "public"
# (default: the API of open-source software, no project data in it), "authenticated"
# (signed-in users only) or "off" (404).
EARSHOT_API_DOCS = envcheck.env_choice("EARSHOT_API_DOCS", "public", ("public", "authenticated", "off"))

# Cache (DRF throttle counters, dashboard results): per process by default; a Redis
# URL shares it between gunicorn workers and hosts (throttles then count per client
# across all of them).
EARSHOT_CACHE_URL = os.environ.get("EARSHOT_CACHE_URL", "").strip()
if EARSHOT_CACHE_URL:
    if not EARSHOT_CACHE_URL.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"EARSHOT_CACHE_URL={EARSHOT_CACHE_URL!r} must be a redis:// URL.")
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": EARSHOT_CACHE_URL}}
