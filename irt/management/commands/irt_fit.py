"""Fit IRT over a project's stored responses: ``manage.py irt_fit --project demo --mode free``."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from irt import selectors, services
from irt.models import Fit, FitStatus


class Command(BaseCommand):
    help = (
        "Fit a 1PL/2PL/3PL IRT model jointly over the humans' and models' stored responses. "
        "Runs inline without a broker; with CELERY_BROKER_URL it enqueues the fit "
        "(--wait follows its progress)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True, help="project slug")
        parser.add_argument("--mode", choices=["free", "mcq"], default="free")
        parser.add_argument("--model", choices=list(services.MODELS), default="2pl")
        parser.add_argument("--method", choices=list(services.METHODS), default="auto")
        parser.add_argument("--source", default="", help="only questions from this source dataset")
        parser.add_argument("--category", default="", help="only this category (slug)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--device", choices=list(services.DEVICES), default="cpu")
        parser.add_argument("--wait", action="store_true", help="with a broker: wait for the fit to finish")

    def handle(self, *args, project: str, wait: bool, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        opts = {k: options[k] for k in ("mode", "model", "method", "source", "category", "seed", "device")}
        try:
            fit = services.irt_fit_create(
                project=target, options=opts, dispatch=services.broker_configured()
            )
        except services.FitOptionsError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"IRT fit #{fit.pk} ({fit.model}, {fit.mode}) for project '{target.slug}'")
        if services.broker_configured():
            self.stdout.write("queued for a Celery worker")
            if not wait:
                return
            fit = self._follow(fit.pk)
        else:
            fit = services.irt_fit_run(fit.pk, echo=self._echo)
        self._summary(fit)

    def _echo(self, value: float, message: str) -> None:
        self.stdout.write(f"  {value * 100:5.1f}%  {message}")

    def _follow(self, fit_id: int) -> Fit:
        last = None
        while True:
            fit = Fit.objects.defer("result", "snapshot").get(pk=fit_id)
            state = (fit.status, round(fit.progress, 2), fit.progress_message)
            if state != last:
                self._echo(fit.progress, f"{fit.status}: {fit.progress_message}")
                last = state
            if fit.is_done:
                return Fit.objects.get(pk=fit_id)
            time.sleep(1.0)

    def _summary(self, fit: Fit) -> None:
        if fit.status != FitStatus.SUCCEEDED:
            raise CommandError(f"fit #{fit.pk} {fit.status}: {fit.error}")
        self.stdout.write(self.style.SUCCESS(
            f"fit #{fit.pk} succeeded: {fit.n_responders} responders x {fit.n_items} items, "
            f"{fit.n_responses} responses, method {fit.method}, {fit.duration_s:.1f} s; "
            f"data sha256 {fit.data_hash[:12]}…"
        ))
        for warning in fit.warnings:
            self.stdout.write(self.style.WARNING(f"warning: {warning}"))
        table = selectors.fit_report(fit)["ranking"]
        if table.empty:
            return
        self.stdout.write(f"{'rank':>4}  {'entry':<40} {'n':>6} {'acc':>6} {'theta':>7}  95% CI")
        for _, r in table.iterrows():
            self.stdout.write(
                f"{int(r['rank']):>4}  {str(r['entry'])[:40]:<40} {int(r['n_answered']):>6} "
                f"{r['accuracy']:>6.3f} {r['theta']:>7.2f}  [{r['theta_lo']:.2f}, {r['theta_hi']:.2f}]"
            )
