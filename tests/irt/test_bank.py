"""Scoring new responders against a frozen item bank (irt/bank.py, pure).

Checked against an independent reference: the posterior moments of θ by adaptive
``scipy.integrate.quad`` of prior × likelihood, the Fisher information against the
numerical derivative of P(θ), and the multiple-imputation interval by simulation
(calibration error of known size, coverage of the true θ).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from irt.bank import (
    Bank,
    bank_from_result,
    information,
    p_correct,
    posterior_grid,
    score_many,
    score_responder,
)
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


def _bank(n: int = 40, seed: int = 0, four_pl: bool = False, sd: float = 0.0) -> Bank:
    rng = np.random.default_rng(seed)
    return Bank(
        item_ids=tuple(f"q{k}" for k in range(n)), a=np.exp(rng.normal(0, 0.3, n)), b=rng.normal(0, 1, n),
        c=np.full(n, 0.2) if four_pl else None, d=np.full(n, 0.9) if four_pl else None,
        sd_log_a=np.full(n, sd), sd_b=np.full(n, sd),
    )


def _reference_moments(bank: Bank, items, y, loc: float, scale: float) -> tuple[float, float]:
    lo, hi = bank.lower[items], bank.upper[items]

    def post(t: float) -> float:
        p = lo + (hi - lo) / (1 + np.exp(-bank.a[items] * (t - bank.b[items])))
        return float(np.exp(np.sum(np.where(y > 0, np.log(p), np.log1p(-p)))) * stats.norm.pdf(t, loc, scale))

    lim = (loc - 10 * scale, loc + 10 * scale)
    z = integrate.quad(post, *lim, limit=200, epsabs=0, epsrel=1e-11)[0]
    m = integrate.quad(lambda t: t * post(t), *lim, limit=200, epsabs=0, epsrel=1e-11)[0] / z
    v = integrate.quad(lambda t: (t - m) ** 2 * post(t), *lim, limit=200, epsabs=0, epsrel=1e-11)[0] / z
    return m, math.sqrt(v)


@pytest.mark.parametrize(
    ("n_answered", "four_pl", "loc", "scale"),
    [
        pytest.param(5, False, 0.0, 1.0, id="2pl-5-answers"),
        pytest.param(40, False, 0.0, 1.0, id="2pl-40-answers"),
        pytest.param(12, True, 0.0, 1.0, id="4pl-12-answers"),
        pytest.param(40, False, 1.0, 0.7, id="2pl-model-prior"),
        pytest.param(0, False, 0.5, 2.0, id="no-answers-gives-prior"),
    ],
)
def test_score_matches_quadrature_reference(n_answered, four_pl, loc, scale):
    bank = _bank(40, seed=1, four_pl=four_pl)
    rng = np.random.default_rng(2)
    items = rng.choice(40, n_answered, replace=False)
    y = (rng.random(n_answered) < p_correct(bank, 0.7, items)).astype(int)
    sc = score_responder(bank, items, y, prior_loc=loc, prior_scale=scale, item_draws=0)
    m, s = _reference_moments(bank, items, y, loc, scale)
    assert sc.theta == pytest.approx(m, abs=1e-6)
    assert sc.sd == pytest.approx(s, abs=1e-6)
    assert sc.sd_measurement == pytest.approx(s, abs=1e-6)
    assert sc.n_answered == n_answered and sc.n_correct == int(y.sum())
    assert sc.ci_low < m < sc.ci_high


def test_score_uses_fine_grid_for_many_answers():
    """5,000 answers: SD ~ 0.03, far below the coarse grid's spacing (0.12)."""
    n = 5000
    rng = np.random.default_rng(3)
    bank = Bank(tuple(range(n)), np.exp(rng.normal(0, 0.3, n)), rng.normal(0, 1, n))
    items = np.arange(n)
    y = (rng.random(n) < p_correct(bank, 1.3)).astype(int)
    sc = score_responder(bank, items, y, item_draws=0)
    m, s = _reference_moments(Bank(tuple(range(300)), bank.a[:300], bank.b[:300]), items[:300], y[:300], 0, 1)
    assert 0.02 < sc.sd < 0.05
    assert abs(sc.theta - 1.3) < 4 * sc.sd
    # the reference on the first 300 answers (quad cannot integrate 5,000 factors in double)
    sc300 = score_responder(bank, items[:300], y[:300], item_draws=0)
    assert sc300.theta == pytest.approx(m, abs=1e-6) and sc300.sd == pytest.approx(s, abs=1e-6)


def test_information_is_squared_slope_over_bernoulli_variance():
    bank = _bank(10, seed=4, four_pl=True)
    th = np.array([-1.0, 0.3, 2.0])
    h = 1e-6
    dp = (p_correct(bank, th + h) - p_correct(bank, th - h)) / (2 * h)
    p = p_correct(bank, th)
    np.testing.assert_allclose(information(bank, th), dp**2 / (p * (1 - p)), rtol=1e-6)
    two = Bank(bank.item_ids, bank.a, bank.b)
    p2 = p_correct(two, th)
    np.testing.assert_allclose(information(two, th), two.a**2 * p2 * (1 - p2), rtol=1e-12)


def test_posterior_grid_weights_sum_to_one():
    bank = _bank()
    g, w = posterior_grid(bank, [0, 1, 2], [1, 0, 1])
    assert g.shape == w.shape and w.sum() == pytest.approx(1.0)


def test_item_uncertainty_interval_covers_truth():
    """Bank parameters off the truth by N(0, sd) errors of the stated SD: the
    imputed interval must cover the true θ about 95 % of the time, while treating the
    items as known undercovers (this is the miscalibration the imputation removes)."""
    n_items, sd = 200, 0.35
    rng = np.random.default_rng(5)
    hits_mi, hits_known, n = 0, 0, 0
    for rep in range(12):
        a = np.exp(rng.normal(0, 0.3, n_items))
        b = rng.normal(0, 1, n_items)
        est = Bank(tuple(range(n_items)), a * np.exp(sd * rng.standard_normal(n_items)),
                   b + sd * rng.standard_normal(n_items), sd_log_a=np.full(n_items, sd), sd_b=np.full(n_items, sd))
        for _ in range(25):
            th = rng.normal()
            y = (rng.random(n_items) < 1 / (1 + np.exp(-a * (th - b)))).astype(int)
            mi = score_responder(est, np.arange(n_items), y, item_draws=24, seed=rep)
            kn = score_responder(est, np.arange(n_items), y, item_draws=0)
            hits_mi += mi.ci_low <= th <= mi.ci_high
            hits_known += kn.ci_low <= th <= kn.ci_high
            n += 1
    assert 0.90 <= hits_mi / n <= 0.99, hits_mi / n
    assert hits_known / n < hits_mi / n


def test_anchor_variance_widens_the_interval():
    bank = _bank(40, seed=6)
    wide = Bank(bank.item_ids, bank.a, bank.b, anchor_loc_var=0.01, anchor_scale_var=0.005)
    y = np.ones(40, dtype=int)
    y[::3] = 0
    s0 = score_responder(bank, np.arange(40), y, item_draws=0)
    s1 = score_responder(wide, np.arange(40), y, item_draws=0)
    assert s1.theta == pytest.approx(s0.theta)
    assert s1.sd == pytest.approx(math.sqrt(s0.sd**2 + 0.01 + s0.theta**2 * 0.005))
    assert s1.ci_high - s1.ci_low > s0.ci_high - s0.ci_low
    s2 = score_responder(wide, np.arange(40), y, item_draws=0, include_anchor=False)
    assert s2.sd == pytest.approx(s0.sd)


def test_score_many_matches_one_by_one():
    bank = _bank(30, seed=7, sd=0.2)
    subj = np.array([0, 0, 1, 1, 1, 2])
    items = np.array([0, 1, 2, 3, 4, 5])
    y = np.array([1, 0, 1, 1, 0, 1])
    many = score_many(bank, subj, items, y, prior_loc=[0, 1, 0], item_draws=4, seed=3)
    one = score_responder(bank, items[2:5], y[2:5], prior_loc=1, item_draws=4, seed=4)
    assert len(many) == 3 and many[1] == one


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"a": [1.0, -1.0]}, "bank.a must be > 0", id="negative-a"),
        pytest.param({"a": [1.0]}, "one entry per item", id="wrong-length"),
        pytest.param({"c": [0.5, 0.5], "d": [0.4, 1.0]}, "0 <= c < d <= 1", id="c-above-d"),
        pytest.param({"item_ids": ("x", "x")}, "unique", id="duplicate-ids"),
    ],
)
def test_bank_rejects_bad_parameters(kwargs, message):
    base = {"item_ids": ("x", "y"), "a": [1.0, 1.0], "b": [0.0, 0.0]}
    with pytest.raises(ValueError, match=message):
        Bank(**{**base, **kwargs})


def test_score_rejects_bad_input():
    bank = _bank(5)
    with pytest.raises(ValueError, match="same length"):
        score_responder(bank, [0, 1], [1])
    with pytest.raises(ValueError, match=r"0\.\.4"):
        score_responder(bank, [7], [1])
    with pytest.raises(ValueError, match="0/1"):
        score_responder(bank, [0], [2])
    with pytest.raises(KeyError, match="'nope' is not in the bank"):
        bank.index(["q0", "nope"])


def test_bank_from_result_takes_log_a_sd_and_anchor():
    from irt.result import IrtResult

    r = IrtResult(
        theta=np.zeros(2), theta_sd=np.ones(2), theta_ci=np.zeros((2, 2)), a=np.array([2.0, 0.5]),
        a_sd=np.array([0.4, 0.05]), b=np.array([0.0, 1.0]), b_sd=np.array([0.3, 0.2]), c=None,
        loss=np.zeros(1), method="map", model="2pl", seed=0, timings={}, n_obs=4,
        anchor={"loc_var": 0.003, "scale_var": 0.001},
    )
    bank = bank_from_result(r, [11, 12])
    np.testing.assert_allclose(bank.sd_log_a, [0.2, 0.1])
    assert bank.anchor_loc_var == 0.003 and bank.index([12, 11]).tolist() == [1, 0]
