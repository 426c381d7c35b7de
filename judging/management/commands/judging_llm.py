"""Ask an LLM judge about grey-zone verdicts, or judge answers for an agreement study, with a budget."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from judging.services import JudgingError, prompt_resolve
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
        parser.add_argument("--rubric", default=None,
                            help="project rubric name or built-in prompt (verdict, quality, score)")
        parser.add_argument("--scope", choices=["grey", "labelled", "all"], default=None,
                            help="grey: grey-zone verdicts (default; they count in the effective verdict); "
                                 "labelled / all: an agreement study (never changes a result)")
        parser.add_argument("--model", default=None, help="judge model (default EARSHOT_LLM_JUDGE_MODEL)")
        parser.add_argument("--force", action="store_true", help="run even if EARSHOT_LLM_JUDGE_ENABLED is off")

    def handle(self, *args, project, budget, quality, low, high, force, rubric, scope, model,
               **options) -> None:
        if not (settings.EARSHOT_LLM_JUDGE_ENABLED or force):
            raise CommandError("the LLM judge is off: set OPENAI_BASE_URL and/or OPENAI_API_KEY (or --force)")
        if budget is not None and budget < 0:
            raise CommandError("--budget must be >= 0")
        if (low is None) != (high is None):
            raise CommandError("give both --low and --high")
        project_id = target = None
        if project:
            target = Project.objects.filter(slug=project).first()
            if target is None:
                raise CommandError(f"unknown project {project!r}")
            project_id = target.pk
        if rubric and quality:
            raise CommandError("give --rubric or --quality, not both")
        if rubric:
            try:
                prompt_resolve(project=target if project else None, name=rubric)
            except JudgingError as exc:
                raise CommandError(str(exc)) from exc
        result = llm_judge_task.delay(project_id, "quality" if quality else "verdict", budget, low, high,
                                      rubric, scope, model)
        if not result.ready():
            self.stdout.write(f"queued as task {result.id}")
            return
        r = result.get()
        for error in r["errors"][:20]:
            self.stderr.write(error)
        self.stdout.write(self.style.SUCCESS(
            f"{r['purpose']} with {r['judge']} ({r['scope']}): {r['candidates']} candidates, "
            f"{r['cached']} cached, {r['called']} called, {r['failed']} failed, "
            f"{r['unreadable']} unreadable, {r['skipped_budget']} over budget, {r['recorded']} recorded; "
            f"tokens {r['prompt_tokens']} in / {r['completion_tokens']} out."
        ))
