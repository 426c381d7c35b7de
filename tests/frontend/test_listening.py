"""frontend.listening: the server's verdict on a player's played-intervals report."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from frontend.listening import (
    EvidenceError,
    check_evidence,
    heard_seconds,
    merge_intervals,
    parse_intervals,
)

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.mark.parametrize(("intervals", "merged"), [
    pytest.param([], [], id="empty"),
    pytest.param([(0, 1), (1, 2)], [(0, 2)], id="touching"),
    pytest.param([(2, 3), (0, 1.5), (1, 2.5)], [(0, 3)], id="overlapping-unsorted"),
    pytest.param([(0, 1), (0, 1)], [(0, 1)], id="replay-counts-once"),
    pytest.param([(0, 1), (2, 3)], [(0, 1), (2, 3)], id="gap-kept"),
])
def test_merge_intervals(intervals, merged):
    assert merge_intervals(intervals) == merged
    assert heard_seconds(intervals) == pytest.approx(sum(e - s for s, e in merged))


@pytest.mark.parametrize("raw", [
    pytest.param("0-3", id="not-a-list"),
    pytest.param([[0]], id="short-pair"),
    pytest.param([[0, 1, 2]], id="long-pair"),
    pytest.param([["0", 1]], id="string"),
    pytest.param([[True, 1]], id="bool"),
    pytest.param([[0, float("nan")]], id="nan"),
    pytest.param([[0, float("inf")]], id="infinity"),
    pytest.param([[2, 1]], id="reversed"),
    pytest.param([[0, 0.01]] * 501, id="too-many"),
])
def test_parse_intervals_rejects_malformed_reports(raw):
    with pytest.raises(EvidenceError):
        parse_intervals(raw)
    check = check_evidence(raw, 3.0)
    assert not check.ok and check.heard_fraction is None and "not valid" in check.reason


@pytest.mark.parametrize(("played", "wall", "min_fraction", "ok", "fraction"), [
    pytest.param([[0, 3]], 3.2, 1.0, True, 1.0, id="whole-clip"),
    pytest.param([[0, 2.95]], 3.2, 1.0, True, 2.95 / 3, id="last-timeupdate-early"),
    pytest.param([[0, 1.5], [1.0, 3.0]], 4, 1.0, True, 1.0, id="replay-overlap"),
    pytest.param([[2.9, 3.0]], 3.2, 1.0, False, 0.1 / 3, id="seek-to-end"),
    pytest.param([[0, 1], [2.5, 3]], 3.2, 1.0, False, 0.5, id="skipped-middle"),
    pytest.param([[0, 1.6]], 2, 0.5, True, 1.6 / 3, id="half-required"),
    pytest.param([], 10, 1.0, False, 0.0, id="nothing-played"),
    pytest.param([], 10, 0.0, True, 0.0, id="not-required"),
    pytest.param([[0, 3]], 1.0, 1.0, False, 1.0, id="faster-than-the-clock"),
    pytest.param([[0, 3]], 1.0, 0.0, False, 1.0, id="clock-checked-even-if-not-required"),
    pytest.param([[-0.1, 3.1]], 3.5, 1.0, True, 1.0, id="rounding-at-the-edges-clipped"),
    pytest.param([[0, 30]], 40, 1.0, False, None, id="beyond-the-clip"),
    pytest.param([[-5, 3]], 40, 1.0, False, None, id="before-the-clip"),
])
def test_check_evidence_against_duration_and_timeline(played, wall, min_fraction, ok, fraction):
    check = check_evidence(played, 3.0, served_at=T0, submitted_at=at(wall), min_fraction=min_fraction)
    assert check.ok is ok, check.reason
    if fraction is None:
        assert check.heard_fraction is None
    else:
        assert check.heard_fraction == pytest.approx(fraction)
    assert (check.reason == "") is ok
    assert all(0 <= s < e <= 3.0 for s, e in check.intervals)


def test_check_evidence_reasons_are_plain_sentences():
    seek = check_evidence([[2.9, 3.0]], 3.0, served_at=T0, submitted_at=at(5))
    assert seek.reason.startswith("Please listen to the whole clip") and "3%" in seek.reason
    part = check_evidence([[0, 1]], 3.0, min_fraction=0.8)
    assert "at least 80% of the clip" in part.reason
    fast = check_evidence([[0, 3]], 3.0, served_at=T0, submitted_at=at(1))
    assert "too soon" in fast.reason


def test_check_evidence_without_a_usable_duration():
    assert not check_evidence([[0, 1]], 0).ok
    assert not check_evidence([[0, 1]], float("nan")).ok


def test_check_result_is_frozen():
    check = check_evidence([[0, 1]], 1.0)
    with pytest.raises(AttributeError):
        check.ok = False  # type: ignore[misc]


def test_listening_module_imports_no_django():
    code = "import sys, frontend.listening; assert 'django' not in sys.modules, 'django loaded'"
    subprocess.run([sys.executable, "-c", code], check=True)
