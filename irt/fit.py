"""Fit 1PL/2PL/3PL IRT models to sparse (responder, item, correct) data.

One entry point, :func:`fit`, four estimators:

``"map"``
    Joint maximum a posteriori over abilities and items (on the CPU for the 1PL/2PL:
    exact numpy/scipy, :mod:`irt.map_np`, which never imports torch; otherwise L-BFGS
    on the exact log joint of the Pyro model, :mod:`irt.two_pl`, read through
    ``pyro.poutine``, in :mod:`irt.fit_torch`), with
    empirical-Bayes refinement of the prior scales (item ``log a``/``b`` spread and the
    mean/SD of every non-anchor responder group) and a Laplace approximation for the
    uncertainties: a responder's SD is the inverse curvature of the log posterior in
    its own theta given the items.  Item parameters are then reported as their
    posterior *means* and SDs given the fitted abilities, integrated by adaptive
    Gauss-Hermite quadrature around the mode (the Laplace 2x2 (log a, b) block is the
    proposal): with ~100 answers per item the log-a posterior is skewed and its mean
    ranks discriminations better than the mode.  Fast, scales to millions of
    responses, and the default for sparse data.
``"mml"``
    Marginal maximum likelihood by Gauss-Hermite quadrature over theta (see
    :mod:`irt.mml`) with EAP abilities and their posterior SD.  The psychometric
    standard; the default for dense, moderate data without groups.  Reproduces mirt's
    and ltm's LSAT fits.
``"vi"``
    Stochastic variational inference with an ``AutoNormal`` (mean-field) guide, or
    ``AutoLowRankMultivariateNormal`` with ``guide="lowrank"``; minibatched over
    observations when the data are large (``batch_size``).  Mean-field intervals tend
    to be too narrow; a warning says so.
``"nuts"``
    NUTS (HMC) on the full model, group means/SDs latent; for small data only.

``method="auto"`` picks MML for dense moderate data without groups, minibatched VI
for huge data, and MAP otherwise (never NUTS) (see :func:`choose_method`).

Every torch fit is seeded and clears Pyro's global parameter store (the numpy MAP is
deterministic).  All tensors are created on ``device`` so the same call runs on
``"cuda"``.  torch, Pyro and :mod:`irt.mml` are imported only by the estimators that
need them.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import numpy as np

from irt.ids import IndexMap
from irt.priors import MODEL_NAMES, Z95, Priors
from irt.result import IrtResult

__all__ = ["IndexMap", "IrtResult", "choose_method", "fit"]

Progress = Callable[[int, int, float], None]

#: thresholds used by :func:`choose_method`
MML_MIN_DENSITY = 0.5
MML_MIN_SUBJECTS = 100  # fewer responders cannot pin item parameters down marginally
MML_MAX_ITEMS = 300
MML_MAX_CELLS = 40_000_000  # n_obs * n_quad doubles held in memory
SVI_MIN_OBS = 30_000_000
THIN_ANSWERS = 30  # mean answers per responder below which a joint MAP is unreliable

#: fewest items for which the item-prior spreads are estimated from the data
EB_MIN_ITEMS = 50

#: sanity limits for warnings
MIN_ANSWERS = 10
A_HIGH = 4.0
A_LOW = 0.2
B_EXTREME = 4.0


# --------------------------------------------------------------------------- helpers


def choose_method(
    n_obs: int, n_subjects: int, n_items: int, *, has_groups: bool = False, model: str = "2pl"
) -> str:
    """Default estimator for a data size (``method="auto"``).

    * NUTS is never chosen automatically: Pyro's NUTS took 70 s on 125 responses and
      4 minutes on 500 on the 2-core reference machine, too slow for a button in the
      UI. Ask for it with ``method="nuts"`` when exact posteriors are worth the wait.
    * MML when there is a single population of at least 100 responders (with fewer,
      the item parameters are not identified from the marginal likelihood: a ran to 85
      on 12 responders x 15 items), at most 300 items, the cells fit in
      memory and either the matrix is dense (>= 50 % observed) or responders answer
      few items each (< 30 on average): the psychometric standard, and the only
      consistent choice when responders are thin (a joint MAP then overfits the
      discriminations: a -> 1e3 on LSAT7's 5 items).
    * minibatched VI beyond 30 million responses (memory-bound otherwise).
    * MAP + Laplace with empirical-Bayes priors otherwise (sparse, large, grouped).
    """
    density = n_obs / max(1, n_subjects * n_items)
    thin = n_obs / max(1, n_subjects) < THIN_ANSWERS
    if (
        not has_groups
        and n_subjects >= MML_MIN_SUBJECTS
        and (density >= MML_MIN_DENSITY or thin)
        and n_items <= MML_MAX_ITEMS
        and n_obs * 61 <= MML_MAX_CELLS
    ):
        return "mml"
    if n_obs >= SVI_MIN_OBS:
        return "vi"
    return "map"


def _data_warnings(
    subjects: np.ndarray, items: np.ndarray, correct: np.ndarray, n_subjects: int, n_items: int
) -> list[str]:
    out: list[str] = []
    n_ans = np.bincount(subjects, minlength=n_subjects)
    n_cor = np.bincount(subjects, weights=correct, minlength=n_subjects)
    few = int((n_ans < MIN_ANSWERS).sum())
    if few:
        out.append(
            f"{few} responder(s) answered fewer than {MIN_ANSWERS} items; their ability rests "
            "largely on the prior and their intervals are wide"
        )
    extreme = int(((n_cor == 0) | (n_cor == n_ans)).sum() - (n_ans == 0).sum())
    if extreme:
        out.append(
            f"{extreme} responder(s) answered all correctly or all wrongly; their ability is "
            "bounded only by the prior (no finite maximum-likelihood estimate)"
        )
    if (n_ans == 0).any():
        out.append(f"{int((n_ans == 0).sum())} responder index(es) have no responses; they get the prior")
    i_ans = np.bincount(items, minlength=n_items)
    i_cor = np.bincount(items, weights=correct, minlength=n_items)
    if (i_ans == 0).any():
        out.append(f"{int((i_ans == 0).sum())} item index(es) have no responses; they get the prior")
    perfect = int(((i_cor == 0) | (i_cor == i_ans)).sum() - (i_ans == 0).sum())
    if perfect:
        out.append(
            f"{perfect} item(s) were answered all correctly or all wrongly; their difficulty "
            "is bounded only by the prior"
        )
    return out


def _param_warnings(a: np.ndarray, b: np.ndarray, model: str) -> list[str]:
    out: list[str] = []
    if model != "1pl":
        hi = int((a > A_HIGH).sum())
        lo = int((a < A_LOW).sum())
        if hi:
            out.append(f"{hi} item(s) have discrimination a > {A_HIGH:g} (max {a.max():.2f}); check them")
        if lo:
            out.append(
                f"{lo} item(s) have discrimination a < {A_LOW:g} (min {a.min():.2f}); they carry "
                "almost no information about ability"
            )
    ext = int((np.abs(b) > B_EXTREME).sum())
    if ext:
        out.append(f"{ext} item(s) have |b| > {B_EXTREME:g}; they are too easy or too hard to inform")
    return out


# --------------------------------------------------------------------------- entry


def fit(
    subjects: np.ndarray | list[int],
    items: np.ndarray | list[int],
    correct: np.ndarray | list[int],
    *,
    model: str = "2pl",
    method: str = "auto",
    seed: int = 0,
    groups: np.ndarray | list[int] | None = None,
    device: str = "cpu",
    progress: Progress | None = None,
    n_subjects: int | None = None,
    n_items: int | None = None,
    n_options: int | np.ndarray | None = None,
    priors: Priors | None = None,
    empirical_bayes: bool = True,
    eb_rounds: int = 3,
    max_iter: int = 300,
    vi_steps: int = 2000,
    vi_lr: float = 0.05,
    batch_size: int | None = None,
    guide: str = "normal",
    num_samples: int = 500,
    warmup: int = 500,
    n_quad: int = 61,
    engine: str = "auto",
) -> IrtResult:
    """Fit an IRT model to long-format responses.

    ``subjects``, ``items``: integer indices ``0..n-1`` of equal length ``n_obs`` (map
    external ids with :class:`irt.ids.IndexMap`); ``correct``: 0/1 of the same length.
    ``model``: ``"1pl"``, ``"2pl"`` or ``"3pl"`` (the 3PL needs ``n_options`` K, giving
    the fixed floor c = 1/K; scalar or per item).  ``method``: ``"auto"``, ``"map"``,
    ``"mml"``, ``"vi"`` or ``"nuts"``.  ``groups``: optional ``(n_subjects,)`` integer
    population of every responder (e.g. 0 = humans, 1 = models); group 0 anchors the
    scale at N(0, 1), the others get their own fitted mean/SD.  ``progress(step,
    total, loss)`` is called as the fit advances (for Celery).  ``device``: torch
    device string; every tensor is created there.  ``engine``: ``"auto"`` runs the
    joint MAP of the 1PL/2PL on the CPU in exact numpy/scipy (:mod:`irt.map_np`, no
    torch import: a fresh process fits in a fraction of the time) and everything else
    on torch/Pyro (:mod:`irt.fit_torch`); ``"torch"`` forces the Pyro path, ``"numpy"``
    insists on the numpy one.

    Returns a frozen :class:`IrtResult`.
    """
    t0 = time.perf_counter()
    if model not in MODEL_NAMES:
        raise ValueError(f"unknown model {model!r}; expected one of {sorted(MODEL_NAMES)}")
    s = np.asarray(subjects, dtype=np.int64).ravel()
    it = np.asarray(items, dtype=np.int64).ravel()
    y = np.asarray(correct).ravel()
    if not (s.shape == it.shape == y.shape):
        raise ValueError(f"subjects, items and correct must have the same length; got {s.size}, {it.size}, {y.size}")
    if s.size == 0:
        raise ValueError("no responses to fit")
    if not np.isin(y, (0, 1)).all():
        raise ValueError("correct must contain only 0/1 values")
    if s.min() < 0 or it.min() < 0:
        raise ValueError("subject and item indices must be >= 0")
    y = y.astype(np.float64)
    n_s = int(n_subjects if n_subjects is not None else s.max() + 1)
    n_i = int(n_items if n_items is not None else it.max() + 1)
    if s.max() >= n_s or it.max() >= n_i:
        raise ValueError("an index is >= n_subjects / n_items")
    g = None
    if groups is not None:
        g = np.asarray(groups, dtype=np.int64).ravel()
        if g.shape[0] != n_s:
            raise ValueError(f"groups must have one entry per subject ({n_s}); got {g.shape[0]}")
        if g.min() < 0:
            raise ValueError("group indices must be >= 0")
        if int(g.max()) == 0:
            g = None
    c: np.ndarray | None = None
    if model == "3pl":
        if n_options is None:
            raise ValueError("model='3pl' needs n_options (K) for the guessing floor c = 1/K")
        k = np.broadcast_to(np.asarray(n_options, dtype=float), (n_i,))
        if (k < 2).any():
            raise ValueError("n_options must be >= 2")
        c = 1.0 / k
    if method == "auto":
        method = choose_method(s.size, n_s, n_i, has_groups=g is not None, model=model)
    if method not in ("map", "mml", "vi", "nuts"):
        raise ValueError(f"unknown method {method!r}")
    if engine not in ("auto", "numpy", "torch"):
        raise ValueError(f"unknown engine {engine!r}; expected auto, numpy or torch")
    numpy_ok = method == "map" and model in ("1pl", "2pl") and device == "cpu"
    if engine == "numpy" and not numpy_ok:
        raise ValueError("engine='numpy' covers method='map' for the 1PL/2PL on the CPU only")
    use_numpy = numpy_ok and engine != "torch"
    priors = priors or Priors()
    if not use_numpy:
        from irt.fit_torch import _seed_all

        _seed_all(seed)
    warnings = _data_warnings(s, it, y, n_s, n_i)

    log_lik = None
    if method == "mml":
        if g is not None:
            warnings.append("MML assumes one N(0, 1) population; the responder groups were ignored")
        from irt.mml import fit_mml

        mm = fit_mml(s, it, y, n_s, n_i, kind=model, c=c, n_quad=n_quad, device=device, progress=progress)
        out: dict[str, Any] = {
            "theta": mm.theta_eap, "theta_sd": mm.theta_psd,
            "theta_ci": np.stack([mm.theta_eap - Z95 * mm.theta_psd, mm.theta_eap + Z95 * mm.theta_psd], axis=1),
            "a": mm.a, "a_sd": mm.a_se, "b": mm.b, "b_sd": mm.b_se, "loss": mm.loss,
            "converged": mm.converged, "notes": [*mm.notes, f"item SEs: {mm.se_method}"],
            "timings": {"optimize": mm.seconds}, "group_params": {}, "priors": {},
            # the population N(0, 1) is the anchor; its location/scale are known to the
            # sampling error of n responders measured with posterior SDs psd
            "anchor": {
                "loc_var": float((1.0 + np.mean(mm.theta_psd**2)) / n_s),
                "scale_var": float((0.5 + np.mean(mm.theta_eap**2 * mm.theta_psd**2 + mm.theta_psd**4 / 2)) / n_s),
            },
        }
        log_lik = mm.log_lik
    elif method == "map" and use_numpy:
        from irt.map_np import fit_map_numpy

        out = fit_map_numpy(
            s, it, y, n_s, n_i, model=model, groups=g, priors=priors,
            empirical_bayes=empirical_bayes, eb_rounds=eb_rounds, max_iter=max_iter, progress=progress,
        )
    elif method == "map":
        import torch

        from irt.fit_torch import _fit_map

        out = _fit_map(
            s, it, y, n_s, n_i, model=model, c=c, groups=g, priors=priors,
            empirical_bayes=empirical_bayes, eb_rounds=eb_rounds, max_iter=max_iter,
            device=torch.device(device), progress=progress,
        )
    else:
        import torch

        from irt.fit_torch import _fit_nuts, _fit_vi, _model_kw

        dev = torch.device(device)
        kw = _model_kw(s, it, y, n_s, n_i, model, c, g, priors, dev)
        if method == "vi":
            bs = batch_size
            if bs is None and s.size > 2_000_000:
                bs = 1_000_000
            out = _fit_vi(kw, model=model, steps=vi_steps, lr=vi_lr, batch_size=bs, guide=guide,
                          num_samples=num_samples, progress=progress, seed=seed)
        else:
            if s.size > 20_000:
                warnings.append("NUTS on this much data is slow; MAP or MML would be the usual choice")
            out = _fit_nuts(kw, model=model, num_samples=num_samples, warmup=warmup, progress=progress)
        out["priors"] = {k: float(v) for k, v in asdict(priors).items() if isinstance(v, (int, float)) and not isinstance(v, bool)}

    if method == "map" and model != "1pl":
        med = float(np.median(np.bincount(s, minlength=n_s)))
        if med < THIN_ANSWERS and n_i < 50:
            warnings.append(
                f"joint MAP with few items ({n_i}) and thin responders (median {med:.0f} answers) "
                "overfits discriminations (each responder's theta can be placed to separate an "
                "item's answers); use method='mml'"
            )
        if float(np.max(out["a"])) > 10:
            warnings.append(
                f"discriminations ran off (max a = {float(np.max(out['a'])):.3g}); these item "
                "parameters are not usable -- use method='mml' or more answers per responder"
            )
    warnings.extend(out["notes"])
    warnings.extend(_param_warnings(out["a"], out["b"], model))
    timings = dict(out["timings"])
    timings["total"] = time.perf_counter() - t0
    return IrtResult(
        theta=np.asarray(out["theta"], dtype=float),
        theta_sd=np.asarray(out["theta_sd"], dtype=float),
        theta_ci=np.asarray(out["theta_ci"], dtype=float),
        a=np.asarray(out["a"], dtype=float),
        a_sd=np.asarray(out["a_sd"], dtype=float),
        b=np.asarray(out["b"], dtype=float),
        b_sd=np.asarray(out["b_sd"], dtype=float),
        c=None if c is None else np.asarray(c, dtype=float),
        loss=np.asarray(out["loss"], dtype=float),
        method=method, model=model, seed=int(seed), timings=timings, n_obs=int(s.size),
        warnings=warnings, log_lik=log_lik, groups=g,
        group_params=out.get("group_params", {}), priors=out.get("priors", {}),
        anchor=dict(out.get("anchor") or {}),
        converged=bool(out["converged"]), device=str(device),
    )
