"""Import model outputs (JSONL, a JSON array or CSV) and judge them with the same code as human answers."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from quiz.importing import ImportFailed
from quiz.services import model_responses_import


class Command(BaseCommand):
    help = (
        "Import rows {system, condition, question_id, mode, answer | choice}. Any error aborts "
        "the import and nothing is changed. See docs/import-format.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("outputs", type=Path)
        parser.add_argument("--project", default="demo")
        parser.add_argument("--allow-empty", action="store_true", help="store empty free answers as wrong instead of rejecting them")

    def handle(self, *args, outputs: Path, project: str, allow_empty: bool, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        try:
            summary = model_responses_import(project=target, path=outputs, allow_empty=allow_empty)
        except ImportFailed as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s) found; nothing was imported.") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"{summary.created} responses created, {summary.updated} re-judged, {summary.unchanged} unchanged."
            )
        )
