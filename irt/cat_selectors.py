"""Reads for adaptive testing: a stored fit as a frozen item bank, a responder's answers
against it, and the efficient-evaluation report (k adaptive items vs the full bank).

The statistics are :mod:`irt.adaptive` (pure); these functions only load rows (a fit's
``FitItem`` rows, one responder's effective verdicts) and hand plain arrays over.
A bank is either a succeeded fit's item parameters or a frozen
:class:`irt.models.ItemBank`; neither changes, so each is cached per process by id and
finish/creation time (an id reused by another database is read afresh).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db.models import Exists, OuterRef

from accounts.models import Project
from irt import adaptive
from irt.bank_services import BankError
from irt.models import Fit, FitItem, FitStatus, ItemBank
from judging.selectors import effective_verdicts
from quiz.models import Question, Responder, Response

#: the budgets reported by default (tinyBenchmarks-style)
DEFAULT_KS = (10, 20, 40)
_CACHE_SIZE = 16
_cache: OrderedDict[tuple, CatBank] = OrderedDict()


@dataclass(frozen=True)
class CatBank:
    """A frozen item bank for adaptive testing: a succeeded fit's items, or an
    :class:`irt.models.ItemBank` (irt-core's frozen bank) as an :class:`irt.adaptive.ItemBank`.

    ``bank.ids`` are question primary keys; ``bank.category`` the questions' category
    ids. ``priors`` maps a responder kind to the population ``(mean, sd)`` it is
    scored under; ``calibrated_on`` holds the responders whose answers calibrated the
    items (their comparison with the full evaluation is a little optimistic).
    """

    source: str  # "fit" or "bank"
    source_id: int
    project_id: int
    mode: str
    model: str
    bank: adaptive.ItemBank
    index: dict[int, int]
    priors: dict[str, tuple[float, float]]
    calibrated_on: frozenset[int] = frozenset()

    def prior_for(self, kind: str) -> tuple[float, float]:
        """The population prior of a responder of ``kind`` (``"human"`` or ``"model"``)."""
        return self.priors.get(kind, (0.0, 1.0))


def _remember(key: tuple, value: CatBank) -> CatBank:
    _cache[key] = value
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return value


def _categories(qids: list[int]) -> list[int]:
    category = dict(Question.objects.filter(pk__in=qids).values_list("id", "category_id"))
    return [category.get(q, -1) for q in qids]


def fit_bank(fit: Fit) -> CatBank:
    """The bank of a succeeded fit (two queries the first time, then cached).

    Models are scored under the fitted model-system population when the fit separated
    humans (the N(0, 1) anchor) from models, else under N(0, 1) like humans.
    """
    if fit.status != FitStatus.SUCCEEDED:
        raise BankError("fit", f"fit #{fit.pk} is {fit.status}; only a succeeded fit is a bank")
    key = ("fit", fit.pk, fit.finished_at.isoformat() if fit.finished_at else "")
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    rows = list(FitItem.objects.filter(fit_id=fit.pk).order_by("question_id")
                .values_list("question_id", "a", "b", "c"))
    if not rows:
        raise BankError("fit", f"fit #{fit.pk} has no items")
    qids = [r[0] for r in rows]
    bank = adaptive.ItemBank.from_arrays(
        [r[1] for r in rows], [r[2] for r in rows], c=[r[3] or 0.0 for r in rows],
        category=_categories(qids), ids=qids,
    )
    model_prior = (0.0, 1.0)
    groups = ((fit.result or {}).get("irt") or {}).get("group_params") or {}
    mu, sigma = groups.get("mu") or [], groups.get("sigma") or []
    if len(mu) > 1 and len(sigma) > 1 and np.isfinite(mu[1]) and sigma[1] > 0:
        model_prior = (float(mu[1]), float(sigma[1]))
    return _remember(key, CatBank(
        "fit", fit.pk, fit.project_id, fit.mode, fit.model, bank, {q: k for k, q in enumerate(qids)},
        {"human": (0.0, 1.0), "model": model_prior},
        frozenset((fit.result or {}).get("responder_ids") or ()),
    ))


def item_bank(stored: ItemBank) -> CatBank:
    """An :class:`irt.models.ItemBank` (frozen; cached by id and creation time), with the
    population priors :func:`irt.bank_selectors.bank_prior` scores under."""
    from irt.bank_selectors import bank_load, bank_prior

    key = ("bank", stored.pk, stored.created_at.isoformat() if stored.created_at else "")
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    pure = bank_load(stored)
    qids = [int(q) for q in pure.item_ids]
    n = len(qids)
    bank = adaptive.ItemBank.from_arrays(
        pure.a, pure.b, c=pure.c if pure.c is not None else np.zeros(n),
        d=pure.d if pure.d is not None else np.ones(n), category=_categories(qids), ids=qids,
    )
    calibrated = frozenset()
    if stored.fit_id:
        ids = Fit.objects.filter(pk=stored.fit_id).values_list("result__responder_ids", flat=True).first()
        calibrated = frozenset(ids or ())
    return _remember(key, CatBank(
        "bank", stored.pk, stored.project_id, stored.mode, stored.model, bank, {q: k for k, q in enumerate(qids)},
        {kind: bank_prior(stored, kind) for kind in ("human", "model")}, calibrated,
    ))


def bank_for_serving(project: Project, modes: Sequence[str]) -> CatBank | None:
    """The bank adaptive play uses, in the first of ``modes`` that has one: the
    project's newest frozen item bank of that mode, else its newest succeeded fit over
    all questions (no category or source filter)."""
    from irt.selectors import fit_matching

    for mode in modes:
        stored = ItemBank.objects.filter(project=project, mode=mode).order_by("-created_at", "-id").first()
        if stored is not None:
            return item_bank(stored)
        fit = fit_matching(project, mode)
        if fit is not None:
            return fit_bank(fit)
    return None


def responder_answers(fb: CatBank, responder: Responder | int) -> tuple[np.ndarray, np.ndarray]:
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
    cb: CatBank, responder: Responder, *, ks: Sequence[int] = DEFAULT_KS, criterion: str = "fisher",
    seed: int = 0,
) -> dict[str, Any]:
    """Efficient evaluation of one responder against a bank: theta from k adaptively
    chosen items of what it answered, against theta from all of it (both EAP under its
    population's prior), for each k in ``ks``.

    ``in_fit`` says whether the responder's answers helped calibrate the bank (then the
    comparison is a little optimistic); a new system's did not.
    """
    if criterion not in adaptive.CRITERIA or criterion == "random":
        raise BankError("criterion", f"must be one of {', '.join(c for c in adaptive.CRITERIA if c != 'random')}")
    if not ks or any(int(k) < 1 or int(k) > 10_000 for k in ks):
        raise BankError("k", "must be whole numbers from 1 to 10000")
    if responder.project_id != cb.project_id:
        raise BankError("responder", f"responder #{responder.pk} is not in the {cb.source}'s project")
    items, correct = responder_answers(cb, responder)
    if items.size == 0:
        raise BankError("responder", f"responder #{responder.pk} has no {cb.mode} answers to the bank's questions")
    outputs = np.full(cb.bank.n_items, np.nan)
    outputs[items] = correct
    mean, sd = cb.prior_for(responder.kind)
    rows = adaptive.efficient_evaluation(
        cb.bank, outputs, [int(k) for k in ks], criterion=criterion, prior_mean=mean, prior_sd=sd, seed=seed,
    )
    return {
        "responder": responder.pk, "responder_label": responder.label, "kind": responder.kind,
        "condition": responder.condition, "in_fit": responder.pk in cb.calibrated_on,
        "prior_mean": mean, "prior_sd": sd, "n_answered": int(items.size),
        "rows": [
            {
                "k": r.k, "n_used": r.n_used, "theta_k": r.theta_k, "sd_k": r.sd_k,
                "theta_full": r.theta_full, "sd_full": r.sd_full, "abs_diff": r.abs_diff,
                "random_abs_diff": r.random_abs_diff,
                "question_ids": [int(cb.bank.ids[j]) for j in r.items],
            }
            for r in rows
        ],
    }


def cat_responders(cb: CatBank, responder_id: float | int | None = None) -> list[Responder]:
    """The responder asked for (of the bank's project), or the project's model systems
    that answered the bank's questions in its mode (at most 100)."""
    if responder_id is not None:
        if responder_id != int(responder_id):
            raise BankError("responder", "must be a whole number")
        found = Responder.objects.filter(project_id=cb.project_id, pk=int(responder_id)).first()
        if found is None:
            raise BankError("responder", f"no responder #{int(responder_id)} in this project")
        return [found]
    answered = Response.objects.filter(
        responder_id=OuterRef("pk"), mode=cb.mode, stage=1, question_id__in=cb.bank.ids)
    return list(
        Responder.objects.filter(project_id=cb.project_id, kind="model")
        .filter(Exists(answered)).order_by("id")[:100]
    )
