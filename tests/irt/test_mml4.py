"""1PL-4PL by marginal likelihood and the model-comparison table (irt/mml4.py).

Checked against mirt's published LSAT7 2PL fit (logLik and item parameters), the
closed-form gradient against finite differences, and by recovery: a guessing floor
of 1/K on simulated 4-option data, and the comparison choosing the model that
generated the data."""

from __future__ import annotations

import numpy as np
import pytest

from irt.mml4 import compare_models, fit_mml4
from irt.simulate import simulate, simulate_responses
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


def test_2pl_reproduces_mirt_on_lsat7(lsat7):  # type: ignore[no-untyped-def]
    s, i, y, ref = lsat7
    r = fit_mml4(s, i, y, int(s.max()) + 1, int(i.max()) + 1, model="2pl", priors=False)
    assert r.log_lik == pytest.approx(ref["logLik"], abs=0.01)
    np.testing.assert_allclose(r.a, ref["a"], atol=3e-3)
    np.testing.assert_allclose(r.b, ref["b"], atol=3e-3)
    assert r.n_params == 10 and r.aic == pytest.approx(-2 * r.log_lik + 20)


@pytest.mark.parametrize("model", ["1pl", "2pl", "3pl", "4pl"])
def test_gradient_matches_finite_differences(model):
    from irt.mml4 import _Problem

    d = simulate(30, 8, density=0.8, seed=1)
    g = np.array([0] * 20 + [1] * 10)
    prob = _Problem(d.subjects, d.items, d.correct, 30, 8, model, g, np.full(8, 4.0), 9)
    rng = np.random.default_rng(2)
    prob.m, prob.sd = rng.normal(0, 1, 30), rng.uniform(0.3, 0.9, 30)
    v = prob.start(None) + rng.normal(0, 0.2, prob.n_params())
    _, grad = prob.objective(v)
    h = 1e-6
    num = np.array([(prob.objective(v + h * e)[0] - prob.objective(v - h * e)[0]) / (2 * h)
                    for e in np.eye(v.size)])
    np.testing.assert_allclose(grad, num, rtol=1e-4, atol=1e-8)


def _four_pl_data(n_s: int, n_i: int, c: float, d: float, seed: int, log_a: float = 0.2):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, n_s)
    a = np.exp(rng.normal(log_a, 0.2, n_i))
    b = rng.normal(0, 1, n_i)
    s = np.repeat(np.arange(n_s), n_i)
    i = np.tile(np.arange(n_i), n_s)
    p = c + (d - c) / (1 + np.exp(-a[i] * (theta[s] - b[i])))
    y = (rng.random(s.size) < p).astype(np.int8)
    return s, i, y, theta


def test_3pl_recovers_the_guessing_floor_of_four_options():
    s, i, y, theta = _four_pl_data(600, 30, c=0.25, d=1.0, seed=3)
    r = fit_mml4(s, i, y, 600, 30, model="3pl", n_options=4)
    assert 0.18 <= float(r.c.mean()) <= 0.32
    assert np.corrcoef(r.theta, theta)[0, 1] > 0.85


def test_comparison_prefers_4pl_when_items_have_a_ceiling_and_2pl_when_not():
    # steep items whose best responders plateau at 70 %: a ceiling the 2PL cannot bend to
    s, i, y, _ = _four_pl_data(800, 25, c=0.0, d=0.7, seed=4, log_a=0.9)
    rows, fits = compare_models(s, i, y, 800, 25, models=("2pl", "4pl"))
    by = {r["model"]: r for r in rows}
    # AIC chooses the 4PL; BIC's ln(800) per parameter is a stiffer price for 25 ceilings
    assert by["4pl"]["delta_aic"] == 0.0 and by["2pl"]["delta_aic"] > 10
    assert by["4pl"]["log_lik"] > by["2pl"]["log_lik"] + 25
    assert float(fits["4pl"].d.mean()) < 0.9
    d = simulate(800, 25, density=1.0, seed=5)
    rows, _ = compare_models(d.subjects, d.items, d.correct, 800, 25, models=("2pl", "4pl"))
    by = {r["model"]: r for r in rows}
    assert by["2pl"]["delta_bic"] == 0.0 and by["2pl"]["delta_aic"] == 0.0
    assert by["4pl"]["n_params"] == 2 * by["2pl"]["n_params"]


def test_groups_get_their_own_population():
    rng = np.random.default_rng(6)
    n_h, n_m, n_i = 200, 6, 120
    theta = np.concatenate([rng.normal(0, 1, n_h), rng.normal(1.2, 0.5, n_m)])
    g = np.r_[np.zeros(n_h, np.int64), np.ones(n_m, np.int64)]
    a = np.exp(rng.normal(0, 0.3, n_i))
    b = rng.normal(0, 1, n_i)
    s = np.concatenate([np.repeat(np.arange(n_h), 30), np.repeat(np.arange(n_h, n_h + n_m), n_i)])
    it = np.concatenate([np.concatenate([rng.choice(n_i, 30, replace=False) for _ in range(n_h)]),
                         np.tile(np.arange(n_i), n_m)])
    y = simulate_responses(s, it, theta, a, b, seed=7)
    r = fit_mml4(s, it, y, n_h + n_m, n_i, model="2pl", groups=g)
    assert r.group_mu[0] == 0.0 and 0.7 <= r.group_mu[1] <= 1.7
    assert np.corrcoef(r.theta[n_h:], theta[n_h:])[0, 1] > 0.9
    # a model's adaptive nodes follow its narrow posterior
    assert float(r.theta_sd[n_h:].max()) < 0.25


def test_a_lone_model_system_fits_without_nan():
    """One model system in its own group: the group's spread is not identifiable (one
    responder). Its log SD stays within bounds instead of running to -inf (it raised
    divide-by-zero warnings and NaN gradients), and every estimate is finite."""
    rng = np.random.default_rng(11)
    n_h, n_i = 40, 30
    theta = np.r_[rng.normal(0, 1, n_h), 1.5]
    g = np.r_[np.zeros(n_h, np.int64), 1]
    a, b = np.exp(rng.normal(0, 0.3, n_i)), rng.normal(0, 1, n_i)
    s = np.repeat(np.arange(n_h + 1), n_i)
    it = np.tile(np.arange(n_i), n_h + 1)
    y = simulate_responses(s, it, theta, a, b, seed=3)
    with np.errstate(divide="raise", invalid="raise", over="raise"):
        r = fit_mml4(s, it, y, n_h + 1, n_i, model="2pl", groups=g)
    assert np.isfinite(r.theta).all() and np.isfinite(r.theta_sd).all() and np.isfinite(r.b).all()
    assert 0.01 - 1e-9 <= r.group_sigma[1] <= 100.0
    assert r.theta[n_h] > np.median(r.theta[:n_h])  # the strong model still ranks above the median
