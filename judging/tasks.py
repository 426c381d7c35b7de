"""Background jobs for judging (Celery). Thin: load ids, call a service, return a summary.

Start them after commit, e.g. ``transaction.on_commit(lambda: llm_judge_task.delay(p.id))``.
Without ``CELERY_BROKER_URL`` they run inline (eager), as everywhere in Earshot.
"""

from __future__ import annotations

from dataclasses import asdict

from celery import shared_task

from accounts.models import Project

from . import services


def _project(project_id: int | None) -> Project | None:
    return Project.objects.get(pk=project_id) if project_id is not None else None


@shared_task(name="judging.llm_judge")
def llm_judge_task(project_id: int | None = None, purpose: str = "verdict",
                   budget: int | None = None, low: float | None = None,
                   high: float | None = None, rubric: str | None = None,
                   scope: str | None = None, model: str | None = None) -> dict:
    """Run an LLM judge over a project's grey-zone verdicts, or over answers for a study."""
    zone = (low, high) if low is not None and high is not None else None
    config = services.llm_config(model=model) if model else None
    report = services.llm_judge_run(project=_project(project_id), purpose=purpose, budget=budget,
                                    grey_zone=zone, rubric=rubric, scope=scope, config=config)
    return asdict(report)


@shared_task(name="judging.rescore")
def rescore_task(project_id: int | None = None, all_versions: bool = False) -> dict:
    """Re-judge stored free answers after a rule-version change."""
    report = services.responses_rescore(project=_project(project_id), all_versions=all_versions)
    return {"version": report.version, "examined": report.examined, "updated": report.updated,
            "unchanged": report.unchanged, "overridden": report.overridden,
            "flipped": report.flipped}
