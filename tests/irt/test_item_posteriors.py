"""The item-posterior step of the MAP fit against brute-force numerical integration."""

from __future__ import annotations

import numpy as np
import torch

from irt.fit import fit
from irt.fit_torch import _item_posteriors
from irt.simulate import simulate


def _grid_posterior(d, prior):  # type: ignore[no-untyped-def]
    """Posterior mean/SD/cov of (log a, b) per item on a fine 2-D grid (reference)."""
    la_g = np.linspace(-2.0, 2.0, 161)
    b_g = np.linspace(-5.0, 5.0, 201)
    LA, B = (m.ravel() for m in np.meshgrid(la_g, b_g, indexing="ij"))
    logp = np.tile(
        -0.5 * ((LA - prior["log_a_loc"]) / prior["log_a_scale"]) ** 2
        - 0.5 * ((B - prior["b_loc"]) / prior["b_scale"]) ** 2,
        (d.n_items, 1),
    )
    z = np.exp(LA)[None, :] * (d.theta[d.subjects][:, None] - B[None, :])
    np.add.at(logp, d.items, d.correct[:, None] * z - np.logaddexp(0.0, z))
    w = np.exp(logp - logp.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    m_la, m_b = w @ LA, w @ B
    v_la = w @ LA**2 - m_la**2
    v_b = w @ B**2 - m_b**2
    c_ab = w @ (LA * B) - m_la * m_b
    return m_la, np.sqrt(v_la), m_b, np.sqrt(v_b), c_ab


def test_adaptive_quadrature_matches_a_fine_grid() -> None:
    d = simulate(150, 12, density=0.5, seed=7)
    prior = {"b_loc": 0.0, "b_scale": 1.0, "log_a_loc": 0.0, "log_a_scale": 0.3}
    ref_la, ref_sd_la, ref_b, ref_sd_b, ref_cov = _grid_posterior(d, prior)
    f32 = torch.float32
    kw = {
        "subject_idx": torch.as_tensor(d.subjects),
        "item_idx": torch.as_tensor(d.items),
        "correct": torch.as_tensor(d.correct, dtype=f32),
        "c": None,
    }
    # proposal: a deliberately rough guess around the reference (as a Laplace fit gives)
    m_la, sd_la, m_b, sd_b = _item_posteriors(
        kw,
        torch.as_tensor(d.theta, dtype=f32),
        torch.as_tensor(ref_la + 0.3 * ref_sd_la, dtype=f32),
        torch.as_tensor(ref_b - 0.3 * ref_sd_b, dtype=f32),
        (1.2 * ref_sd_la) ** 2,
        (0.9 * ref_sd_b) ** 2,
        ref_cov,
        prior,
    )
    np.testing.assert_allclose(m_la, ref_la, atol=0.01)
    np.testing.assert_allclose(m_b, ref_b, atol=0.01)
    np.testing.assert_allclose(sd_la, ref_sd_la, rtol=0.05)
    np.testing.assert_allclose(sd_b, ref_sd_b, rtol=0.05)


def test_map_fit_item_intervals_cover() -> None:
    """Item intervals from the posterior SDs cover the true log a and b about 95 %."""
    d = simulate(400, 300, density=0.25, seed=3)
    r = fit(d.subjects, d.items, d.correct, model="2pl", method="map", seed=0)
    sd_log_a = r.a_sd / r.a
    cov_a = np.mean(np.abs(np.log(r.a) - np.log(d.a)) <= 1.96 * sd_log_a)
    cov_b = np.mean(np.abs(r.b - d.b) <= 1.96 * r.b_sd)
    assert 0.90 <= cov_a <= 0.99, cov_a  # 0.963 when written
    assert 0.90 <= cov_b <= 0.99, cov_b  # 0.973
    assert np.corrcoef(np.log(r.a), np.log(d.a))[0, 1] > 0.6  # 0.676
