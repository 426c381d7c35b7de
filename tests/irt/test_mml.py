"""MML against published maximum-likelihood fits of the LSAT data (mirt, ltm)."""

from __future__ import annotations

import numpy as np
import pytest

from irt.fit import fit
from irt.mml import fit_mml
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


@pytest.mark.parametrize(
    ("name", "fitted"),
    [pytest.param("lsat7", "lsat7_mml", id="lsat7-mirt"), pytest.param("lsat6", "lsat6_mml", id="lsat6-ltm")],
)
def test_mml_matches_published_2pl_estimates(name: str, fitted: str, request: pytest.FixtureRequest) -> None:
    ref = request.getfixturevalue(name)[3]
    r = request.getfixturevalue(fitted)
    assert np.max(np.abs(r.a - ref["a"])) < 0.01
    assert np.max(np.abs(r.b - ref["b"])) < 0.01
    assert r.log_lik == pytest.approx(ref["logLik"], abs=0.01)
    assert r.method == "mml" and r.converged


def test_mml_standard_errors_match_ltm_lsat6(lsat6, lsat6_mml) -> None:  # type: ignore[no-untyped-def]
    ref = lsat6[3]
    np.testing.assert_allclose(lsat6_mml.a_sd, ref["a_se"], atol=0.005)
    np.testing.assert_allclose(lsat6_mml.b_sd, ref["b_se"], atol=0.005)


@pytest.mark.slow
def test_mml_cross_product_ses_agree_with_hessian_ses(lsat6) -> None:  # type: ignore[no-untyped-def]
    s, i, y, ref = lsat6
    xpd = fit_mml(s, i, y, 1000, 5, max_hessian_params=0)
    assert "XPD" in xpd.se_method
    # XPD and observed information estimate the same quantity; agree within 25 %
    np.testing.assert_allclose(xpd.a_se, ref["a_se"], rtol=0.25)
    np.testing.assert_allclose(xpd.b_se, ref["b_se"], rtol=0.25)


def test_mml_eap_theta_is_monotone_in_sum_score_for_equal_items() -> None:
    # Rasch-like items: EAP must increase with the number correct (sufficient statistic)
    rng = np.random.default_rng(0)
    n, j = 400, 6
    theta = rng.normal(size=n)
    y = (rng.random((n, j)) < 1 / (1 + np.exp(-(theta[:, None] - np.linspace(-1, 1, j))))).astype(int)
    r = fit(np.repeat(np.arange(n), j), np.tile(np.arange(j), n), y.ravel(), model="1pl", method="mml")
    score = y.sum(1)
    means = [r.theta[score == k].mean() for k in range(j + 1) if (score == k).any()]
    assert np.all(np.diff(means) > 0)
    assert np.allclose(r.a, r.a[0])  # one common discrimination


@pytest.mark.slow
def test_mml_3pl_runs_and_keeps_floor(lsat7) -> None:  # type: ignore[no-untyped-def]
    s, i, y, _ = lsat7
    m = fit_mml(s, i, y, 1000, 5, kind="3pl", c=0.2, max_iter=100)
    assert np.all(np.isfinite(m.a)) and np.all(np.isfinite(m.theta_psd))
    # the floor lowers the likelihood of low scorers' wrong answers: 3PL b >= 2PL b
    m2 = fit_mml(s, i, y, 1000, 5, max_iter=100)
    assert np.all(m.b >= m2.b - 1e-6)
