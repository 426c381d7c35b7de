"""Prior hyper-parameters and constants shared by every IRT estimator (no torch).

Kept apart from :mod:`irt.two_pl` (the Pyro models) so the numpy estimators and the
entry point :func:`irt.fit.fit` can use them without importing torch or Pyro.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["MODEL_NAMES", "Z95", "Priors"]

#: the models :func:`irt.fit.fit` accepts
MODEL_NAMES = ("1pl", "2pl", "3pl")

#: z value of a two-sided 95 % normal interval
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Priors:
    """Prior hyper-parameters (all on the logistic metric).

    Scalars or tensors: ``theta_loc``/``theta_scale`` may be ``(n_groups,)`` tensors
    indexed by ``group_idx`` (separate population mean/SD for humans and models); item
    priors may be scalars or ``(n_items,)`` tensors.

    Why these defaults: ``theta ~ N(0, 1)`` fixes the scale of the latent trait (the
    usual identification); ``b ~ N(0, 2)`` is weak on the logit scale; ``log a ~
    N(0, 0.5)`` keeps discriminations inside roughly [0.37, 2.7] at 95 % a priori yet
    lets the data move them -- without it a joint MAP on thin data lets ``a`` run off
    to absurd values (a -> 190 on LSAT-sized data).  :func:`irt.fit.fit` refines these
    scales from the data (empirical Bayes) unless told not to.

    ``hierarchical=True`` turns the group means/SDs into latent variables (group 0 is
    the anchor with mean 0 and SD 1; other groups get ``mu ~ N(0, 2)`` and ``sigma ~
    HalfNormal(2)``) -- meant for NUTS/VI, where a full posterior over them is honest.
    """

    theta_loc: float | Any = 0.0
    theta_scale: float | Any = 1.0
    b_loc: float | Any = 0.0
    b_scale: float | Any = 2.0
    log_a_loc: float | Any = 0.0
    log_a_scale: float | Any = 0.5
    hierarchical: bool = False
