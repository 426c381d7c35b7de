"""The settings module reads its database from DATABASE_URL."""

import os

from django.conf import settings


def test_database_follows_database_url():
    engine = settings.DATABASES["default"]["ENGINE"]
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert engine == "django.db.backends.postgresql"
    else:
        assert engine == "django.db.backends.sqlite3"
