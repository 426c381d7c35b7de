"""The numpy/scipy MAP (irt/map_np.py, the CPU default) against the Pyro/torch MAP
(irt/fit_torch.py): the same estimator, closed-form derivatives against autograd.

The two optimisers stop at slightly different points (L-BFGS-B in double precision
against torch's L-BFGS in single), so the comparison allows 1e-2 on θ and 5e-3 on
the item parameters and SDs -- far inside any reported interval."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from irt.fit import fit
from irt.simulate import audita_shaped, simulate
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("model", "grouped"),
    [pytest.param("2pl", False, id="2pl"), pytest.param("1pl", False, id="1pl"),
     pytest.param("2pl", True, id="2pl-groups")],
)
def test_numpy_map_matches_pyro_map(model, grouped):
    if grouped:
        d = audita_shaped(n_models=6, n_humans=120, n_items=400, seed=3)
    else:
        d = simulate(150, 200, density=0.4, model=model, seed=3)
    g = d.groups if grouped else None
    rn = fit(d.subjects, d.items, d.correct, model=model, method="map", groups=g)
    rt = fit(d.subjects, d.items, d.correct, model=model, method="map", groups=g, engine="torch")
    assert rn.converged and rt.converged
    np.testing.assert_allclose(rn.theta, rt.theta, atol=1e-2)
    np.testing.assert_allclose(rn.theta_sd, rt.theta_sd, atol=5e-3)
    np.testing.assert_allclose(rn.a, rt.a, atol=5e-3)
    np.testing.assert_allclose(rn.b, rt.b, atol=5e-3)
    np.testing.assert_allclose(rn.a_sd, rt.a_sd, atol=5e-3)
    np.testing.assert_allclose(rn.b_sd, rt.b_sd, atol=5e-3)
    assert rn.anchor["loc_var"] == pytest.approx(rt.anchor["loc_var"], rel=2e-2)
    if grouped:
        np.testing.assert_allclose(rn.group_params["mu"], rt.group_params["mu"], atol=1e-2)
        np.testing.assert_allclose(rn.group_params["sigma"], rt.group_params["sigma"], atol=1e-2)


def test_numpy_gradient_matches_finite_differences():
    from irt.map_np import _Objective

    d = simulate(20, 15, density=0.6, seed=4)
    g = np.array([0] * 12 + [1] * 8)
    obj = _Objective(d.subjects, d.items, d.correct.astype(float), 20, 15, True, g)
    obj.set_priors(np.array([0.0, 0.7]), np.array([1.0, 0.5]), 0.1, 1.5, 0.05, 0.4)
    x = np.random.default_rng(0).normal(0, 0.5, 20 + 15 + 15)
    _, grad = obj(x)
    h = 1e-6
    num = np.array([(obj(x + h * e)[0] - obj(x - h * e)[0]) / (2 * h) for e in np.eye(x.size)])
    np.testing.assert_allclose(grad, num, rtol=1e-5, atol=1e-9)


def test_numpy_log_joint_matches_pyro_model():
    """The objective is the Pyro model's log joint (same constants), not a look-alike."""
    import torch

    from irt.fit_torch import _log_joint
    from irt.map_np import _Objective
    from irt.two_pl import Priors

    d = simulate(10, 8, density=0.7, seed=5)
    obj = _Objective(d.subjects, d.items, d.correct.astype(float), 10, 8, True, np.zeros(10, dtype=np.int64))
    obj.set_priors(np.array([0.0]), np.array([1.0]), 0.2, 1.3, -0.1, 0.4)
    x = np.random.default_rng(1).normal(0, 0.5, 26)
    f, _ = obj(x)
    t = lambda v: torch.as_tensor(v, dtype=torch.float64)  # noqa: E731
    with torch.no_grad():
        torch.set_default_dtype(torch.float64)
        try:
            kw = dict(subject_idx=torch.as_tensor(d.subjects), item_idx=torch.as_tensor(d.items), n_subjects=10,
                      n_items=8, correct=t(d.correct), kind="2pl",
                      priors=Priors(theta_loc=0.0, theta_scale=1.0, b_loc=0.2, b_scale=1.3, log_a_loc=-0.1,
                                    log_a_scale=0.4))
            lj = float(_log_joint(kw, t(x[:10]), t(x[18:]), t(x[10:18])))
        finally:
            torch.set_default_dtype(torch.float32)
    assert -f * d.subjects.size == pytest.approx(lj, rel=1e-10)


def test_default_cpu_fit_never_imports_torch():
    """A fresh process (a new worker, the irt_fit command) fits a 2PL without torch."""
    code = (
        "import sys\n"
        "from irt.simulate import simulate\n"
        "from irt.fit import fit\n"
        "d = simulate(60, 40, density=0.5, seed=0)\n"
        "r = fit(d.subjects, d.items, d.correct, model='2pl', method='map')\n"
        "assert r.converged\n"
        "print(sorted(m for m in ('torch', 'pyro', 'irt.two_pl') if m in sys.modules))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "[]"
