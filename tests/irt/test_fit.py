"""fit(): shapes, serialisation, seeding, recovery of simulated parameters, interval
coverage, robustness on thin data, and each estimator's smoke test."""

from __future__ import annotations

import json

import numpy as np
import pyro
import pytest
import torch

from irt.fit import IrtResult, choose_method, fit
from irt.ids import IndexMap
from irt.simulate import audita_shaped, simulate
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


@pytest.fixture(scope="module")
def sim():  # type: ignore[no-untyped-def]
    return simulate(240, 300, density=0.35, seed=11)


@pytest.fixture(scope="module")
def sim_fit(sim) -> IrtResult:  # type: ignore[no-untyped-def]
    return fit(sim.subjects, sim.items, sim.correct, method="map", seed=0)


def _r(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.corrcoef(x, y)[0, 1])


def test_result_shapes(sim, sim_fit: IrtResult) -> None:  # type: ignore[no-untyped-def]
    r = sim_fit
    assert r.theta.shape == r.theta_sd.shape == (sim.n_subjects,)
    assert r.theta_ci.shape == (sim.n_subjects, 2)
    for arr in (r.a, r.a_sd, r.b, r.b_sd):
        assert arr.shape == (sim.n_items,)
    assert np.all(r.theta_ci[:, 0] < r.theta) and np.all(r.theta < r.theta_ci[:, 1])
    assert np.all(r.a > 0) and np.all(np.isfinite(r.b_sd))
    assert r.n_obs == sim.subjects.size and r.method == "map" and r.model == "2pl"
    assert r.loss.ndim == 1 and r.loss.size > 0 and "total" in r.timings


def test_recovery_of_simulated_2pl(sim, sim_fit: IrtResult) -> None:  # type: ignore[no-untyped-def]
    # 240 x 300 at 35 %: ~105 answers per responder, ~84 per item
    assert _r(sim_fit.theta, sim.theta) > 0.95
    assert _r(sim_fit.b, sim.b) > 0.93
    assert _r(np.log(sim_fit.a), np.log(sim.a)) > 0.55


def test_theta_interval_coverage_on_simulated_data(sim, sim_fit: IrtResult) -> None:  # type: ignore[no-untyped-def]
    cov = np.mean((sim_fit.theta_ci[:, 0] <= sim.theta) & (sim.theta <= sim_fit.theta_ci[:, 1]))
    assert 0.88 <= cov <= 0.99
    b_cov = np.mean(np.abs(sim_fit.b - sim.b) <= 1.96 * sim_fit.b_sd)
    assert 0.85 <= b_cov <= 0.995


def test_to_dict_round_trips_through_json(sim_fit: IrtResult) -> None:
    back = IrtResult.from_dict(json.loads(json.dumps(sim_fit.to_dict())))
    for name in ("theta", "theta_sd", "theta_ci", "a", "a_sd", "b", "b_sd", "loss"):
        np.testing.assert_array_equal(getattr(back, name), getattr(sim_fit, name))
    assert back.method == sim_fit.method and back.warnings == sim_fit.warnings
    assert back.timings == sim_fit.timings and back.c is None


def test_fit_is_seeded_and_clears_param_store(sim) -> None:  # type: ignore[no-untyped-def]
    pyro.param("stale", torch.zeros(3))
    small = dict(subjects=sim.subjects[:3000], items=sim.items[:3000], correct=sim.correct[:3000])
    r1 = fit(**small, method="vi", vi_steps=30, num_samples=20, seed=3)
    assert "stale" not in pyro.get_param_store()
    r2 = fit(**small, method="vi", vi_steps=30, num_samples=20, seed=3)
    np.testing.assert_array_equal(r1.theta, r2.theta)


def test_progress_callback_reports_steps(sim) -> None:  # type: ignore[no-untyped-def]
    seen: list[tuple[int, int, float]] = []
    fit(sim.subjects, sim.items, sim.correct, method="map", eb_rounds=1,
        progress=lambda s, t, loss: seen.append((s, t, loss)))
    assert seen and seen[0][0] == 1 and all(t >= s for s, t, _ in seen)
    assert np.isfinite(seen[-1][2])


def test_thin_lsat_data_gets_mml_and_sane_discriminations(lsat7_mml: IrtResult) -> None:
    # 5 items per responder: the default estimator is MML, which keeps every a sane
    r = lsat7_mml
    assert r.method == "mml"
    assert np.all((r.a > 0.2) & (r.a < 4.0))
    assert not any("ran off" in w for w in r.warnings)


@pytest.mark.slow
def test_thin_lsat_joint_map_is_flagged(lsat7) -> None:  # type: ignore[no-untyped-def]
    # forcing a joint MAP on the same data reproduces the run-off (a -> 1e2..1e3);
    # the result must say so instead of passing the numbers on silently
    s, i, y, _ = lsat7
    r = fit(s, i, y, method="map", eb_rounds=1, max_iter=60)
    assert any("use method='mml'" in w for w in r.warnings)


def test_interval_widens_when_a_responder_answered_little() -> None:
    d = simulate(120, 150, density=1.0, seed=5)
    keep = (d.subjects >= 60) | (d.items < 10)  # responders 0-59 answer only 10 items
    r = fit(d.subjects[keep], d.items[keep], d.correct[keep], method="map")
    width = r.theta_ci[:, 1] - r.theta_ci[:, 0]
    assert np.median(width[:60]) > 2 * np.median(width[60:])


def test_groups_get_their_own_population_and_cover_humans() -> None:
    d = audita_shaped(n_models=6, n_humans=150, n_items=400, human_answers=(10, 40),
                      model_theta_mean=1.5, model_theta_sd=0.5, seed=2)
    r = fit(d.subjects, d.items, d.correct, groups=d.groups, seed=0)
    assert r.method == "map"
    assert r.group_params["mu"][0] == 0.0 and r.group_params["mu"][1] > 0.8
    hum = d.groups == 0
    cov = np.mean((r.theta_ci[hum, 0] <= d.theta[hum]) & (d.theta[hum] <= r.theta_ci[hum, 1]))
    assert 0.88 <= cov <= 0.99
    # humans answered far less than models: their intervals are wider
    w = r.theta_ci[:, 1] - r.theta_ci[:, 0]
    assert w[hum].min() > w[~hum].max()


def test_3pl_map_recovers_abilities_with_fixed_floor() -> None:
    d = simulate(150, 120, density=0.6, model="3pl", n_options=4, seed=4)
    r = fit(d.subjects, d.items, d.correct, model="3pl", n_options=4, method="map")
    assert r.c is not None and np.allclose(r.c, 0.25)
    assert _r(r.theta, d.theta) > 0.9


def test_1pl_map_has_unit_discrimination() -> None:
    d = simulate(150, 80, density=0.5, model="1pl", seed=6)
    r = fit(d.subjects, d.items, d.correct, model="1pl", method="map")
    assert np.all(r.a == 1.0)
    assert _r(r.b, d.b) > 0.9


@pytest.mark.slow
def test_nuts_smoke_on_tiny_data() -> None:
    d = simulate(12, 6, density=1.0, seed=7)
    r = fit(d.subjects, d.items, d.correct, method="nuts", num_samples=40, warmup=40)
    assert r.method == "nuts" and r.theta.shape == (12,)
    assert np.all(r.theta_ci[:, 0] < r.theta_ci[:, 1])
    # with 6 items the posterior mean must still order responders by their score
    score = np.bincount(d.subjects, weights=d.correct)
    assert _r(r.theta, score) > 0.9


@pytest.mark.slow
def test_vi_minibatched_smoke(sim) -> None:  # type: ignore[no-untyped-def]
    r = fit(sim.subjects, sim.items, sim.correct, method="vi", vi_steps=150, batch_size=8192,
            vi_lr=0.1, num_samples=30, seed=1)
    assert r.method == "vi" and r.loss.size == 150
    assert _r(r.theta, sim.theta) > 0.8
    assert any("narrow" in w for w in r.warnings)


@pytest.mark.parametrize(
    ("n_obs", "n_s", "n_i", "groups", "expected"),
    [
        pytest.param(500, 50, 10, False, "map", id="tiny-few-responders-map"),
        pytest.param(125, 12, 15, True, "map", id="demo-sized-map"),
        pytest.param(1000, 200, 10, False, "mml", id="tiny-dense-mml"),
        pytest.param(5000, 1000, 5, False, "mml", id="dense-lsat-mml"),
        pytest.param(5000, 1000, 5, True, "map", id="dense-grouped-map"),
        pytest.param(20_000, 2000, 250, False, "mml", id="thin-sparse-mml"),
        pytest.param(500_000, 1000, 5000, False, "map", id="sparse-map"),
        pytest.param(50_000_000, 100_000, 5000, False, "vi", id="huge-vi"),
    ],
)
def test_choose_method(n_obs: int, n_s: int, n_i: int, groups: bool, expected: str) -> None:
    assert choose_method(n_obs, n_s, n_i, has_groups=groups) == expected


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        pytest.param({"subjects": [0, 1], "items": [0], "correct": [1, 0]}, "same length", id="ragged"),
        pytest.param({"subjects": [0], "items": [0], "correct": [2]}, "0/1", id="not-binary"),
        pytest.param({"subjects": [0], "items": [0], "correct": [1], "model": "4pl"}, "unknown model", id="model"),
        pytest.param({"subjects": [0], "items": [0], "correct": [1], "model": "3pl"}, "n_options", id="3pl-no-k"),
        pytest.param({"subjects": [], "items": [], "correct": []}, "no responses", id="empty"),
        pytest.param({"subjects": [0], "items": [0], "correct": [1], "method": "em"}, "unknown method", id="method"),
    ],
)
def test_fit_rejects_bad_input(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        fit(**kwargs)


def test_index_map_round_trip_and_unknown_id() -> None:
    m = IndexMap.from_ids(["u9", "u3", "u9", "m1"])
    assert m.ids == ("u9", "u3", "m1") and len(m) == 3
    np.testing.assert_array_equal(m.index(["m1", "u9"]), [2, 0])
    assert m.lookup([1, 2]) == ["u3", "m1"]
    with pytest.raises(KeyError, match="'x' at position 1"):
        m.index(["u3", "x"])
