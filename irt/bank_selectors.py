"""Reads for item banks: list/get, load as a pure :class:`irt.bank.Bank`, score.

Scoring is a read: a responder's effective verdicts (the same ones a fit uses) on the
bank's questions, scored by :func:`irt.bank.score_responder`; nothing is refitted
or stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from django.db.models import QuerySet

from accounts.models import Project
from irt.bank import Bank, Score, score_responder
from irt.bank_services import BankError
from irt.models import BankItem, ItemBank
from judging.selectors import effective_verdicts
from quiz.models import Responder, Response


def bank_list(project: Project) -> QuerySet[ItemBank]:
    """The project's banks, newest first."""
    return ItemBank.objects.filter(project=project).select_related("fit", "created_by")


def bank_get(project: Project, bank_id: int) -> ItemBank | None:
    """One bank of the project, or ``None`` (never another project's)."""
    return ItemBank.objects.filter(project=project, pk=bank_id).first()


def bank_load(bank: ItemBank) -> Bank:
    """The bank's frozen parameters as the pure :class:`irt.bank.Bank` (one query)."""
    rows = list(BankItem.objects.filter(bank=bank).order_by("question_id").values_list(
        "question_id", "a", "sd_log_a", "b", "sd_b", "c", "d"))
    if not rows:
        raise BankError("bank", f"bank #{bank.pk} has no items")
    arr = np.asarray([r[1:] for r in rows], dtype=float)
    c, d = arr[:, 4], arr[:, 5]
    return Bank(
        item_ids=tuple(int(r[0]) for r in rows), a=arr[:, 0], sd_log_a=arr[:, 1], b=arr[:, 2], sd_b=arr[:, 3],
        c=c if (c > 0).any() else None, d=d if (d < 1).any() else None,
        anchor_loc_var=bank.anchor_loc_var, anchor_scale_var=bank.anchor_scale_var, model=bank.model,
    )


def bank_prior(bank: ItemBank, kind: str) -> tuple[float, float]:
    """The population (mean, SD) a responder of ``kind`` is scored under."""
    loc, scale = (bank.populations or {}).get(kind) or ([0.0, 1.0] if kind == "human" else [0.0, 2.0])
    return float(loc), float(scale)


@dataclass(frozen=True)
class ResponderScore:
    """A stored responder scored against a bank."""

    responder_id: int
    label: str
    kind: str
    condition: str
    score: Score

    def to_dict(self) -> dict[str, object]:
        return {
            "responder": self.responder_id, "label": self.label, "kind": self.kind,
            "condition": self.condition, **self.score.to_dict(),
        }


def bank_score_responders(
    bank: ItemBank, responder_ids: Iterable[int] | None = None, *, item_draws: int | None = None
) -> list[ResponderScore]:
    """Score stored responders of the bank's project on its questions (one query for
    the responders, one for their verdicts).

    ``responder_ids`` ``None``: every responder with an answer to a bank question in
    the bank's mode.  An unknown id raises :class:`BankError`.  Answers to questions
    outside the bank are ignored (the bank cannot place them).
    """
    pure = bank_load(bank)
    qs = Responder.objects.filter(project_id=bank.project_id)
    wanted = None if responder_ids is None else sorted({int(r) for r in responder_ids})
    if wanted is not None:
        qs = qs.filter(pk__in=wanted)
    info = {r[0]: r[1:] for r in qs.values_list("id", "label", "kind", "condition")}
    if wanted is not None:
        missing = [r for r in wanted if r not in info]
        if missing:
            raise BankError("responders", f"responder {missing[0]} is not in project {bank.project.slug!r}")
    resp = Response.objects.filter(
        project_id=bank.project_id, mode=bank.mode, stage=1, question_id__in=pure.item_ids,
        question__is_active=True,
    )
    if wanted is not None:
        resp = resp.filter(responder_id__in=wanted)
    rows = list(effective_verdicts(queryset=resp).values_list("responder_id", "question_id", "effective_correct"))
    by: dict[int, tuple[list[int], list[int]]] = {}
    for rid, qid, ok in rows:
        q, y = by.setdefault(rid, ([], []))
        q.append(qid)
        y.append(1 if ok else 0)
    ids = wanted if wanted is not None else sorted(by)
    out = []
    kw = {} if item_draws is None else {"item_draws": item_draws}
    for rid in ids:
        label, kind, cond = info[rid]
        q, y = by.get(rid, ([], []))
        loc, scale = bank_prior(bank, kind)
        sc = score_responder(pure, pure.index(q), y, prior_loc=loc, prior_scale=scale, seed=rid, **kw)
        out.append(ResponderScore(rid, label, kind, cond, sc))
    return out


def bank_score_answers(
    bank: ItemBank, question_ids: Sequence[int], correct: Sequence[int], *, kind: str = "model",
    item_draws: int | None = None,
) -> Score:
    """Score answers that are not stored (a new model's outputs, judged elsewhere).

    ``question_ids``: question primary keys of the bank; an id outside the bank
    raises :class:`BankError` naming it.
    """
    pure = bank_load(bank)
    try:
        idx = pure.index(list(question_ids))
    except KeyError as exc:
        raise BankError("answers", str(exc.args[0])) from None
    loc, scale = bank_prior(bank, kind)
    kw = {} if item_draws is None else {"item_draws": item_draws}
    return score_responder(pure, idx, list(correct), prior_loc=loc, prior_scale=scale, **kw)
