"""P.808-style rater screening: every rule's outcome is reported, exclusions carry reasons."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from annotation.quality import FAIL, NOT_EVALUATED, PASS, QcConfig, apply_exclusions, rater_quality


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests need no Django settings: overrides the shared conftest's autouse fixture,
    so this module also runs with ``pytest -p no:django``."""


N_ITEMS = 30


def _campaign(seed: int = 0) -> pd.DataFrame:
    """6 honest raters (truth + small noise), 1 flat rater (always 4), 1 random rater.

    Every rater also answers one trapping item ("select 2") and one gold item (gold 5).
    Rater ``trap-fail`` ignores the trap; rater ``gold-fail`` misses the gold by 3.
    """
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, size=N_ITEMS)
    raters = ["h0", "h1", "h2", "h3", "trap-fail", "gold-fail", "flat", "random"]
    rows = []
    for rater in raters:
        for i in range(N_ITEMS):
            if rater == "flat":
                v = 4
            elif rater == "random":
                v = int(rng.integers(1, 6))
            else:
                v = int(np.clip(truth[i] + rng.integers(-1, 2) * (rng.random() < 0.3), 1, 5))
            rows.append({"item_id": f"i{i}", "rater_id": rater, "criterion": "mos", "value": v})
        rows.append({"item_id": "trap", "rater_id": rater, "criterion": "mos",
                     "value": 5 if rater == "trap-fail" else 2, "trap_value": 2, "is_trap": True})
        rows.append({"item_id": "gold", "rater_id": rater, "criterion": "mos",
                     "value": 2 if rater == "gold-fail" else 4, "gold_value": 5, "is_gold": True})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def campaign() -> pd.DataFrame:
    return _campaign()


@pytest.fixture(scope="module")
def table(campaign: pd.DataFrame) -> pd.DataFrame:
    return rater_quality(campaign)


@pytest.mark.parametrize(
    ("rater", "rule", "outcome", "excluded", "reason"),
    [
        pytest.param("trap-fail", "trap", FAIL, True, "trap: 1 of 1", id="trap-excludes"),
        pytest.param("gold-fail", "gold", FAIL, True, "gold: 1 of 1", id="gold-excludes"),
        pytest.param("flat", "flat", FAIL, True, "one answer in 100% of 30", id="flat-excludes"),
        pytest.param("h0", "trap", PASS, False, "", id="honest-passes-trap"),
        pytest.param("h0", "gold", PASS, False, "", id="gold-within-tolerance"),
        pytest.param("h0", "flat", PASS, False, "", id="honest-not-flat"),
    ],
)
def test_rater_quality_rule_outcomes(table, rater, rule, outcome, excluded, reason) -> None:
    row = table.loc[rater]
    assert row[rule] == outcome
    assert bool(row["excluded"]) is excluded
    if reason:
        assert reason in row["reasons"]
    else:
        assert row["reasons"] == ""


def test_low_correlation_is_flagged_not_excluded_by_default(table) -> None:
    row = table.loc["random"]
    assert row["correlation"] == FAIL
    assert not row["excluded"]
    assert "correlation: r =" in row["flags"]
    assert table.loc["h0", "correlation"] == PASS
    # a constant rater has no defined correlation: not evaluated rather than a fake number
    assert table.loc["flat", "correlation"] == NOT_EVALUATED


def test_low_correlation_excludes_when_configured(campaign) -> None:
    cfg = QcConfig(exclude_on=frozenset({"trap", "gold", "flat", "correlation"}))
    row = rater_quality(campaign, cfg).loc["random"]
    assert row["excluded"] and "correlation" in row["reasons"]


def test_r_mos_matches_scipy_pearson_leave_one_out(campaign, table) -> None:
    scored = campaign[campaign["trap_value"].isna() & campaign["gold_value"].isna()]
    wide = scored.pivot(index="item_id", columns="rater_id", values="value").astype(float)
    for rater in ("h0", "random", "trap-fail"):
        others = wide.drop(columns=rater).mean(axis=1)
        expected = stats.pearsonr(wide[rater], others)[0]
        assert table.loc[rater, "r_mos"] == pytest.approx(expected)


def test_sd_and_modal_share_match_pandas(campaign, table) -> None:
    scored = campaign[campaign["trap_value"].isna() & campaign["gold_value"].isna()]
    by = scored.groupby("rater_id")["value"]
    pd.testing.assert_series_equal(table["sd_min"].sort_index(), by.std().rename("sd_min"),
                                   check_names=False, check_index_type=False)
    share = by.agg(lambda s: s.value_counts().max() / len(s))
    assert table["modal_share_max"].sort_index().to_numpy() == pytest.approx(share.to_numpy())


@pytest.mark.parametrize(
    ("answer", "tolerance", "outcome"),
    [
        pytest.param(4, 1.0, PASS, id="one-off-within-1"),
        pytest.param(3, 1.0, FAIL, id="two-off-outside-1"),
        pytest.param(4, 0.0, FAIL, id="exact-required"),
        pytest.param(3, 2.0, PASS, id="wide-tolerance"),
    ],
)

def test_gold_tolerance(answer: int, tolerance: float, outcome: str) -> None:
    df = pd.DataFrame({"item_id": ["g"], "rater_id": ["a"], "value": [answer], "gold_value": [5]})
    assert rater_quality(df, QcConfig(gold_tolerance=tolerance)).loc["a", "gold"] == outcome


def test_label_traps_and_low_sd_rule() -> None:
    # labels (keep/discard) compare exactly; SD rule catches a rater who nearly never varies
    values = [3] * 18 + [4, 4]  # SD ~ 0.31 > 0.25, modal share 0.9 -> flat by share
    df = pd.DataFrame({
        "item_id": [f"i{i}" for i in range(20)] + ["t"] + [f"i{i}" for i in range(5)],
        "rater_id": ["a"] * 21 + ["b"] * 5,  # b makes "mos" a 5-point scale campaign-wide
        "criterion": ["mos"] * 20 + ["keep"] + ["mos"] * 5,
        "value": [*values, "discard", 1, 2, 3, 4, 5],
        "trap_value": [None] * 20 + ["keep"] + [None] * 5,
    })
    row = rater_quality(df).loc["a"]
    assert row["trap"] == FAIL
    assert row["flat"] == FAIL and "90% of 20 ratings on mos" in row["reasons"]
    strict = rater_quality(df, QcConfig(max_modal_share=0.95, min_sd=0.5)).loc["a"]
    assert strict["flat"] == FAIL and "SD 0.31" in strict["reasons"]
    lenient = rater_quality(df, QcConfig(max_modal_share=0.95)).loc["a"]
    assert lenient["flat"] == PASS


def test_flat_rule_skips_binary_criteria_by_default() -> None:
    # 95 % "yes" on a yes/no question can be honest; the flat rule is for rating scales
    df = pd.DataFrame({"item_id": range(20), "rater_id": "a", "criterion": "ok",
                       "value": ["yes"] * 19 + ["no"]})
    assert rater_quality(df).loc["a", "flat"] == NOT_EVALUATED
    strict = rater_quality(df, QcConfig(flat_min_scale_values=2)).loc["a"]
    assert strict["flat"] == FAIL and "95% of 20 ratings on ok" in strict["reasons"]


def test_rules_not_evaluated_without_data() -> None:
    df = pd.DataFrame({"item_id": [1, 2], "rater_id": ["a", "a"], "value": [1, 5]})
    row = rater_quality(df).loc["a"]
    assert (row["gold"], row["trap"], row["flat"], row["correlation"]) == (NOT_EVALUATED,) * 4
    assert not row["excluded"]
    assert math.isnan(row["sd_min"])


def test_apply_exclusions_reports_what_was_dropped(campaign, table) -> None:
    kept, report = apply_exclusions(campaign, table, also_exclude=["h3"])
    assert set(report.excluded.index) == {"trap-fail", "gold-fail", "flat", "h3"}
    assert report.excluded.loc["h3", "reasons"] == "excluded by hand"
    assert (report.excluded["n_ratings_dropped"] == N_ITEMS + 2).all()
    assert report.n_ratings_dropped == 4 * (N_ITEMS + 2)
    assert report.n_ratings_kept == len(kept) == len(campaign) - report.n_ratings_dropped
    assert report.n_raters_kept == 4
    assert not kept["rater_id"].isin(report.excluded.index).any()
    assert "excluded 4 of 8 raters" in report.summary()


def test_config_rejects_unknown_rule() -> None:
    with pytest.raises(ValueError, match="unknown QC rules"):
        QcConfig(exclude_on=frozenset({"speed"}))
