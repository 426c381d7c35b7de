"""Calibration of the reported 95 % θ intervals, by simulation, for humans and model
systems separately (the truth is the simulated θ on the population scale: no linking).

Why replications: on one simulated data set the responders' errors share one event --
where the scale is anchored (the anchor population's sample mean and SD) -- so one
data set says little about calibration (seed 1 of the benchmark: the 300 humans'
sample mean is 1.8 standard errors off 0, which moves every model by ~2.5 of its SDs).
Pooled over independent replications, the share of true θ inside the intervals must
be in [0.90, 0.98].

Designs (smaller than the benchmark's so the suite stays minutes, same shapes):
sparse 150 x 400 at 30 %; Audita-shaped 8 models answer all 600 items, 150 humans
10-60 items each, fitted with groups; and new responders scored against the frozen
bank of each Audita-shaped fit (irt.bank), 40 new humans and 4 new models per fit.
"""

from __future__ import annotations

import numpy as np
import pytest

from irt.bank import bank_from_result, score_responder
from irt.fit import fit
from irt.simulate import audita_shaped, simulate, simulate_responses
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)

REPS = 24
LOW, HIGH = 0.90, 0.98


def _covered(lo: np.ndarray, hi: np.ndarray, truth: np.ndarray) -> np.ndarray:
    return (lo <= truth) & (truth <= hi)


@pytest.mark.slow
def test_sparse_design_intervals_are_calibrated():
    hits = []
    for rep in range(REPS):
        d = simulate(150, 400, density=0.3, seed=2000 + rep)
        r = fit(d.subjects, d.items, d.correct, model="2pl", method="auto")
        hits.append(_covered(r.theta_ci[:, 0], r.theta_ci[:, 1], d.theta))
    coverage = float(np.concatenate(hits).mean())
    assert LOW <= coverage <= HIGH, coverage


@pytest.fixture(scope="module")
def audita_coverage() -> dict[str, float]:
    """Pooled coverage of fitted humans/models and of new humans/models scored
    against each fit's bank, over REPS Audita-shaped replications."""
    out: dict[str, list[bool]] = {"humans": [], "models": [], "new_humans": [], "new_models": []}
    n_items = 600
    for rep in range(REPS):
        d = audita_shaped(n_models=8, n_humans=150, n_items=n_items, seed=1000 + rep)
        r = fit(d.subjects, d.items, d.correct, model="2pl", method="auto", groups=d.groups)
        assert r.method == "map"
        cov = _covered(r.theta_ci[:, 0], r.theta_ci[:, 1], d.theta)
        out["humans"].extend(cov[d.groups == 0])
        out["models"].extend(cov[d.groups == 1])
        bank = bank_from_result(r, list(range(n_items)))
        mu, sigma = r.group_params["mu"][1], r.group_params["sigma"][1]
        rng = np.random.default_rng(rep)
        for k in range(44):
            human = k < 40
            th = rng.normal() if human else rng.normal(1.0, 0.7)
            it = rng.choice(n_items, rng.integers(10, 61), replace=False) if human else np.arange(n_items)
            y = simulate_responses(np.zeros(it.size, dtype=np.int64), it, np.array([th]), d.a, d.b,
                                   seed=rep * 100 + k)
            sc = score_responder(bank, it, y, prior_loc=0.0 if human else mu, prior_scale=1.0 if human else sigma,
                                 seed=k)
            out["new_humans" if human else "new_models"].append(sc.ci_low <= th <= sc.ci_high)
    return {k: float(np.mean(v)) for k, v in out.items()}


@pytest.mark.slow
@pytest.mark.parametrize("who", ["humans", "models", "new_humans", "new_models"])
def test_audita_shaped_intervals_are_calibrated(audita_coverage, who):
    assert LOW <= audita_coverage[who] <= HIGH, audita_coverage
