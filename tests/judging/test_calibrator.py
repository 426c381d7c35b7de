"""Tests for the judge's calibrator: committed weights, the fit, CV metrics."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from judging import calibration, equivalence
from judging.calibration import (
    CALIBRATOR_PATH,
    FEATURE_NAMES,
    QUESTION_KIND_NAMES,
    Calibrator,
    load_calibrator,
    question_kind,
)
from judging.train_calibrator import (
    HAND_WEIGHTS,
    REPO_DATA_DIR,
    Row,
    analyze_rows,
    balanced_weights,
    choose_hand_weight,
    cross_validated_predictions,
    fit_logistic,
    grouped_folds,
    load_rows,
    main,
    metrics,
    nested_cross_validated_predictions,
)
from tests.judging.reference_data import DATA, needs_data


def test_committed_weights_load() -> None:
    data = json.loads(CALIBRATOR_PATH.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURE_NAMES
    cal = load_calibrator()
    assert cal.coef == tuple(float(x) for x in data["coef"])
    assert equivalence.CALIBRATOR.coef == cal.coef  # loaded once, at import
    assert len(cal.mean) == len(cal.scale) == len(FEATURE_NAMES)
    assert data["cv"]["grouped_by"] == "question"


def test_stale_weights_fall_back(tmp_path: Path) -> None:
    path = tmp_path / "calibrator.json"
    path.write_text(json.dumps({"features": ["other"], "mean": [0], "scale": [1],
                                "coef": [1], "intercept": 0}))
    cal = load_calibrator(path)
    assert len(cal.coef) == len(FEATURE_NAMES)
    assert load_calibrator(tmp_path / "missing.json").coef == cal.coef


def test_fit_logistic_matches_statsmodels() -> None:
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 3)) * np.array([1.0, 3.0, 0.5]) + np.array([0.0, 1.0, -2.0])
    logits = 0.3 + x @ np.array([1.2, -0.4, 2.0])
    y = rng.random(400) < 1 / (1 + np.exp(-logits))
    ours = fit_logistic(x, y, l2=0.0)
    ref = sm.Logit(y.astype(float), sm.add_constant(x)).fit(disp=0)
    p_ours = np.array([ours.probability(row) for row in x])
    np.testing.assert_allclose(p_ours, ref.predict(sm.add_constant(x)), atol=1e-4)
    # coefficients on the original scale
    np.testing.assert_allclose(np.array(ours.coef) / np.array(ours.scale), ref.params[1:],
                               rtol=1e-3)


def test_metrics_match_statsmodels_kappa() -> None:
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    pred = np.array([1, 1, 0, 0, 1, 0, 1, 1, 0, 1], dtype=bool)
    gold = np.array([1, 0, 0, 0, 1, 1, 1, 1, 0, 1], dtype=bool)
    table = np.array([[np.sum(~pred & ~gold), np.sum(~pred & gold)],
                      [np.sum(pred & ~gold), np.sum(pred & gold)]])
    m = metrics(pred, gold)
    assert m["accuracy"] == pytest.approx(0.8)
    assert m["f1"] == pytest.approx(2 * 5 / (2 * 5 + 1 + 1), abs=1e-4)
    assert m["kappa"] == pytest.approx(inter_rater.cohens_kappa(table).kappa, abs=1e-4)


def test_grouped_folds_keep_questions_together() -> None:
    groups = [f"q{i % 37}" for i in range(500)]
    folds = grouped_folds(groups, k=5, seed=3)
    for g in set(groups):
        assert len({folds[i] for i, h in enumerate(groups) if h == g}) == 1
    assert set(folds) == set(range(5))
    assert (grouped_folds(groups, k=5, seed=3) == folds).all()


@needs_data
def test_cross_validated_accuracy_on_fixed_subset_stays_above_floor() -> None:
    rows = load_rows(DATA, ["evouna_nq.jsonl"])
    questions = sorted({r.question for r in rows})[:300]
    keep = set(questions)
    subset = [r for r in rows if r.question in keep]
    analyses = analyze_rows(subset)
    correct, score = cross_validated_predictions(subset, analyses, k=5, seed=1)
    m = metrics(correct, [r.human_correct for r in subset])
    assert m["n"] == len(subset) > 1000
    assert m["accuracy"] >= 0.88, m
    assert ((score >= 0.5) == correct).mean() > 0.99


def test_train_cli_writes_weights(tmp_path: Path) -> None:
    rows = [
        Row("capital of australia", ("Canberra",), cand, ok, "t", "toy.jsonl")
        for cand, ok in [
            ("The capital is Canberra.", True), ("It is Sydney.", False),
            ("Canberra, I believe, is the capital city", True), ("Melbourne", False),
        ]
    ] + [
        Row(f"question {i}", (f"answer{i} word",), c, ok, "t", "toy.jsonl")
        for i in range(12)
        for c, ok in [(f"I'd say answer{i} word here", True), (f"something else {i}", False),
                      (f"maybe answer{i}", i % 2 == 0)]
    ]
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    with (data_dir / "toy.jsonl").open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps({"question": r.question, "references": list(r.references),
                                 "candidate": r.candidate, "human_correct": r.human_correct,
                                 "source": r.source}) + "\n")
    out = tmp_path / "cal.json"
    main(["--data", str(data_dir), "--out", str(out), "--folds", "3"])
    written = json.loads(out.read_text(encoding="utf-8"))
    cal = Calibrator.from_dict(written)
    assert len(cal.coef) == len(FEATURE_NAMES)
    assert written["cv"]["per_file"]["toy.jsonl"]["n"] == len(rows)


def test_hard_rule_rates_of_other_scripts() -> None:
    """Candidates in another script get their own rate per hard rule (issue 13: the
    English data sets' annotators accepted a fifth of the no-match answers, which
    made every Korean or Thai no-match look 12 % likely to be right); English
    candidates keep the rule's rate over all rows, and a rule never seen in another
    script falls back to it."""
    from judging.equivalence import candidate_script, judge
    from judging.features import Analysis
    from judging.train_calibrator import rule_rates

    def hard(rule: str, correct: bool) -> Analysis:
        return Analysis(rule, correct, False, None, "", ())

    rows = [hard("no-match", False)] * 20 + [hard("exact", True)] * 2
    labels = [True] * 10 + [False] * 10 + [True, True]
    scripts = [False] * 10 + [True] * 10 + [False, False]
    rates = rule_rates(rows, labels, scripts=scripts)
    # over all 20 rows: (10 + 10 * 0.05) / 30; the 10 in another script: (0 + 0.5) / 20
    assert rates["no-match"] == pytest.approx(10.5 / 30, abs=1e-4)
    assert rates["no-match|script"] == pytest.approx(0.5 / 20, abs=1e-4)
    assert "exact|script" not in rates
    assert rule_rates(rows, labels) == {k: v for k, v in rates.items() if "|" not in k}
    cal = Calibrator((), (), (), 0.0, rule_rates=tuple(rates.items()))
    assert cal.hard_score("no-match", False, script=True) == rates["no-match|script"]
    assert cal.hard_score("no-match", False) == rates["no-match"]
    assert cal.hard_score("exact", True, script=True) == rates["exact"]

    # the regime feature's reading: letters outside ASCII after folding
    assert candidate_script("서울") and candidate_script("東京")
    assert not candidate_script("Röntgen") and not candidate_script("Paris")
    # the shipped scores: the rate, moved by the question's kind (none here)
    shipped = dict(equivalence.CALIBRATOR.rule_rates)
    plain = Calibrator((), (), (), 0.0, rule_rates=equivalence.CALIBRATOR.rule_rates)
    v = judge("고양이", ["강아지"])  # (two Korean words; no place: rule 12n knows places)
    assert v.rule == "no-match" and v.score == equivalence.CALIBRATOR.hard_score(
        "no-match", False, True, question_kind(""))
    assert plain.hard_score("no-match", False, True) == shipped["no-match|script"]
    assert judge("Lyon", ["Paris"]).score == equivalence.CALIBRATOR.hard_score(
        "no-match", False, False, question_kind(""))


@pytest.mark.parametrize(("question", "kind"), [
    pytest.param("who wrote the iliad", (1, 0, 0, 0), id="who"),
    pytest.param("When did the war end?", (0, 1, 0, 0), id="when"),
    pytest.param("where is the eiffel tower", (0, 0, 1, 0), id="where"),
    pytest.param("what is the latest version of chrome", (0, 0, 1, 1), id="what-latest"),
    pytest.param("who won the last world cup?", (1, 0, 0, 1), id="who-last"),
    pytest.param("name the next king of england", (0, 0, 0, 1), id="next"),
    pytest.param("how many moons does mars have", (0, 0, 0, 0), id="how-many"),
    # "this" is recent only before a span of time: quiz questions name "this composer"
    pytest.param("Name this composer of The Planets.", (0, 0, 0, 0), id="name-this"),
    pytest.param("What is the tempo of this metronome?", (0, 0, 1, 0), id="what-this-thing"),
    pytest.param("where is the citrus bowl held this year", (0, 0, 1, 1), id="this-year"),
    pytest.param("where does this season's survivor take place", (0, 0, 1, 1),
                 id="this-seasons"),
    pytest.param("who won this", (1, 0, 0, 0), id="this-last-word"),
    pytest.param("Ai là người phát minh ra bóng đèn?", (0, 0, 0, 0), id="vi-no-kind"),
    pytest.param("", (0, 0, 0, 0), id="no-question"),
])
def test_question_kind_reads_the_first_word_and_recency(question: str,
                                                        kind: tuple[int, ...]) -> None:
    assert question_kind(question) == tuple(map(float, kind))


def test_question_terms_move_hard_scores_on_their_side() -> None:
    """``question_hard`` shifts a rule rate's logit by the kind's coefficients and a
    bias, per side, and never across 0.5."""
    rates = (("exact", 0.98), ("no-match", 0.1))
    zero = Calibrator((), (), (), 0.0, rule_rates=rates,
                      question_hard=((0.0,) * 5, (0.0,) * 5))
    assert zero.hard_score("no-match", False, kind=(1.0, 0, 0, 1.0)) == 0.1
    cal = Calibrator((), (), (), 0.0, rule_rates=rates,
                     question_hard=((0, 0, 0, 0, 0.0), (-1.0, 0, 0.5, 0, 0.2)))
    logit = np.log(0.1 / 0.9)
    who = cal.hard_score("no-match", False, kind=(1.0, 0, 0, 0))
    where = cal.hard_score("no-match", False, kind=(0, 0, 1.0, 0))
    assert who == pytest.approx(1 / (1 + np.exp(-(logit - 0.8))), abs=1e-4)
    assert where == pytest.approx(1 / (1 + np.exp(-(logit + 0.7))), abs=1e-4)
    assert cal.hard_score("exact", True, kind=(1.0, 0, 0, 0)) == 0.98
    huge = Calibrator((), (), (), 0.0, rule_rates=rates,
                      question_hard=((-50.0, 0, 0, 0, 0), (50.0, 0, 0, 0, 0)))
    assert huge.hard_score("exact", True, kind=(1.0, 0, 0, 0)) == 0.51
    assert huge.hard_score("no-match", False, kind=(1.0, 0, 0, 0)) == 0.49


def test_question_terms_shift_grey_scores_alike_in_batch_and_single() -> None:
    cal = Calibrator((), (), (), 0.0, platt=((1.0, 0.0), (1.0, 0.0)),
                     question_platt=(-1.0, 0.0, 0.5, 0.0))
    p = np.array([0.3, 0.6, 0.9])
    kinds = np.array([[1.0, 0, 0, 0], [0, 0, 1.0, 0], [0, 0, 0, 0]])
    batch = cal.scores(p, np.zeros(3), kinds)
    single = [cal.score(float(pi), 0.0, tuple(k)) for pi, k in zip(p, kinds, strict=True)]
    np.testing.assert_allclose(batch, single)
    assert single[0] == pytest.approx(1 / (1 + np.exp(-(np.log(0.3 / 0.7) - 1.0))))
    assert single[2] == pytest.approx(0.9)


def test_shipped_question_terms_load() -> None:
    shipped = json.loads(CALIBRATOR_PATH.read_text(encoding="utf-8"))
    assert tuple(shipped["question_kinds"]) == QUESTION_KIND_NAMES
    cal = equivalence.CALIBRATOR
    assert cal.question_platt == tuple(shipped["question_platt"])
    assert cal.question_hard == tuple(tuple(side) for side in shipped["question_hard"])
    # fitted on other question kinds: the terms are dropped, the rest still loads
    stale = dict(shipped, question_kinds=["q_other"])
    assert Calibrator.from_dict(stale).question_hard == ()


def test_fit_platt_matches_statsmodels_weighted_logit() -> None:
    """Platt scaling is a one-feature logistic regression: with no prior it is
    statsmodels' weighted binomial GLM (frequency weights) on the logits."""
    sm = pytest.importorskip("statsmodels.api")
    from judging.train_calibrator import fit_platt

    rng = np.random.default_rng(11)
    logits = rng.normal(size=600) * 2.0
    y = rng.random(600) < 1 / (1 + np.exp(-(0.6 * logits - 0.4)))
    w = np.where(np.arange(600) < 200, 3.0, 0.5)  # two "data sets", weighed alike
    a, b = fit_platt(logits, y, w, prior=0.0)
    ref = sm.GLM(y.astype(float), sm.add_constant(logits), family=sm.families.Binomial(),
                 freq_weights=w).fit()
    np.testing.assert_allclose([b, a], ref.params, rtol=1e-4, atol=1e-5)


def test_platt_maps_score_but_do_not_decide() -> None:
    """A grey case is decided by the regression's own probability and reported
    with its regime's Platt map (long candidates, then short ones)."""
    from judging.equivalence import _verdict
    from judging.features import Analysis

    feats = [0.0] * len(FEATURE_NAMES)
    cal = Calibrator(tuple(feats), tuple([1.0] * len(feats)), tuple(feats), 0.2,
                     platt=((1.0, -1.0), (2.0, 0.0)))
    p = 1 / (1 + np.exp(-0.2))  # ~0.55: correct at threshold 0.5
    long_v = _verdict(Analysis("fuzzy", None, False, None, "", tuple(feats)), cal)
    assert long_v.correct and long_v.score == pytest.approx(1 / (1 + np.exp(0.8)), abs=1e-4)
    feats[FEATURE_NAMES.index("short")] = 1.0
    short_v = _verdict(Analysis("fuzzy", None, False, None, "", tuple(feats)), cal)
    assert short_v.correct and short_v.score == pytest.approx(1 / (1 + np.exp(-0.4)), abs=1e-4)
    assert Calibrator((), (), (), 0.0).score(float(p), 1.0) == p  # no maps: the probability
    shipped = json.loads(CALIBRATOR_PATH.read_text(encoding="utf-8"))
    assert equivalence.CALIBRATOR.platt == tuple(tuple(ab) for ab in shipped["platt"])
    assert len(equivalence.CALIBRATOR.platt) == 2


# (candidate, answer): short candidates that add words to an answer, or drop some
ADDS_OR_DROPS = [
    ("London, Ontario", "London"),
    ("Cộng hòa Dominica", "Dominica"),
    ("New Guinea", "Papua New Guinea"),
    ("Golden Gate", "Golden Gate Bridge"),  # (Beverly Hills / Beverly Hills Cop: a rule since h-probe13)
    ("Washington State", "Washington, D.C."),  # a word added and one dropped
]


@pytest.mark.parametrize(("candidate", "answer"), ADDS_OR_DROPS)
def test_short_candidate_adding_or_dropping_words_scores_under_0_9(candidate: str,
                                                                    answer: str) -> None:
    # other entities a rule cannot see hide there: never scored as settled
    a = equivalence.analyze(candidate, [answer])
    assert a.hard is None and calibration.adds_or_drops(a.features)
    single = equivalence.judge(candidate, [answer])
    assert single.score <= calibration.ADD_DROP_CAP
    # the batch path (its array branch needs 64 grey pairs) gives the same score
    batch = equivalence.judge_many([candidate] * 70, [[answer]] * 70)
    assert {v.score for v in batch} == {single.score}


def test_adds_or_drops_leaves_the_same_words_and_long_candidates_alone() -> None:
    same = equivalence.analyze("the Star Wars", ["Star Wars"])
    long = equivalence.analyze("London is the city that hosted the 2012 Summer Olympics",
                               ["London"])
    assert not calibration.adds_or_drops(long.features)
    x = np.array([same.features, long.features,
                  equivalence.analyze("London, Ontario", ["London"]).features])
    assert calibration.adds_or_drops_many(x).tolist() == [
        calibration.adds_or_drops(row) for row in x]
    cal = Calibrator((), (), (), 0.0, platt=((1.0, 0.0), (1.0, 0.0)))
    capped = cal.scores(np.array([0.99, 0.99]), np.ones(2), None, np.array([True, False]))
    assert capped.tolist() == [calibration.ADD_DROP_CAP, pytest.approx(0.99)]


def test_a_hand_written_table_weighs_its_share_of_one_data_set() -> None:
    files = ["a"] * 90 + ["b"] * 10 + ["hand"] * 40
    hand = [False] * 100 + [True] * 40
    w = balanced_weights(files, hand, hand_weight=0.3)
    assert w.mean() == pytest.approx(1.0)
    assert w[:90].sum() == pytest.approx(w[90:100].sum())
    assert w[100:].sum() == pytest.approx(0.3 * w[:90].sum())
    assert (balanced_weights(files, hand, 1.0) == balanced_weights(files)).all()


def _toy_rows(n_questions: int, file: str, hand: bool, accept_rate: float) -> list[Row]:
    """Short answers that share no word with the reference (rule no-match) and exact
    ones; ``accept_rate`` of the former labelled correct, as annotators who accept
    unlisted answers would."""
    rows = []
    for i in range(n_questions):
        ref = f"answer{i} word"
        rows.append(Row(f"what is thing {i}", (ref,), ref, True, "t", file, hand))
        for j in range(3):
            rows.append(Row(f"what is thing {i}", (ref,), f"other{j} thing{i}",
                            (3 * i + j) % 10 < 10 * accept_rate, "t", file, hand))
    return rows


def test_the_hand_weight_is_the_one_whose_worst_file_ece_is_lowest() -> None:
    lenient = _toy_rows(60, "lenient.jsonl", False, 0.3)
    strict = _toy_rows(60, "strict.jsonl", False, 0.1)
    written = _toy_rows(60, "hand.jsonl", True, 0.0)
    analyses = analyze_rows(lenient + strict + written)
    best, worst = choose_hand_weight(lenient + strict + written, analyses, k=3, seed=1)
    assert set(worst) == set(HAND_WEIGHTS)
    assert worst[best] == min(worst.values())
    # Annotators of two sampled sets accept 3 and 1 in 10 rejected answers, the hand
    # table's author none. Counting the table as a full set scores rejections at
    # about (0.3 + 0.1 + 0) / 3, too low for the lenient set; not counting it at all,
    # (0.3 + 0.1) / 2, too high for the table. The worst file is best served between.
    assert HAND_WEIGHTS[-1] < best < 1.0
    assert worst[best] < worst[1.0] and worst[best] < worst[HAND_WEIGHTS[-1]]
    # Two sets alike in size, one of them hand-written: counting both fully already
    # puts the score halfway, which serves the worse of them best.
    two = lenient + _toy_rows(60, "hand.jsonl", True, 0.0)
    assert choose_hand_weight(two, analyze_rows(two), k=3, seed=1)[0] == 1.0
    # with no hand-written rows there is nothing to choose
    assert choose_hand_weight(lenient, analyses[:len(lenient)], k=3, seed=1) == (1.0, {})


def test_nested_cv_chooses_each_folds_weight_without_that_fold(monkeypatch) -> None:
    """The weight that scores fold f is chosen on the other folds' rows only, and fold
    f's scores are those of a plain k-fold run with that weight."""
    from judging import train_calibrator

    rows = _toy_rows(40, "sampled.jsonl", False, 0.3) + _toy_rows(40, "hand.jsonl", True, 0.0)
    analyses = analyze_rows(rows)
    seen: list[set[tuple[str, str, str]]] = []

    def spy(sub, _analyses, *args, **kwargs):
        seen.append({(r.file, r.question, r.candidate) for r in sub})
        return HAND_WEIGHTS[len(seen) % len(HAND_WEIGHTS)], {}

    monkeypatch.setattr(train_calibrator, "choose_hand_weight", spy)
    correct, score, chosen = nested_cross_validated_predictions(rows, analyses, k=3, seed=2)
    folds = grouped_folds([f"{r.file}\t{r.question}" for r in rows], 3, 2)
    for f in range(3):
        held = {(r.file, r.question, r.candidate) for r, g in zip(rows, folds, strict=True)
                if g == f}
        assert seen[f].isdisjoint(held) and len(seen[f]) == len(rows) - len(held)
        plain_c, plain_s = cross_validated_predictions(rows, analyses, 3, 2,
                                                       hand_weight=chosen[f])
        assert (correct[folds == f] == plain_c[folds == f]).all()
        assert np.allclose(score[folds == f], plain_s[folds == f])


def test_committed_calibrator_records_the_hand_weight() -> None:
    data = json.loads(CALIBRATOR_PATH.read_text(encoding="utf-8"))
    assert data["hand_weight"] in HAND_WEIGHTS
    assert len(data["cv"]["hand_weight_per_fold"]) == data["cv"]["k"]
    assert (REPO_DATA_DIR / "short_answers.jsonl").exists()
    # the choice is the minimax of the worst-file ECEs it records
    worst = {float(w): e for w, e in data["hand_weight_worst_ece"].items()}
    assert worst[data["hand_weight"]] == min(worst.values())
