"""Writes for item banks: freeze a succeeded fit's items as a bank.

Kept apart from :mod:`irt.services` (fit jobs) because a bank is its own concept: a
frozen calibration that new responders are scored against (reads in
:mod:`irt.bank_selectors`, statistics in the pure :mod:`irt.bank`).
"""

from __future__ import annotations

import math

from django.db import IntegrityError, transaction

from irt.models import BankItem, Fit, FitStatus, ItemBank
from irt.result import IrtResult


class BankError(ValueError):
    """A bank cannot be created or used; ``field`` names the input at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _finite(x: float, default: float) -> float:
    x = float(x) if x is not None else default
    return x if math.isfinite(x) else default


def _populations(result: IrtResult, kinds: list[str]) -> dict[str, list[float]]:
    """Each responder kind's population (mean, SD) on the fit's scale.

    Group 0 (humans when both kinds answered) is the anchor N(0, 1); the models'
    group has its fitted mean/SD.  A kind the fit did not see gets a wide N(0, 2).
    """
    gp = result.group_params or {}
    if result.groups is not None and len(gp.get("mu") or []) >= 2:
        return {
            "human": [float(gp["mu"][0]), float(gp["sigma"][0])],
            "model": [float(gp["mu"][1]), float(gp["sigma"][1])],
        }
    # one population: every kind that answered shares the anchor's N(0, 1)
    return {kind: ([0.0, 1.0] if kind in kinds else [0.0, 2.0]) for kind in ("human", "model")}


def irt_bank_create(*, fit: Fit, name: str = "", by=None) -> ItemBank:
    """Freeze ``fit``'s item parameters as a named bank of its project.

    Raises :class:`BankError` when the fit has not succeeded or the name is taken;
    nothing is stored then.  The default name is ``fit-<id>``.
    """
    if fit.status != FitStatus.SUCCEEDED or not fit.result:
        raise BankError("fit", f"fit #{fit.pk} has not succeeded ({fit.status}); only a finished fit can be frozen")
    name = (name or f"fit-{fit.pk}").strip()
    if len(name) > 100:
        raise BankError("name", "must be at most 100 characters")
    result = IrtResult.from_dict(fit.result["irt"])
    qids = list(fit.result["question_ids"])
    d = getattr(result, "d", None)
    anchor = result.anchor or {}
    rows = []
    for k, qid in enumerate(qids):
        a = float(result.a[k])
        sd_log_a = 0.0 if result.model == "1pl" else _finite(result.a_sd[k], 0.0) / a
        rows.append(dict(
            question_id=qid, a=a, sd_log_a=sd_log_a, b=float(result.b[k]), sd_b=_finite(result.b_sd[k], 0.0),
            c=0.0 if result.c is None else float(result.c[k]), d=1.0 if d is None else float(d[k]),
        ))
    try:
        with transaction.atomic():
            bank = ItemBank.objects.create(
                project_id=fit.project_id, fit=fit, name=name, mode=fit.mode, model=fit.model,
                anchor_loc_var=_finite(anchor.get("loc_var", 0.0), 0.0),
                anchor_scale_var=_finite(anchor.get("scale_var", 0.0), 0.0),
                populations=_populations(result, list(fit.result.get("kinds") or [])),
                n_items=len(rows),
                created_by=by if getattr(by, "is_authenticated", False) else None,
            )
            BankItem.objects.bulk_create([BankItem(bank=bank, **r) for r in rows], batch_size=2000)
    except IntegrityError as exc:
        if ItemBank.objects.filter(project_id=fit.project_id, name=name).exists():
            raise BankError("name", f"a bank named {name!r} already exists in this project") from exc
        raise
    return bank
