"""The result of an IRT fit: plain numpy arrays, JSON round-trip (no torch, no Django).

Kept apart from :mod:`irt.fit` so that code which only *reads* stored fits (report
pages, exports, the REST API) never imports torch or Pyro.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np


@dataclass(frozen=True)
class IrtResult:
    """A fitted IRT model as numpy arrays indexed by responder/item integers.

    ``theta_ci`` is ``(n_subjects, 2)``: the 95 % interval (Laplace: MAP +- 1.96 SD;
    MML: EAP +- 1.96 PSD; VI: guide quantiles; NUTS: posterior percentiles).
    ``c`` is the fixed guessing floor (3PL) or ``None``.  ``loss`` is the optimiser's
    trace (negative log joint / ELBO loss / negative marginal log-likelihood, per
    observation or responder), ``timings`` seconds per phase, ``warnings`` plain
    sentences for the report, ``log_lik`` the marginal log-likelihood (MML only),
    ``groups`` the responder group of each subject and ``group_params`` the fitted
    population mean/SD of each group, ``priors`` the final prior hyper-parameters,
    ``anchor`` the variances of the scale anchor's location and scale (``loc_var``,
    ``scale_var``; what :class:`irt.bank.Bank` adds to a new responder's uncertainty).
    """

    theta: np.ndarray
    theta_sd: np.ndarray
    theta_ci: np.ndarray
    a: np.ndarray
    a_sd: np.ndarray
    b: np.ndarray
    b_sd: np.ndarray
    c: np.ndarray | None
    loss: np.ndarray
    method: str
    model: str
    seed: int
    timings: dict[str, float]
    n_obs: int
    warnings: list[str] = field(default_factory=list)
    log_lik: float | None = None
    groups: np.ndarray | None = None
    group_params: dict[str, list[float]] = field(default_factory=dict)
    priors: dict[str, float] = field(default_factory=dict)
    converged: bool = True
    device: str = "cpu"
    anchor: dict[str, float] = field(default_factory=dict)

    @property
    def n_subjects(self) -> int:
        return int(self.theta.shape[0])

    @property
    def n_items(self) -> int:
        return int(self.b.shape[0])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (arrays become lists); :meth:`from_dict` inverts it."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.tolist() if isinstance(v, np.ndarray) else v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IrtResult:
        """Rebuild from :meth:`to_dict` output."""
        arrays = {"theta", "theta_sd", "theta_ci", "a", "a_sd", "b", "b_sd", "c", "loss"}
        kw: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            v = data[f.name]
            if f.name in arrays and v is not None:
                v = np.asarray(v, dtype=float)
            elif f.name == "groups" and v is not None:
                v = np.asarray(v, dtype=np.int64)
            elif f.name == "warnings":
                v = list(v)
            elif f.name in ("timings", "group_params", "priors", "anchor"):
                v = dict(v)
            kw[f.name] = v
        if kw.get("theta_ci") is not None:
            kw["theta_ci"] = kw["theta_ci"].reshape(-1, 2)
        return cls(**kw)
