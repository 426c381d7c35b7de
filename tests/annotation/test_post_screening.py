"""MUSHRA post-screening (ITU-R BS.1534-3 §4.1.2) on a hand-built worked case.

Five listeners, each rating 10 or 20 MUSHRA items with a hidden reference (``ref``),
the 3.5 kHz and 7 kHz low-pass anchors and one system. The violations are placed by
hand, so the expected outcome can be read off the table below:

=====  =====  =====================  ======================  ==========================
rater  items  hidden ref < 90        7 kHz anchor > 90       BS.1534-3 says
=====  =====  =====================  ======================  ==========================
A      10     1 item (10 %)          0                       keep
B      10     2 items (20 %)         0                       exclude (hidden reference)
C      10     0                      2 items (20 %)          exclude (mid-range anchor)
D      10     5 items at exactly 90  5 items at exactly 90   keep (90 breaks no rule)
E      20     3 items (15 %)         3 items (15 %)          keep (15 % is not > 15 %)
=====  =====  =====================  ======================  ==========================
"""

from __future__ import annotations

import pandas as pd
import pytest

from annotation.post_screening import PostScreenConfig, mushra_post_screen


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure: no database."""


def _case() -> pd.DataFrame:
    plan = {  # rater: (n_items, {item: ref score}, {item: 7 kHz anchor score})
        "A": (10, {3: 80}, {}),
        "B": (10, {0: 70, 5: 89.9}, {}),
        "C": (10, {}, {1: 95, 2: 91}),
        "D": (10, {i: 90 for i in range(5)}, {i: 90 for i in range(5, 10)}),
        "E": (20, {0: 50, 1: 60, 2: 70}, {3: 100, 4: 99, 5: 92}),
    }
    rows = []
    for rater, (n, ref, mid) in plan.items():
        for item in range(n):
            rows += [
                {"rater_id": rater, "item_id": f"t{item}", "role": "hidden_reference", "condition": "ref",
                 "score": ref.get(item, 100)},
                {"rater_id": rater, "item_id": f"t{item}", "role": "anchor", "condition": "lp7000",
                 "score": mid.get(item, 55)},
                {"rater_id": rater, "item_id": f"t{item}", "role": "anchor", "condition": "lp3500",
                 "score": 95 if rater == "A" else 20},  # the low anchor is not a BS.1534 rule
                {"rater_id": rater, "item_id": f"t{item}", "role": "system", "condition": "sysX",
                 "score": 70},
            ]
    return pd.DataFrame(rows)


def test_worked_case_excludes_b_and_c_with_reasons():
    result = mushra_post_screen(_case())
    assert result.excluded_raters == ["B", "C"]
    by = {(e.rater_id, e.rule): e for e in result.exclusions}
    assert set(by) == {("B", "hidden_reference"), ("C", "mid_anchor")}
    b = by[("B", "hidden_reference")]
    assert (b.n_items, b.n_violations, b.share, b.excluded) == (10, 2, 0.2, True)
    assert b.reason == "rated the hidden reference below 90 in 2 of 10 items (20%, more than 15%)"
    c = by[("C", "mid_anchor")]
    assert (c.n_items, c.n_violations, c.share) == (10, 2, 0.2)
    assert "mid-range anchor above 90 in 2 of 10 items" in c.reason
    table = result.raters
    assert table.loc["A", "n_reference_below"] == 1 and not table.loc["A", "excluded"]
    assert table.loc["D", ["n_reference_below", "n_anchor_above"]].tolist() == [0, 0]
    assert table.loc["E", ["reference_share", "anchor_share"]].tolist() == [0.15, 0.15]
    assert table.loc["E", "reasons"] == "" and table.loc["B", "reasons"] == b.reason


def test_kept_drops_only_the_excluded_listeners_rows():
    ratings = _case()
    kept = mushra_post_screen(ratings).kept(ratings)
    assert sorted(kept["rater_id"].unique()) == ["A", "D", "E"]
    assert len(kept) == len(ratings[ratings["rater_id"].isin(["A", "D", "E"])])


def test_anchor_rule_can_be_a_flag_only():
    result = mushra_post_screen(_case(), PostScreenConfig(anchor_rule=False))
    assert result.excluded_raters == ["B"]
    flagged = [e for e in result.exclusions if e.rule == "mid_anchor"]
    assert [(e.rater_id, e.excluded) for e in flagged] == [("C", False)]
    assert flagged[0].reason.endswith("flagged only")


def test_items_without_a_mid_anchor_do_not_count_towards_its_share():
    ratings = _case()
    # C's anchor name differs: the mid-anchor rule has nothing to evaluate for anyone
    result = mushra_post_screen(ratings, mid_anchor_conditions={"anchor-mid"})
    assert result.excluded_raters == ["B"]
    assert (result.raters["n_items_anchor"] == 0).all() and result.raters["anchor_share"].isna().all()


def test_one_violation_in_few_items_is_already_more_than_15_percent():
    rows = [{"rater_id": "F", "item_id": f"t{i}", "role": "hidden_reference", "condition": "ref",
             "score": 85 if i == 0 else 100} for i in range(6)]
    result = mushra_post_screen(pd.DataFrame(rows))
    assert result.excluded_raters == ["F"]  # 1 of 6 = 16.7 %


@pytest.mark.parametrize("bad, message", [
    pytest.param({"score": 130}, "not a number from 0 to 100", id="above-100"),
    pytest.param({"score": "loud"}, "not a number from 0 to 100", id="not-numeric"),
])
def test_scores_off_the_scale_are_refused(bad, message):
    frame = _case().astype({"score": object})
    frame.loc[0, "score"] = bad["score"]
    with pytest.raises(ValueError, match=message):
        mushra_post_screen(frame)


def test_missing_columns_are_named():
    with pytest.raises(ValueError, match=r"missing column.*role"):
        mushra_post_screen(pd.DataFrame({"rater_id": [], "item_id": [], "condition": [], "score": []}))
