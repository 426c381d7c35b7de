"""M-10: persistent database connections are health-checked.

After a PostgreSQL restart every kept connection is dead; without
``CONN_HEALTH_CHECKS`` the first request on each of them answered 500. Here the
server side of this process's connection is terminated (what a restart does to it),
then a request boundary passes and a query runs: it must reconnect, not fail.
(tests/benchmarks/faults.py restarts a real private cluster under gunicorn.)
"""

from __future__ import annotations

import pytest
from django.conf import settings


def test_persistent_connections_are_health_checked():
    db = settings.DATABASES["default"]
    assert db["CONN_HEALTH_CHECKS"] is True
    if db["ENGINE"].endswith("postgresql"):
        assert db["CONN_MAX_AGE"] > 0  # persistent: the case the health check is for


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_query_after_the_server_dropped_the_connection_reconnects():
    import psycopg
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    connection.close_if_unusable_or_obsolete()  # a request starts
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.close_if_unusable_or_obsolete()  # the request ends; the connection is kept

    s = connection.settings_dict
    with psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"],
                         password=s["PASSWORD"] or None, dbname=s["NAME"], autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()[0]

    connection.close_if_unusable_or_obsolete()  # the next request starts
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
