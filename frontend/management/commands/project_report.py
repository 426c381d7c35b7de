"""Write a project's report bundle (HTML report, figures, tables, manifest) to a ZIP file."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from frontend.report_bundle import write_bundle


class Command(BaseCommand):
    help = "Write the report bundle of project SLUG: HTML report, PNG/SVG figures, CSV tables, manifest.json."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--out", default=None, help="ZIP file to write (default: <slug>-report.zip)")

    def handle(self, *args, slug: str, out: str | None, **options) -> None:
        project = Project.objects.filter(slug=slug).first()
        if project is None:
            raise CommandError(f"no project with slug {slug!r}")
        path = Path(out or f"{slug}-report.zip")
        manifest = write_bundle(project, path)
        self.stdout.write(self.style.SUCCESS(
            f"Wrote {path} ({len(manifest['files'])} files; data hash {manifest['data_hash'][:12]}…; "
            f"omitted: {', '.join(o['section'] for o in manifest['omitted']) or 'nothing'})"
        ))
