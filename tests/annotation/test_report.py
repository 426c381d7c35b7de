"""Campaign report tables checked against statsmodels, krippendorff and scipy."""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats import inter_rater

from annotation.quality import QcConfig
from annotation.report import (
    agreement_table,
    campaign_report,
    koala_table,
    majority_decisions,
    mos_table,
)


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests need no Django settings: overrides the shared conftest's autouse fixture,
    so this module also runs with ``pytest -p no:django``."""



def _ratings(seed: int = 0, n_items: int = 60, per_item: int = 5, drop: float = 0.0):
    """MOS (1-5) and naturalness labels for ``n_items`` items, ``per_item`` raters each."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_items):
        truth = rng.integers(1, 6)
        system, task = f"s{i % 3}", ("tts", "vc")[i % 2]
        raters = rng.choice(12, size=per_item, replace=False)
        for r in raters:
            if rng.random() < drop:
                continue
            score = int(np.clip(truth + rng.integers(-1, 2), 1, 5))
            label = "natural" if score + rng.integers(-1, 2) >= 3 else "unnatural"
            base = {"item_id": f"i{i}", "rater_id": f"r{r}", "system": system, "task": task,
                    "condition": "clean"}
            rows.append({**base, "criterion": "mos", "value": score})
            rows.append({**base, "criterion": "naturalness", "value": label})
    return pd.DataFrame(rows)


def _reliability(df: pd.DataFrame) -> np.ndarray:
    wide = df.pivot(index="rater_id", columns="item_id", values="value")
    return wide.to_numpy(dtype=float)


# --------------------------------------------------------------------------- agreement


def test_agreement_uses_fleiss_when_every_item_has_the_same_raters():
    df = _ratings()
    table = agreement_table(df).set_index("criterion")
    mos = df[df["criterion"] == "mos"]
    counts = pd.crosstab(mos["item_id"], mos["value"]).to_numpy()
    row = table.loc["mos"]
    assert row["statistic"] == "fleiss_kappa"
    assert row["value"] == pytest.approx(inter_rater.fleiss_kappa(counts, method="fleiss"))
    assert row["alpha"] == pytest.approx(
        krippendorff.alpha(_reliability(mos), level_of_measurement="interval"))
    assert row["alpha_level"] == "interval"
    assert (row["n_items"], row["raters_per_item_min"], row["raters_per_item_max"]) == (60, 5, 5)
    nat = table.loc["naturalness"]
    assert nat["statistic"] == "fleiss_kappa" and nat["alpha_level"] == "nominal"


def test_agreement_falls_back_to_krippendorff_alpha_with_unequal_raters():
    df = _ratings(seed=1, drop=0.2)
    table = agreement_table(df, levels={"mos": "ordinal"}).set_index("criterion")
    mos = df[df["criterion"] == "mos"]
    row = table.loc["mos"]
    assert row["statistic"] == "krippendorff_alpha"
    assert math.isnan(row["fleiss_kappa"])
    expected = krippendorff.alpha(_reliability(mos), level_of_measurement="ordinal")
    assert row["value"] == pytest.approx(expected)
    assert row["label"] in {"poor", "slight", "fair", "moderate", "substantial", "almost perfect"}
    nat = df[df["criterion"] == "naturalness"]
    codes = nat.assign(value=(nat["value"] == "natural").astype(float))
    assert table.loc["naturalness", "alpha"] == pytest.approx(
        krippendorff.alpha(_reliability(codes), level_of_measurement="nominal"))


def test_agreement_percent_agreement_by_hand():
    df = pd.DataFrame({"item_id": [1, 1, 1, 2, 2, 2], "rater_id": list("abcabc"),
                       "criterion": "keep", "value": ["y", "y", "n", "n", "n", "n"]})
    row = agreement_table(df).iloc[0]
    assert row["percent_agreement"] == pytest.approx((1 / 3 + 1) / 2)


def test_agreement_rejects_interval_level_for_labels():
    df = _ratings()
    with pytest.raises(ValueError, match="non-numeric"):
        agreement_table(df, levels={"naturalness": "interval"})


# --------------------------------------------------------------------------- MOS


@pytest.mark.parametrize("method", ["t", "normal"])
def test_mos_table_matches_scipy_per_group(method: str):
    df = _ratings(seed=2, drop=0.1)
    table = mos_table(df, ("system", "task"), method=method)
    assert set(table["criterion"]) == {"mos"}  # label criteria are not averaged
    mos = df[df["criterion"] == "mos"]
    for _, row in table.iterrows():
        x = mos[(mos["system"] == row["system"]) & (mos["task"] == row["task"])]["value"]
        x = x.to_numpy(dtype=float)
        if method == "t":
            lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        else:
            lo, hi = stats.norm.interval(0.95, loc=x.mean(), scale=stats.sem(x))
        assert (row["n"], row["mos"]) == (len(x), pytest.approx(x.mean()))
        assert (row["ci_low"], row["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))


def test_mos_table_single_rating_group_has_nan_ci_and_koala_format():
    df = pd.DataFrame({"item_id": [1, 2, 3, 4], "rater_id": list("abcd"), "criterion": "mos",
                       "task": ["tts", "tts", "tts", "vc"], "value": [3, 4, 5, 2]})
    table = mos_table(df, ("task",), min_n=2)
    vc = table[table["task"] == "vc"].iloc[0]
    assert vc["n"] == 1 and math.isnan(vc["ci_low"]) and vc["ci_note"] == "too few ratings"
    koala = koala_table(table).set_index("task")
    half = stats.t.ppf(0.975, 2) * 1.0 / math.sqrt(3)
    assert koala.loc["tts", "MOS ± CI"] == f"4.00 ± {half:.2f}"
    assert koala.loc["vc", "MOS ± CI"] == "2.00 (too few ratings)"


def test_mos_table_below_min_n_shows_too_few_ratings():
    # D21: 3 ratings give a t interval wider than the scale; by default (min n 5) none is shown
    df = pd.DataFrame({"item_id": range(8), "rater_id": list("abcdefgh"), "criterion": "mos",
                       "task": ["a"] * 3 + ["b"] * 5, "value": [3, 4, 5, 2, 3, 3, 4, 2]})
    table = mos_table(df, ("task",), scales={"mos": (1, 5)}).set_index("task")
    assert table.loc["a", "n"] == 3 and math.isnan(table.loc["a", "ci_low"])
    assert table.loc["a", "ci_note"] == "too few ratings"
    x = np.array([2, 3, 3, 4, 2], dtype=float)
    lo, hi = stats.t.interval(0.95, 4, loc=x.mean(), scale=stats.sem(x))
    assert (table.loc["b", "ci_low"], table.loc["b", "ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    assert not table.loc["b", "ci_clipped"] and table.loc["b", "ci_note"] == ""


def test_mos_table_cuts_intervals_to_the_scale_and_says_so():
    # mostly 5s: the scipy t interval passes 5; the report's bound stops at 5 and says why
    x = np.array([5, 5, 5, 5, 4, 5, 3, 5], dtype=float)
    df = pd.DataFrame({"item_id": range(8), "rater_id": range(8), "criterion": "mos", "value": x})
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert hi > 5  # the unbounded interval leaves the scale
    row = mos_table(df, (), scales={"mos": (1, 5)}).iloc[0]
    assert row["ci_low"] == pytest.approx(lo) and row["ci_high"] == 5.0
    assert bool(row["ci_clipped"]) and math.isnan(row["half_width"])
    assert row["ci_note"] == "t interval cut to the scale 1–5"
    text = koala_table(mos_table(df, (), scales={"mos": (1, 5)}))["MOS ± CI"].iloc[0]
    assert text == f"{x.mean():.2f} [{lo:.2f}, 5.00]"
    # without a known scale the interval is the plain t interval (callers pass scales)
    plain = mos_table(df, ()).iloc[0]
    assert plain["ci_high"] == pytest.approx(hi) and not plain["ci_clipped"]



def test_majority_decisions_flag_ties():
    df = pd.DataFrame({
        "item_id": ["a"] * 3 + ["b"] * 4 + ["c"] * 2,
        "rater_id": list("xyz") + list("wxyz") + list("xy"),
        "criterion": "keep",
        "value": ["keep", "keep", "discard", "keep", "keep", "discard", "discard",
                  "discard", "discard"],
    })
    out = majority_decisions(df).set_index("item_id")
    assert out.loc["a", "decision"] == "keep" and out.loc["a", "share"] == pytest.approx(2 / 3)
    assert out.loc["b", "tie"] and out.loc["b", "decision"] == "tie"
    assert pd.isna(out.loc["b", "majority"])
    assert out.loc["c", "decision"] == "discard" and out.loc["c", "votes"] == 2


def test_majority_decisions_binary_numeric_and_skips_mos():
    df = _ratings()
    yes = pd.DataFrame({"item_id": [1, 1, 1], "rater_id": list("abc"), "criterion": "ok",
                        "value": [1, 1, 0]})
    out = majority_decisions(pd.concat([df, yes], ignore_index=True))
    assert set(out["criterion"]) == {"naturalness", "ok"}
    ok = out[out["criterion"] == "ok"].iloc[0]
    assert ok["majority"] == 1 and ok["decision"] == "keep"


# --------------------------------------------------------------------------- full report


def test_campaign_report_excludes_trap_failer_and_reports_it():
    df = _ratings(seed=3)
    traps = pd.DataFrame({
        "item_id": "trap", "rater_id": [f"r{r}" for r in range(12)], "criterion": "mos",
        "value": [5] + [2] * 11, "trap_value": 2, "system": "s0", "task": "tts",
        "condition": "clean",
    })
    full = pd.concat([df, traps], ignore_index=True)
    report = campaign_report(full, qc=QcConfig(min_items_flat=1000))
    assert list(report.exclusions.excluded.index) == ["r0"]
    assert "trap" in report.exclusions.excluded.loc["r0", "reasons"]
    assert report.rater_quality.loc["r0", "trap"] == "fail"
    kept = df[df["rater_id"] != "r0"]
    assert report.counts == {
        "ratings_in": len(full),
        "ratings_excluded": int((full["rater_id"] == "r0").sum()),
        "control_ratings": 11,
        "ratings_used": len(kept),
    }
    # statistics are computed on the kept, non-control ratings only
    expected_mos = mos_table(kept)
    pd.testing.assert_frame_equal(report.mos, expected_mos)
    assert "trap" not in set(report.decisions["item_id"])
    assert set(report.koala.columns) == {"criterion", "task", "n", "MOS ± CI"}
    alpha = krippendorff.alpha(_reliability(kept[kept["criterion"] == "mos"]),
                               level_of_measurement="interval")
    assert report.agreement.set_index("criterion").loc["mos", "alpha"] == pytest.approx(alpha)


def test_campaign_report_without_qc_keeps_everyone():
    df = _ratings(seed=4)
    report = campaign_report(df, apply_qc=False, qc=QcConfig(min_items_flat=1))
    assert report.exclusions.n_raters_excluded == 0
    assert report.counts["ratings_used"] == len(df)
    with pytest.raises(ValueError, match="rater_id"):
        campaign_report(df.drop(columns="rater_id"))
