"""Import human labels (JSONL) for a sample of responses, for judge-human agreement."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from judging.services import human_labels_from_campaign, human_labels_import
from quiz.importing import ImportFailed


class Command(BaseCommand):
    help = (
        "Rows {response_id | question_id, system, condition, mode; human_correct; human_score?; "
        "annotator?}. Any error aborts the import (line-numbered) and nothing is changed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("labels", type=Path, nargs="?", help="JSONL file of labels")
        parser.add_argument("--project", default="demo")
        parser.add_argument("--campaign", default=None,
                            help="take the labels from this annotation campaign's ratings instead "
                                 "(items name their response in metadata.response_id)")

    def handle(self, *args, labels: Path | None, project: str, campaign: str | None, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        if (labels is None) == (campaign is None):
            raise CommandError("give a labels file or --campaign SLUG (one of them)")
        try:
            if campaign:
                result = human_labels_from_campaign(project=target, campaign_slug=campaign)
                for line in result.undecided[:20]:
                    self.stderr.write(f"undecided: {line}")
                self.stdout.write(self.style.SUCCESS(
                    f"{result.created} human judgements added, {result.unchanged} unchanged, "
                    f"{len(result.undecided)} items undecided."
                ))
                return
            summary = human_labels_import(project=target, path=labels)
        except ImportFailed as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(exc.problems)} problem(s) found; nothing was imported.") from exc
        self.stdout.write(self.style.SUCCESS(
            f"{summary.created} human judgements added, {summary.unchanged} unchanged."
        ))
