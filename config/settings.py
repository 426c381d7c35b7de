"""Earshot settings: one module, driven by environment variables.

Every variable is documented in ``deploy/env.example``. Without any of them the
project runs on the embedded default: a SQLite file under ``var/`` and background
jobs run inline (no broker).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """Read a boolean environment variable ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable as a list of non-empty strings."""
    return [part.strip() for part in os.environ.get(name, default).split(",") if part.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and env_bool("DJANGO_REQUIRE_SECRET_KEY", False):
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production.")
    # Development and test fallback; production sets DJANGO_SECRET_KEY (deploy/env.example).
    SECRET_KEY = "earshot-insecure-development-key-change-me"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
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
    "accounts.apps.AccountsConfig",
    "quiz.apps.QuizConfig",
    "judging.apps.JudgingConfig",
    "annotation.apps.AnnotationConfig",
    "irt.apps.IrtConfig",
    "frontend.apps.FrontendConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
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
EARSHOT_MAX_UPLOAD_BYTES = int(os.environ.get("EARSHOT_MAX_UPLOAD_BYTES", 50 * 1024 * 1024))
DATA_UPLOAD_MAX_MEMORY_SIZE = EARSHOT_MAX_UPLOAD_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# What a usable clip is (quiz.audio.AudioLimits): refused at import with a plain message.
EARSHOT_CLIP_MIN_SECONDS = float(os.environ.get("EARSHOT_CLIP_MIN_SECONDS", 0.1))
EARSHOT_CLIP_MAX_SECONDS = float(os.environ.get("EARSHOT_CLIP_MAX_SECONDS", 1800))
EARSHOT_CLIP_MAX_BYTES = int(os.environ.get("EARSHOT_CLIP_MAX_BYTES", 200 * 1024 * 1024))
EARSHOT_AUDIO_MIN_SAMPLE_RATE = int(os.environ.get("EARSHOT_AUDIO_MIN_SAMPLE_RATE", 8000))
EARSHOT_AUDIO_MAX_SAMPLE_RATE = int(os.environ.get("EARSHOT_AUDIO_MAX_SAMPLE_RATE", 192000))

SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

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
EARSHOT_LLM_JUDGE_TIMEOUT_S = float(os.environ.get("EARSHOT_LLM_JUDGE_TIMEOUT_S", 30))
EARSHOT_LLM_JUDGE_MAX_ATTEMPTS = int(os.environ.get("EARSHOT_LLM_JUDGE_MAX_ATTEMPTS", 4))
EARSHOT_LLM_JUDGE_BACKOFF_S = float(os.environ.get("EARSHOT_LLM_JUDGE_BACKOFF_S", 1))
# Calibrated scores in this closed range are "uncertain": adjudication queue, LLM judge.
EARSHOT_JUDGE_GREY_ZONE = (
    float(os.environ.get("EARSHOT_JUDGE_GREY_LOW", 0.3)),
    float(os.environ.get("EARSHOT_JUDGE_GREY_HIGH", 0.7)),
)
# A running IRT fit whose worker wrote no progress for this long is marked failed
# ("worker lost") and may be taken over by a redelivered task.
EARSHOT_IRT_STALE_AFTER_S = float(os.environ.get("EARSHOT_IRT_STALE_AFTER_S", 600))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
