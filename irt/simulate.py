"""Simulate 1PL/2PL/3PL response data with known parameters.

Used by the recovery tests, the benchmark and power analysis.  Everything is driven
by a seeded ``numpy.random.Generator``; the output is the sparse long format the fit
takes (one row per observed response).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from irt.priors import Z95

__all__ = ["SimulatedData", "audita_shaped", "ci_width_power", "simulate", "simulate_responses"]


@dataclass(frozen=True)
class SimulatedData:
    """Simulated responses in long format plus the true parameters."""

    subjects: np.ndarray  # (n_obs,) int64
    items: np.ndarray  # (n_obs,) int64
    correct: np.ndarray  # (n_obs,) int8 0/1
    theta: np.ndarray  # (n_subjects,)
    a: np.ndarray  # (n_items,)
    b: np.ndarray  # (n_items,)
    c: np.ndarray  # (n_items,), zeros unless 3PL
    groups: np.ndarray  # (n_subjects,) int64, 0 unless a grouped design

    @property
    def n_subjects(self) -> int:
        return int(self.theta.shape[0])

    @property
    def n_items(self) -> int:
        return int(self.a.shape[0])


def _p_correct(theta: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return c + (1.0 - c) / (1.0 + np.exp(-a * (theta - b)))


def simulate_responses(
    subjects: np.ndarray,
    items: np.ndarray,
    theta: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    c: np.ndarray | None = None,
    *,
    seed: int = 0,
) -> np.ndarray:
    """Draw 0/1 responses for given (subject, item) cells and true parameters."""
    rng = np.random.default_rng(seed)
    c_arr = np.zeros_like(a) if c is None else np.broadcast_to(c, a.shape)
    p = _p_correct(theta[subjects], a[items], b[items], c_arr[items])
    return (rng.random(p.shape[0]) < p).astype(np.int8)


def simulate(
    n_subjects: int,
    n_items: int,
    *,
    density: float = 1.0,
    model: str = "2pl",
    n_options: int | None = None,
    theta_mean: float = 0.0,
    theta_sd: float = 1.0,
    log_a_mean: float = 0.0,
    log_a_sd: float = 0.3,
    b_sd: float = 1.0,
    seed: int = 0,
) -> SimulatedData:
    """Simulate a (possibly sparse) response matrix.

    ``density``: fraction of cells observed, drawn independently per cell (every
    subject and item keeps at least one response).  True parameters: ``theta ~
    N(theta_mean, theta_sd)``, ``log a ~ N(log_a_mean, log_a_sd)`` (1 for the 1PL),
    ``b ~ N(0, b_sd)``, ``c = 1 / n_options`` for the 3PL.
    """
    rng = np.random.default_rng(seed)
    theta = rng.normal(theta_mean, theta_sd, n_subjects)
    a = np.ones(n_items) if model == "1pl" else np.exp(rng.normal(log_a_mean, log_a_sd, n_items))
    b = rng.normal(0.0, b_sd, n_items)
    if model == "3pl":
        if not n_options:
            raise ValueError("the 3PL needs n_options (K) for its guessing floor 1/K")
        c = np.full(n_items, 1.0 / n_options)
    else:
        c = np.zeros(n_items)
    if density >= 1.0:
        subj = np.repeat(np.arange(n_subjects), n_items)
        item = np.tile(np.arange(n_items), n_subjects)
    else:
        n_cells = n_subjects * n_items
        k = rng.binomial(n_cells, density)
        cells = np.sort(rng.choice(n_cells, size=k, replace=False))
        subj, item = np.divmod(cells, n_items)
        # every subject and item gets at least one response
        miss_s = np.setdiff1d(np.arange(n_subjects), subj)
        miss_i = np.setdiff1d(np.arange(n_items), item)
        subj = np.concatenate([subj, miss_s, rng.integers(0, n_subjects, miss_i.size)])
        item = np.concatenate([item, rng.integers(0, n_items, miss_s.size), miss_i])
    y = simulate_responses(subj, item, theta, a, b, c, seed=seed + 1)
    return SimulatedData(
        subj.astype(np.int64), item.astype(np.int64), y, theta, a, b, c,
        np.zeros(n_subjects, dtype=np.int64),
    )


def audita_shaped(
    *,
    n_models: int = 20,
    n_humans: int = 300,
    n_items: int = 5000,
    human_answers: tuple[int, int] = (10, 60),
    model_theta_mean: float = 1.0,
    model_theta_sd: float = 0.7,
    log_a_sd: float = 0.3,
    seed: int = 0,
) -> SimulatedData:
    """The shape of a real joint study: a few model systems answer every item, many
    humans answer a few dozen each.

    Groups: 0 = humans (``theta ~ N(0, 1)``, the scale anchor), 1 = models
    (``theta ~ N(model_theta_mean, model_theta_sd)``).  Subjects ``0..n_humans-1`` are
    the humans, the rest the models.  Each human answers a uniform random number of
    items in ``human_answers`` (inclusive), chosen at random without replacement.
    """
    rng = np.random.default_rng(seed)
    theta = np.concatenate([rng.normal(0, 1, n_humans), rng.normal(model_theta_mean, model_theta_sd, n_models)])
    groups = np.concatenate([np.zeros(n_humans, np.int64), np.ones(n_models, np.int64)])
    a = np.exp(rng.normal(0, log_a_sd, n_items))
    b = rng.normal(0, 1, n_items)
    c = np.zeros(n_items)
    subj_parts, item_parts = [], []
    counts = rng.integers(human_answers[0], human_answers[1] + 1, n_humans)
    for h, k in enumerate(counts):
        subj_parts.append(np.full(k, h))
        item_parts.append(rng.choice(n_items, size=k, replace=False))
    for m in range(n_models):
        subj_parts.append(np.full(n_items, n_humans + m))
        item_parts.append(np.arange(n_items))
    subj = np.concatenate(subj_parts).astype(np.int64)
    item = np.concatenate(item_parts).astype(np.int64)
    y = simulate_responses(subj, item, theta, a, b, c, seed=seed + 1)
    return SimulatedData(subj, item, y, theta, a, b, c, groups)


def ci_width_power(
    target_width: float,
    *,
    a: np.ndarray | float = 1.0,
    b: np.ndarray | float = 0.0,
    c: np.ndarray | float = 0.0,
    theta: float | np.ndarray = 0.0,
    prior_sd: float = 1.0,
    max_items: int = 10_000,
) -> int:
    """Smallest number of answered items for which a responder's 95 % theta interval is
    no wider than ``target_width`` -- "how many human answers do we need?".

    Uses the Fisher information of the 2PL/3PL: a responder at ``theta`` answering n
    items drawn at random from a bank with parameters ``(a, b, c)`` gains on average
    ``I = mean_j I_j(theta)`` per item, so the posterior SD is about
    ``1 / sqrt(1 / prior_sd**2 + n * I)`` and the interval width ``2 * 1.96 * SD``.
    ``theta`` may be an array of abilities (e.g. a population sample); the
    *average* width over them must meet the target.  Returns ``max_items + 1`` when
    the target is out of reach.
    """
    a_arr = np.atleast_1d(np.asarray(a, dtype=float))
    b_arr = np.atleast_1d(np.asarray(b, dtype=float))
    a_arr, b_arr = np.broadcast_arrays(a_arr, b_arr)
    c_arr = np.broadcast_to(np.asarray(c, dtype=float), a_arr.shape)
    th = np.atleast_1d(np.asarray(theta, dtype=float))
    p = _p_correct(th[:, None], a_arr[None, :], b_arr[None, :], c_arr[None, :])
    # 3PL item information: a^2 (p - c)^2 (1 - p) / ((1 - c)^2 p); 2PL when c = 0
    info = (a_arr**2 * (p - c_arr) ** 2 * (1 - p) / ((1 - c_arr) ** 2 * p)).mean(axis=1)

    def width(n: int) -> float:
        return float(np.mean(2 * Z95 / np.sqrt(1.0 / prior_sd**2 + n * info)))

    if width(0) <= target_width:
        return 0
    if width(max_items) > target_width:
        return max_items + 1
    lo, hi = 0, max_items
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if width(mid) <= target_width:
            hi = mid
        else:
            lo = mid
    return hi

