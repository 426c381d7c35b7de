"""Import a question bank (JSONL, a JSON array or CSV + audio files) into a project."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from quiz.importing import ImportFailed
from quiz.services import bank_import


class Command(BaseCommand):
    help = (
        "Import questions and clips. Every row and audio file is validated first; "
        "any error aborts the whole import and nothing is changed. See docs/import-format.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("bank", type=Path, help="BANK.jsonl, BANK.json (an array) or BANK.csv")
        parser.add_argument("--audio-dir", type=Path, default=None, help="folder of the audio files (default: the bank's folder)")
        parser.add_argument("--project", default="demo", help="project slug (default: demo)")

    def handle(self, *args, bank: Path, audio_dir: Path | None, project: str, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        try:
            summary = bank_import(project=target, path=bank, audio_dir=audio_dir)
        except ImportFailed as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s) found; nothing was imported.") from exc
        for message in summary.messages:
            self.stdout.write(message)
        self.stdout.write(
            self.style.SUCCESS(
                f"{summary.created} created, {summary.updated} updated, {summary.unchanged} unchanged; "
                f"{summary.clips_created} new clips."
            )
        )
