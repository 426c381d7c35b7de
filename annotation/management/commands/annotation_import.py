"""Import campaign items (JSONL, a JSON array or CSV + audio files) into a campaign."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from annotation import selectors, services
from annotation.importing import ImportFailed


class Command(BaseCommand):
    help = (
        "Import items into a campaign. Every row and audio file is validated first; any error "
        "aborts the whole import and nothing is changed. See docs/annotation-campaigns.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("items", type=Path, help="ITEMS.jsonl, ITEMS.json (an array) or ITEMS.csv")
        parser.add_argument("--audio-dir", type=Path, default=None, help="folder of the audio files (default: the file's folder)")
        parser.add_argument("--project", default="demo", help="project slug (default: demo)")

    def handle(self, *args, campaign: str, items: Path, audio_dir: Path | None, project: str, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        found = selectors.campaign_get(target, campaign)
        if found is None:
            raise CommandError(f"unknown campaign {campaign!r} in project {project!r}")
        try:
            summary = services.items_import(campaign=found, path=items, audio_dir=audio_dir)
        except ImportFailed as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s) found; nothing was imported.") from exc
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(summary.by_kind.items()))
        self.stdout.write(self.style.SUCCESS(
            f"{summary.created} created, {summary.updated} updated ({kinds}); {summary.clips_created} new clips."))
