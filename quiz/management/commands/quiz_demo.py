"""Create the playable demo project (generated audio, simulated models and players)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Project, Role, User
from accounts.services import guest_create, membership_set, project_create, user_create
from annotation.demo import demo_campaign_seed
from annotation.demo_listening import demo_listening_seed
from quiz import demo, services, study
from quiz.models import Presentation, Question

DEMO_PASSWORD = "earshot-demo"


class Command(BaseCommand):
    help = "Create (or refresh) the demo project: generated audio bank, model and player responses."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--slug", default="demo")
        parser.add_argument("--players", type=int, default=8, help="simulated human players")
        parser.add_argument("--seed", type=int, default=7)

    def handle(self, *args, slug: str, players: int, seed: int, **options) -> None:
        with transaction.atomic():
            project = Project.objects.filter(slug=slug).first()
            if project is None:
                project = project_create(
                    slug=slug,
                    name="Earshot demo: sounds & tones",
                    is_public=True,
                    description="Count beeps, name intervals and melodies, decode Morse and keypad tones.",
                )
            researcher = User.objects.filter(username="researcher").first()
            if researcher is None:
                researcher = user_create(username="researcher", password=DEMO_PASSWORD, handle="demo-researcher")
            membership_set(project=project, user=researcher, role=Role.OWNER)
            # a superuser with a published password only on a demo/development server (M-6)
            if settings.DEBUG and not User.objects.filter(username="admin").exists():
                user_create(username="admin", password=DEMO_PASSWORD, handle="demo-admin",
                            is_staff=True, is_superuser=True)
            with tempfile.TemporaryDirectory() as tmp:
                bank = demo.write_demo_bank(Path(tmp))
                summary = services.bank_import(project=project, path=bank)
                outputs = demo.demo_model_outputs(Path(tmp) / "outputs.jsonl", seed=seed)
                model_summary = services.model_responses_import(project=project, path=outputs)
            # The demo is a between-subjects study (the default): each simulated player
            # answers each question in one mode.
            study.study_for(project)
            created_players = self._players(project, players, seed)
            self._seed_paper_campaigns(project, seed)
            campaign = demo_campaign_seed(project, seed=seed)  # the annotator role (annotation app)
            listening = demo_listening_seed(project, seed=seed)  # AB, CCR, MUSHRA, headphone check
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo project '{project.slug}': {summary.created} questions created, "
                f"{summary.updated} updated, {summary.clips_created} clips; "
                f"model responses: {model_summary.created} new; {created_players} simulated players."
            )
        )
        self.stdout.write(f"Annotation campaign '{campaign.slug}' (open): /p/{project.slug}/c/{campaign.slug}/")
        for c in listening:
            self.stdout.write(f"Listening test '{c.slug}' ({c.template}, open): /p/{project.slug}/c/{c.slug}/")
        admin_note = f"admin: admin / {DEMO_PASSWORD}" if settings.DEBUG else "no admin account: DJANGO_DEBUG is off"
        self.stdout.write(f"Researcher login: researcher / {DEMO_PASSWORD}  ({admin_note})")

    def _seed_paper_campaigns(self, project: Project, seed: int) -> None:
        """The rated, closed KoALa-check and QA-audit campaigns of the seed-paper tables."""
        from annotation.seed_demo import seed_demo_campaigns

        seed_demo_campaigns(project, seed=seed)

    def _players(self, project: Project, count: int, seed: int) -> int:
        existing = project.responders.filter(kind="human", user__is_guest=True).count()
        rng = random.Random(seed)
        questions = {q.external_id: q for q in Question.objects.filter(project=project)}
        created = 0
        for index in range(existing, count):
            user = guest_create(handle=f"demo-player-{index + 1}")
            membership_set(project=project, user=user, role=Role.PARTICIPANT)
            responder = services.responder_for_user(project=project, user=user)
            skill = 0.3 + 0.6 * rng.random()
            for qid, mode, answer in demo.demo_human_answers(rng, skill):
                question = questions[qid]
                if mode == "mcq":
                    presentation = services.presentation_get_or_create(
                        responder=responder, question=question, mode=mode, rng=rng, design="between"
                    )
                    services.response_submit(
                        responder=responder, question=question, mode=mode,
                        client_token=f"demo-{index}-{qid}-{mode}", choice=int(answer), design="between",
                        option_order=Presentation.objects.get(pk=presentation.pk).option_order,
                        latency_ms=rng.randint(2500, 15000),
                    )
                else:
                    services.presentation_get_or_create(
                        responder=responder, question=question, mode=mode, design="between"
                    )
                    services.response_submit(
                        responder=responder, question=question, mode=mode,
                        client_token=f"demo-{index}-{qid}-{mode}", answer_text=str(answer), design="between",
                        clue_index=0 if not question.pyramidal else rng.randint(0, 2),
                        latency_ms=rng.randint(2500, 15000),
                    )
            created += 1
        return created
