"""A cursor for the annotation hot path that runs statements as prepared statements.

Django's PostgreSQL backend binds parameters on the client and disables psycopg's
prepared statements (so connection poolers keep working), which makes PostgreSQL parse
and plan every statement again. The few hand-written statements behind ``next`` and
``submit`` run on every call of every annotator, and planning them cost more server CPU
than executing them (the context query: ~0.2 ms to run, over 1 ms to plan). This
cursor binds on the server and prepares each statement once per connection; Django's
persistent connections (``conn_max_age``) keep them. It is still wrapped by Django, so
queries are logged (with their values) and counted in tests, execute wrappers run, and
errors become ``django.db`` errors.

Not for use behind a transaction-mode connection pooler (PgBouncer < 1.21), which
does not keep prepared statements per client; set ``EARSHOT_PREPARED_STATEMENTS=0``
there.
"""

from __future__ import annotations

import os
from typing import Any

from django.db import connection
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

ENABLED = os.environ.get("EARSHOT_PREPARED_STATEMENTS", "1").strip().lower() not in {"0", "false", "no", "off"}


def _cursor_class():
    import psycopg

    class PreparedCursor(psycopg.Cursor):
        """psycopg's server-binding cursor that prepares every statement it runs."""

        def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None,
                    binary: bool | None = None) -> PreparedCursor:
            return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

    return PreparedCursor


_PreparedCursor = None
NEVER_AUTOMATICALLY = 2**31 - 1


def cursor() -> CursorWrapper:
    """A Django cursor; on PostgreSQL (psycopg 3) one whose statements are prepared.

    Use with ``%s`` / ``%(name)s`` placeholders and explicit casts where a parameter's
    type matters (server-side binding infers types from the statement).
    """
    global _PreparedCursor
    if not ENABLED or connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    if _PreparedCursor is None:
        _PreparedCursor = _cursor_class()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # Django turns psycopg's preparing off with ``None``, which also ignores
        # ``prepare=True``; a threshold no statement reaches prepares only what this
        # cursor asks for (Django's client-binding cursors never prepare anyway)
        raw.prepare_threshold = NEVER_AUTOMATICALLY
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        wrapped = _PreparedCursor(raw)
    return _LoggedCursor(wrapped, connection) if connection.queries_logged else CursorWrapper(wrapped, connection)


class _LoggedCursor(CursorDebugWrapper):
    """Django's query log for a server-binding cursor: the statement with its values.

    psycopg forgets a server-bound query after running it, so Django's debug wrapper
    would log ``None``; this one logs the statement as the client-binding cursor would.
    """

    def execute(self, sql: str, params: Any = None) -> Any:
        try:
            text = self.db.ops.compose_sql(sql, params)
        except Exception:  # logging must never break the statement
            text = sql
        with self.debug_sql(text, params):
            return CursorWrapper.execute(self, sql, params)
