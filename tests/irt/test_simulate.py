"""Simulation and the power helper against independent computations."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from irt.simulate import audita_shaped, ci_width_power, simulate
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


def test_simulate_is_seeded_and_shaped() -> None:
    d1 = simulate(50, 40, density=0.3, seed=3)
    d2 = simulate(50, 40, density=0.3, seed=3)
    np.testing.assert_array_equal(d1.correct, d2.correct)
    assert d1.subjects.shape == d1.items.shape == d1.correct.shape
    assert set(np.unique(d1.subjects)) == set(range(50)) and set(np.unique(d1.items)) == set(range(40))
    assert abs(d1.subjects.size / 2000 - 0.3) < 0.05


def test_simulated_accuracy_matches_model_probability() -> None:
    d = simulate(400, 200, density=1.0, seed=1)
    p = expit(d.a[d.items] * (d.theta[d.subjects] - d.b[d.items]))
    # 80,000 Bernoulli draws: the mean is within 4 binomial SEs of the expectation
    assert abs(d.correct.mean() - p.mean()) < 4 * np.sqrt(p.mean() * (1 - p.mean()) / p.size)


def test_3pl_floor_shows_in_very_hard_items() -> None:
    d = simulate(300, 50, density=1.0, model="3pl", n_options=4, b_sd=0.01, theta_mean=-6, seed=2)
    assert abs(d.correct.mean() - 0.25) < 0.02


def test_audita_shape() -> None:
    d = audita_shaped(n_models=3, n_humans=20, n_items=100, human_answers=(10, 12), seed=0)
    per = np.bincount(d.subjects)
    assert np.all(per[20:] == 100) and np.all((per[:20] >= 10) & (per[:20] <= 12))
    assert np.all(d.groups[:20] == 0) and np.all(d.groups[20:] == 1)


def _fisher_info_numeric(theta: float, a: float, b: float, c: float) -> float:
    # E[-d2/dtheta2 log p(y | theta)] by central differences: an independent reference
    def ll(t: float, y: int) -> float:
        p = c + (1 - c) * expit(a * (t - b))
        return np.log(p) if y else np.log1p(-p)

    h = 1e-4
    p = c + (1 - c) * expit(a * (theta - b))
    d2 = [(ll(theta + h, y) - 2 * ll(theta, y) + ll(theta - h, y)) / h**2 for y in (0, 1)]
    return -((1 - p) * d2[0] + p * d2[1])


@pytest.mark.parametrize(
    ("target", "a", "b", "c"),
    [
        pytest.param(1.0, 1.0, 0.0, 0.0, id="2pl-w1"),
        pytest.param(0.5, 1.5, 0.5, 0.0, id="2pl-w0.5"),
        pytest.param(1.0, 1.2, -0.5, 0.25, id="3pl-k4"),
    ],
)
def test_ci_width_power_is_smallest_n_meeting_target(target: float, a: float, b: float, c: float) -> None:
    n = ci_width_power(target, a=a, b=b, c=c, theta=0.0)
    info = _fisher_info_numeric(0.0, a, b, c)

    def width(k: int) -> float:
        return 2 * 1.959964 / np.sqrt(1.0 + k * info)

    assert width(n) <= target + 1e-6
    assert width(n - 1) > target - 1e-6


def test_ci_width_power_agrees_with_simulated_posterior_sd() -> None:
    # simulate n answers at theta = 0 on a unit bank and compute the exact posterior SD
    # on a grid: its mean matches the Fisher-information width the helper targets
    n = ci_width_power(0.8, a=1.0, b=0.0, theta=0.0)
    rng = np.random.default_rng(0)
    grid = np.linspace(-5, 5, 2001)
    sds = []
    for _ in range(300):
        y = rng.random(n) < 0.5
        k = y.sum()
        logpost = -0.5 * grid**2 + k * np.log(expit(grid)) + (n - k) * np.log(expit(-grid))
        w = np.exp(logpost - logpost.max())
        w /= w.sum()
        m = (w * grid).sum()
        sds.append(np.sqrt((w * (grid - m) ** 2).sum()))
    assert 2 * 1.96 * np.mean(sds) == pytest.approx(0.8, abs=0.05)


def test_ci_width_power_unreachable_and_trivial() -> None:
    assert ci_width_power(5.0) == 0
    assert ci_width_power(0.01, max_items=100) == 101
