"""Send a campaign's approvals and bonuses to Prolific (dry run unless --send)."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from annotation import prolific, selectors, services_crowd
from annotation.models import Platform


class Command(BaseCommand):
    help = ("Approve the participants the approval report approves and set up (with --pay, also pay) their "
            "bonuses on Prolific. Without --send it prints the plan only. The token is read from the "
            "environment variable named by --token-env (default PROLIFIC_TOKEN).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("--project", default="demo")
        parser.add_argument("--study", required=True, help="the Prolific STUDY_ID")
        parser.add_argument("--send", action="store_true", help="call the API (default: dry run)")
        parser.add_argument("--pay", action="store_true", help="also pay the bonuses (once; not idempotent)")
        parser.add_argument("--token-env", default="PROLIFIC_TOKEN")
        parser.add_argument("--base-url", default=prolific.DEFAULT_BASE_URL)

    def handle(self, *args, campaign: str, project: str, study: str, send: bool, pay: bool, token_env: str,
               base_url: str, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        found = selectors.campaign_get(target, campaign) if target else None
        if found is None:
            raise CommandError(f"unknown campaign {campaign!r} in project {project!r}")
        rows, _timing = services_crowd.payment_report(found)
        ids = set(found.annotators.filter(platform=Platform.PROLIFIC, study_id__in=[study, ""])
                  .exclude(external_id="").values_list("external_id", flat=True))
        plan = prolific.payment_plan(rows, study_id=study, platform_ids=ids)
        total = sum(amount for _pid, amount in plan.bonuses)
        self.stdout.write(f"study {study}: approve {len(plan.approve)}, bonuses {len(plan.bonuses)} "
                          f"(total {total:.2f} in the study's currency)")
        if not send:
            self.stdout.write("dry run: nothing sent (add --send)")
            return
        token = os.environ.get(token_env, "")
        if not token:
            raise CommandError(f"set the API token in ${token_env}")
        try:
            done = prolific.send_plan(prolific.ProlificClient(token, base_url=base_url), plan, pay=pay)
        except prolific.ProlificError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(
            f"approved {done['approved']}; bonus {done['bonus_id'] or '-'} "
            f"{'paid' if done['paid'] else 'set up, not paid (add --pay)' if done['bonus_id'] else ''}"))
