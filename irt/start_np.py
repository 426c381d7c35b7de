"""Numpy pieces shared by the numpy (:mod:`irt.map_np`) and torch (:mod:`irt.fit_torch`)
MAP estimators: their starting values and the quadrature grid of the item posteriors.

Pure numpy, so :mod:`irt.map_np` keeps fitting in a process that never imports torch.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ITEM_QUAD_NODES", "init_values", "item_quad_grid"]

#: Gauss-Hermite nodes per dimension of an item's (log a, b) posterior
ITEM_QUAD_NODES = 7


def init_values(
    subjects: np.ndarray, items: np.ndarray, correct: np.ndarray, n_subjects: int, n_items: int
) -> tuple[np.ndarray, np.ndarray]:
    """Shrunken logits of responder accuracy and item p-values as starting points."""
    s_n = np.bincount(subjects, minlength=n_subjects)
    s_c = np.bincount(subjects, weights=correct, minlength=n_subjects)
    i_n = np.bincount(items, minlength=n_items)
    i_c = np.bincount(items, weights=correct, minlength=n_items)
    ps = (s_c + 1.0) / (s_n + 2.0)
    pi = (i_c + 1.0) / (i_n + 2.0)
    theta0 = np.log(ps / (1 - ps))
    theta0 = (theta0 - theta0.mean()) / (theta0.std() + 1e-9)
    b0 = -np.log(pi / (1 - pi))
    return theta0, b0


def item_quad_grid(
    n_items: int, var_la: np.ndarray, var_b: np.ndarray, cov_ab: np.ndarray, with_log_a: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Gauss-Hermite grid over each item's Laplace block, shared by both estimators.

    Returns ``(z1, z2, logw, logq, l11, l21, l22)``: the standard-normal nodes (a 1-D
    rule on b alone when ``with_log_a`` is false, else the 2-D product rule), their log
    weights, the log standard-normal density at them, and each item's Cholesky factor
    of its 2x2 Laplace covariance, so that ``log a = m + l11 z1`` and
    ``b = m + l21 z1 + l22 z2``.
    """
    z, w = np.polynomial.hermite_e.hermegauss(ITEM_QUAD_NODES)
    if not with_log_a:
        z1, z2 = np.zeros_like(z), z
        logw = np.log(w)
        logq = -0.5 * z**2
    else:
        z1 = np.repeat(z, z.size)
        z2 = np.tile(z, z.size)
        logw = np.log(np.repeat(w, w.size) * np.tile(w, w.size))
        logq = -0.5 * (z1**2 + z2**2)
    l11 = np.sqrt(np.maximum(var_la, 1e-12)) if with_log_a else np.zeros(n_items)
    l21 = cov_ab / np.where(l11 > 0, l11, 1.0) if with_log_a else np.zeros(n_items)
    l22 = np.sqrt(np.maximum(var_b - l21**2, 1e-12))
    return z1, z2, logw, logq, l11, l21, l22
