"""annotation.listening_stats against scipy and statsmodels (never against itself)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from annotation.listening_stats import (
    abx_table,
    binomial_test_half,
    friedman_test,
    holm,
    mean_ci,
    mean_table,
    median_ci,
    mushra_table,
    pairwise_table,
    preference,
    preference_table,
    rank_table,
    wilcoxon_signed_rank,
    wilson_interval,
)


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests: no Django settings needed (overrides the shared autouse fixture)."""


# --------------------------------------------------------------------------- proportions


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
@pytest.mark.parametrize("n", [1, 2, 7, 30, 101])
def test_wilson_interval_matches_statsmodels(n: int, confidence: float) -> None:
    for k in range(n + 1):
        lo, hi = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
        assert wilson_interval(k, n, confidence) == (pytest.approx(lo, abs=1e-12),
                                                     pytest.approx(hi, abs=1e-12))


def test_wilson_interval_edges() -> None:
    assert all(math.isnan(v) for v in wilson_interval(0, 0))
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson_interval(5, 4)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("n", [1, 2, 5, 10, 17, 40, 151])
def test_binomial_test_half_matches_scipy_binomtest(n: int, alternative: str) -> None:
    for k in range(n + 1):
        expected = stats.binomtest(k, n, 0.5, alternative=alternative).pvalue
        assert binomial_test_half(k, n, alternative).p_value == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_binomial_test_half_no_trials_is_nan() -> None:
    assert math.isnan(binomial_test_half(0, 0).p_value)


@pytest.mark.parametrize("counts", [(30, 12, 8), (5, 5, 0), (0, 9, 3), (14, 11, 7), (0, 0, 4)])
def test_preference_excluding_ties_is_the_sign_test(counts: tuple[int, int, int]) -> None:
    n_a, n_b, n_tie = counts
    res = preference(n_a, n_b, n_tie)
    assert (res["n"], res["n_tie"]) == (n_a + n_b + n_tie, n_tie)
    assert res["tie_share"] == pytest.approx(n_tie / (n_a + n_b + n_tie))
    if n_a + n_b == 0:
        assert math.isnan(res["share_a"]) and math.isnan(res["p_value"]) and res["reason"]
        return
    assert res["share_a"] == pytest.approx(n_a / (n_a + n_b))
    assert res["p_value"] == pytest.approx(stats.binomtest(n_a, n_a + n_b, 0.5).pvalue)
    lo, hi = proportion_confint(n_a, n_a + n_b, alpha=0.05, method="wilson")
    assert (res["ci_low"], res["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))


@pytest.mark.parametrize("counts", [(30, 12, 8), (12, 30, 7), (14, 11, 7)])
def test_preference_splitting_ties(counts: tuple[int, int, int]) -> None:
    n_a, n_b, n_tie = counts
    res = preference(n_a, n_b, n_tie, ties="split")
    total = n_a + n_b + n_tie
    assert res["share_a"] == pytest.approx((n_a + n_tie / 2) / total)
    lo, hi = proportion_confint(n_a + n_tie / 2, total, alpha=0.05, method="wilson")
    assert (res["ci_low"], res["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    # integers for the exact test: an odd tie goes to the side with fewer wins
    k = n_a + n_tie // 2 + (n_tie % 2 if n_a < n_b else 0)
    assert res["p_value"] == pytest.approx(stats.binomtest(k, total, 0.5).pvalue)


def test_preference_table_balances_positions_and_applies_holm() -> None:
    rows = []
    # x beats y 20:6 with 4 ties, x beats z 11:9, y vs z 8:8 with 2 ties; positions alternate
    for win, lose, t in (("x", "y", (20, 6, 4)), ("x", "z", (11, 9, 0)), ("y", "z", (8, 8, 2))):
        wins, losses, ties = t
        for i in range(wins):
            rows.append((win, lose, "A") if i % 2 else (lose, win, "B"))
        for i in range(losses):
            rows.append((win, lose, "B") if i % 2 else (lose, win, "A"))
        rows += [(win, lose, "none")] * ties
    frame = pd.DataFrame(rows, columns=["system_a", "system_b", "choice"])
    table = preference_table(frame).set_index(["first", "second"])
    xy = table.loc[("x", "y")]
    assert (xy["n_first"], xy["n_second"], xy["n_tie"]) == (20, 6, 4)
    assert xy["p_value"] == pytest.approx(stats.binomtest(20, 26).pvalue)
    ps = [stats.binomtest(20, 26).pvalue, stats.binomtest(11, 20).pvalue, stats.binomtest(8, 16).pvalue]
    expected = multipletests(ps, method="holm")[1]
    assert table["p_holm"].to_numpy() == pytest.approx(expected)


def test_abx_accuracy_against_chance_matches_binomtest() -> None:
    correct = [True] * 33 + [False] * 17 + [True] * 9 + [False] * 11
    frame = pd.DataFrame({"system": ["a"] * 50 + ["b"] * 20, "correct": correct})
    table = abx_table(frame).set_index("system")
    for sys_, k, n in (("a", 33, 50), ("b", 9, 20)):
        row = table.loc[sys_]
        assert (row["n"], row["n_correct"]) == (n, k) and row["accuracy"] == pytest.approx(k / n)
        assert row["p_value"] == pytest.approx(stats.binomtest(k, n, 0.5, alternative="greater").pvalue)
        lo, hi = proportion_confint(k, n, method="wilson")
        assert (row["ci_low"], row["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))


# --------------------------------------------------------------------------- means, medians


@pytest.mark.parametrize(("scale", "scores"), [
    pytest.param((-3, 3), [1, 2, 0, -1, 3, 2, 1, 1, 0, 2], id="cmos"),
    pytest.param((1, 5), [2, 3, 3, 4, 2, 1, 3, 2], id="dmos"),
    pytest.param((1, 5), [5, 5, 5, 4, 5, 5, 5, 3], id="smos-clipped"),
])
def test_mean_ci_is_scipy_t_interval_cut_to_the_scale(scale, scores) -> None:
    x = np.asarray(scores, dtype=float)
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    res = mean_ci(x, scale=scale)
    assert res.mean == pytest.approx(x.mean()) and res.n == len(x)
    assert (res.ci_low, res.ci_high) == (pytest.approx(max(lo, scale[0])), pytest.approx(min(hi, scale[1])))
    assert res.clipped == (lo < scale[0] or hi > scale[1])
    assert scale[0] <= res.ci_low <= res.ci_high <= scale[1]


def test_mean_ci_too_few_ratings() -> None:
    res = mean_ci([1, 3, 2], scale=(-3, 3))
    assert math.isnan(res.ci_low) and res.reason == "too few ratings"
    assert mean_ci([]).reason == "no ratings"


@pytest.mark.parametrize("n", [6, 7, 10, 23, 60])
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_median_ci_matches_scipy_quantile_test(n: int, confidence: float) -> None:
    x = np.random.default_rng(n).integers(0, 101, size=n).astype(float)
    ci = stats.quantile_test(x, q=float(np.median(x)), p=0.5).confidence_interval(confidence)
    med, lo, hi = median_ci(x, confidence=confidence)
    assert med == np.median(x)
    assert (lo, hi) == (pytest.approx(ci.low, nan_ok=True), pytest.approx(ci.high, nan_ok=True))


def test_median_ci_too_few_scores() -> None:
    med, lo, hi = median_ci([10, 20, 30, 40, 50])
    assert med == 30 and math.isnan(lo) and math.isnan(hi)


def test_mean_table_per_group_matches_scipy() -> None:
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"system": rng.choice(["a", "b", "c"], size=60),
                          "value": rng.integers(-3, 4, size=60).astype(float)})
    frame.loc[::11, "value"] = np.nan
    table = mean_table(frame, scale=(-3, 3)).set_index("system")
    for sys_, grp in frame.dropna().groupby("system"):
        x = grp["value"].to_numpy()
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        row = table.loc[sys_]
        assert row["n"] == len(x) and row["mean"] == pytest.approx(x.mean())
        assert (row["ci_low"], row["ci_high"]) == (pytest.approx(max(lo, -3)), pytest.approx(min(hi, 3)))


def test_mushra_table_drops_excluded_listeners_first() -> None:
    rng = np.random.default_rng(7)
    rows = []
    for rater in ("r1", "r2", "r3", "r4"):
        for item in range(5):
            for cond, mu in (("hidden_reference", 95), ("anchor35", 20), ("sysA", 70)):
                v = 0.0 if rater == "r4" else float(np.clip(mu + rng.normal(0, 8), 0, 100))
                rows.append((rater, item, cond, round(v)))
    frame = pd.DataFrame(rows, columns=["rater_id", "item_id", "condition", "value"])
    table = mushra_table(frame, excluded=["r4"])
    assert list(table["condition"]) == ["hidden_reference", "sysA", "anchor35"]  # best first
    kept = frame[frame["rater_id"] != "r4"]
    for _, row in table.iterrows():
        x = kept[kept["condition"] == row["condition"]]["value"].to_numpy(dtype=float)
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        ci = stats.quantile_test(x, q=float(np.median(x))).confidence_interval()
        assert (row["n"], row["n_listeners"]) == (15, 3)
        assert row["mean"] == pytest.approx(x.mean()) and row["median"] == np.median(x)
        assert row["ci_low"] == pytest.approx(max(lo, 0)) and row["ci_high"] == pytest.approx(min(hi, 100))
        assert (row["median_low"], row["median_high"]) == (ci.low, ci.high)


# --------------------------------------------------------------------------- ranks


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [3, 5])
def test_friedman_matches_scipy(seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    # small integer scores: plenty of ties within blocks, so the tie correction matters
    x = rng.integers(0, 4, size=(12, k)).astype(float) + np.arange(k) * 0.3 * (seed % 2)
    res = friedman_test(x)
    ref = stats.friedmanchisquare(*x.T)
    assert res.statistic == pytest.approx(ref.statistic) and res.p_value == pytest.approx(ref.pvalue)
    assert res.df == k - 1 and res.n_blocks == 12
    assert res.kendall_w == pytest.approx(ref.statistic / (12 * (k - 1)))
    assert res.mean_ranks == pytest.approx(stats.rankdata(x, axis=1).mean(axis=0))


def test_friedman_needs_three_systems() -> None:
    res = friedman_test(np.ones((5, 2)))
    assert math.isnan(res.statistic) and res.reason


def test_rank_table_uses_complete_blocks_and_ranks_best_first() -> None:
    rows = [(r, i, s, rank) for r in range(6) for i in range(2)
            for s, rank in zip("abc", ((1, 2, 3) if (r + i) % 3 else (2, 1, 3)), strict=True)]
    rows.append((99, 0, "a", 1))  # an incomplete block: left out
    frame = pd.DataFrame(rows, columns=["rater_id", "item_id", "system", "rank"])
    table, res = rank_table(frame)
    assert res.n_blocks == 12 and list(table["system"]) == ["a", "b", "c"]
    blocks = frame[frame["rater_id"] != 99].pivot_table(index=["rater_id", "item_id"],
                                                         columns="system", values="rank")
    ref = stats.friedmanchisquare(*blocks.to_numpy().T)
    assert res.statistic == pytest.approx(ref.statistic)
    # MUSHRA scores (higher is better) give the same ranks when negated
    scores = frame.assign(rank=10 - frame["rank"])
    table2, res2 = rank_table(scores, higher_is_better=True)
    assert list(table2["system"]) == ["a", "b", "c"] and res2.statistic == pytest.approx(ref.statistic)


# --------------------------------------------------------------------------- pairwise


@pytest.mark.parametrize("seed", range(5))
def test_wilcoxon_exact_matches_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = [8, 15, 25, 40, 50][seed]
    x = rng.normal(0.3, 1, n)
    y = rng.normal(0, 1, n)
    res = wilcoxon_signed_rank(x, y)
    ref = stats.wilcoxon(x, y, method="exact")
    assert res.method == "exact"
    assert res.statistic == pytest.approx(ref.statistic) and res.p_value == pytest.approx(ref.pvalue)


@pytest.mark.parametrize("n", [5, 8, 13])
def test_wilcoxon_small_sample_with_ties_is_exact_as_scipy(n: int) -> None:
    # scipy's default for <= 13 pairs with ties/zeros: all 2^n sign patterns
    rng = np.random.default_rng(n)
    x = rng.integers(1, 6, n).astype(float)
    y = np.clip(x + rng.integers(-2, 3, n), 1, 5)
    y[0] = x[0]  # a zero difference
    res = wilcoxon_signed_rank(x, y)
    ref = stats.wilcoxon(x, y)
    assert res.method == "exact"
    assert res.statistic == pytest.approx(ref.statistic) and res.p_value == pytest.approx(ref.pvalue)


@pytest.mark.parametrize("seed", range(5))
def test_wilcoxon_with_ties_and_zeros_matches_scipy_normal_approximation(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    n = [20, 35, 60, 120, 400][seed]
    x = rng.integers(1, 6, n).astype(float)
    y = np.clip(x + rng.integers(-2, 2, n), 1, 5)
    res = wilcoxon_signed_rank(x, y)
    ref = stats.wilcoxon(x, y, method="asymptotic", zero_method="wilcox", correction=False)
    assert res.method == "normal"
    assert stats.wilcoxon(x, y).pvalue == pytest.approx(res.p_value)  # scipy's default choice too
    assert res.statistic == pytest.approx(ref.statistic) and res.p_value == pytest.approx(ref.pvalue)
    assert res.n_zero == int((x == y).sum())


@pytest.mark.parametrize("seed", range(3))
def test_wilcoxon_effect_sizes_against_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(0.5, 1, 30)
    y = rng.normal(0, 1, 30)
    res = wilcoxon_signed_rank(x, y)
    n = 30
    w_min = stats.wilcoxon(x, y).statistic  # min(W+, W-) for the two-sided test
    # matched-pairs rank-biserial: (W+ - W-) / (n(n+1)/2), its size from scipy's statistic
    assert abs(res.rank_biserial) == pytest.approx(1 - 4 * w_min / (n * (n + 1)))
    assert np.sign(res.rank_biserial) == np.sign(np.median(x - y))
    # Cohen's d_z times sqrt(n) is the paired t statistic
    assert res.cohens_dz * math.sqrt(n) == pytest.approx(stats.ttest_rel(x, y).statistic)


def test_wilcoxon_all_zero_differences() -> None:
    res = wilcoxon_signed_rank([3, 4, 5], [3, 4, 5])
    assert math.isnan(res.p_value) and res.reason == "no non-zero differences"


@pytest.mark.parametrize("seed", range(4))
def test_holm_matches_statsmodels(seed: int) -> None:
    p = np.random.default_rng(seed).random(9) ** 3
    assert holm(p) == pytest.approx(multipletests(p, method="holm")[1])
    with_nan = np.append(p, np.nan)
    out = holm(with_nan)
    assert math.isnan(out[-1]) and out[:-1] == pytest.approx(multipletests(p, method="holm")[1])


def test_pairwise_table_pairs_by_block_and_corrects_over_pairs() -> None:
    rng = np.random.default_rng(11)
    rows = []
    for rater, item in itertools.product(range(8), range(4)):
        for sys_, mu in (("ref", 90), ("good", 75), ("bad", 40)):
            if sys_ == "bad" and rater == 0 and item == 0:
                continue  # one missing rating: that block drops out of pairs with "bad"
            rows.append((rater, item, sys_, round(float(np.clip(mu + rng.normal(0, 12), 0, 100)))))
    frame = pd.DataFrame(rows, columns=["rater_id", "item_id", "system", "value"])
    table = pairwise_table(frame)
    wide = frame.pivot_table(index=["rater_id", "item_id"], columns="system", values="value")
    ps = []
    for _, row in table.iterrows():
        pair = wide[[row["first"], row["second"]]].dropna()
        ref = stats.wilcoxon(pair.iloc[:, 0], pair.iloc[:, 1])  # scipy's default method choice
        assert row["n_pairs"] == len(pair)
        assert row["p_value"] == pytest.approx(ref.pvalue)
        assert row["mean_diff"] == pytest.approx((pair.iloc[:, 0] - pair.iloc[:, 1]).mean())
        ps.append(ref.pvalue)
    assert set(zip(table["first"], table["second"], strict=True)) == {("bad", "good"), ("bad", "ref"),
                                                                     ("good", "ref")}
    assert table.set_index(["first", "second"]).loc[("bad", "ref"), "n_pairs"] == 31
    assert table["p_holm"].to_numpy() == pytest.approx(multipletests(ps, method="holm")[1])
