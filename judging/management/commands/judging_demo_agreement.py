"""Build a judge-human study on the demo and print SEA-SpeechBench Table 5 and 14's shapes."""

from __future__ import annotations

import json
import logging
import tempfile
from contextlib import nullcontext
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import Project, Role, User
from accounts.services import membership_set, project_create, user_create
from judging import demo_agreement, selectors, services
from judging.demo_llm import serve
from quiz import services as quiz_services
from quiz import synth
from quiz.demo import _bank as demo_bank

DEMO_PASSWORD = "earshot-demo"


class Command(BaseCommand):
    help = (
        "Create (or refresh) the demo judge study: demo audio questions in Thai, Vietnamese, "
        "Indonesian and Chinese; three simulated models answering under an English and a "
        "native-language prompt; native-speaker labels; two LLM judges (judge-a, judge-b) "
        "served by a local OpenAI-compatible server (or --base-url). Prints agreement by "
        "language x condition (SEA Table 5) and the models' ranks under each judge (Table 14)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--slug", default="demo-judges")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--base-url", default=None,
                            help="an OpenAI-compatible endpoint to use instead of the built-in simulated one")
        parser.add_argument("--judges", default=",".join(demo_agreement.JUDGES),
                            help="comma-separated judge models (default judge-a,judge-b)")
        parser.add_argument("--n-boot", type=int, default=1000)
        parser.add_argument("--json", dest="json_path", default=None, help="also write the report here")

    def handle(self, *args, slug, seed, base_url, judges, n_boot, json_path, **options) -> None:
        for name in ("httpx", "httpx2", "openai"):  # one line per HTTP request is noise here
            logging.getLogger(name).setLevel(logging.WARNING)
        project = self._project(slug, seed)
        models = [m.strip() for m in judges.split(",") if m.strip()]
        if not models:
            raise CommandError("--judges is empty")
        server = nullcontext((base_url, [0])) if base_url else serve()
        with server as (url, _count):
            for model in models:
                config = services.llm_config(base_url=url, api_key="demo", model=model, max_attempts=2)
                run = services.llm_judge_run(project=project, rubric="verdict", scope="all", config=config)
                self.stdout.write(f"{run.judge}: {run.candidates} answers, {run.called} called, "
                                  f"{run.cached} cached, {run.failed} failed")
        report = selectors.agreement_study_report(project=project, n_boot=n_boot, seed=seed)
        if json_path:
            Path(json_path).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
        self._print(report)
        self.stdout.write(f"Page: /p/{slug}/judging/agreement/  (researcher / {DEMO_PASSWORD})")

    def _project(self, slug: str, seed: int) -> Project:
        audio = {spec["id"]: spec["audio"] for spec in demo_bank()}
        outputs = demo_agreement.model_outputs(seed)
        with transaction.atomic(), tempfile.TemporaryDirectory() as tmp:
            project = Project.objects.filter(slug=slug).first() or project_create(
                slug=slug, name="Earshot demo: judges side by side", is_public=False,
                description="Demo audio questions in four languages, judged by people and by two LLM judges.",
            )
            researcher = User.objects.filter(username="researcher").first() or user_create(
                username="researcher", password=DEMO_PASSWORD, handle="demo-researcher")
            membership_set(project=project, user=researcher, role=Role.OWNER)
            lines = []
            for row in demo_agreement.bank_rows():
                names = []
                for name, signal in audio[row.pop("demo_audio")].items():
                    (Path(tmp) / name).write_bytes(synth.wav_bytes(signal))
                    names.append(name)
                lines.append(json.dumps({**row, "audio": names}, ensure_ascii=False))
            bank = Path(tmp) / "bank.jsonl"
            bank.write_text("\n".join(lines) + "\n", encoding="utf-8")
            quiz_services.bank_import(project=project, path=bank)
            answers = Path(tmp) / "outputs.jsonl"
            answers.write_text("\n".join(json.dumps({k: r[k] for k in ("system", "condition", "question_id",
                                                                       "mode", "answer")}, ensure_ascii=False)
                                         for r in outputs) + "\n", encoding="utf-8")
            quiz_services.model_responses_import(project=project, path=answers)
            labels = Path(tmp) / "labels.jsonl"
            labels.write_text("\n".join(json.dumps(r, ensure_ascii=False)
                                        for r in demo_agreement.human_labels(outputs, seed=seed)) + "\n",
                              encoding="utf-8")
            summary = services.human_labels_import(project=project, path=labels)
        self.stdout.write(f"Project '{slug}': {len(outputs)} model answers, {summary.created} human labels "
                          f"added ({summary.unchanged} unchanged).")
        return project

    def _print(self, report: dict) -> None:
        judges = [j for j in report["judges"] if j.startswith("llm:") or j.startswith("rules@")]
        cells = {(c["judge"], c["language"], c["condition"]): c for c in report["cells"] if c["task"] == "all"}
        conditions = demo_agreement.CONDITIONS
        self.stdout.write("\nAgreement with native-speaker labels: accuracy / Cohen's kappa (SEA Table 5 shape)")
        header = "lang  " + "".join(f"{j[:28]:>32}" for j in judges)
        self.stdout.write(header)
        self.stdout.write("      " + "".join(f"{c:>16}" for _ in judges for c in conditions))
        for lang in [*demo_agreement.LANGUAGES, "all"]:
            parts = []
            for j in judges:
                for cond in conditions:
                    c = cells.get((j, lang, cond))
                    kappa = "-" if not c or c["kappa"] is None else f"{c['kappa']:.2f}"
                    parts.append(f"{(c['accuracy'] if c else 0):>9.2f}/{kappa:>5}" if c else f"{'-':>16}")
            self.stdout.write(f"{lang:<6}" + "".join(f"{p:>16}" for p in parts))
        ranking = report["ranking"]
        self.stdout.write("\nSystems' accuracy and rank under each judge (SEA Table 14 shape)")
        self.stdout.write(f"{'system':<32}" + "".join(f"{j[:26]:>28}" for j in ranking["judges"]))
        for s in ranking["systems"]:
            self.stdout.write(f"{s['system']:<32}" + "".join(
                f"{(s['scores'][j] or 0):>22.3f} (#{int(s['ranks'][j] or 0)})" for j in ranking["judges"]))
        for p in ranking["pairs"]:
            rho = "-" if p["spearman"] is None else f"{p['spearman']:.3f}"
            tau = "-" if p["kendall"] is None else f"{p['kendall']:.3f}"
            self.stdout.write(f"  {p['judge_a']} vs {p['judge_b']}: Spearman {rho}, Kendall {tau}")
        self.stdout.write("\nRefusals (SEA Fig. 4 shape)")
        for r in report["refusals"]:
            answered = "-" if r["accuracy_answered"] is None else f"{r['accuracy_answered']:.3f}"
            self.stdout.write(f"  {r['system']:<32} refused {r['refused']}/{r['n']} "
                              f"({r['refusal_rate']:.2f}); accuracy {r['accuracy']:.3f}, "
                              f"on answered {answered}")
