"""The torch/Pyro estimators behind :func:`irt.fit.fit`: joint MAP on the Pyro model
(used on GPUs and for the 3PL), stochastic VI and NUTS.

Split from :mod:`irt.fit` so that a fit that needs none of them (the exact numpy MAP
of :mod:`irt.map_np`, the default on CPUs) never imports torch or Pyro: importing
torch and building its first optimiser (which pulls in ``torch._dynamo``) cost
about 8 s of a fresh process's first fit.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

import numpy as np
import pyro
import pyro.poutine as poutine
import torch

from irt.fit import EB_MIN_ITEMS, Progress
from irt.priors import Z95
from irt.start_np import init_values, item_quad_grid
from irt.two_pl import Priors, irt_model, response_logits


def _seed_all(seed: int) -> None:
    pyro.clear_param_store()
    pyro.set_rng_seed(seed)  # seeds python, numpy and torch



# --------------------------------------------------------------------------- MAP


def _log_joint(
    model_kw: dict[str, Any], theta: torch.Tensor, log_a: torch.Tensor | None, b: torch.Tensor
) -> torch.Tensor:
    data = {"theta": theta, "b": b}
    if log_a is not None:
        data["log_a"] = log_a
    tr = poutine.trace(poutine.condition(irt_model, data=data)).get_trace(**model_kw)
    return tr.log_prob_sum()


def _obs_curvatures(
    model_kw: dict[str, Any], theta: torch.Tensor, log_a: torch.Tensor | None, b: torch.Tensor
) -> dict[str, torch.Tensor]:
    """Per-observation second derivatives of the Pyro model's ``obs`` log-likelihood.

    Trick: give every observation its own copy of (theta, log a, b) by re-running the
    model with ``subject_idx = item_idx = arange(n_obs)``; each response's
    log-likelihood then depends on its own copies only, so one double-backward per
    parameter pair yields all per-observation second derivatives, which are then
    summed into responders/items.  No Hessian matrix is ever formed.
    """
    s = model_kw["subject_idx"]
    i = model_kw["item_idx"]
    n = s.shape[0]
    ar = torch.arange(n, device=s.device)
    kw = dict(model_kw)
    kw.update(subject_idx=ar, item_idx=ar, n_subjects=n, n_items=n, subsample_size=None)
    if kw.get("group_idx") is not None:
        kw["group_idx"] = kw["group_idx"][s]
    if kw.get("c") is not None and torch.as_tensor(kw["c"]).dim() > 0:
        kw["c"] = kw["c"][i]
    th = theta.detach()[s].clone().requires_grad_(True)
    bb = b.detach()[i].clone().requires_grad_(True)
    la = None if log_a is None else log_a.detach()[i].clone().requires_grad_(True)
    data = {"theta": th, "b": bb}
    if la is not None:
        data["log_a"] = la
    tr = poutine.trace(poutine.condition(irt_model, data=data)).get_trace(**kw)
    site = tr.nodes["obs"]
    ll = site["fn"].log_prob(site["value"]).sum()
    wrt = [th, bb] + ([la] if la is not None else [])
    grads = torch.autograd.grad(ll, wrt, create_graph=True)
    out = {}
    if la is not None:
        out["tt"], out["tb"], out["ta"] = torch.autograd.grad(grads[0].sum(), [th, bb, la], retain_graph=True)
    else:
        out["tt"], out["tb"] = torch.autograd.grad(grads[0].sum(), [th, bb], retain_graph=True)
    if la is not None:
        hb = torch.autograd.grad(grads[1].sum(), [bb, la], retain_graph=True)
        out["bb"], out["ba"] = hb
        out["aa"] = torch.autograd.grad(grads[2].sum(), la)[0]
    else:
        out["bb"] = torch.autograd.grad(grads[1].sum(), bb)[0]
    return out


def _laplace_sds(
    model_kw: dict[str, Any],
    theta: torch.Tensor,
    log_a: torch.Tensor | None,
    b: torch.Tensor,
    theta_prec: torch.Tensor,
    b_prec: float,
    log_a_prec: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Laplace SDs: theta given items; (log a, b) per item from its 2x2 block.

    Returns ``theta_sd, log_a_sd, b_sd, cov_log_a_b`` (numpy).
    """
    s = model_kw["subject_idx"]
    i = model_kw["item_idx"]
    n_s, n_i = theta.shape[0], b.shape[0]
    h = _obs_curvatures(model_kw, theta, log_a, b)
    dev, dt = theta.device, theta.dtype
    H_t = torch.zeros(n_s, device=dev, dtype=dt).index_add_(0, s, -h["tt"]) + theta_prec
    H_bb = torch.zeros(n_i, device=dev, dtype=dt).index_add_(0, i, -h["bb"]) + b_prec
    theta_sd = torch.rsqrt(H_t.clamp(min=1e-12))
    if log_a is None:
        var_b1 = 1.0 / H_bb.clamp(min=1e-12)
        # first-order propagation of item uncertainty into theta (delta method)
        prop = torch.zeros(n_s, device=dev, dtype=dt).index_add_(0, s, h["tb"] ** 2 * var_b1[i])
        theta_sd = torch.sqrt(1.0 / H_t.clamp(min=1e-12) + prop / H_t.clamp(min=1e-12) ** 2)
        z = torch.zeros(n_i, device=dev, dtype=dt)
        return theta_sd.cpu().numpy(), z.cpu().numpy(), torch.sqrt(var_b1).cpu().numpy(), z.cpu().numpy()
    H_aa = torch.zeros(n_i, device=dev, dtype=dt).index_add_(0, i, -h["aa"]) + log_a_prec
    H_ab = torch.zeros(n_i, device=dev, dtype=dt).index_add_(0, i, -h["ba"])
    # the observed curvature can lose positive-definiteness away from the data; keep
    # at least the prior precision on the diagonal and shrink the off-diagonal
    H_aa = H_aa.clamp(min=log_a_prec)
    H_bb = H_bb.clamp(min=b_prec)
    lim = 0.99 * torch.sqrt(H_aa * H_bb)
    H_ab = torch.maximum(torch.minimum(H_ab, lim), -lim)
    det = H_aa * H_bb - H_ab**2
    var_la = H_bb / det
    var_b = H_aa / det
    cov = -H_ab / det
    # first-order propagation of item uncertainty into theta (delta method): theta_i
    # moves by -(d2l/dtheta d item) / H_i per unit error of each item it answered
    tb, ta = h["tb"], h["ta"]
    per_obs = tb**2 * var_b[i] + 2 * tb * ta * cov[i] + ta**2 * var_la[i]
    prop = torch.zeros(n_s, device=dev, dtype=dt).index_add_(0, s, per_obs)
    Ht = H_t.clamp(min=1e-12)
    theta_sd = torch.sqrt(1.0 / Ht + prop / Ht**2)
    return (
        theta_sd.cpu().numpy(),
        torch.sqrt(var_la).cpu().numpy(),
        torch.sqrt(var_b).cpu().numpy(),
        cov.cpu().numpy(),
    )


#: Gauss-Hermite nodes per dimension of the item posterior step (7 x 7 = 49 points)
#: observations per chunk of that step (chunk x nodes doubles held at once)
ITEM_QUAD_CHUNK = 400_000


def _item_posteriors(
    model_kw: dict[str, Any],
    theta: torch.Tensor,
    log_a: torch.Tensor | None,
    b: torch.Tensor,
    var_la: np.ndarray,
    var_b: np.ndarray,
    cov_ab: np.ndarray,
    prior: dict[str, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Posterior means and SDs of each item's (log a, b) given the fitted abilities.

    Why: the joint MAP gives the *mode* of every item's posterior; with ~100 answers
    per item that posterior is wide and skewed in log a, and its mean ranks items'
    discriminations better than its mode (on 1,000 x 5,000 at 10 %: r(log a) 0.716 ->
    0.725, against 0.729 for the same estimator given the *true* abilities).  Each
    item's posterior is integrated by adaptive Gauss-Hermite quadrature centred on the
    MAP with the Laplace covariance as the proposal (``irt.start_np.ITEM_QUAD_NODES`` per
    dimension), abilities held at their estimates; the SDs returned are the posterior
    SDs, not the Laplace curvature.

    Returns ``mean_log_a, sd_log_a, mean_b, sd_b`` (zeros for log a in the 1PL).
    """
    s_idx = model_kw["subject_idx"]
    i_idx = model_kw["item_idx"]
    y = model_kw["correct"]
    c = model_kw.get("c")
    n_items = b.shape[0]
    dev = theta.device
    f64 = torch.float64
    z1, z2, logw, logq, l11, l21, l22 = item_quad_grid(n_items, var_la, var_b, cov_ab, log_a is not None)
    t = lambda x: torch.as_tensor(np.asarray(x, dtype=float), dtype=f64, device=dev)  # noqa: E731
    la0 = t(np.zeros(n_items)) if log_a is None else log_a.detach().to(f64)
    b0 = b.detach().to(f64)
    Z1, Z2 = t(z1), t(z2)
    LA = la0[:, None] + t(l11)[:, None] * Z1[None, :]  # (n_items, K)
    B = b0[:, None] + t(l21)[:, None] * Z1[None, :] + t(l22)[:, None] * Z2[None, :]
    logp = -0.5 * ((B - prior["b_loc"]) / prior["b_scale"]) ** 2
    if log_a is not None:
        logp = logp - 0.5 * ((LA - prior["log_a_loc"]) / prior["log_a_scale"]) ** 2
    # per-response terms in single precision (each item sums ~100 terms of order 1),
    # the item totals and everything after them in double
    f32 = torch.float32
    A = torch.exp(LA).to(f32)
    B32 = B.to(f32)
    th = theta.detach().to(f32)
    c_t = None if c is None else torch.as_tensor(c, dtype=f32, device=dev)
    n_obs = s_idx.shape[0]
    ll_sum = torch.zeros(logp.shape, dtype=f32, device=dev)
    for lo in range(0, n_obs, ITEM_QUAD_CHUNK):
        sl = slice(lo, min(n_obs, lo + ITEM_QUAD_CHUNK))
        ii, ss = i_idx[sl], s_idx[sl]
        c_i = None if c_t is None else (c_t[ii][:, None] if c_t.dim() > 0 else c_t)
        logits = response_logits(th[ss][:, None], A[ii], B32[ii], c_i)
        # y * z - softplus(z) = logsigmoid(z) for y = 1, logsigmoid(-z) for y = 0
        sign = y[sl].to(f32)[:, None] * 2.0 - 1.0
        ll_sum.index_add_(0, ii, torch.nn.functional.logsigmoid(logits * sign))
    logp = logp + ll_sum.to(f64)
    logr = logp + t(logw)[None, :] - t(logq)[None, :]
    wts = torch.softmax(logr, dim=1)
    m_la = (wts * LA).sum(1)
    m_b = (wts * B).sum(1)
    sd_la = torch.sqrt(((wts * (LA - m_la[:, None]) ** 2).sum(1)).clamp(min=0))
    sd_b = torch.sqrt(((wts * (B - m_b[:, None]) ** 2).sum(1)).clamp(min=0))
    if log_a is None:
        m_la = torch.zeros_like(m_b)
        sd_la = torch.zeros_like(m_b)
    return m_la.cpu().numpy(), sd_la.cpu().numpy(), m_b.cpu().numpy(), sd_b.cpu().numpy()


def _fit_map(
    subjects: np.ndarray,
    items: np.ndarray,
    correct: np.ndarray,
    n_subjects: int,
    n_items: int,
    *,
    model: str,
    c: np.ndarray | None,
    groups: np.ndarray | None,
    priors: Priors,
    empirical_bayes: bool,
    eb_rounds: int,
    max_iter: int,
    device: torch.device,
    progress: Progress | None,
) -> dict[str, Any]:
    t0 = time.perf_counter()
    dt = torch.float32
    s_t = torch.as_tensor(subjects, dtype=torch.long, device=device)
    i_t = torch.as_tensor(items, dtype=torch.long, device=device)
    y_t = torch.as_tensor(correct, dtype=dt, device=device)
    n_groups = 1 if groups is None else int(groups.max()) + 1
    g_t = None if groups is None else torch.as_tensor(groups, dtype=torch.long, device=device)
    g_np = np.zeros(n_subjects, dtype=np.int64) if groups is None else groups

    theta0, b0 = init_values(subjects, items, correct, n_subjects, n_items)
    theta = torch.as_tensor(theta0, dtype=dt, device=device).clone().requires_grad_(True)
    b = torch.as_tensor(b0, dtype=dt, device=device).clone().requires_grad_(True)
    log_a = None if model == "1pl" else torch.zeros(n_items, dtype=dt, device=device, requires_grad=True)
    params = [theta, b] + ([log_a] if log_a is not None else [])

    # hyper-parameters (group 0 is the anchor: N(0, 1) unless priors say otherwise)
    mu = np.full(n_groups, float(np.asarray(priors.theta_loc).ravel()[0]))
    sig = np.full(n_groups, float(np.asarray(priors.theta_scale).ravel()[0]))
    hyper = {
        "b_loc": float(priors.b_loc), "b_scale": float(priors.b_scale),
        "log_a_loc": float(priors.log_a_loc), "log_a_scale": float(priors.log_a_scale),
    }
    c_t = None if c is None else torch.as_tensor(c, dtype=dt, device=device)
    n_obs = subjects.shape[0]
    rounds = max(1, eb_rounds if empirical_bayes else 1)
    total_steps = rounds * max_iter
    trace: list[float] = []
    notes: list[str] = []
    converged = True
    t_opt = 0.0
    t_unc = 0.0
    sds: tuple[np.ndarray, ...] = ()
    loc, scl = 0.0, 1.0  # the last round's re-anchoring map

    for r in range(rounds):
        pri = Priors(
            theta_loc=torch.as_tensor(mu, dtype=dt, device=device),
            theta_scale=torch.as_tensor(sig, dtype=dt, device=device),
            b_loc=hyper["b_loc"], b_scale=hyper["b_scale"],
            log_a_loc=hyper["log_a_loc"], log_a_scale=hyper["log_a_scale"],
        )
        model_kw = dict(
            subject_idx=s_t, item_idx=i_t, n_subjects=n_subjects, n_items=n_items, correct=y_t,
            kind=model, c=c_t, priors=pri, group_idx=g_t if g_t is not None else torch.zeros(n_subjects, dtype=torch.long, device=device),
            n_groups=n_groups,
        )
        opt = torch.optim.LBFGS(
            params, lr=1.0, max_iter=max_iter, tolerance_grad=1e-7, tolerance_change=1e-10,
            history_size=20, line_search_fn="strong_wolfe",
        )

        def closure(model_kw: dict[str, Any] = model_kw, opt: torch.optim.LBFGS = opt) -> torch.Tensor:
            opt.zero_grad()
            loss = -_log_joint(model_kw, theta, log_a, b) / n_obs
            loss.backward()
            trace.append(float(loss.detach()))
            if progress is not None:
                progress(len(trace), total_steps, trace[-1])
            return loss

        t1 = time.perf_counter()
        opt.step(closure)
        t_opt += time.perf_counter() - t1
        n_iter = opt.state[opt._params[0]]["n_iter"]
        if n_iter >= max_iter:
            converged = False
        t1 = time.perf_counter()
        theta_prec = torch.as_tensor(1.0 / sig**2, dtype=dt, device=device)[
            torch.as_tensor(g_np, device=device)
        ]
        sds = _laplace_sds(
            model_kw, theta, log_a, b, theta_prec,
            1.0 / hyper["b_scale"] ** 2, 1.0 / hyper["log_a_scale"] ** 2,
        )
        t_unc += time.perf_counter() - t1
        # identification: the anchor group (0) is N(0, 1) as a *population*, i.e.
        # mean(theta) = 0 and mean(theta^2 + sd^2) = 1 (the EM moment identity).  A
        # joint MAP alone shrinks theta and inflates a (about 7 % on 1,000 x 5,000 at
        # 10 %); this likelihood-preserving affine map undoes it.
        if empirical_bayes:
            th_np0 = theta.detach().cpu().numpy().astype(float)
            m0 = g_np == 0
            loc = float(th_np0[m0].mean())
            scl = math.sqrt(float(np.mean((th_np0[m0] - loc) ** 2 + sds[0][m0].astype(float) ** 2)))
            with torch.no_grad():
                theta.sub_(loc).div_(scl)
                b.sub_(loc).div_(scl)
                if log_a is not None:
                    log_a.add_(math.log(scl))
            sds = (sds[0] / scl, sds[1], sds[2] / scl, sds[3] / scl)
            mu = (mu - loc) / scl
            sig = sig / scl
            mu[0], sig[0] = 0.0, 1.0
        if r == rounds - 1:
            break
        # empirical-Bayes M-step (Laplace-EM): prior = population of the estimates
        th_np = theta.detach().cpu().numpy()
        th_sd = sds[0]
        for g in range(1, n_groups):
            m = g_np == g
            if m.sum() >= 2:
                mu[g] = th_np[m].mean()
                sig[g] = max(0.05, math.sqrt(np.mean((th_np[m] - mu[g]) ** 2 + th_sd[m] ** 2)))
        # item priors: only with enough items to estimate a spread, and only ever
        # *tightened* (never looser than the stated prior): loosening them is exactly
        # how a joint MAP on thin data lets a run off (LSAT7: a -> 1e4 otherwise)
        if n_items >= EB_MIN_ITEMS:
            b_np = b.detach().cpu().numpy()
            hyper["b_loc"] = float(np.clip(b_np.mean(), -1.0, 1.0))
            hyper["b_scale"] = float(np.clip(
                math.sqrt(float(np.mean((b_np - b_np.mean()) ** 2 + sds[2] ** 2))), 0.1, float(priors.b_scale)
            ))
            if log_a is not None:
                la_np = log_a.detach().cpu().numpy()
                hyper["log_a_loc"] = float(np.clip(la_np.mean(), -1.0, 1.0))
                hyper["log_a_scale"] = float(np.clip(
                    math.sqrt(float(np.mean((la_np - la_np.mean()) ** 2 + sds[1] ** 2))),
                    0.05, float(priors.log_a_scale),
                ))

    if not converged:
        notes.append(f"MAP optimiser hit its iteration limit ({max_iter}); estimates may be off")
    for g in range(1, n_groups):
        if sig[g] <= 0.05 + 1e-9:
            notes.append(f"group {g}'s ability SD collapsed to the floor 0.05; its members look alike")
    theta_sd, la_sd, b_sd, cov_ab = sds
    # item parameters: posterior means instead of the joint mode (see _item_posteriors),
    # under the last round's priors carried through its re-anchoring map
    t1 = time.perf_counter()
    prior_now = {
        "b_loc": (hyper["b_loc"] - loc) / scl, "b_scale": hyper["b_scale"] / scl,
        "log_a_loc": hyper["log_a_loc"] + math.log(scl), "log_a_scale": hyper["log_a_scale"],
    }
    m_la, la_sd, m_b, b_sd = _item_posteriors(
        model_kw, theta, log_a, b, la_sd.astype(float) ** 2, b_sd.astype(float) ** 2,
        cov_ab.astype(float), prior_now,
    )
    with torch.no_grad():
        b.copy_(torch.as_tensor(m_b, dtype=b.dtype, device=b.device))
        if log_a is not None:
            log_a.copy_(torch.as_tensor(m_la, dtype=log_a.dtype, device=log_a.device))
    t_unc += time.perf_counter() - t1
    th_raw = theta.detach().cpu().numpy().astype(float)
    anchor = {"loc_var": 0.0, "scale_var": 0.0}
    if empirical_bayes:
        # uncertainty of the anchor itself: the scale is pinned to the sample of n0
        # anchor-group responders, whose mean/SD estimate the population's with
        # variance 1/n0 and 1/(2 n0) -- and their abilities are themselves estimated
        # (posterior SD sd_i), which adds mean(sd^2)/n0 to the mean and
        # mean(theta^2 sd^2 + sd^4 / 2)/n0 to the SD (delta method on the second
        # moment); theta = (raw - m) / s carries both
        m0 = g_np == 0
        n0 = max(1, int(m0.sum()))
        sd0 = theta_sd.astype(float)[m0]
        th0 = th_raw[m0]
        var_loc = (1.0 + float(np.mean(sd0**2))) / n0
        var_scale = (0.5 + float(np.mean(th0**2 * sd0**2 + sd0**4 / 2))) / n0
        anchor = {"loc_var": var_loc, "scale_var": var_scale}
        theta_sd = np.sqrt(theta_sd.astype(float) ** 2 + var_loc + th_raw**2 * var_scale)
        b_raw = b.detach().cpu().numpy().astype(float)
        b_sd = np.sqrt(b_sd.astype(float) ** 2 + var_loc + b_raw**2 * var_scale)
        la_sd = np.sqrt(la_sd.astype(float) ** 2 + var_scale)
    th_np = theta.detach().cpu().numpy().astype(float)
    b_np = b.detach().cpu().numpy().astype(float)
    if log_a is None:
        a_np = np.ones(n_items)
        a_sd = np.zeros(n_items)
    else:
        la_np = log_a.detach().cpu().numpy().astype(float)
        a_np = np.exp(la_np)
        a_sd = a_np * la_sd.astype(float)  # delta method
    return {
        "theta": th_np, "theta_sd": theta_sd.astype(float),
        "theta_ci": np.stack([th_np - Z95 * theta_sd, th_np + Z95 * theta_sd], axis=1),
        "a": a_np, "a_sd": a_sd, "b": b_np, "b_sd": b_sd.astype(float),
        "loss": np.asarray(trace), "converged": converged, "notes": notes,
        "group_params": {"mu": mu.tolist(), "sigma": sig.tolist()},
        "priors": hyper, "anchor": anchor,
        "timings": {"optimize": t_opt, "uncertainty": t_unc, "map_total": time.perf_counter() - t0},
    }


# --------------------------------------------------------------------------- VI / NUTS


def _model_kw(
    subjects: np.ndarray, items: np.ndarray, correct: np.ndarray, n_subjects: int, n_items: int,
    model: str, c: np.ndarray | None, groups: np.ndarray | None, priors: Priors, device: torch.device,
) -> dict[str, Any]:
    n_groups = 1 if groups is None else int(groups.max()) + 1
    return dict(
        subject_idx=torch.as_tensor(subjects, dtype=torch.long, device=device),
        item_idx=torch.as_tensor(items, dtype=torch.long, device=device),
        n_subjects=n_subjects, n_items=n_items,
        correct=torch.as_tensor(correct, dtype=torch.float32, device=device),
        kind=model, c=None if c is None else torch.as_tensor(c, dtype=torch.float32, device=device),
        priors=replace(priors, hierarchical=n_groups > 1),
        group_idx=None if groups is None else torch.as_tensor(groups, dtype=torch.long, device=device),
        n_groups=n_groups,
    )


def _summaries_from_samples(samples: dict[str, np.ndarray], model: str, n_items: int) -> dict[str, Any]:
    th = samples["theta"]
    out: dict[str, Any] = {
        "theta": th.mean(0), "theta_sd": th.std(0),
        "theta_ci": np.stack([np.percentile(th, 2.5, axis=0), np.percentile(th, 97.5, axis=0)], axis=1),
        "b": samples["b"].mean(0), "b_sd": samples["b"].std(0),
    }
    if model == "1pl":
        out["a"], out["a_sd"] = np.ones(n_items), np.zeros(n_items)
    else:
        a = np.exp(samples["log_a"])
        out["a"], out["a_sd"] = a.mean(0), a.std(0)
    gp: dict[str, list[float]] = {}
    if "group_mu" in samples:
        gp = {
            "mu": [0.0, *samples["group_mu"].mean(0).tolist()],
            "sigma": [1.0, *samples["group_sigma"].mean(0).tolist()],
        }
    out["group_params"] = gp
    return out


def _fit_vi(
    kw: dict[str, Any], *, model: str, steps: int, lr: float, batch_size: int | None, guide: str,
    num_samples: int, progress: Progress | None, seed: int,
) -> dict[str, Any]:
    from pyro.infer import SVI, Trace_ELBO
    from pyro.infer.autoguide import AutoLowRankMultivariateNormal, AutoNormal, init_to_median

    n_obs = int(kw["subject_idx"].shape[0])
    sub = batch_size if (batch_size is not None and batch_size < n_obs) else None

    def mdl(**extra: Any) -> torch.Tensor:
        return irt_model(**kw, subsample_size=sub)

    if guide == "lowrank":
        g = AutoLowRankMultivariateNormal(mdl, init_loc_fn=init_to_median, init_scale=0.1)
    else:
        g = AutoNormal(mdl, init_loc_fn=init_to_median, init_scale=0.1)
    svi = SVI(mdl, g, pyro.optim.ClippedAdam({"lr": lr, "lrd": 0.1 ** (1 / max(steps, 1))}), Trace_ELBO())
    trace = []
    t1 = time.perf_counter()
    for k in range(steps):
        loss = svi.step() / n_obs
        trace.append(loss)
        if progress is not None and (k % 10 == 0 or k == steps - 1):
            progress(k + 1, steps, loss)
    t_opt = time.perf_counter() - t1
    t1 = time.perf_counter()
    with torch.no_grad():
        draws = [g() for _ in range(num_samples)]
    samples = {
        k: torch.stack([d[k] for d in draws]).cpu().numpy().astype(float)
        for k in draws[0]
    }
    out = _summaries_from_samples(samples, model, kw["n_items"])
    out.update(loss=np.asarray(trace), converged=True,
               notes=["variational (mean-field) intervals tend to be too narrow; prefer MAP/Laplace or NUTS for reported CIs"]
               if guide != "lowrank" else ["variational intervals may be too narrow"],
               timings={"optimize": t_opt, "uncertainty": time.perf_counter() - t1})
    _ = seed
    return out


def _fit_nuts(
    kw: dict[str, Any], *, model: str, num_samples: int, warmup: int, progress: Progress | None
) -> dict[str, Any]:
    from pyro.infer import MCMC, NUTS
    from pyro.infer.autoguide import init_to_median

    def mdl() -> torch.Tensor:
        return irt_model(**kw)

    kernel = NUTS(mdl, target_accept_prob=0.85, init_strategy=init_to_median)
    total = num_samples + warmup
    step = {"k": 0}

    def hook(kernel: Any, samples: Any, stage: str, i: int) -> None:
        step["k"] += 1
        if progress is not None:
            progress(step["k"], total, float("nan"))

    mc = MCMC(kernel, num_samples=num_samples, warmup_steps=warmup, disable_progbar=True, hook_fn=hook)
    t1 = time.perf_counter()
    mc.run()
    t_opt = time.perf_counter() - t1
    samples = {k: v.cpu().numpy().astype(float) for k, v in mc.get_samples().items()}
    out = _summaries_from_samples(samples, model, kw["n_items"])
    notes = []
    try:
        diag = mc.diagnostics()
        rhat = max(float(torch.as_tensor(d["r_hat"]).max()) for k, d in diag.items() if isinstance(d, dict) and "r_hat" in d)
        if math.isfinite(rhat) and rhat > 1.05:
            notes.append(f"NUTS: max split R-hat {rhat:.3f} > 1.05; run longer")
        div = diag.get("divergences", {}).get("chain 0", [])
        if len(div):
            notes.append(f"NUTS: {len(div)} divergent transitions")
    except Exception:  # diagnostics are best effort
        pass
    out.update(loss=np.zeros(0), converged=True, notes=notes, timings={"optimize": t_opt, "uncertainty": 0.0})
    return out


