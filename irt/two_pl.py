"""Pyro item-response models (1PL, 2PL, 3PL) as plain functions.

This module is the single source of truth for Earshot's IRT likelihood:

    P(correct_ij) = c_j + (1 - c_j) * sigmoid(a_j * (theta_i - b_j))

with ``a_j = 1`` for the 1PL, ``c_j = 0`` for the 1PL/2PL and a *fixed* guessing floor
``c_j = 1 / K_j`` for K-option multiple choice in the 3PL.  :func:`response_logits`
turns (theta, a, b, c) into the Bernoulli logit of a correct answer; the Pyro models
below and the quadrature code in :mod:`irt.mml` both call it, so there is exactly one
formula to trust.

Every model is *vectorised over observed cells*: the data are three aligned vectors
``subject_idx``, ``item_idx`` and ``correct`` of length ``n_obs`` (one entry per
observed response), not a dense matrix, because sparse data are the normal case (a
human answers a few dozen of thousands of items).  Shapes:

* ``subject_idx``: ``(n_obs,)`` long tensor with values in ``0..n_subjects-1``
* ``item_idx``: ``(n_obs,)`` long tensor with values in ``0..n_items-1``
* ``correct``: ``(n_obs,)`` float tensor of 0/1, or ``None`` to sample from the prior
* latent sites: ``theta`` ``(n_subjects,)``, ``b`` ``(n_items,)``, ``log_a``
  ``(n_items,)`` (2PL/3PL only; ``a = exp(log_a)`` keeps a > 0)
* observation site: ``obs`` ``(n_obs,)`` (or ``(subsample_size,)`` when minibatched)

No module-level state is kept; every tensor the models create is created on the
device of ``subject_idx`` so the same code runs on ``cuda``.
"""

from __future__ import annotations

import pyro
import pyro.distributions as dist
import torch

from irt.priors import Z95, Priors

__all__ = [
    "MODELS",
    "Z95",
    "Priors",
    "irt_model",
    "one_pl",
    "response_logits",
    "three_pl",
    "two_pl",
]


def response_logits(
    theta: torch.Tensor,
    a: torch.Tensor | float,
    b: torch.Tensor,
    c: torch.Tensor | float | None = None,
) -> torch.Tensor:
    """Bernoulli logit of a correct answer, broadcasting over any common shape.

    For ``c`` None or 0 this is ``a * (theta - b)``.  With a guessing floor ``c`` it
    is ``logit(c + (1 - c) * sigmoid(z))`` computed stably as
    ``logaddexp(log c, log(1 - c) + logsigmoid(z)) - (log(1 - c) + logsigmoid(-z))``.
    """
    z = a * (theta - b)
    if c is None:
        return z
    c_t = torch.as_tensor(c, dtype=z.dtype, device=z.device)
    if bool(torch.all(c_t == 0)):
        return z
    log_c = torch.log(c_t)
    log1m_c = torch.log1p(-c_t)
    log_p = torch.logaddexp(log_c.expand_as(z), log1m_c + torch.nn.functional.logsigmoid(z))
    log_q = log1m_c + torch.nn.functional.logsigmoid(-z)
    return log_p - log_q


def _as(x: float | torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    return torch.as_tensor(x, dtype=torch.get_default_dtype(), device=like.device)


def irt_model(
    subject_idx: torch.Tensor,
    item_idx: torch.Tensor,
    n_subjects: int,
    n_items: int,
    correct: torch.Tensor | None = None,
    *,
    kind: str = "2pl",
    c: torch.Tensor | float | None = None,
    priors: Priors | None = None,
    group_idx: torch.Tensor | None = None,
    n_groups: int = 1,
    subsample_size: int | None = None,
) -> torch.Tensor:
    """Generic 1PL/2PL/3PL model; returns the observation-level logits.

    ``group_idx`` is a ``(n_subjects,)`` long tensor assigning each responder to a
    population (e.g. 0 = humans, 1 = models) whose prior mean/SD are
    ``priors.theta_loc[g]``/``priors.theta_scale[g]`` (or latent when
    ``priors.hierarchical``).  ``c`` is a scalar or ``(n_items,)`` guessing floor
    (3PL only).  ``subsample_size`` minibatches the observation plate for SVI.
    """
    if kind not in MODELS:
        raise ValueError(f"unknown IRT model {kind!r}; expected one of {sorted(MODELS)}")
    priors = priors or Priors()
    dev = subject_idx.device
    dtype = torch.get_default_dtype()

    theta_loc = _as(priors.theta_loc, subject_idx)
    theta_scale = _as(priors.theta_scale, subject_idx)
    if priors.hierarchical and n_groups > 1:
        with pyro.plate("groups", n_groups - 1, device=dev):
            mu = pyro.sample("group_mu", dist.Normal(torch.zeros((), device=dev, dtype=dtype), 2.0))
            sigma = pyro.sample(
                "group_sigma", dist.HalfNormal(torch.full((), 2.0, device=dev, dtype=dtype))
            )
        theta_loc = torch.cat([torch.zeros(1, device=dev, dtype=dtype), mu])
        theta_scale = torch.cat([torch.ones(1, device=dev, dtype=dtype), sigma])
    if group_idx is not None and theta_loc.dim() > 0:
        theta_loc = theta_loc[group_idx]
    if group_idx is not None and theta_scale.dim() > 0:
        theta_scale = theta_scale[group_idx]

    with pyro.plate("subjects", n_subjects, device=dev):
        theta = pyro.sample("theta", dist.Normal(theta_loc, theta_scale))
    with pyro.plate("items", n_items, device=dev):
        b = pyro.sample("b", dist.Normal(_as(priors.b_loc, subject_idx), _as(priors.b_scale, subject_idx)))
        if kind == "1pl":
            a: torch.Tensor | float = 1.0
        else:
            log_a = pyro.sample(
                "log_a",
                dist.Normal(_as(priors.log_a_loc, subject_idx), _as(priors.log_a_scale, subject_idx)),
            )
            a = torch.exp(log_a)

    c_t = None
    if kind == "3pl":
        if c is None:
            raise ValueError("the 3PL needs a guessing floor c (1/K for K-option MCQ)")
        c_t = torch.as_tensor(c, dtype=dtype, device=dev)

    with pyro.plate("obs_plate", subject_idx.shape[0], subsample_size=subsample_size, device=dev) as ind:
        s = subject_idx[ind]
        i = item_idx[ind]
        a_i = a[i] if isinstance(a, torch.Tensor) else a
        c_i = c_t[i] if (c_t is not None and c_t.dim() > 0) else c_t
        logits = response_logits(theta[s], a_i, b[i], c_i)
        obs = None if correct is None else correct[ind]
        pyro.sample("obs", dist.Bernoulli(logits=logits), obs=obs)
    return logits


def one_pl(subject_idx, item_idx, n_subjects, n_items, correct=None, **kw):  # type: ignore[no-untyped-def]
    """Rasch/1PL: ``P = sigmoid(theta_i - b_j)``. Shapes as in the module docstring."""
    return irt_model(subject_idx, item_idx, n_subjects, n_items, correct, kind="1pl", **kw)


def two_pl(subject_idx, item_idx, n_subjects, n_items, correct=None, **kw):  # type: ignore[no-untyped-def]
    """2PL: ``P = sigmoid(a_j (theta_i - b_j))``, ``a_j = exp(log_a_j) > 0``.

    subject_idx, item_idx: ``(n_obs,)`` long tensors; correct: ``(n_obs,)`` float 0/1.
    """
    return irt_model(subject_idx, item_idx, n_subjects, n_items, correct, kind="2pl", **kw)


def three_pl(subject_idx, item_idx, n_subjects, n_items, correct=None, *, c, **kw):  # type: ignore[no-untyped-def]
    """3PL with a fixed guessing floor: ``P = c_j + (1 - c_j) sigmoid(a_j (theta_i - b_j))``.

    ``c``: scalar or ``(n_items,)``, normally ``1 / K`` for K-option multiple choice.
    """
    return irt_model(subject_idx, item_idx, n_subjects, n_items, correct, kind="3pl", c=c, **kw)


MODELS = {"1pl": one_pl, "2pl": two_pl, "3pl": three_pl}

