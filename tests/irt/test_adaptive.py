"""irt.adaptive: information, EAP scoring, item selection, exposure control, balancing, stopping.

References: the information function against its definition ``P'^2 / (P (1 - P))``
(numerical derivative) and the expected negative second derivative of the
log-likelihood; EAP and SD against scipy's adaptive quadrature; the KL index
against scipy.stats.entropy.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats

from irt import adaptive as cat
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


def _bank(n: int = 300, seed: int = 0, **kw: object) -> cat.ItemBank:
    rng = np.random.default_rng(seed)
    return cat.ItemBank.from_arrays(np.exp(rng.normal(0, 0.3, n)), rng.normal(0, 1, n), **kw)


# --------------------------------------------------------------------------- information


@pytest.mark.parametrize(
    ("a", "b", "c", "d"),
    [
        pytest.param(1.0, 0.0, 0.0, 1.0, id="2pl-centre"),
        pytest.param(1.7, -0.8, 0.0, 1.0, id="2pl-steep"),
        pytest.param(1.2, 0.5, 0.25, 1.0, id="3pl-mcq4"),
        pytest.param(0.9, 1.0, 0.2, 0.9, id="4pl"),
    ],
)
def test_fisher_information_matches_definition(a: float, b: float, c: float, d: float) -> None:
    theta = np.linspace(-3, 3, 25)
    h = 1e-5
    p = cat.probability(theta, a, b, c, d)
    dp = (cat.probability(theta + h, a, b, c, d) - cat.probability(theta - h, a, b, c, d)) / (2 * h)
    definition = dp**2 / (p * (1 - p))
    np.testing.assert_allclose(cat.fisher_information(theta, a, b, c, d), definition, rtol=1e-7)


def test_fisher_information_is_expected_curvature_of_log_likelihood() -> None:
    a, b, c, d, theta, h = 1.3, 0.2, 0.2, 0.95, 0.7, 1e-4

    def loglik(t: float, y: int) -> float:
        p = float(cat.probability(t, a, b, c, d))
        return np.log(p) if y else np.log(1 - p)

    p = float(cat.probability(theta, a, b, c, d))
    curv = [-(loglik(theta + h, y) - 2 * loglik(theta, y) + loglik(theta - h, y)) / h**2 for y in (0, 1)]
    expected = (1 - p) * curv[0] + p * curv[1]
    assert float(cat.fisher_information(theta, a, b, c, d)) == pytest.approx(expected, rel=1e-5)


def test_two_pl_and_birnbaum_closed_forms() -> None:
    theta, a, b = np.linspace(-2, 2, 9), 1.4, 0.3
    p = 1 / (1 + np.exp(-a * (theta - b)))
    np.testing.assert_allclose(cat.fisher_information(theta, a, b), a**2 * p * (1 - p), rtol=1e-12)
    c = 0.25
    p3 = c + (1 - c) * p
    birnbaum = a**2 * (p3 - c) ** 2 * (1 - p3) / ((1 - c) ** 2 * p3)
    np.testing.assert_allclose(cat.fisher_information(theta, a, b, c), birnbaum, rtol=1e-12)


# --------------------------------------------------------------------------- scoring


def test_eap_and_sd_match_scipy_quadrature() -> None:
    bank = _bank(40, seed=3, c=0.2)
    items, y = np.arange(12), np.array([1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0])
    mu, sd = 0.4, 1.3

    def post(t: float) -> float:
        p = cat.probability(t, bank.a[items], bank.b[items], bank.c[items], bank.d[items])
        return float(np.prod(np.where(y == 1, p, 1 - p)) * stats.norm.pdf(t, mu, sd))

    z = integrate.quad(post, -np.inf, np.inf)[0]
    mean = integrate.quad(lambda t: t * post(t), -np.inf, np.inf)[0] / z
    var = integrate.quad(lambda t: (t - mean) ** 2 * post(t), -np.inf, np.inf)[0] / z
    theta, theta_sd = cat.eap(bank, items, y, prior_mean=mu, prior_sd=sd)
    assert theta == pytest.approx(mean, abs=1e-6)
    assert theta_sd == pytest.approx(np.sqrt(var), abs=1e-6)


def test_eap_of_a_long_test_matches_scipy_quadrature() -> None:
    """300 answers: a posterior far narrower than the default grid's spacing."""
    bank = _bank(300, seed=4)
    rng = np.random.default_rng(0)
    items = np.arange(300)
    y = (rng.random(300) < bank.p(0.7)[0]).astype(int)

    def log_post(t: float) -> float:
        p = cat.probability(t, bank.a, bank.b)
        return float(np.sum(np.where(y == 1, np.log(p), np.log(1 - p))) + stats.norm.logpdf(t))

    peak = log_post(0.7)
    post = lambda t: np.exp(log_post(t) - peak)  # noqa: E731
    z = integrate.quad(post, -2, 3, points=[0.7], limit=200)[0]
    mean = integrate.quad(lambda t: t * post(t), -2, 3, points=[0.7], limit=200)[0] / z
    var = integrate.quad(lambda t: (t - mean) ** 2 * post(t), -2, 3, points=[0.7], limit=200)[0] / z
    theta, sd = cat.eap(bank, items, y)
    assert sd < 0.15
    assert theta == pytest.approx(mean, abs=1e-7)
    assert sd == pytest.approx(np.sqrt(var), abs=1e-7)


def test_posterior_update_one_at_a_time_equals_batch() -> None:
    bank = _bank(30)
    items, y = np.array([4, 9, 2, 17, 23]), np.array([1, 0, 0, 1, 1])
    post = cat.posterior(bank)
    for j, r in zip(items, y, strict=True):
        post = post.update(bank, int(j), int(r))
    batch = cat.posterior(bank, items, y, refine=False)
    assert post.theta == pytest.approx(batch.theta, abs=1e-12)
    assert post.sd == pytest.approx(batch.sd, abs=1e-12)


def test_kl_index_matches_scipy_entropy() -> None:
    bank = _bank(5, seed=1)
    post = cat.posterior(bank, [0, 1], [1, 0])
    j = 3
    p0 = cat.probability(post.theta, bank.a[j], bank.b[j])
    pg = cat.probability(post.grid, bank.a[j], bank.b[j])
    ref = sum(w * stats.entropy([p0, 1 - p0], [q, 1 - q]) for w, q in zip(post.weights, pg, strict=True))
    assert cat.item_scores(bank, post, "kl")[j] == pytest.approx(ref, rel=1e-9)


def test_bank_rejects_bad_parameters_naming_the_item() -> None:
    with pytest.raises(ValueError, match=r"a\[1\]: must be > 0"):
        cat.ItemBank.from_arrays([1.0, -0.5], [0.0, 0.0])
    with pytest.raises(ValueError, match=r"b\[0\]: must be a finite number"):
        cat.ItemBank.from_arrays([1.0], [np.nan])
    with pytest.raises(ValueError, match=r"c\[0\]: must satisfy"):
        cat.ItemBank.from_arrays([1.0], [0.0], c=[0.95], d=[0.9])
    with pytest.raises(ValueError, match="b: has 1 entries"):
        cat.ItemBank.from_arrays([1.0, 1.0], [0.0])
    with pytest.raises(ValueError, match="criterion"):
        cat.CatConfig(criterion="maxinfo")


# --------------------------------------------------------------------------- selection


def test_fisher_selection_picks_the_most_informative_item_and_never_repeats() -> None:
    bank = cat.ItemBank.from_arrays([1.0, 2.0, 2.0, 0.5], [0.0, 0.0, 2.5, 0.0])
    post = cat.posterior(bank)  # EAP 0
    rng = np.random.default_rng(0)
    config = cat.CatConfig()
    assert cat.select_next(bank, post, [], config, rng) == 1
    assert cat.select_next(bank, post, [1], config, rng) == 0
    assert cat.select_next(bank, post, [0, 1], config, rng) == 3  # 0.25 * 0.25 beats 4 P(1-P) at 2.5 (0.027)
    assert cat.select_next(bank, post, [0, 1, 3], config, rng) == 2
    assert cat.select_next(bank, post, [0, 1, 2, 3], config, rng) is None
    only = np.array([False, False, True, False])
    assert cat.select_next(bank, post, [], config, rng, available=only) == 2


@pytest.mark.parametrize("criterion", ["fisher", "posterior", "kl"])
def test_each_criterion_prefers_items_near_the_estimate(criterion: str) -> None:
    bank = cat.ItemBank.from_arrays(np.full(41, 1.5), np.linspace(-4, 4, 41))
    post = cat.posterior(bank, [0, 40, 5, 35], [1, 0, 1, 0])  # theta well inside the bank
    chosen = cat.select_next(bank, post, [0, 40, 5, 35], cat.CatConfig(criterion=criterion),
                             np.random.default_rng(0))
    assert abs(bank.b[chosen] - post.theta) <= 0.2 + 1e-9


def test_randomesque_draws_evenly_from_the_top_k_only() -> None:
    bank = _bank(200, seed=5)
    post = cat.posterior(bank)
    top5 = set(np.argsort(-cat.item_scores(bank, post))[:5].tolist())
    rng = np.random.default_rng(1)
    picks = [cat.select_next(bank, post, [], cat.CatConfig(top_k=5), rng) for _ in range(2000)]
    assert set(picks) == top5
    counts = np.bincount(picks, minlength=bank.n_items)[sorted(top5)]
    assert stats.chisquare(counts).pvalue > 0.001


# --------------------------------------------------------------------------- exposure and balance


def _simulate(bank: cat.ItemBank, config: cat.CatConfig, n: int, seed: int) -> list[cat.CatRun]:
    rng = np.random.default_rng(seed)
    runs = []
    for t in rng.normal(0, 1, n):
        p = bank.p(t)[0]
        u = rng.random(bank.n_items)
        runs.append(cat.run_cat(bank, lambda j, p=p, u=u: u[j] < p[j], config, rng))
    return runs


def test_sympson_hetter_keeps_every_item_under_the_exposure_bound() -> None:
    bank = _bank(100, seed=2)
    config = cat.CatConfig(max_items=10)
    free = cat.exposure_rates(_simulate(bank, config, 400, seed=10), bank.n_items)
    assert free.max() > 0.6  # without control the best items are given to most simulees
    k = cat.sympson_hetter(bank, config, r_max=0.3, n_simulees=300, n_rounds=14, seed=4)
    assert k.min() < 0.6 and k.max() == 1.0
    n = 400
    controlled = cat.exposure_rates(
        _simulate(bank, cat.CatConfig(max_items=10, exposure=k), n, seed=11), bank.n_items)
    # fresh simulees: the bound up to sampling noise (3 binomial SDs at r = 0.3)
    assert controlled.max() <= 0.3 + 3 * np.sqrt(0.3 * 0.7 / n)
    assert controlled.sum() == pytest.approx(10.0)


def test_randomesque_lowers_the_maximum_exposure() -> None:
    bank = _bank(150, seed=2)
    free = cat.exposure_rates(_simulate(bank, cat.CatConfig(max_items=10), 200, 3), bank.n_items)
    top = cat.exposure_rates(_simulate(bank, cat.CatConfig(max_items=10, top_k=8), 200, 3), bank.n_items)
    assert top.max() < free.max() - 0.2


def test_content_balancing_meets_the_target_shares_at_every_length() -> None:
    rng = np.random.default_rng(0)
    bank = _bank(300, seed=6, category=rng.integers(0, 3, 300))
    targets = {0: 0.5, 1: 0.3, 2: 0.2}
    run = _simulate(bank, cat.CatConfig(max_items=20, content_targets=targets), 1, seed=1)[0]
    cats_given = bank.category[run.items]
    for n in range(1, 21):
        counts = np.bincount(cats_given[:n], minlength=3)
        assert np.all(np.abs(counts - np.asarray([0.5, 0.3, 0.2]) * n) < 1.0 + 1e-9), (n, counts)
    np.testing.assert_array_equal(np.bincount(cats_given, minlength=3), [10, 6, 4])


def test_content_balancing_falls_back_when_a_category_runs_out() -> None:
    bank = cat.ItemBank.from_arrays(np.ones(6), np.zeros(6), category=[0, 0, 0, 0, 0, 1])
    run = _simulate(bank, cat.CatConfig(max_items=6, content_targets={0: 0.5, 1: 0.5}), 1, seed=0)[0]
    assert sorted(run.items.tolist()) == list(range(6))
    assert run.stopped == "max_items"


# --------------------------------------------------------------------------- stopping


def test_stops_on_posterior_sd() -> None:
    bank = _bank(400, seed=7)
    run = _simulate(bank, cat.CatConfig(sd_stop=0.3, max_items=100), 1, seed=2)[0]
    assert run.stopped == "sd"
    assert run.sd[-1] <= 0.3 < run.sd[-2]
    assert run.items.size < 100


def test_stops_at_max_items_and_when_the_bank_is_exhausted() -> None:
    bank = _bank(30, seed=8)
    run = _simulate(bank, cat.CatConfig(sd_stop=0.01, max_items=12), 1, seed=0)[0]
    assert (run.stopped, run.items.size) == ("max_items", 12)
    run = _simulate(bank, cat.CatConfig(max_items=100), 1, seed=0)[0]
    assert (run.stopped, run.items.size) == ("exhausted", 30)
    assert len(set(run.items.tolist())) == 30


def test_min_items_delays_the_sd_rule() -> None:
    bank = _bank(200, seed=9)
    run = _simulate(bank, cat.CatConfig(sd_stop=0.9, min_items=5, max_items=50), 1, seed=0)[0]
    assert run.items.size == 5 and run.stopped == "sd"


# --------------------------------------------------------------------------- evaluation


def test_efficient_evaluation_tracks_the_full_score_better_than_random() -> None:
    bank = _bank(600, seed=11)
    rng = np.random.default_rng(12)
    adaptive, random_ = {10: [], 40: []}, {10: [], 40: []}
    for theta in rng.normal(1.0, 0.7, 12):
        outputs = (rng.random(bank.n_items) < bank.p(theta)[0]).astype(float)
        outputs[rng.random(bank.n_items) < 0.1] = np.nan  # some items without an output
        rows = cat.efficient_evaluation(bank, outputs, (10, 40), prior_mean=1.0, prior_sd=0.7)
        for row in rows:
            assert row.n_used == row.k and len(set(row.items)) == row.k
            assert all(np.isfinite(outputs[j]) for j in row.items)
            assert row.theta_full == pytest.approx(cat.eap(
                bank, np.flatnonzero(np.isfinite(outputs)), outputs[np.isfinite(outputs)],
                prior_mean=1.0, prior_sd=0.7)[0])
            adaptive[row.k].append(row.abs_diff)
            random_[row.k].append(row.random_abs_diff)
    assert np.mean(adaptive[40]) < np.mean(random_[40])
    assert np.mean(adaptive[40]) < np.mean(adaptive[10])
    assert np.mean(adaptive[40]) < 0.2


def test_efficient_evaluation_rejects_bad_outputs() -> None:
    bank = _bank(5)
    with pytest.raises(ValueError, match="outputs: has 3 entries"):
        cat.efficient_evaluation(bank, np.zeros(3))
    with pytest.raises(ValueError, match="outputs: must be 0, 1 or NaN"):
        cat.efficient_evaluation(bank, np.array([0, 1, 2, 0, 1.0]))
