"""quiz.scoring: points for a buzz, streaks, deadlines, round totals and the daily set (pure, no Django)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from datetime import date

import pytest

from quiz import scoring
from quiz.scoring import PointsRule, RoundItem


def test_scoring_does_not_import_django():
    code = ("import sys, quiz.scoring; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@pytest.mark.parametrize(("clue_index", "seconds", "durations", "expected"), [
    pytest.param(0, 0.0, [4.0, 4.0, 4.0, 4.0], 0.0, id="at-once"),
    pytest.param(0, 2.0, [4.0, 4.0, 4.0, 4.0], 0.125, id="half-of-first"),
    pytest.param(1, 0.0, [4.0, 4.0, 4.0, 4.0], 0.25, id="start-of-second"),
    pytest.param(3, 4.0, [4.0, 4.0, 4.0, 4.0], 1.0, id="end-of-last"),
    pytest.param(3, 60.0, [4.0, 4.0, 4.0, 4.0], 1.0, id="long-after-last-capped"),
    pytest.param(0, 3.0, [2.0, 6.0], 0.5, id="first-clue-over-counts-as-whole"),
    pytest.param(1, 3.0, [2.0, 6.0], 0.75, id="uneven-clues"),
    pytest.param(0, -5.0, [2.0], 0.0, id="negative-seconds-are-zero"),
    pytest.param(None, 1.0, [2.0], None, id="not-a-pyramid"),
])
def test_buzz_position(clue_index, seconds, durations, expected):
    assert scoring.buzz_position(clue_index, seconds, durations) == expected


# Quizbowl-style defaults: 10 for a correct answer, up to 10 more for buzzing early
# (linear in the share of the pyramid heard), 5 taken for a wrong buzz before the end.
@pytest.mark.parametrize(("outcome", "correct", "position", "expected"), [
    pytest.param("answer", True, 0.0, 20, id="right-at-once"),
    pytest.param("answer", True, 0.25, 18, id="right-early-half-up"),  # 10 + 7.5 -> 8 (half up)
    pytest.param("answer", True, 0.5, 15, id="right-halfway"),
    pytest.param("answer", True, 1.0, 10, id="right-at-the-end"),
    pytest.param("answer", True, None, 10, id="right-not-pyramid"),
    pytest.param("answer", False, 0.3, -5, id="wrong-early-neg"),
    pytest.param("answer", False, 1.0, 0, id="wrong-after-everything"),
    pytest.param("answer", False, None, 0, id="wrong-not-pyramid"),
    pytest.param("skip", False, 0.1, 0, id="skip-costs-nothing"),
    pytest.param("timeout", False, 0.1, 0, id="timeout-costs-nothing"),
])
def test_points_quizbowl_defaults(outcome, correct, position, expected):
    assert scoring.points(PointsRule(), outcome=outcome, correct=correct, position=position) == expected


def test_points_rule_is_configurable_and_penalty_optional():
    rule = PointsRule(correct=15, early_bonus=0, wrong_early=0)
    assert scoring.points(rule, outcome="answer", correct=True, position=0.0) == 15
    assert scoring.points(rule, outcome="answer", correct=False, position=0.0) == 0
    with pytest.raises(ValueError, match="wrong_early"):
        PointsRule(wrong_early=-1)
    with pytest.raises(ValueError, match="outcome"):
        scoring.points(rule, outcome="guess", correct=True, position=None)


def test_earlier_buzzes_never_score_less():
    rule = PointsRule()
    values = [scoring.points(rule, outcome="answer", correct=True, position=p / 100) for p in range(101)]
    assert values == sorted(values, reverse=True) and values[0] == 20 and values[-1] == 10


@pytest.mark.parametrize(("results", "current", "best"), [
    ([], 0, 0), ([True], 1, 1), ([True, True, False, True], 1, 2),
    ([False, True, True, True], 3, 3), ([True, False, False], 0, 1),
])
def test_streaks(results, current, best):
    assert scoring.streaks(results) == scoring.Streaks(current, best)


def test_deadline_adds_grace_and_zero_means_none():
    assert not scoring.deadline(10, 11.9).expired  # within the grace
    assert scoring.deadline(10, 10 + scoring.GRACE_S + 0.01).expired
    assert scoring.deadline(10, 4).remaining_s == 6
    assert scoring.deadline(0, 1e9).limit_s is None and not scoring.deadline(0, 1e9).expired
    assert scoring.deadline(None, 5).remaining_s is None


def test_summarise_round():
    items = [RoundItem("Geo", "answer", True, 18), RoundItem("Music", "skip", False, 0),
             RoundItem("Geo", "answer", False, -5), RoundItem("Geo", "timeout", False, 0),
             RoundItem("Music", "answer", True, 10)]
    s = scoring.summarise(items)
    assert (s.n, s.n_correct, s.n_skipped, s.n_timeout, s.points) == (5, 2, 1, 1, 23)
    assert s.accuracy == 0.4
    assert s.streaks == scoring.Streaks(1, 1)
    assert s.by_category == (("Geo", 3, 1), ("Music", 2, 1))
    assert scoring.summarise([]).accuracy is None


def test_daily_set_is_sha256_of_project_day_and_question():
    keys = [f"q{i}" for i in range(30)]
    day = date(2026, 12, 2)
    by_hand = sorted(keys, key=lambda k: hashlib.sha256(f"earshot-daily:demo:2026-12-02:{k}".encode()).hexdigest())
    assert scoring.daily_set("demo", day, keys, 5) == by_hand[:5]


def test_daily_set_does_not_depend_on_order_duplicates_or_process():
    keys = [f"q{i}" for i in range(40)]
    day = date(2026, 12, 2)
    first = scoring.daily_set("demo", day, keys, 5)
    assert scoring.daily_set("demo", day, list(reversed(keys)) + keys[:3], 5) == first
    code = ("from datetime import date; from quiz.scoring import daily_set; "
            f"print(daily_set('demo', date(2026, 12, 2), {keys!r}, 5))")
    for seed in ("0", "123"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout.strip()
        assert out == repr(first)
    assert scoring.daily_set("demo", date(2026, 12, 3), keys, 5) != first
    assert scoring.daily_set("other", day, keys, 5) != first
    assert len(scoring.daily_set("demo", day, keys[:3], 5)) == 3


def test_share_text_has_squares_and_no_answers():
    text = scoring.share_text(title="Earshot daily", day=date(2026, 12, 2), marks=[True, False, None, True],
                              points_total=23, url="https://x.test/p/demo/daily/")
    assert text == "Earshot daily 2026-12-02\n🟩🟥⬜🟩 2/4 · 23 pts\nhttps://x.test/p/demo/daily/"
