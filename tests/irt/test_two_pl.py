"""Shapes of the Pyro models and the response function against scipy."""

from __future__ import annotations

import numpy as np
import pyro
import pyro.poutine as poutine
import pytest
import torch
from scipy.special import expit, logit

from irt.two_pl import MODELS, Priors, irt_model, response_logits
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


@pytest.mark.parametrize(
    ("theta", "a", "b", "c"),
    [
        pytest.param(0.3, 1.2, -0.5, None, id="2pl"),
        pytest.param(-1.0, 0.7, 0.4, 0.25, id="3pl-k4"),
        pytest.param(2.5, 2.0, -1.0, 0.2, id="3pl-k5-easy"),
        pytest.param(-4.0, 1.5, 2.0, 0.5, id="3pl-k2-hard"),
    ],
)
def test_response_logits_matches_scipy(theta: float, a: float, b: float, c: float | None) -> None:
    p = expit(a * (theta - b)) if c is None else c + (1 - c) * expit(a * (theta - b))
    got = response_logits(torch.tensor(theta, dtype=torch.float64), a, torch.tensor(b, dtype=torch.float64), c)
    assert float(got) == pytest.approx(float(logit(p)), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("kind", [pytest.param(k, id=k) for k in ("1pl", "2pl", "3pl")])
def test_model_sites_have_documented_shapes(kind: str) -> None:
    pyro.set_rng_seed(0)
    s = torch.tensor([0, 0, 1, 2, 2, 2])
    i = torch.tensor([0, 3, 1, 0, 1, 2])
    kw = {"c": 0.25} if kind == "3pl" else {}
    tr = poutine.trace(MODELS[kind]).get_trace(s, i, 3, 4, torch.ones(6), **kw)
    assert tr.nodes["theta"]["value"].shape == (3,)
    assert tr.nodes["b"]["value"].shape == (4,)
    assert tr.nodes["obs"]["value"].shape == (6,)
    assert ("log_a" in tr.nodes) == (kind != "1pl")
    if kind != "1pl":
        assert tr.nodes["log_a"]["value"].shape == (4,)


def test_model_samples_from_prior_without_data_and_minibatches() -> None:
    pyro.set_rng_seed(0)
    s = torch.arange(50) % 5
    i = torch.arange(50) % 7
    tr = poutine.trace(irt_model).get_trace(s, i, 5, 7, None, subsample_size=8)
    assert tr.nodes["obs"]["value"].shape == (8,)
    assert set(tr.nodes["obs"]["value"].unique().tolist()) <= {0.0, 1.0}


def test_hierarchical_groups_add_latent_population_parameters() -> None:
    pyro.set_rng_seed(0)
    s = torch.tensor([0, 1, 2, 3])
    i = torch.tensor([0, 1, 0, 1])
    tr = poutine.trace(irt_model).get_trace(
        s, i, 4, 2, None, priors=Priors(hierarchical=True), group_idx=torch.tensor([0, 0, 1, 2]), n_groups=3,
    )
    assert tr.nodes["group_mu"]["value"].shape == (2,)  # group 0 is the anchor
    assert tr.nodes["group_sigma"]["value"].shape == (2,)


def test_3pl_without_floor_is_an_error() -> None:
    with pytest.raises(ValueError, match="guessing floor"):
        irt_model(torch.tensor([0]), torch.tensor([0]), 1, 1, None, kind="3pl")


def test_log_prob_equals_bernoulli_loglik_from_numpy() -> None:
    rng = np.random.default_rng(0)
    s = rng.integers(0, 4, 30)
    i = rng.integers(0, 5, 30)
    y = rng.integers(0, 2, 30).astype(float)
    th, la, b = rng.normal(size=4), rng.normal(0, 0.3, 5), rng.normal(size=5)
    data = {"theta": torch.tensor(th), "log_a": torch.tensor(la), "b": torch.tensor(b)}
    with torch.no_grad():
        tr = poutine.trace(poutine.condition(irt_model, data=data)).get_trace(
            torch.tensor(s), torch.tensor(i), 4, 5, torch.tensor(y, dtype=torch.float64),
        )
        tr.compute_log_prob()
    p = expit(np.exp(la[i]) * (th[s] - b[i]))
    ref = np.sum(y * np.log(p) + (1 - y) * np.log1p(-p))
    assert float(tr.nodes["obs"]["log_prob_sum"]) == pytest.approx(ref, rel=1e-6)
