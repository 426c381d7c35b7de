"""Marginal likelihood fits of the 1PL-4PL and a model-comparison table (pure numpy).

Why: which item response function fits -- does a guessing floor (3PL) or an upper
asymptote ("feasibility": some items nobody can answer whatever their ability, 4PL)
earn its parameters? -- is a question of the *marginal* likelihood, θ integrated out;
a joint MAP's likelihood grows with every responder's own θ and cannot be compared by
AIC/BIC.  This module fits each model by maximum marginal likelihood (with weak priors
on the item parameters, "MAP-MML") and reports log-likelihood, AIC and BIC side by side
(:func:`compare_models`).

Item response function, per item j::

    P(correct | θ) = c_j + (d_j - c_j) σ(a_j (θ - b_j))

* 1PL: a = 1, c = 0, d = 1; 2PL: c = 0, d = 1;
* 3PL: per-item guessing c_j, ``logit c_j ~ N(logit(1/K_j), 0.5)`` from the question's
  option count K_j (0.25 for 4 options, 0.2 for 5; free-form items, no K: 0.02);
* 4PL: as the 3PL plus an upper asymptote d_j, ``logit d_j ~ N(logit 0.98, 1)``.

Weak priors on every model alike: ``log a ~ N(0, 1)``, ``b ~ N(0, 3)``.

θ is integrated by *adaptive* Gauss-Hermite quadrature: each responder's nodes sit at
its own posterior mean ± SD (so a model system that answered 5,000 items, posterior
SD ~0.03, is integrated as accurately as a human who answered 20).  Responder groups
(humans = group 0, the N(0, 1) anchor; models = group 1) get their own population
mean and SD, estimated with the items.  Optimiser: scipy L-BFGS-B on the closed-form
gradient, nodes re-centred between rounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from scipy.optimize import minimize
from scipy.special import expit, logit

__all__ = ["MODELS", "MmlResult", "compare_models", "fit_mml4"]

MODELS = ("1pl", "2pl", "3pl", "4pl")
LOG_A_SD, B_SD = 1.0, 3.0
C_LOGIT_SD, D_LOGIT_SD = 0.5, 1.0
C_FREE, D_MEAN = 0.02, 0.98
N_QUAD = 15
ROUNDS = 3
LOG_SIGMA_BOUNDS = (math.log(0.01), math.log(100.0))  # a group's SD: see _Problem.bounds


@dataclass(frozen=True)
class MmlResult:
    """A marginal-likelihood fit: item parameters, EAP abilities, fit statistics."""

    model: str
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    d: np.ndarray
    theta: np.ndarray
    theta_sd: np.ndarray
    log_lik: float
    n_params: int
    n_responders: int
    n_obs: int
    group_mu: list[float] = field(default_factory=list)
    group_sigma: list[float] = field(default_factory=list)
    converged: bool = True

    @property
    def aic(self) -> float:
        return -2.0 * self.log_lik + 2.0 * self.n_params

    @property
    def bic(self) -> float:
        return -2.0 * self.log_lik + self.n_params * math.log(max(self.n_responders, 1))


def _c_prior_mean(n_options: np.ndarray | None, n_items: int) -> np.ndarray:
    if n_options is None:
        return np.full(n_items, C_FREE)
    k = np.broadcast_to(np.asarray(n_options, dtype=float), (n_items,))
    return np.where(k >= 2, 1.0 / np.where(k >= 2, k, 2.0), C_FREE)


class _Problem:
    """Data, layout of the parameter vector and the marginal log posterior."""

    def __init__(self, s, it, y, n_s, n_i, model, groups, n_options, n_quad, priors=True):  # type: ignore[no-untyped-def]
        self.priors = priors
        order = np.argsort(s, kind="stable")
        self.s, self.i, self.y = s[order], it[order], y[order].astype(float)
        self.n_s, self.n_i, self.model = n_s, n_i, model
        self.g = np.zeros(n_s, dtype=np.int64) if groups is None else np.asarray(groups, dtype=np.int64)
        self.n_g = int(self.g.max()) + 1
        present = np.unique(self.s)
        self.present = present
        self.starts = np.searchsorted(self.s, present)
        x, w = hermegauss(n_quad)
        self.x, self.logw = x, np.log(w / w.sum())
        self.m = np.zeros(n_s)
        self.sd = np.ones(n_s)
        self.c0 = logit(_c_prior_mean(n_options, n_i))
        self.d0 = logit(D_MEAN)
        self.has_a = model != "1pl"
        self.has_c = model in ("3pl", "4pl")
        self.has_d = model == "4pl"

    # parameter vector: [log a], b, [logit c], [logit d], (mu_g, log sigma_g) for g >= 1
    def unpack(self, v: np.ndarray) -> dict[str, np.ndarray]:
        n, k, out = self.n_i, 0, {}
        for name, on in (("la", self.has_a), ("b", True), ("gc", self.has_c), ("gd", self.has_d)):
            if on:
                out[name] = v[k:k + n]
                k += n
        out["mu"] = np.concatenate([[0.0], v[k:k + self.n_g - 1]])
        out["ls"] = np.concatenate([[0.0], v[k + self.n_g - 1:k + 2 * (self.n_g - 1)]])
        return out

    def bounds(self) -> list[tuple[float | None, float | None]]:
        """Free parameters, except each group's log SD, kept within [log 0.01, log 100]:
        a group of one responder (a lone model system) has no identifiable spread, and
        its unbounded log SD ran to -inf (0/0 in the objective, NaN gradients)."""
        n_ls = self.n_g - 1
        return [(None, None)] * (self.n_params() - n_ls) + [LOG_SIGMA_BOUNDS] * n_ls

    def n_params(self) -> int:
        return self.n_i * (1 + self.has_a + self.has_c + self.has_d) + 2 * (self.n_g - 1)

    def start(self, init: MmlResult | None) -> np.ndarray:
        cnt = np.bincount(self.i, minlength=self.n_i)
        pc = (np.bincount(self.i, weights=self.y, minlength=self.n_i) + 0.5) / (cnt + 1.0)
        parts = []
        if self.has_a:
            parts.append(np.log(init.a) if init is not None and init.model != "1pl" else np.zeros(self.n_i))
        parts.append(init.b if init is not None else -logit(pc) * 1.2)
        low, high = self._tail_rates(init)
        if self.has_c:
            if init is not None and init.model in ("3pl", "4pl"):
                parts.append(logit(np.clip(init.c, 1e-4, 1 - 1e-4)))
            else:  # halfway between the prior mean and the weakest responders' success rate
                parts.append(0.5 * self.c0 + 0.5 * logit(np.clip(low, 0.01, 0.45)))
        if self.has_d:  # the strongest responders' success rate: where a ceiling would sit
            parts.append(logit(np.clip(high + 0.02, 0.55, 0.99)))
        mu = init.group_mu[1:] if init is not None and len(init.group_mu) == self.n_g else [0.0] * (self.n_g - 1)
        ls = (np.log(init.group_sigma[1:]).tolist() if init is not None and len(init.group_sigma) == self.n_g
              else [0.0] * (self.n_g - 1))
        return np.concatenate([*parts, np.asarray(mu, float), np.asarray(ls, float)])

    def _tail_rates(self, init: MmlResult | None) -> tuple[np.ndarray, np.ndarray]:
        """Per item, the success rate of the weakest and strongest 15 % of responders
        (by the previous model's θ, else by accuracy): starting points for the
        asymptotes, which a start at the prior mean leaves stuck (a flat logit)."""
        if init is not None:
            rank = init.theta
        else:
            n = np.bincount(self.s, minlength=self.n_s)
            rank = np.bincount(self.s, weights=self.y, minlength=self.n_s) / np.maximum(n, 1)
        lo_cut, hi_cut = np.quantile(rank[self.present], [0.15, 0.85])
        rates = []
        for mask in (rank[self.s] <= lo_cut, rank[self.s] >= hi_cut):
            n_j = np.bincount(self.i[mask], minlength=self.n_i)
            k_j = np.bincount(self.i[mask], weights=self.y[mask], minlength=self.n_i)
            rates.append((k_j + 0.5) / (n_j + 1.0))
        return rates[0], rates[1]

    def _terms(self, p: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
        """Per (obs, node): θ, z, s, P and the item quantities gathered per obs."""
        i = self.i
        a = np.exp(p["la"])[i] if self.has_a else np.ones(i.size)
        b = p["b"][i]
        c = expit(p["gc"])[i] if self.has_c else np.zeros(i.size)
        d = expit(p["gd"])[i] if self.has_d else np.ones(i.size)
        th = self.m[self.s][:, None] + self.sd[self.s][:, None] * self.x[None, :]
        z = a[:, None] * (th - b[:, None])
        sg = expit(z)
        P = c[:, None] + (d - c)[:, None] * sg
        P = np.clip(P, 1e-12, 1 - 1e-12)
        return a, b, c, d, th, z, sg, P

    def _log_prior_theta(self, p: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(n_s, Q) log N(θ_iq; μ_g, σ_g) - log N(x_q; 0, 1) + log sd_i (the adaptive weights)."""
        mu = p["mu"][self.g][:, None]
        sig = np.exp(p["ls"])[self.g][:, None]
        th = self.m[:, None] + self.sd[:, None] * self.x[None, :]
        u = (th - mu) / sig
        lp = -0.5 * u**2 - np.log(sig) + 0.5 * self.x[None, :] ** 2 + np.log(self.sd)[:, None]
        return lp, th, sig

    def posterior(self, p: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, float]:
        """(n_s, Q) posterior weights on the nodes, per-obs ll, marginal log-likelihood."""
        *_, P = self._terms(p)
        ll = np.where(self.y[:, None] > 0, np.log(P), np.log1p(-P))
        S = np.zeros((self.n_s, self.x.size))
        S[self.present] = np.add.reduceat(ll, self.starts, axis=0)
        lp, _, _ = self._log_prior_theta(p)
        A = S + lp + self.logw[None, :]
        mx = A.max(axis=1, keepdims=True)
        L = mx[:, 0] + np.log(np.exp(A - mx).sum(axis=1))
        post = np.exp(A - L[:, None])
        return post, ll, float(L.sum())

    def objective(self, v: np.ndarray) -> tuple[float, np.ndarray]:
        p = self.unpack(v)
        a, _b, c, d, _th, z, sg, P = self._terms(p)
        post, _, loglik = self.posterior(p)
        wq = post[self.s]  # (n_obs, Q)
        gP = (self.y[:, None] - P) / (P * (1 - P)) * wq  # d ll / dP, posterior-weighted
        ds = sg * (1 - sg)
        grads = []
        if self.has_a:
            grads.append(np.bincount(self.i, weights=((d - c)[:, None] * ds * z * gP).sum(1), minlength=self.n_i))
        grads.append(np.bincount(self.i, weights=(-(d - c)[:, None] * ds * a[:, None] * gP).sum(1),
                                 minlength=self.n_i))
        if self.has_c:
            grads.append(np.bincount(self.i, weights=((1 - sg) * gP).sum(1) * c * (1 - c), minlength=self.n_i))
        if self.has_d:
            grads.append(np.bincount(self.i, weights=(sg * gP).sum(1) * d * (1 - d), minlength=self.n_i))
        # group mean / log SD through the adaptive prior weights
        _, thn, sig = self._log_prior_theta(p)
        mu = p["mu"][self.g][:, None]
        dmu = (post * (thn - mu) / sig**2).sum(1)
        dls = (post * ((thn - mu) ** 2 / sig**2 - 1.0)).sum(1)
        g_mu = np.bincount(self.g, weights=dmu, minlength=self.n_g)[1:]
        g_ls = np.bincount(self.g, weights=dls, minlength=self.n_g)[1:]
        # priors on the items
        lprior = 0.0
        if not self.priors:
            g = np.concatenate([*grads, g_mu, g_ls])
            return -loglik / float(self.n_s), -g / float(self.n_s)
        k = 0
        if self.has_a:
            la = p["la"]
            lprior -= 0.5 * float(np.sum((la / LOG_A_SD) ** 2))
            grads[k] = grads[k] - la / LOG_A_SD**2
            k += 1
        lprior -= 0.5 * float(np.sum((p["b"] / B_SD) ** 2))
        grads[k] = grads[k] - p["b"] / B_SD**2
        k += 1
        if self.has_c:
            lprior -= 0.5 * float(np.sum(((p["gc"] - self.c0) / C_LOGIT_SD) ** 2))
            grads[k] = grads[k] - (p["gc"] - self.c0) / C_LOGIT_SD**2
            k += 1
        if self.has_d:
            lprior -= 0.5 * float(np.sum(((p["gd"] - self.d0) / D_LOGIT_SD) ** 2))
            grads[k] = grads[k] - (p["gd"] - self.d0) / D_LOGIT_SD**2
        g = np.concatenate([*grads, g_mu, g_ls])
        n = float(self.n_s)
        return -(loglik + lprior) / n, -g / n

    def adapt(self, p: dict[str, np.ndarray], repeats: int = 4) -> None:
        """Re-centre every responder's nodes on its posterior mean and SD."""
        for _ in range(repeats):
            post, _, _ = self.posterior(p)
            th = self.m[:, None] + self.sd[:, None] * self.x[None, :]
            m = (post * th).sum(1)
            sd = np.sqrt(np.maximum((post * (th - m[:, None]) ** 2).sum(1), 1e-8))
            self.m, self.sd = m, np.maximum(sd, 1e-3)


def fit_mml4(
    subjects: np.ndarray,
    items: np.ndarray,
    correct: np.ndarray,
    n_subjects: int,
    n_items: int,
    *,
    model: str = "2pl",
    groups: np.ndarray | None = None,
    n_options: np.ndarray | float | None = None,
    n_quad: int = N_QUAD,
    max_iter: int = 300,
    init: MmlResult | None = None,
    priors: bool = True,
) -> MmlResult:
    """Fit one of :data:`MODELS` by marginal likelihood with adaptive quadrature.

    ``n_options``: the option count K of each item (scalar or ``(n_items,)``; NaN or
    < 2 for free-form items), used for the 3PL/4PL guessing prior.  ``init``: a
    simpler model's result to start from (as :func:`compare_models` does).
    ``priors=False``: plain marginal maximum likelihood (the 1PL/2PL then reproduce
    ltm/mirt; the 3PL/4PL asymptotes need their priors on real data).
    """
    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}; expected one of {', '.join(MODELS)}")
    s = np.asarray(subjects, dtype=np.int64)
    it = np.asarray(items, dtype=np.int64)
    y = np.asarray(correct)
    k_opt = None if n_options is None else np.nan_to_num(
        np.broadcast_to(np.asarray(n_options, dtype=float), (n_items,)), nan=0.0)
    prob = _Problem(s, it, y, n_subjects, n_items, model, groups, k_opt, n_quad, priors)
    v = prob.start(init)
    if init is not None:
        prob.m, prob.sd = init.theta.copy(), np.maximum(init.theta_sd.copy(), 1e-3)
    prob.adapt(prob.unpack(v))
    converged = True
    for _ in range(ROUNDS):
        res = minimize(prob.objective, v, jac=True, method="L-BFGS-B", bounds=prob.bounds(),
                       options={"maxiter": max_iter, "maxcor": 20, "ftol": 1e-10, "gtol": 1e-6})
        v = res.x
        converged = bool(res.nit < max_iter)
        prob.adapt(prob.unpack(v), repeats=2)
    p = prob.unpack(v)
    _post, _, loglik = prob.posterior(p)
    return MmlResult(
        model=model,
        a=np.exp(p["la"]) if prob.has_a else np.ones(n_items),
        b=p["b"].copy(),
        c=expit(p["gc"]) if prob.has_c else np.zeros(n_items),
        d=expit(p["gd"]) if prob.has_d else np.ones(n_items),
        theta=prob.m.copy(), theta_sd=prob.sd.copy(), log_lik=loglik, n_params=prob.n_params(),
        n_responders=int(prob.present.size), n_obs=int(s.size),
        group_mu=p["mu"].tolist(), group_sigma=np.exp(p["ls"]).tolist(), converged=converged,
    )


def compare_models(
    subjects: np.ndarray,
    items: np.ndarray,
    correct: np.ndarray,
    n_subjects: int,
    n_items: int,
    *,
    groups: np.ndarray | None = None,
    n_options: np.ndarray | float | None = None,
    models: tuple[str, ...] = MODELS,
) -> tuple[list[dict[str, Any]], dict[str, MmlResult]]:
    """Fit each model (each warm-started from the one before) and tabulate the fit.

    Returns ``(rows, fits)``: one row per model with ``model, log_lik, n_params, aic,
    bic, delta_aic, delta_bic`` (against the best of the table; 0 = chosen by that
    criterion), ``converged``; and the fits by model name.  BIC counts responders as
    the sample size (the units the marginal likelihood sums over).
    """
    fits: dict[str, MmlResult] = {}
    prev: MmlResult | None = None
    for m in models:
        prev = fit_mml4(subjects, items, correct, n_subjects, n_items, model=m, groups=groups,
                        n_options=n_options, init=prev)
        fits[m] = prev
    best_aic = min(f.aic for f in fits.values())
    best_bic = min(f.bic for f in fits.values())
    rows = [
        {"model": m, "log_lik": f.log_lik, "n_params": f.n_params, "aic": f.aic, "bic": f.bic,
         "delta_aic": f.aic - best_aic, "delta_bic": f.bic - best_bic, "converged": f.converged}
        for m, f in fits.items()
    ]
    return rows, fits
