"""Score responders against a frozen item bank without refitting.

``manage.py irt_score --project demo --fit 7`` freezes fit #7 as a bank (or reuses
the bank already made from it) and scores every responder; ``--bank N`` scores
against an existing bank; ``--responder ID`` (repeatable) limits the responders;
``--answers FILE.jsonl`` scores one new responder from lines
``{"question": <id>, "correct": 0|1}``.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from irt import bank_selectors
from irt.bank_services import BankError, irt_bank_create
from irt.models import Fit, ItemBank


class Command(BaseCommand):
    help = (
        "Place responders on a calibrated item bank's θ scale (EAP, SD and 95% interval, item and "
        "anchor uncertainty included) without refitting."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True, help="project slug")
        src = parser.add_mutually_exclusive_group(required=True)
        src.add_argument("--bank", type=int, help="id of an existing bank")
        src.add_argument("--fit", type=int, help="freeze this succeeded fit as a bank (reused if it exists)")
        parser.add_argument("--name", default="", help="name of the bank made with --fit (default fit-<id>)")
        parser.add_argument("--responder", type=int, action="append", help="responder id (repeatable)")
        parser.add_argument("--answers", help="JSONL file of {\"question\": id, \"correct\": 0|1} for one new responder")
        parser.add_argument("--kind", choices=["human", "model"], default="model", help="population of --answers")
        parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")

    def handle(self, *args, project: str, bank: int | None, fit: int | None, name: str,
               responder: list[int] | None, answers: str | None, kind: str, json: bool, **_) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        the_bank = self._bank(target, bank, fit, name)
        self.stdout.write(f"bank #{the_bank.pk} {the_bank.name!r}: {the_bank.model}, {the_bank.mode}, "
                          f"{the_bank.n_items} items")
        try:
            if answers:
                q, y = _read_answers(Path(answers))
                rows = [{"responder": "(answers)", "label": Path(answers).name, "kind": kind, "condition": "",
                         **bank_selectors.bank_score_answers(the_bank, q, y, kind=kind).to_dict()}]
            else:
                rows = [s.to_dict() for s in bank_selectors.bank_score_responders(the_bank, responder)]
        except BankError as exc:
            raise CommandError(str(exc)) from exc
        if json:
            import json as _json

            for r in rows:
                self.stdout.write(_json.dumps(r))
            return
        self.stdout.write(f"{'responder':>9}  {'label':<30} {'kind':<6} {'n':>6} {'correct':>7} {'theta':>7} "
                          f"{'sd':>6}  95% interval")
        for r in rows:
            self.stdout.write(
                f"{r['responder']!s:>9}  {str(r['label'])[:30]:<30} {r['kind']:<6} {r['n_answered']:>6} "
                f"{r['n_correct']:>7} {r['theta']:>7.3f} {r['sd']:>6.3f}  [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
            )

    def _bank(self, project: Project, bank: int | None, fit: int | None, name: str) -> ItemBank:
        if bank is not None:
            found = bank_selectors.bank_get(project, bank)
            if found is None:
                raise CommandError(f"bank #{bank} is not in project {project.slug!r}")
            return found
        the_fit = Fit.objects.filter(project=project, pk=fit).first()
        if the_fit is None:
            raise CommandError(f"fit #{fit} is not in project {project.slug!r}")
        existing = ItemBank.objects.filter(project=project, fit=the_fit).order_by("id").first()
        if existing is not None and not name:
            return existing
        try:
            made = irt_bank_create(fit=the_fit, name=name)
        except BankError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"froze fit #{the_fit.pk} as bank #{made.pk}")
        return made


def _read_answers(path: Path) -> tuple[list[int], list[int]]:
    """``(question ids, 0/1)`` from a JSONL file; errors name FILE:LINE: field."""
    if not path.exists():
        raise CommandError(f"{path}: no such file")
    q: list[int] = []
    y: list[int] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CommandError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise CommandError(f"{path}:{n}: expected an object")
            qid = row.get("question")
            if not isinstance(qid, int) or isinstance(qid, bool):
                raise CommandError(f"{path}:{n}: question: must be an integer question id")
            ok = row.get("correct")
            if ok not in (0, 1, True, False) or ok is None:
                raise CommandError(f"{path}:{n}: correct: must be 0/1 or true/false")
            q.append(qid)
            y.append(int(ok))
    if not q:
        raise CommandError(f"{path}: no answers")
    return q, y
