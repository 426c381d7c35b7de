"""Recompute the dashboard tallies from the stored responses (PostgreSQL).

The triggers keep the tallies right through every INSERT, UPDATE, DELETE and COPY
on quiz_response. Rebuild after anything that bypasses row triggers: TRUNCATE,
a restore with triggers disabled (``pg_restore --disable-triggers``,
``session_replication_role = replica``), or a manual repair. Safe to run at any
time: writes to the responses wait while it runs.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from accounts.models import Project
from frontend import tallies


class Command(BaseCommand):
    help = "Recompute the dashboard tallies of project SLUG (or of every project) from quiz_response."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", nargs="?", default=None, help="project slug (default: every project)")

    def handle(self, *args, slug: str | None, **options) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("the dashboard tallies exist on PostgreSQL only (elsewhere the dashboard "
                               "groups the responses itself; nothing to rebuild)")
        project_id = None
        if slug is not None:
            project = Project.objects.filter(slug=slug).first()
            if project is None:
                raise CommandError(f"no project with slug {slug!r}")
            project_id = project.pk
        counts = tallies.rebuild(project_id)
        self.stdout.write(self.style.SUCCESS(
            f"Rebuilt the dashboard tallies of {slug or 'every project'}: "
            f"{counts['responder_rows']} responder rows, {counts['item_rows']} item rows."
        ))
