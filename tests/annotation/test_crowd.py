"""Time on item and the approval/bonus report (pure rules of annotation.crowd)."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

from annotation.crowd import (
    Participant,
    PaymentConfig,
    TimeOnItemConfig,
    payment_rows,
    time_on_item,
)


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure: no database."""


def _frame(rater: str, seconds: list[float], duration: float | None = 4.0) -> pd.DataFrame:
    return pd.DataFrame({"rater_id": rater, "item_id": [f"i{k}" for k in range(len(seconds))],
                         "elapsed_ms": [int(s * 1000) for s in seconds],
                         "duration_s": np.nan if duration is None else duration})


def test_time_on_item_thresholds_follow_the_clip_duration_and_the_floor():
    frame = pd.concat([
        _frame("honest", [5.0, 4.5, 6.0, 4.1, 7.0]),
        _frame("speedy", [1.0, 3.9, 0.5, 5.0, 2.0]),      # 4 of 5 under the 4 s clip
        _frame("text", [1.5, 2.5, 3.0, 2.2, 2.1], None),  # text items: the 2 s floor
        _frame("few", [0.1, 0.2]),                        # too few ratings to flag
    ])
    result = time_on_item(frame)
    r = result.raters
    assert result.flagged == ["speedy"]
    assert r.loc["speedy", ["n", "n_fast"]].tolist() == [5, 4] and r.loc["speedy", "fast_share"] == 0.8
    assert r.loc["text", "n_fast"] == 1 and not r.loc["text", "flagged"]  # 1/5 = 20 %, not more
    assert r.loc["few", "n_fast"] == 2 and not r.loc["few", "flagged"]
    assert r.loc["speedy", "median_s"] == 2.0
    assert r.loc["speedy", "reason"] == ("4 of 5 ratings faster than the item's threshold (80%, more than "
                                         "20%); median 2.0 s")
    thresholds = result.ratings.set_index(["rater_id", "item_id"])["threshold_s"]
    assert thresholds[("honest", "i0")] == 4.0 and thresholds[("text", "i0")] == 2.0
    assert "max(2 s, 1 × the item's audio duration)" in result.config.describe()


def test_time_on_item_counts_an_item_once_over_its_criteria():
    frame = pd.concat([_frame("a", [1.0, 1.0, 1.0])] * 3)  # three criteria per item
    assert time_on_item(frame).raters.loc["a", "n"] == 3


def test_time_on_item_config_is_validated():
    with pytest.raises(ValueError):
        TimeOnItemConfig(max_fast_share=1.5)


PEOPLE = [
    Participant("r1", "PID1", "completed"),
    Participant("r2", "PID2", "completed", excluded_by=("trap",)),
    Participant("r3", "PID3", "completed", excluded_by=("hidden_reference",)),
    Participant("r4", "PID4", "completed", flags=("too fast: 4 of 5 ratings",)),
    Participant("r5", "PID5", "screened_out", screening_reason="headphone check: 3 of 6 correct"),
    Participant("r6", "PID6", "no_work"),
    Participant("r7", "", ""),
]


def test_payment_rows_follow_outcomes_and_checks():
    rows = {r["rater_id"]: r for r in payment_rows(PEOPLE, PaymentConfig(bonus=Decimal("0.50")))}
    assert {k: (v["decision"], v["bonus"]) for k, v in rows.items()} == {
        "r1": ("approve", "0.50"), "r2": ("reject", "0.00"), "r3": ("approve", "0.00"),
        "r4": ("approve", "0.00"), "r5": ("screen_out", "0.00"), "r6": ("return", "0.00"),
        "r7": ("pending", "0.00")}
    assert rows["r2"]["reason"] == "failed the attention checks: trap"
    assert rows["r3"]["reason"] == "completed; no bonus: excluded by hidden_reference"
    assert rows["r4"]["reason"] == "completed; no bonus: too fast: 4 of 5 ratings"
    assert rows["r5"]["reason"] == "headphone check: 3 of 6 correct"
    assert rows["r7"]["participant_id"] == "r7"  # a direct-link annotator: the pseudonymous id
    assert list(rows["r1"]) == ["participant_id", "decision", "bonus", "reason", "rater_id", "outcome"]


def test_no_payment_without_the_work_it_pays_for():
    """Nobody who did not complete is approved or paid a bonus, whatever the config."""
    rows = payment_rows(PEOPLE, PaymentConfig(bonus=Decimal("5"), reject_on=frozenset()))
    for row in rows:
        if row["outcome"] != "completed":
            assert row["decision"] not in ("approve", "reject") and row["bonus"] == "0.00"
    assert {r["rater_id"]: r["decision"] for r in rows}["r2"] == "approve"  # not rejected when told so
