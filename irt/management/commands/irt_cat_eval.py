"""Efficient model evaluation against an item bank (a frozen bank or a fit's items):
``manage.py irt_cat_eval --project demo (--bank 2 | --fit 3) [--responder 12] [--k 10 20 40]``."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Project
from irt import cat_selectors
from irt.models import Fit, FitStatus


class Command(BaseCommand):
    help = (
        "Score model systems (or any responder) from k adaptively chosen items of a fit's bank and "
        "compare with their score from every item they answered: theta_k +- SD, theta_full and "
        "|difference| per k, beside the same for k random items."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True, help="project slug")
        source = parser.add_mutually_exclusive_group()
        source.add_argument("--bank", type=int, default=None, help="item bank id (irt_score's banks)")
        source.add_argument("--fit", type=int, default=None,
                            help="fit id (default: the newest succeeded unfiltered fit of --mode)")
        parser.add_argument("--mode", choices=["free", "mcq"], default="free")
        parser.add_argument("--responder", type=int, action="append", default=[],
                            help="responder id (repeatable; default: every model system that answered)")
        parser.add_argument("--k", type=int, nargs="+", default=list(cat_selectors.DEFAULT_KS))
        parser.add_argument("--criterion", choices=["fisher", "posterior", "kl"], default="fisher")
        parser.add_argument("--json", dest="as_json", action="store_true", help="print JSON instead of a table")

    def handle(self, *args, project: str, bank: int | None, fit: int | None, mode: str, responder: list[int],
               k: list[int], criterion: str, as_json: bool, **options) -> None:
        target = Project.objects.filter(slug=project).first()
        if target is None:
            raise CommandError(f"unknown project {project!r}")
        try:
            cb = self._bank(target, bank) if bank is not None else cat_selectors.fit_bank(self._fit(target, fit, mode))
            responders = (
                [r for rid in responder for r in cat_selectors.cat_responders(cb, rid)]
                if responder else cat_selectors.cat_responders(cb)
            )
            if not responders:
                raise CommandError(f"no model system answered {cb.source} #{cb.source_id}'s questions in {cb.mode}")
            results = [cat_selectors.cat_evaluate(cb, r, ks=k, criterion=criterion) for r in responders]
        except cat_selectors.BankError as exc:
            raise CommandError(str(exc)) from exc
        if as_json:
            self.stdout.write(_dumps(results))
            return
        self.stdout.write(
            f"{cb.source} #{cb.source_id} ({cb.model}, {cb.mode}) as a bank of {cb.bank.n_items} items; "
            f"selection {criterion}"
        )
        self.stdout.write(f"{'responder':<34} {'k':>4} {'theta_k':>8} {'sd_k':>6} {'theta_full':>10} "
                          f"{'sd_full':>7} {'|diff|':>7} {'random':>7}")
        for res in results:
            label = f"#{res['responder']} {res['responder_label']}"[:33] + ("*" if res["in_fit"] else "")
            for row in res["rows"]:
                self.stdout.write(
                    f"{label:<34} {row['k']:>4} {row['theta_k']:>8.3f} {row['sd_k']:>6.3f} "
                    f"{row['theta_full']:>10.3f} {row['sd_full']:>7.3f} {row['abs_diff']:>7.3f} "
                    f"{row['random_abs_diff']:>7.3f}"
                )
        if any(r["in_fit"] for r in results):
            self.stdout.write("* answers part of the fit's data (the comparison is a little optimistic)")

    def _bank(self, project: Project, bank_id: int) -> cat_selectors.CatBank:
        from irt.bank_selectors import bank_get

        found = bank_get(project, bank_id)
        if found is None:
            raise CommandError(f"no bank #{bank_id} in project {project.slug!r}")
        return cat_selectors.item_bank(found)

    def _fit(self, project: Project, fit_id: int | None, mode: str) -> Fit:
        if fit_id is not None:
            found = Fit.objects.filter(project=project, pk=fit_id).first()
            if found is None:
                raise CommandError(f"no fit #{fit_id} in project {project.slug!r}")
            if found.status != FitStatus.SUCCEEDED:
                raise CommandError(f"fit #{fit_id} is {found.status}; only a succeeded fit is a bank")
            return found
        from irt.selectors import fit_matching

        found = fit_matching(project, mode)
        if found is None:
            raise CommandError(f"project {project.slug!r} has no succeeded {mode} fit over all questions; "
                               "run irt_fit first")
        return found


def _dumps(value: object) -> str:
    return json.dumps(value, indent=1)
