"""annotation.listening_report per template, numbers against scipy/statsmodels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from annotation.listening_report import listening_report


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests: no Django settings needed (overrides the shared autouse fixture)."""


def _ab_frame() -> pd.DataFrame:
    rows = []
    rng = np.random.default_rng(1)
    for i in range(40):
        # x vs y, positions alternate; x wins 26, y 10, 4 "none"
        a, b = ("x", "y") if i % 2 else ("y", "x")
        winner = "x" if i < 26 else ("y" if i < 36 else None)
        value = "none" if winner is None else ("A" if winner == a else "B")
        rows.append({"item_id": f"i{i % 10}", "rater_id": f"r{i // 10}", "value": value,
                     "role": "" if winner is None else value, "label": winner or "",
                     "a_label": a, "b_label": b})
    del rng
    return pd.DataFrame(rows)


def test_ab_report_preference_and_sign_test() -> None:
    rep = listening_report(_ab_frame(), "ab")
    row = rep.tables["preference"].iloc[0]
    assert (row["first"], row["second"], row["n_first"], row["n_second"], row["n_tie"]) == ("x", "y", 26, 10, 4)
    assert row["p_value"] == pytest.approx(stats.binomtest(26, 36).pvalue)
    lo, hi = proportion_confint(26, 36, method="wilson")
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    systems = rep.tables["preference_systems"].set_index("system")
    assert systems.loc["x", "wins"] == 26 and systems.loc["y", "win_share"] == pytest.approx(10 / 36)
    assert any("Ties" in n for n in rep.notes)


def test_abx_report_accuracy_against_chance() -> None:
    rows = [{"item_id": f"i{i}", "rater_id": f"r{i % 3}", "value": "A" if i % 4 else "B",
             "a_label": "sys1", "b_label": "sys0", "x_is": "A"} for i in range(24)]
    rep = listening_report(pd.DataFrame(rows), "abx")
    row = rep.tables["abx"].iloc[0]
    assert row["pair"] == "sys0 vs sys1" and (row["n"], row["n_correct"]) == (24, 18)
    assert row["p_value"] == pytest.approx(stats.binomtest(18, 24, alternative="greater").pvalue)


def test_ccr_report_means_inside_the_scale_and_listener_pairing() -> None:
    rng = np.random.default_rng(2)
    rows = []
    for r in range(8):
        for i in range(12):
            sys_ = ("good", "bad")[i % 2]
            v = int(np.clip(round((1.5 if sys_ == "good" else -1.0) + rng.normal(0, 1)), -3, 3))
            rows.append({"item_id": f"i{i}", "rater_id": f"r{r}", "value": str(v), "role": "system",
                         "label": sys_})
    frame = pd.DataFrame(rows)
    rep = listening_report(frame, "ccr", scale=(-3, 3))
    assert rep.measure == "CMOS"
    systems = rep.tables["systems"].set_index("system")
    for sys_ in ("good", "bad"):
        x = frame[frame["label"] == sys_]["value"].astype(float).to_numpy()
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert systems.loc[sys_, "mean"] == pytest.approx(x.mean())
        assert systems.loc[sys_, "ci_low"] == pytest.approx(max(lo, -3))
        assert systems.loc[sys_, "ci_high"] == pytest.approx(min(hi, 3))
    per_rater = frame.assign(v=frame["value"].astype(float)).pivot_table(
        index="rater_id", columns="label", values="v", aggfunc="mean")
    ref = stats.wilcoxon(per_rater["bad"], per_rater["good"])
    pw = rep.tables["pairwise"].iloc[0]
    assert (pw["system_1"], pw["system_2"], pw["n_pairs"]) == ("bad", "good", 8)
    assert pw["p_value"] == pytest.approx(ref.pvalue)


def _mushra_frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    rows = []
    for r in range(6):
        for i in range(5):
            for label, role, mu in (("hidden_reference", "hidden_reference", 96), ("lp3.5k", "anchor", 25),
                                    ("lp7k", "anchor", 50), ("sysA", "system", 80), ("sysB", "system", 65),
                                    ("sysC", "system", 40)):
                v = 10 if r == 5 and role == "hidden_reference" else int(np.clip(mu + rng.normal(0, 8), 0, 100))
                rows.append({"item_id": f"i{i}", "rater_id": f"r{r}", "value": str(v), "role": role,
                             "label": label})
    return pd.DataFrame(rows)


def test_mushra_report_drops_excluded_and_ranks_conditions() -> None:
    frame = _mushra_frame()
    rep = listening_report(frame, "mushra", excluded=["r5"])
    assert rep.counts["values_excluded"] == 30 and rep.excluded == ("r5",)
    systems = rep.tables["systems"]
    assert list(systems["condition"]) == ["hidden_reference", "sysA", "sysB", "lp7k", "sysC", "lp3.5k"]
    assert set(systems["n"]) == {25} and set(systems["n_listeners"]) == {5}
    kept = frame[frame["rater_id"] != "r5"].assign(v=lambda d: d["value"].astype(float))
    wide = kept.pivot_table(index=["rater_id", "item_id"], columns="label", values="v")
    ref = stats.friedmanchisquare(*(-wide.to_numpy()).T)
    assert rep.friedman is not None and rep.friedman.statistic == pytest.approx(ref.statistic)
    assert rep.tables["ranks"]["system"].iloc[0] == "hidden_reference"
    assert len(rep.tables["pairwise"]) == 15  # 6 conditions, every pair
    assert (rep.tables["pairwise"]["p_holm"] >= rep.tables["pairwise"]["p_value"]).all()


def test_ranking_report_mean_ranks() -> None:
    rows = []
    for r in range(5):
        for i in range(4):
            order = ("a", "b", "c") if (r + i) % 4 else ("b", "a", "c")
            rows += [{"item_id": f"i{i}", "rater_id": f"r{r}", "value": str(k + 1), "role": "system",
                      "label": s} for k, s in enumerate(order)]
    frame = pd.DataFrame(rows)
    rep = listening_report(frame, "ranking")
    ranks = rep.tables["ranks"].set_index("system")
    expected = frame.assign(v=frame["value"].astype(float)).groupby("label")["v"].mean()
    for s in "abc":
        assert ranks.loc[s, "mean_rank"] == pytest.approx(expected[s])
    wide = frame.assign(v=frame["value"].astype(float)).pivot_table(
        index=["rater_id", "item_id"], columns="label", values="v")
    assert rep.friedman.statistic == pytest.approx(stats.friedmanchisquare(*wide.to_numpy().T).statistic)


def test_listening_report_rejects_other_templates() -> None:
    with pytest.raises(ValueError, match="not a listening-test template"):
        listening_report(pd.DataFrame({"item_id": [], "rater_id": [], "value": []}), "mos")
