"""The joint MAP of the 1PL/2PL in exact numpy/scipy: the CPU default of :func:`irt.fit.fit`.

The same estimator as the Pyro path (:func:`irt.fit_torch._fit_map`): the same log
joint (Bernoulli-logit likelihood, normal priors on θ per group, b and log a), the
same three empirical-Bayes rounds with re-anchoring, the same Laplace SDs with
first-order propagation of item uncertainty into θ, the same item posterior means by
adaptive Gauss-Hermite quadrature and the same anchor uncertainty -- written with
closed-form gradients and second derivatives instead of autograd, and optimised by
scipy's L-BFGS-B in double precision.

Why it exists: a fresh process that imports torch and builds its first torch
optimiser pays ~8-10 s (torch, then ``torch._dynamo`` and sympy on the optimiser's
first construction) before fitting anything.  That dominated a first fit in a new
Celery worker or an ``irt_fit`` command; numpy and scipy import in a fraction of a
second.  ``tests/irt/test_map_numpy.py`` checks this path against the Pyro one.

Per observation k with z = a (θ - b), p = σ(z), r = y - p, w = p (1 - p)::

    d/dθ = a r        d/db = -a r        d/dlog a = z r
    d²/dθ² = d²/db² = -a² w    d²/dθdb = a² w
    d²/dθ dlog a = a r - a w z    d²/db dlog a = -a r + a w z    d²/dlog a² = z r - w z²
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from irt.priors import Z95, Priors
from irt.start_np import init_values, item_quad_grid

__all__ = ["fit_map_numpy"]

Progress = Callable[[int, int, float], None]

EB_MIN_ITEMS = 50  # as irt.fit.EB_MIN_ITEMS
ITEM_QUAD_CHUNK = 100_000
_LOG_2PI_HALF = 0.5 * math.log(2 * math.pi)


class _Objective:
    """Negative log joint per observation and its gradient (flat parameter vector)."""

    def __init__(self, s: np.ndarray, i: np.ndarray, y: np.ndarray, n_s: int, n_i: int, two_pl: bool,
                 g: np.ndarray) -> None:
        self.s, self.i, self.y, self.n_s, self.n_i, self.two_pl, self.g = s, i, y, n_s, n_i, two_pl, g
        self.n = s.shape[0]
        self.set_priors(np.zeros(int(g.max()) + 1), np.ones(int(g.max()) + 1), 0.0, 2.0, 0.0, 0.5)

    def set_priors(self, mu: np.ndarray, sig: np.ndarray, b_loc: float, b_scale: float,
                   la_loc: float, la_scale: float) -> None:
        self.t_loc = np.asarray(mu, dtype=float)[self.g]
        self.t_scale = np.asarray(sig, dtype=float)[self.g]
        self.b_loc, self.b_scale, self.la_loc, self.la_scale = b_loc, b_scale, la_loc, la_scale

    def split(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        th = x[: self.n_s]
        b = x[self.n_s: self.n_s + self.n_i]
        la = x[self.n_s + self.n_i:] if self.two_pl else None
        return th, b, la

    def __call__(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        th, b, la = self.split(x)
        s, i, y = self.s, self.i, self.y
        a = np.exp(la) if la is not None else None
        d = th[s] - b[i]
        z = a[i] * d if a is not None else d
        e = np.exp(-np.abs(z))
        inv = 1.0 / (1.0 + e)
        # log(1 + e^z) = max(z, 0) + log1p(e^-|z|); sigma(z) = inv or e * inv
        ll = float(np.dot(y, z) - np.maximum(z, 0.0).sum() - np.log1p(e).sum())
        r = y - np.where(z >= 0, inv, e * inv)
        ar = a[i] * r if a is not None else r
        g_th = np.bincount(s, weights=ar, minlength=self.n_s)
        g_b = -np.bincount(i, weights=ar, minlength=self.n_i)
        ut = (th - self.t_loc) / self.t_scale
        ub = (b - self.b_loc) / self.b_scale
        lp = -0.5 * float(ut @ ut) - float(np.log(self.t_scale).sum()) - 0.5 * float(ub @ ub) \
            - self.n_i * math.log(self.b_scale) - (self.n_s + self.n_i) * _LOG_2PI_HALF
        g_th -= ut / self.t_scale
        g_b -= ub / self.b_scale
        parts = [g_th, g_b]
        if la is not None:
            g_la = np.bincount(i, weights=z * r, minlength=self.n_i)
            ua = (la - self.la_loc) / self.la_scale
            lp += -0.5 * float(ua @ ua) - self.n_i * (math.log(self.la_scale) + _LOG_2PI_HALF)
            g_la -= ua / self.la_scale
            parts.append(g_la)
        return -(ll + lp) / self.n, -np.concatenate(parts) / self.n


def _laplace_sds(
    obj: _Objective, th: np.ndarray, b: np.ndarray, la: np.ndarray | None,
    theta_prec: np.ndarray, b_prec: float, la_prec: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``theta_sd, log_a_sd, b_sd, cov_log_a_b`` (see irt.fit_torch._laplace_sds)."""
    s, i, y, n_s, n_i = obj.s, obj.i, obj.y, obj.n_s, obj.n_i
    a_o = np.exp(la)[i] if la is not None else np.ones(s.shape[0])
    z = a_o * (th[s] - b[i])
    p = expit(z)
    w = p * (1 - p)
    a2w = a_o**2 * w
    H_t = np.bincount(s, weights=a2w, minlength=n_s) + theta_prec
    H_bb = np.bincount(i, weights=a2w, minlength=n_i) + b_prec
    Ht = np.maximum(H_t, 1e-12)
    tb = a2w  # d2 l / dtheta db per observation
    if la is None:
        var_b1 = 1.0 / np.maximum(H_bb, 1e-12)
        prop = np.bincount(s, weights=tb**2 * var_b1[i], minlength=n_s)
        theta_sd = np.sqrt(1.0 / Ht + prop / Ht**2)
        zero = np.zeros(n_i)
        return theta_sd, zero, np.sqrt(var_b1), zero
    r = y - p
    ta = a_o * r - a_o * w * z  # d2 l / dtheta dlog a
    hba = -a_o * r + a_o * w * z  # d2 l / db dlog a
    haa = z * r - w * z**2
    H_aa = np.maximum(np.bincount(i, weights=-haa, minlength=n_i) + la_prec, la_prec)
    H_bb = np.maximum(H_bb, b_prec)
    H_ab = np.bincount(i, weights=-hba, minlength=n_i)
    lim = 0.99 * np.sqrt(H_aa * H_bb)
    H_ab = np.clip(H_ab, -lim, lim)
    det = H_aa * H_bb - H_ab**2
    var_la, var_b, cov = H_bb / det, H_aa / det, -H_ab / det
    per_obs = tb**2 * var_b[i] + 2 * tb * ta * cov[i] + ta**2 * var_la[i]
    prop = np.bincount(s, weights=per_obs, minlength=n_s)
    theta_sd = np.sqrt(1.0 / Ht + prop / Ht**2)
    return theta_sd, np.sqrt(var_la), np.sqrt(var_b), cov


def _item_posteriors(
    obj: _Objective, th: np.ndarray, la: np.ndarray | None, b: np.ndarray,
    var_la: np.ndarray, var_b: np.ndarray, cov_ab: np.ndarray, prior: dict[str, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Posterior means/SDs of each item's (log a, b) given the abilities, by adaptive
    Gauss-Hermite quadrature on the Laplace block (see irt.fit_torch._item_posteriors)."""
    s_idx, i_idx, y, n_items = obj.s, obj.i, obj.y, obj.n_i
    z1, z2, logw, logq, l11, l21, l22 = item_quad_grid(n_items, var_la, var_b, cov_ab, la is not None)
    la0 = np.zeros(n_items) if la is None else la
    LA = la0[:, None] + l11[:, None] * z1[None, :]
    B = b[:, None] + l21[:, None] * z1[None, :] + l22[:, None] * z2[None, :]
    logp = -0.5 * ((B - prior["b_loc"]) / prior["b_scale"]) ** 2
    if la is not None:
        logp = logp - 0.5 * ((LA - prior["log_a_loc"]) / prior["log_a_scale"]) ** 2
    A = np.exp(LA)
    K = LA.shape[1]
    ll_sum = np.zeros((n_items, K))
    sign = 2.0 * y - 1.0
    for lo in range(0, s_idx.shape[0], ITEM_QUAD_CHUNK):
        sl = slice(lo, lo + ITEM_QUAD_CHUNK)
        ii, ss = i_idx[sl], s_idx[sl]
        ll = log_expit(sign[sl, None] * A[ii] * (th[ss][:, None] - B[ii]))
        # per-item sums: sort once by item, reduce contiguous runs
        order = np.argsort(ii, kind="stable")
        iis = ii[order]
        starts = np.flatnonzero(np.r_[True, iis[1:] != iis[:-1]])
        ll_sum[iis[starts]] += np.add.reduceat(ll[order], starts, axis=0)
    logr = logp + ll_sum + logw[None, :] - logq[None, :]
    logr -= logr.max(axis=1, keepdims=True)
    wts = np.exp(logr)
    wts /= wts.sum(axis=1, keepdims=True)
    m_la = (wts * LA).sum(1)
    m_b = (wts * B).sum(1)
    sd_la = np.sqrt(np.maximum((wts * (LA - m_la[:, None]) ** 2).sum(1), 0))
    sd_b = np.sqrt(np.maximum((wts * (B - m_b[:, None]) ** 2).sum(1), 0))
    if la is None:
        m_la = np.zeros_like(m_b)
        sd_la = np.zeros_like(m_b)
    return m_la, sd_la, m_b, sd_b


def fit_map_numpy(
    subjects: np.ndarray,
    items: np.ndarray,
    correct: np.ndarray,
    n_subjects: int,
    n_items: int,
    *,
    model: str,
    groups: np.ndarray | None,
    priors: Priors,
    empirical_bayes: bool,
    eb_rounds: int,
    max_iter: int,
    progress: Progress | None,
) -> dict[str, Any]:
    """Joint MAP + EB + Laplace + item posterior means for the 1PL/2PL (the dict
    :func:`irt.fit.fit` turns into an :class:`irt.result.IrtResult`)."""
    if model not in ("1pl", "2pl"):
        raise ValueError("the numpy MAP covers the 1PL and 2PL")
    t0 = time.perf_counter()
    two = model == "2pl"
    n_groups = 1 if groups is None else int(groups.max()) + 1
    g_np = np.zeros(n_subjects, dtype=np.int64) if groups is None else groups
    obj = _Objective(subjects, items, correct.astype(float), n_subjects, n_items, two, g_np)
    theta0, b0 = init_values(subjects, items, correct, n_subjects, n_items)
    x = np.concatenate([theta0, b0] + ([np.zeros(n_items)] if two else []))
    mu = np.full(n_groups, float(np.asarray(priors.theta_loc).ravel()[0]))
    sig = np.full(n_groups, float(np.asarray(priors.theta_scale).ravel()[0]))
    hyper = {
        "b_loc": float(priors.b_loc), "b_scale": float(priors.b_scale),
        "log_a_loc": float(priors.log_a_loc), "log_a_scale": float(priors.log_a_scale),
    }
    rounds = max(1, eb_rounds if empirical_bayes else 1)
    total_steps = rounds * max_iter
    trace: list[float] = []
    notes: list[str] = []
    converged = True
    t_opt = t_unc = 0.0
    loc, scl = 0.0, 1.0
    sds: tuple[np.ndarray, ...] = ()

    def fun(xv: np.ndarray) -> tuple[float, np.ndarray]:
        f, grad = obj(xv)
        trace.append(f)
        if progress is not None:
            progress(len(trace), total_steps, f)
        return f, grad

    for r in range(rounds):
        obj.set_priors(mu, sig, hyper["b_loc"], hyper["b_scale"], hyper["log_a_loc"], hyper["log_a_scale"])
        t1 = time.perf_counter()
        res = minimize(fun, x, jac=True, method="L-BFGS-B",
                       options={"maxiter": max_iter, "maxcor": 20, "gtol": 1e-7, "ftol": 2e-10})
        t_opt += time.perf_counter() - t1
        x = res.x
        if res.nit >= max_iter:
            converged = False
        th, b, la = obj.split(x)
        t1 = time.perf_counter()
        sds = _laplace_sds(obj, th, b, la, (1.0 / sig**2)[g_np],
                           1.0 / hyper["b_scale"] ** 2, 1.0 / hyper["log_a_scale"] ** 2)
        t_unc += time.perf_counter() - t1
        if empirical_bayes:
            m0 = g_np == 0
            loc = float(th[m0].mean())
            scl = math.sqrt(float(np.mean((th[m0] - loc) ** 2 + sds[0][m0] ** 2)))
            th = (th - loc) / scl
            b = (b - loc) / scl
            if la is not None:
                la = la + math.log(scl)
            x = np.concatenate([th, b] + ([la] if la is not None else []))
            sds = (sds[0] / scl, sds[1], sds[2] / scl, sds[3] / scl)
            mu = (mu - loc) / scl
            sig = sig / scl
            mu[0], sig[0] = 0.0, 1.0
        if r == rounds - 1:
            break
        for g in range(1, n_groups):
            m = g_np == g
            if m.sum() >= 2:
                mu[g] = th[m].mean()
                sig[g] = max(0.05, math.sqrt(float(np.mean((th[m] - mu[g]) ** 2 + sds[0][m] ** 2))))
        if n_items >= EB_MIN_ITEMS:
            hyper["b_loc"] = float(np.clip(b.mean(), -1.0, 1.0))
            hyper["b_scale"] = float(np.clip(
                math.sqrt(float(np.mean((b - b.mean()) ** 2 + sds[2] ** 2))), 0.1, float(priors.b_scale)))
            if la is not None:
                hyper["log_a_loc"] = float(np.clip(la.mean(), -1.0, 1.0))
                hyper["log_a_scale"] = float(np.clip(
                    math.sqrt(float(np.mean((la - la.mean()) ** 2 + sds[1] ** 2))),
                    0.05, float(priors.log_a_scale)))

    if not converged:
        notes.append(f"MAP optimiser hit its iteration limit ({max_iter}); estimates may be off")
    for g in range(1, n_groups):
        if sig[g] <= 0.05 + 1e-9:
            notes.append(f"group {g}'s ability SD collapsed to the floor 0.05; its members look alike")
    th, b, la = obj.split(x)
    theta_sd, la_sd, b_sd, cov_ab = sds
    t1 = time.perf_counter()
    prior_now = {
        "b_loc": (hyper["b_loc"] - loc) / scl, "b_scale": hyper["b_scale"] / scl,
        "log_a_loc": hyper["log_a_loc"] + math.log(scl), "log_a_scale": hyper["log_a_scale"],
    }
    m_la, la_sd, m_b, b_sd = _item_posteriors(obj, th, la, b, la_sd**2, b_sd**2, cov_ab, prior_now)
    b = m_b
    if la is not None:
        la = m_la
    t_unc += time.perf_counter() - t1
    anchor = {"loc_var": 0.0, "scale_var": 0.0}
    if empirical_bayes:
        # the anchor's own uncertainty (see irt.fit_torch._fit_map)
        m0 = g_np == 0
        n0 = max(1, int(m0.sum()))
        sd0 = theta_sd[m0]
        th0 = th[m0]
        var_loc = (1.0 + float(np.mean(sd0**2))) / n0
        var_scale = (0.5 + float(np.mean(th0**2 * sd0**2 + sd0**4 / 2))) / n0
        anchor = {"loc_var": var_loc, "scale_var": var_scale}
        theta_sd = np.sqrt(theta_sd**2 + var_loc + th**2 * var_scale)
        b_sd = np.sqrt(b_sd**2 + var_loc + b**2 * var_scale)
        la_sd = np.sqrt(la_sd**2 + var_scale)
    if la is None:
        a_np, a_sd = np.ones(n_items), np.zeros(n_items)
    else:
        a_np = np.exp(la)
        a_sd = a_np * la_sd
    return {
        "theta": th, "theta_sd": theta_sd,
        "theta_ci": np.stack([th - Z95 * theta_sd, th + Z95 * theta_sd], axis=1),
        "a": a_np, "a_sd": a_sd, "b": b, "b_sd": b_sd,
        "loss": np.asarray(trace), "converged": converged, "notes": notes,
        "group_params": {"mu": mu.tolist(), "sigma": sig.tolist()},
        "priors": hyper, "anchor": anchor,
        "timings": {"optimize": t_opt, "uncertainty": t_unc, "map_total": time.perf_counter() - t0},
    }
