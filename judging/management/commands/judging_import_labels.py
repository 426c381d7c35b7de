"""Import human labels (JSONL) for a sample of responses, for judge-human agreement."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from judging.services import human_labels_import
from quiz.importing import ImportFailed


class Command(BaseCommand):
    help = (
        "Rows {response_id | question_id, system, condition, mode; human_correct; human_score?; "
        "annotator?}. Any error aborts the import (line-numbered) and nothing is changed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("labels", type=Path)
        parser.add_argument("--project", default="demo")

    def handle(self, *args, labels: Path, project: str, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        try:
            summary = human_labels_import(project=target, path=labels)
        except ImportFailed as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s) found; nothing was imported.") from exc
        self.stdout.write(self.style.SUCCESS(
            f"{summary.created} human judgements added, {summary.unchanged} unchanged."
        ))
