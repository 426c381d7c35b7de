"""Re-judge stored free answers after the rule version changed; print what changed."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from judging.services import RescoreChange, responses_rescore


def _verdict(correct: bool, prompt: bool, score: float) -> str:
    word = "correct" if correct else ("prompt" if prompt else "wrong")
    return f"{word} ({score:.2f})"


def format_change(c: RescoreChange) -> str:
    """One printed line per changed verdict."""
    tail = "  [human judgement stands: not applied]" if c.overridden else ""
    return (
        f"{c.question_id}  {c.responder}  {c.answer!r}: "
        f"{_verdict(c.old_correct, c.old_prompt, c.old_score)} [{c.old_rule} {c.old_version}] -> "
        f"{_verdict(c.new_correct, c.new_prompt, c.new_score)} [{c.new_rule}]{tail}"
    )


class Command(BaseCommand):
    help = (
        "Re-judge stored free answers whose rule version is not the current one (or all with "
        "--all). Old verdicts are kept as history; answers with a human judgement are never changed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", help="project slug (default: every project)")
        parser.add_argument("--all", action="store_true", dest="all_versions",
                            help="re-judge every free answer, not only older rule versions")
        parser.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")

    def handle(self, *args, project: str | None, all_versions: bool, dry_run: bool, **options) -> None:
        target = None
        if project:
            target = Project.objects.filter(slug=project).first()
            if target is None:
                raise CommandError(f"unknown project {project!r}")
        report = responses_rescore(project=target, all_versions=all_versions, dry_run=dry_run)
        for change in report.changes:
            self.stdout.write(format_change(change))
        prefix = "dry run: would update" if dry_run else "updated"
        self.stdout.write(self.style.SUCCESS(
            f"rule version {report.version}: {report.examined} examined, {prefix} {report.updated}, "
            f"{report.unchanged} unchanged, {report.overridden} with a human judgement (not touched); "
            f"{report.flipped} decisions flipped."
        ))
