"""Ask the LLM judge about grey-zone verdicts (or score open answers 0-5), with a budget."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from judging.tasks import llm_judge_task


class Command(BaseCommand):
    help = (
        "Send free answers whose rule score lies in the grey zone to the LLM judge (cached: "
        "nothing is sent twice). Runs as a Celery task (inline without a broker)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", help="project slug (default: every project)")
        parser.add_argument("--budget", type=int, default=None, help="at most N uncached calls")
        parser.add_argument("--quality", action="store_true", help="0-5 quality scores of every free answer")
        parser.add_argument("--low", type=float, default=None, help="grey zone lower bound (default 0.3)")
        parser.add_argument("--high", type=float, default=None, help="grey zone upper bound (default 0.7)")
        parser.add_argument("--force", action="store_true", help="run even if EARSHOT_LLM_JUDGE_ENABLED is off")

    def handle(self, *args, project, budget, quality, low, high, force, **options) -> None:
        if not (settings.EARSHOT_LLM_JUDGE_ENABLED or force):
            raise CommandError("the LLM judge is off: set OPENAI_BASE_URL and/or OPENAI_API_KEY (or --force)")
        if budget is not None and budget < 0:
            raise CommandError("--budget must be >= 0")
        if (low is None) != (high is None):
            raise CommandError("give both --low and --high")
        project_id = None
        if project:
            target = Project.objects.filter(slug=project).first()
            if target is None:
                raise CommandError(f"unknown project {project!r}")
            project_id = target.pk
        result = llm_judge_task.delay(project_id, "quality" if quality else "verdict", budget, low, high)
        if not result.ready():
            self.stdout.write(f"queued as task {result.id}")
            return
        r = result.get()
        for error in r["errors"][:20]:
            self.stderr.write(error)
        self.stdout.write(self.style.SUCCESS(
            f"{r['purpose']} with {r['model']} ({r['prompt']}): {r['candidates']} candidates, "
            f"{r['cached']} cached, {r['called']} called, {r['failed']} failed, "
            f"{r['unreadable']} unreadable, {r['skipped_budget']} over budget, {r['recorded']} recorded; "
            f"tokens {r['prompt_tokens']} in / {r['completion_tokens']} out."
        ))
