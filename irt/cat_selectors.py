"""Reads for adaptive testing: a stored fit as a frozen item bank, a responder's answers
against it, and the efficient-evaluation report (k adaptive items vs the full bank).

The statistics are :mod:`irt.adaptive` (pure); these functions only load rows (a fit's
``FitItem`` rows, one responder's effective verdicts) and hand plain arrays over.
A succeeded fit does not change, so its bank is cached per process by fit id and
finish time (a fit run again, or an id reused by another database, is read afresh).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from accounts.models import Project
from irt import adaptive
from irt.models import Fit, FitItem, FitStatus
from judging.selectors import effective_verdicts
from quiz.models import Question, Responder, Response

#: the budgets reported by default (tinyBenchmarks-style)
DEFAULT_KS = (10, 20, 40)
_CACHE_SIZE = 16
_cache: OrderedDict[tuple[int, str], FitBank] = OrderedDict()


class BankError(ValueError):
    """A fit or responder that cannot be used as asked (names the offending field)."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class FitBank:
    """A succeeded fit's item parameters as an :class:`irt.adaptive.ItemBank`.

    ``bank.ids`` are question primary keys; ``bank.category`` the questions' category
    ids. ``model_prior`` is the fitted model-system population ``(mean, sd)`` when the
    fit separated humans (the N(0, 1) anchor) from models, else ``(0, 1)``.
    """

    fit_id: int
    mode: str
    model: str
    bank: adaptive.ItemBank
    index: dict[int, int]
    model_prior: tuple[float, float]

    def prior_for(self, kind: str) -> tuple[float, float]:
        """The population prior of a responder of ``kind`` (``"human"`` or ``"model"``)."""
        return self.model_prior if kind == "model" else (0.0, 1.0)


def fit_bank(fit: Fit) -> FitBank:
    """The bank of a succeeded fit (two queries the first time, then cached)."""
    if fit.status != FitStatus.SUCCEEDED:
        raise BankError("fit", f"fit #{fit.pk} is {fit.status}; only a succeeded fit is a bank")
    key = (fit.pk, fit.finished_at.isoformat() if fit.finished_at else "")
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    rows = list(FitItem.objects.filter(fit_id=fit.pk).order_by("question_id")
                .values_list("question_id", "a", "b", "c"))
    if not rows:
        raise BankError("fit", f"fit #{fit.pk} has no items")
    qids = [r[0] for r in rows]
    category = dict(Question.objects.filter(pk__in=qids).values_list("id", "category_id"))
    bank = adaptive.ItemBank.from_arrays(
        [r[1] for r in rows], [r[2] for r in rows], c=[r[3] or 0.0 for r in rows],
        category=[category.get(q, -1) for q in qids], ids=qids,
    )
    prior = (0.0, 1.0)
    groups = ((fit.result or {}).get("irt") or {}).get("group_params") or {}
    mu, sigma = groups.get("mu") or [], groups.get("sigma") or []
    if len(mu) > 1 and len(sigma) > 1 and np.isfinite(mu[1]) and sigma[1] > 0:
        prior = (float(mu[1]), float(sigma[1]))
    out = FitBank(fit.pk, fit.mode, fit.model, bank, {q: k for k, q in enumerate(qids)}, prior)
    _cache[key] = out
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return out


def bank_for_serving(project: Project, modes: Sequence[str]) -> FitBank | None:
    """The bank adaptive play uses: the newest succeeded fit over all of the project's
    questions (no category or source filter) in the first of ``modes`` that has one."""
    from irt.selectors import fit_matching

    for mode in modes:
        fit = fit_matching(project, mode)
        if fit is not None:
            return fit_bank(fit)
    return None


def responder_answers(fb: FitBank, responder: Responder | int) -> tuple[np.ndarray, np.ndarray]:
    """Bank indices and 0/1 effective verdicts of a responder's independent (stage 1)
    answers in the bank's mode to questions in the bank (one query)."""
    rid = responder if isinstance(responder, int) else responder.pk
    qs = Response.objects.filter(responder_id=rid, mode=fb.mode, stage=1, question_id__in=fb.bank.ids)
    latest: dict[int, bool] = {}
    for qid, correct in effective_verdicts(queryset=qs).order_by("id").values_list(
        "question_id", "effective_correct"
    ):
        if correct is not None:
            latest[qid] = bool(correct)  # one per question; a later answer (e.g. a later clue) wins
    items = np.fromiter((fb.index[q] for q in latest), dtype=np.int64, count=len(latest))
    return items, np.fromiter(latest.values(), dtype=np.int8, count=len(latest))


def cat_evaluate(
    fit: Fit, responder: Responder, *, ks: Sequence[int] = DEFAULT_KS, criterion: str = "fisher",
    seed: int = 0,
) -> dict[str, Any]:
    """Efficient evaluation of one responder against a fit's bank: theta from k adaptively
    chosen items of what it answered, against theta from all of it (both EAP under its
    population's prior), for each k in ``ks``.

    ``in_fit`` says whether the responder's answers helped calibrate the bank (then the
    comparison is a little optimistic); a new system's is not.
    """
    if criterion not in adaptive.CRITERIA or criterion == "random":
        raise BankError("criterion", f"must be one of {', '.join(c for c in adaptive.CRITERIA if c != 'random')}")
    if not ks or any(int(k) < 1 or int(k) > 10_000 for k in ks):
        raise BankError("k", "must be whole numbers from 1 to 10000")
    if responder.project_id != fit.project_id:
        raise BankError("responder", f"responder #{responder.pk} is not in fit #{fit.pk}'s project")
    fb = fit_bank(fit)
    items, correct = responder_answers(fb, responder)
    if items.size == 0:
        raise BankError("responder", f"responder #{responder.pk} has no {fb.mode} answers to the bank's questions")
    outputs = np.full(fb.bank.n_items, np.nan)
    outputs[items] = correct
    mean, sd = fb.prior_for(responder.kind)
    rows = adaptive.efficient_evaluation(
        fb.bank, outputs, [int(k) for k in ks], criterion=criterion, prior_mean=mean, prior_sd=sd, seed=seed,
    )
    in_fit = responder.pk in set((fit.result or {}).get("responder_ids") or ())
    return {
        "fit": fit.pk, "mode": fb.mode, "model": fb.model, "responder": responder.pk,
        "responder_label": responder.label, "kind": responder.kind, "condition": responder.condition,
        "in_fit": in_fit, "criterion": criterion, "prior_mean": mean, "prior_sd": sd,
        "n_bank": fb.bank.n_items, "n_answered": int(items.size),
        "rows": [
            {
                "k": r.k, "n_used": r.n_used, "theta_k": r.theta_k, "sd_k": r.sd_k,
                "theta_full": r.theta_full, "sd_full": r.sd_full, "abs_diff": r.abs_diff,
                "random_abs_diff": r.random_abs_diff,
                "question_ids": [int(fb.bank.ids[j]) for j in r.items],
            }
            for r in rows
        ],
    }


def cat_responders(fit: Fit, responder_id: float | int | None = None) -> list[Responder]:
    """The responder asked for (of the fit's project), or the project's model systems
    that answered the bank's questions in the fit's mode (at most 100)."""
    if responder_id is not None:
        if responder_id != int(responder_id):
            raise BankError("responder", "must be a whole number")
        found = Responder.objects.filter(project_id=fit.project_id, pk=int(responder_id)).first()
        if found is None:
            raise BankError("responder", f"no responder #{int(responder_id)} in this project")
        return [found]
    return list(
        Responder.objects.filter(
            project_id=fit.project_id, kind="model", responses__mode=fit.mode, responses__stage=1,
            responses__question__irt_items__fit=fit,
        ).distinct().order_by("id")[:100]
    )
