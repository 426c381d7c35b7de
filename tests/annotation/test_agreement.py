"""Agreement and MOS statistics checked against published values and reference packages.

References: Fleiss (1971) via Wikipedia's 10 x 5 example (kappa = 0.210); Krippendorff
(2011) "Computing Krippendorff's alpha-reliability", 4 observers x 12 units with missing
values (nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797); Cohen's kappa 2 x 2
textbook example (Wikipedia, 50 proposals: kappa = 0.40); statsmodels' fleiss_kappa and
cohens_kappa, the PyPI ``krippendorff`` package and scipy for random seeded data.
"""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats import inter_rater

from annotation.agreement import (
    alpha_from_value_counts,
    cohen_kappa,
    fleiss_kappa,
    fleiss_kappa_bootstrap,
    krippendorff_alpha,
    krippendorff_alpha_bootstrap,
    landis_koch,
    mos_summary,
    percent_agreement,
    rater_mos_correlation,
    reliability_to_value_counts,
)


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests need no Django settings: overrides the shared conftest's autouse fixture,
    so this module also runs with ``pytest -p no:django``."""


NAN = np.nan

# Fleiss (1971) / Wikipedia "Fleiss' kappa" worked example: 10 subjects, 14 raters, 5 categories.
FLEISS_WIKI = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)

# Krippendorff (2011), observers A-D x 12 units, missing as NaN.
KRIPP_2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
        [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
    ]
)


def _random_reliability(seed: int, raters: int = 6, units: int = 150, missing: float = 0.3):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, size=units)
    noise = rng.integers(-1, 2, size=(raters, units)) * (rng.random((raters, units)) < 0.4)
    data = np.clip(truth + noise, 1, 5).astype(float)
    data[rng.random(data.shape) < missing] = NAN
    return data


# --------------------------------------------------------------------------- Landis-Koch


@pytest.mark.parametrize(
    ("kappa", "label"),
    [
        pytest.param(-0.01, "poor", id="negative"),
        pytest.param(0.0, "slight", id="zero"),
        pytest.param(0.20, "slight", id="0.20-slight"),
        pytest.param(0.2001, "fair", id="above-0.20-fair"),
        pytest.param(0.40, "fair", id="0.40-fair"),
        pytest.param(0.41, "moderate", id="0.41-moderate"),
        pytest.param(0.60, "moderate", id="0.60-moderate"),
        pytest.param(0.61, "substantial", id="0.61-substantial"),
        pytest.param(0.80, "substantial", id="0.80-substantial"),
        pytest.param(0.81, "almost perfect", id="0.81-almost-perfect"),
        pytest.param(1.0, "almost perfect", id="one"),
        pytest.param(math.nan, "undefined", id="nan"),
    ],
)
def test_landis_koch_boundaries(kappa: float, label: str) -> None:
    assert landis_koch(kappa) == label


# --------------------------------------------------------------------------- Fleiss


def test_fleiss_kappa_matches_published_example() -> None:
    res = fleiss_kappa(FLEISS_WIKI)
    assert round(res.kappa, 3) == 0.210
    assert round(res.p_observed, 3) == 0.378
    assert round(res.p_expected, 3) == 0.213
    assert (res.n_items, res.n_raters, res.label) == (10, 14, "fair")


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed{s}") for s in range(4)])
def test_fleiss_kappa_matches_statsmodels_on_random_tables(seed: int) -> None:
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(4), size=80)
    table = np.array([rng.multinomial(7, p) for p in probs])
    assert fleiss_kappa(table).kappa == pytest.approx(
        inter_rater.fleiss_kappa(table, method="fleiss"), abs=1e-12
    )


def test_percent_agreement_equals_fleiss_p_observed_and_skips_single_ratings() -> None:
    assert percent_agreement(FLEISS_WIKI) == pytest.approx(fleiss_kappa(FLEISS_WIKI).p_observed)
    # item 1: 2 of 3 agree -> 1/3 of pairs; item 2: 2 agree -> 1; item 3: one rating -> skipped
    assert percent_agreement([[2, 1], [0, 2], [1, 0]]) == pytest.approx((1 / 3 + 1) / 2)
    assert math.isnan(percent_agreement([[1, 0], [0, 1]]))


@pytest.mark.parametrize(
    ("table", "match"),
    [
        pytest.param([[2, 1], [1, 1]], "same number of ratings", id="unequal-rows"),
        pytest.param([[1, 0], [0, 1]], "at least 2 ratings", id="one-rater"),
        pytest.param([[-1, 3]], "non-negative", id="negative"),
        pytest.param([1, 2, 3], "2-D", id="1d"),
        pytest.param(np.zeros((0, 3)), "empty", id="empty"),
    ],
)
def test_fleiss_kappa_rejects_bad_tables(table, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        fleiss_kappa(table)


def test_fleiss_kappa_single_category_is_nan_with_reason() -> None:
    res = fleiss_kappa([[4, 0], [4, 0], [4, 0]])
    assert math.isnan(res.kappa)
    assert res.label == "undefined"
    assert "one category" in res.reason


# --------------------------------------------------------------------------- Krippendorff


@pytest.mark.parametrize(
    ("level", "published"),
    [
        pytest.param("nominal", 0.743, id="nominal"),
        pytest.param("ordinal", 0.815, id="ordinal"),
        pytest.param("interval", 0.849, id="interval"),
        pytest.param("ratio", 0.797, id="ratio"),
    ],
)
def test_krippendorff_alpha_matches_krippendorff_2011(level: str, published: float) -> None:
    res = krippendorff_alpha(KRIPP_2011, level)
    assert round(res.alpha, 3) == published
    assert res.alpha == pytest.approx(
        krippendorff.alpha(KRIPP_2011, level_of_measurement=level), abs=1e-12
    )
    # unit 12 has a single value: not pairable
    assert (res.n_units, res.n_pairable) == (11, 40)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed{s}") for s in range(3)])
def test_krippendorff_alpha_matches_reference_package_with_missing(level: str, seed: int) -> None:
    data = _random_reliability(seed)
    assert krippendorff_alpha(data, level).alpha == pytest.approx(
        krippendorff.alpha(data, level_of_measurement=level), abs=1e-10
    )


def _alpha_by_pairs(data: np.ndarray, delta2) -> float:
    """Krippendorff's definition, literally: all ordered pairs of pairable values."""
    units = [col[~np.isnan(col)] for col in data.T]
    units = [u for u in units if len(u) >= 2]
    pooled = np.concatenate(units)
    n = len(pooled)
    d_o = sum(sum(delta2(a, b) for i, a in enumerate(u) for j, b in enumerate(u) if i != j)
              / (len(u) - 1) for u in units) / n
    d_e = sum(delta2(a, b) for i, a in enumerate(pooled) for j, b in enumerate(pooled)
              if i != j) / (n * (n - 1))
    return 1.0 - d_o / d_e


@pytest.mark.parametrize(
    ("level", "delta2"),
    [
        pytest.param("nominal", lambda a, b: float(a != b), id="nominal"),
        pytest.param("interval", lambda a, b: (a - b) ** 2, id="interval"),
        pytest.param("ratio", lambda a, b: ((a - b) / (a + b)) ** 2, id="ratio"),
    ],
)
def test_krippendorff_alpha_matches_pairwise_definition(level: str, delta2) -> None:
    data = _random_reliability(9, raters=4, units=40)
    assert krippendorff_alpha(data, level).alpha == pytest.approx(
        _alpha_by_pairs(data, delta2), abs=1e-10)


def test_krippendorff_alpha_interval_with_many_distinct_values() -> None:
    rng = np.random.default_rng(7)
    truth = rng.normal(size=60)
    data = truth + rng.normal(scale=0.7, size=(4, 60))
    data[rng.random(data.shape) < 0.2] = NAN
    assert krippendorff_alpha(data, "interval").alpha == pytest.approx(
        krippendorff.alpha(data, level_of_measurement="interval"), abs=1e-10
    )


def test_alpha_from_value_counts_matches_reference_value_counts() -> None:
    counts, values = reliability_to_value_counts(KRIPP_2011)
    assert counts.shape == (12, 5)
    assert list(values) == [1, 2, 3, 4, 5]
    assert alpha_from_value_counts(counts, values, "interval").alpha == pytest.approx(
        krippendorff.alpha(value_counts=counts, value_domain=values, level_of_measurement="interval")
    )


def test_krippendorff_alpha_nominal_strings_by_hand() -> None:
    # units: (a, a), (b, c), (c) -> n = 4, D_o = 2/4, D_e = (16 - 6) / 12; alpha = 0.4
    res = krippendorff_alpha([["a", "b", None], ["a", "c", "c"]])
    assert res.alpha == pytest.approx(0.4)


def test_krippendorff_alpha_ordinal_strings_with_value_domain() -> None:
    names = {1: "very low", 2: "low", 3: "mid", 4: "high", 5: "very high"}
    data = [[names.get(v) if not np.isnan(v) else None for v in row] for row in KRIPP_2011]
    res = krippendorff_alpha(data, "ordinal", value_domain=list(names.values()))
    assert round(res.alpha, 3) == 0.815


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        pytest.param([[NAN, NAN], [NAN, NAN]], "pairable", id="all-missing"),
        pytest.param([[1, NAN], [NAN, 2]], "pairable", id="no-pairable-unit"),
        pytest.param([[3, 3], [3, 3]], "identical", id="one-value-only"),
    ],
)
def test_krippendorff_alpha_undefined_cases_are_nan_with_reason(data, reason: str) -> None:
    res = krippendorff_alpha(data, "interval")
    assert math.isnan(res.alpha)
    assert reason in res.reason


def test_krippendorff_alpha_rejects_unknown_level() -> None:
    with pytest.raises(ValueError, match="level"):
        krippendorff_alpha(KRIPP_2011, "cardinal")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- bootstrap


def test_bootstrap_intervals_are_seeded_and_bracket_the_estimate() -> None:
    a = fleiss_kappa_bootstrap(FLEISS_WIKI, n_boot=300, seed=3)
    b = fleiss_kappa_bootstrap(FLEISS_WIKI, n_boot=300, seed=3)
    assert a == b
    assert a.ci_low < a.estimate < a.ci_high
    data = _random_reliability(1)
    alpha = krippendorff_alpha_bootstrap(data, "ordinal", n_boot=200, seed=0)
    assert alpha.estimate == pytest.approx(krippendorff.alpha(data, level_of_measurement="ordinal"))
    assert alpha.ci_low < alpha.estimate < alpha.ci_high
    assert alpha.n_valid == 200


# --------------------------------------------------------------------------- Cohen


def test_cohen_kappa_textbook_two_by_two() -> None:
    # Wikipedia: 50 proposals; both yes 20, A yes/B no 5, A no/B yes 10, both no 15.
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    res = cohen_kappa(a, b)
    assert res.p_observed == pytest.approx(0.7)
    assert res.p_expected == pytest.approx(0.5)
    assert res.kappa == pytest.approx(0.4)
    assert (res.n_items, res.n_raters) == (50, 2)


@pytest.mark.parametrize(
    ("weights", "sm_wt"),
    [
        pytest.param(None, None, id="unweighted"),
        pytest.param("linear", "linear", id="linear"),
        pytest.param("quadratic", "quadratic", id="quadratic"),
    ],
)

@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed{s}") for s in range(3)])
def test_cohen_kappa_matches_statsmodels(weights, sm_wt, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 5, size=200)
    b = np.clip(a + rng.integers(-1, 2, size=200) * (rng.random(200) < 0.5), 0, 4)
    table = np.zeros((5, 5))
    np.add.at(table, (a, b), 1)
    expected = inter_rater.cohens_kappa(table, wt=sm_wt).kappa
    assert cohen_kappa(a, b, weights, categories=range(5)).kappa == pytest.approx(expected)


def test_cohen_kappa_drops_missing_pairs_and_handles_one_category() -> None:
    res = cohen_kappa([1, 2, None, 1], [1, 2, 2, NAN])
    assert res.n_items == 2
    assert res.kappa == pytest.approx(1.0)
    same = cohen_kappa(["x", "x"], ["x", "x"])
    assert math.isnan(same.kappa) and same.reason


# --------------------------------------------------------------------------- MOS


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_mos_summary_t_interval_matches_scipy(confidence: float) -> None:
    x = np.random.default_rng(5).integers(1, 6, size=37).astype(float)
    res = mos_summary(x, confidence)
    lo, hi = stats.t.interval(confidence, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert (res.ci_low, res.ci_high) == (pytest.approx(lo), pytest.approx(hi))
    assert res.sd == pytest.approx(np.std(x, ddof=1))
    assert res.n == 37 and res.method == "t"


def test_mos_summary_normal_is_p808_form() -> None:
    x = np.array([1, 2, 2, 3, 4, 4, 5, 5, 5, NAN])
    res = mos_summary(x, method="normal")
    sd = np.nanstd(x, ddof=1)
    assert res.n == 9
    assert res.half_width == pytest.approx(1.959963984540054 * sd / 3.0)


def test_mos_summary_edge_cases() -> None:
    one = mos_summary([4.0])
    assert one.mean == 4.0 and math.isnan(one.ci_low) and one.reason == "too few ratings"
    with pytest.raises(ValueError, match="at least one"):
        mos_summary([NAN, NAN])


def test_mos_summary_min_n_and_scale_bounds() -> None:
    x = np.array([5, 5, 4, 5, 5, 5, 3, 5, 5, 4], dtype=float)
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert hi > 5  # the plain t interval leaves the 1-5 scale
    res = mos_summary(x, scale=(1, 5))
    assert (res.ci_low, res.ci_high) == (pytest.approx(lo), 5.0)
    assert res.clipped and math.isnan(res.half_width) and res.reason == ""
    few = mos_summary([4, 5, 5, 4])  # 4 < MIN_N_CI
    assert math.isnan(few.ci_low) and few.reason == "too few ratings" and few.sd > 0
    low_n = mos_summary([4, 5, 5, 4], min_n=2)
    a, b = stats.t.interval(0.95, 3, loc=4.5, scale=stats.sem([4, 5, 5, 4]))
    assert (low_n.ci_low, low_n.ci_high) == (pytest.approx(a), pytest.approx(b))


# --------------------------------------------------------------------------- rater vs MOS


def test_rater_mos_correlation_matches_scipy_pearson() -> None:
    rng = np.random.default_rng(11)
    items = np.repeat(np.arange(40), 6)
    raters = np.tile(np.arange(6), 40)
    truth = rng.integers(1, 6, size=40)
    values = np.clip(truth[items] + rng.integers(-1, 2, size=items.size), 1, 5).astype(float)
    values[raters == 5] = rng.integers(1, 6, size=40)  # a random rater
    table = rater_mos_correlation(raters, items, values)
    for rater in range(6):
        mine = values[raters == rater]
        others = np.array(
            [values[(items == i) & (raters != rater)].mean() for i in items[raters == rater]]
        )
        assert table.loc[rater, "r"] == pytest.approx(stats.pearsonr(mine, others)[0])
        assert table.loc[rater, "n_items"] == 40
    assert table.loc[5, "r"] < 0.5 < table.loc[0, "r"]


def test_rater_mos_correlation_constant_rater_is_nan() -> None:
    table = rater_mos_correlation(["a", "a", "a", "b", "b", "b"], [1, 2, 3, 1, 2, 3],
                                  [3, 3, 3, 1, 4, 5])
    assert math.isnan(table.loc["a", "r"])
