"""Create a campaign from a template (mos, naturalness, multi_criteria, qa_audit, quality_0_5, custom;
listening tests: ab, abx, ccr, dcr, smos, mushra, ranking — docs/listening-tests.md)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import Project
from annotation import services
from annotation.models import PolicyKind, Template


class Command(BaseCommand):
    help = "Create an annotation campaign from a template; --criteria FILE.json for custom questions."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="campaign slug (unique in the project)")
        parser.add_argument("--project", default="demo")
        parser.add_argument("--name", default=None)
        parser.add_argument("--template", default="mos", choices=Template.values)
        parser.add_argument("--criteria", type=Path, default=None, help="JSON file with a list of criteria")
        parser.add_argument("--policy", choices=PolicyKind.values, default=None)
        parser.add_argument("--k", type=int, default=None, help="annotators per item (overlap, audit)")
        parser.add_argument("--n", type=int, default=None, help="items per listener / per batch")
        parser.add_argument("--quota", type=int, default=None, help="most items per annotator")
        parser.add_argument("--annotators", type=int, default=None, help="partition: expected annotators")
        parser.add_argument("--expiry-minutes", type=int, default=None)
        parser.add_argument("--language", default=None)
        parser.add_argument("--instructions", default=None)
        parser.add_argument("--consent", default=None)
        parser.add_argument("--completion-code", default=None)
        parser.add_argument("--no-work-code", default=None,
                            help="code for annotators who find nothing left to rate (Prolific: return)")
        parser.add_argument("--screened-out-code", default=None,
                            help="code for annotators who fail the qualification items")
        parser.add_argument("--min-listen-fraction", type=float, default=None,
                            help="share of each clip (0-1) that must be heard (default 1)")
        parser.add_argument("--completion-url", default=None)
        parser.add_argument("--open", action="store_true", help="open the campaign right away")

    def handle(self, *args, **o) -> None:
        project = Project.objects.filter(slug=o["project"]).first()
        if project is None:
            raise CommandError(f"unknown project {o['project']!r}")
        criteria = None
        if o["criteria"]:
            try:
                criteria = json.loads(o["criteria"].read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise CommandError(f"{o['criteria']}: {exc}") from exc
        try:
            with transaction.atomic():  # --open on a campaign that cannot open creates nothing
                campaign = self._create(project, criteria, o)
        except services.CampaignError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(
            f"campaign {campaign.slug!r} ({campaign.template}, {campaign.policy}) created in {project.slug!r}"
            f"; status {campaign.status}"))

    def _create(self, project, criteria, o):
        campaign = services.campaign_create(
            project=project, name=o["name"] or o["slug"], slug=o["slug"], template=o["template"],
            criteria=criteria, policy=o["policy"], policy_k=o["k"], policy_n=o["n"],
            policy_quota=o["quota"], policy_annotators=o["annotators"],
            expiry_minutes=o["expiry_minutes"], language=o["language"],
            instructions=o["instructions"], consent_text=o["consent"],
            completion_code=o["completion_code"], completion_url=o["completion_url"],
            no_work_code=o["no_work_code"], screened_out_code=o["screened_out_code"],
            min_listen_fraction=o["min_listen_fraction"])
        if o["open"]:
            services.campaign_set_status(campaign=campaign, status="open")
        return campaign
