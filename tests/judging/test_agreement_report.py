"""Several judges side by side: statistics checked against scipy and statsmodels."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

from judging import agreement_report as ar


def _mcc_hand(h, j):
    tp = sum(a and b for a, b in zip(h, j, strict=True))
    tn = sum((not a) and (not b) for a, b in zip(h, j, strict=True))
    fp = sum((not a) and b for a, b in zip(h, j, strict=True))
    fn = sum(a and (not b) for a, b in zip(h, j, strict=True))
    return (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))


def _rows(seed=0, n=240):
    """Synthetic study: 3 languages x 2 conditions x 2 tasks, two judges of known quality."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        human = bool(rng.random() < 0.55)
        lang = ["th", "vi", "id"][i % 3]
        cond = ["eng-prompt", "native-prompt"][(i // 3) % 2]
        err_a = 0.08 if cond == "eng-prompt" else 0.2
        a = human if rng.random() > err_a else not human
        b = human if rng.random() > 0.3 else not human
        quality = int(np.clip(round((4 if human else 1) + rng.normal(0, 1)), 0, 5))
        rows.append({
            "response_id": i, "system": f"sys-{i % 4}", "model": f"sys-{i % 4}", "condition": cond,
            "language": lang, "task": ["trivia", "counting"][i % 2],
            "answer": "I'm sorry, I cannot answer that." if i % 17 == 0 else f"answer {i}",
            "human_correct": human, "human_score": quality, "effective_correct": human,
            "verdicts": {
                "A": {"correct": a, "score": float(a)},
                "B": {"correct": b, "score": None},
                "Q": {"correct": None, "score": float(np.clip(quality + rng.integers(-1, 2), 0, 5))},
            },
        })
    return rows


def _cell(cells, judge, language="all", condition="all", task="all"):
    return next(c for c in cells if (c.judge, c.language, c.condition, c.task) == (judge, language, condition, task))


def test_cells_match_references():
    rows = _rows()
    cells = ar.agreement_cells(rows, ["A", "B"], n_boot=200)
    for cond in ("eng-prompt", "native-prompt"):
        sub = [r for r in rows if r["condition"] == cond and r["language"] == "th"]
        h = [r["human_correct"] for r in sub]
        j = [r["verdicts"]["A"]["correct"] for r in sub]
        cell = _cell(cells, "A", "th", cond)
        table = [[cell.tp, cell.fn], [cell.fp, cell.tn]]
        assert cell.n == len(sub)
        assert cell.accuracy == pytest.approx(np.mean(np.array(h) == np.array(j)))
        assert cell.kappa == pytest.approx(sm_kappa(table).kappa)
        assert cell.mcc == pytest.approx(_mcc_hand(h, j))
        assert cell.mcc == pytest.approx(stats.pearsonr(np.array(h, float), np.array(j, float))[0])
        assert cell.accuracy_ci[0] <= cell.accuracy <= cell.accuracy_ci[1]


def test_spearman_of_scored_judge_and_binary_from_quality():
    rows = _rows()
    cell = _cell(ar.agreement_cells(rows, ["Q"], scales={"Q": "quality"}, n_boot=100), "Q")
    h = [r["human_score"] for r in rows]
    q = [r["verdicts"]["Q"]["score"] for r in rows]
    assert cell.spearman == pytest.approx(stats.spearmanr(h, q).statistic)
    assert cell.n_scored == len(rows)
    binary = [s >= 3 for s in q]
    assert cell.tp == sum(b and r["human_correct"] for b, r in zip(binary, rows, strict=True))


def test_margins_and_cell_keys():
    cells = ar.agreement_cells(_rows(), ["A"], n_boot=50)
    keys = {(c.language, c.condition, c.task) for c in cells}
    assert ("all", "all", "all") in keys and ("th", "all", "all") in keys
    assert ("th", "eng-prompt", "trivia") in keys and ("all", "native-prompt", "all") in keys
    assert cells[0].language == "all" and cells[0].condition == "all"  # overall first
    full = ar.agreement_cells(_rows(), ["A"], margins=False, n_boot=50)
    assert all("all" not in (c.language, c.condition, c.task) for c in full)
    assert sum(c.n for c in full) == 240


def test_bootstrap_is_seeded_and_order_independent():
    rows = _rows()
    a = ar.agreement_cells(rows, ["A", "B"], n_boot=300, seed=3)
    b = ar.agreement_cells(list(reversed(rows)), ["B", "A"], n_boot=300, seed=3)
    c = ar.agreement_cells(rows, ["A", "B"], n_boot=300, seed=4)
    key = lambda cells: {(x.judge, x.language, x.condition, x.task): x.kappa_ci for x in cells}  # noqa: E731
    assert key(a) == key(b)
    assert key(a) != key(c)


def test_bootstrap_interval_agrees_with_scipy_bootstrap():
    """Same estimator (percentile, paired resampling): intervals agree within Monte Carlo error."""
    rows = _rows(seed=1, n=400)
    h = np.array([r["human_correct"] for r in rows])
    j = np.array([r["verdicts"]["A"]["correct"] for r in rows])
    ours = ar.bootstrap_intervals(h, j, n_boot=4000, seed=11)

    def kappa(x, y):
        po = np.mean(x == y)
        pe = np.mean(x) * np.mean(y) + (1 - np.mean(x)) * (1 - np.mean(y))
        return (po - pe) / (1 - pe)

    def acc(x, y):
        return np.mean(x == y)

    for name, fn in (("kappa", kappa), ("accuracy", acc)):
        ref = stats.bootstrap((h, j), fn, paired=True, vectorized=False, n_resamples=4000,
                              method="percentile", random_state=np.random.default_rng(5))
        low, high = ours[name]
        assert low == pytest.approx(ref.confidence_interval.low, abs=0.015)
        assert high == pytest.approx(ref.confidence_interval.high, abs=0.015)


def test_bootstrap_matches_explicit_resampling_loop():
    """Multinomial draws of the 2x2 table = resampling rows: same interval as a naive loop."""
    rows = _rows(seed=2, n=80)
    h = np.array([r["human_correct"] for r in rows])
    j = np.array([r["verdicts"]["A"]["correct"] for r in rows])
    ours = ar.bootstrap_intervals(h, j, n_boot=6000, seed=9)
    idx = np.random.default_rng(1).integers(0, h.size, size=(6000, h.size))
    hh, jj = h[idx], j[idx]
    po = np.mean(hh == jj, axis=1)
    pe = hh.mean(1) * jj.mean(1) + (1 - hh.mean(1)) * (1 - jj.mean(1))
    kappas = (po - pe) / (1 - pe)
    for i in range(20):  # the loop's kappa is statsmodels' kappa
        table = [[np.sum(hh[i] & jj[i]), np.sum(hh[i] & ~jj[i])], [np.sum(~hh[i] & jj[i]), np.sum(~hh[i] & ~jj[i])]]
        assert kappas[i] == pytest.approx(sm_kappa(table).kappa)
    assert ours["kappa"] == pytest.approx(tuple(np.quantile(kappas, [0.025, 0.975])), abs=0.025)


def test_spearman_bootstrap_matches_index_resampling():
    """Weighted ranks of the distinct pairs = scipy's spearmanr on each resample (ties averaged)."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 6, 120).astype(float)
    y = np.clip(x + rng.integers(-2, 3, 120), 0, 5).astype(float)
    ux, xc = np.unique(x, return_inverse=True)
    uy, yc = np.unique(y, return_inverse=True)
    pairs, inverse = np.unique(np.stack([xc, yc], axis=1), axis=0, return_inverse=True)
    idx = rng.integers(0, x.size, size=(50, x.size))
    weights = np.stack([np.bincount(inverse.ravel()[i], minlength=len(pairs)) for i in idx]).astype(float)
    mine = ar._weighted_spearman(weights, pairs[:, 0], ux.size, pairs[:, 1], uy.size)
    ref = [stats.spearmanr(x[i], y[i]).statistic for i in idx]
    assert mine == pytest.approx(ref, abs=1e-12)
    low, high = ar.bootstrap_intervals([True] * 3, [True] * 3, x, y, n_boot=4000, seed=1)["spearman"]
    boot = stats.bootstrap((x, y), lambda a, b: stats.spearmanr(a, b).statistic, paired=True,
                           vectorized=False, n_resamples=2000, method="percentile",
                           random_state=np.random.default_rng(2))
    assert low == pytest.approx(boot.confidence_interval.low, abs=0.03)
    assert high == pytest.approx(boot.confidence_interval.high, abs=0.03)


def test_undefined_statistics_have_no_interval():
    out = ar.bootstrap_intervals([True] * 20, [True] * 20, n_boot=100)
    assert out["kappa"] is None and out["mcc"] is None and out["accuracy"] == (1.0, 1.0)
    assert ar.bootstrap_intervals([], [], n_boot=10)["accuracy"] is None
    assert set(ar.bootstrap_intervals([True, False], [True, True], n_boot=0).values()) == {None}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_kendall_tau_b_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, 12).astype(float)  # ties on purpose
    y = x + rng.integers(-2, 3, 12)
    assert ar.kendall_tau_b(x, y) == pytest.approx(stats.kendalltau(x, y).statistic)
    assert ar.kendall_tau_b([1, 1, 1], [1, 2, 3]) is None


def test_ranking_agreement_scores_ranks_and_correlations():
    rows = _rows()
    report = ar.ranking_agreement(rows, ["A", "B"])
    assert report.judges == ("human", "A", "B")
    for judge in ("A", "B"):
        for system in report.systems:
            mine = [r["verdicts"][judge]["correct"] for r in rows if r["system"] == system]
            assert report.scores[judge][system] == pytest.approx(np.mean(mine))
            assert report.n[judge][system] == len(mine)
    scores_h = [report.scores["human"][s] for s in report.systems]
    scores_a = [report.scores["A"][s] for s in report.systems]
    pair = next(p for p in report.pairs if (p.judge_a, p.judge_b) == ("human", "A"))
    assert pair.spearman == pytest.approx(stats.spearmanr(scores_h, scores_a).statistic)
    assert pair.kendall == pytest.approx(stats.kendalltau(scores_h, scores_a).statistic)
    best = max(report.systems, key=lambda s: report.scores["A"][s])
    assert report.ranks["A"][best] == 1.0


def test_ranking_ties_share_the_best_rank():
    rows = [{"system": s, "human_correct": None, "verdicts": {"J": {"correct": c}}}
            for s, c in [("a", True), ("b", True), ("c", False)]]
    report = ar.ranking_agreement(rows, ["J"])
    assert report.judges == ("J",)
    assert report.ranks["J"] == {"a": 1.0, "b": 1.0, "c": 3.0}


def test_refusal_report_rates_and_accuracy_on_answered():
    rows = [
        {"system": "m", "condition": "c", "answer": "I'm sorry, I cannot answer that.", "effective_correct": False},
        {"system": "m", "condition": "c", "answer": "抱歉，我无法识别这段音频", "effective_correct": False},
        {"system": "m", "condition": "c", "answer": "Canberra", "effective_correct": True},
        {"system": "m", "condition": "c", "answer": "Sydney", "effective_correct": False},
        {"system": "n", "condition": "c", "answer": "Canberra", "effective_correct": True},
    ]
    out = {r.system: r for r in ar.refusal_report(rows)}
    m = out["m"]
    assert (m.n, m.refused, m.refusal_rate, m.accuracy, m.accuracy_answered) == (4, 2, 0.5, 0.25, 0.5)
    assert "i cannot answer" in m.examples
    assert out["n"].refused == 0 and out["n"].accuracy_answered == 1.0


def test_study_report_is_json_ready():
    import json

    report = ar.study_report(_rows(), ["A", "B", "Q"], scales={"Q": "quality"}, n_boot=50)
    data = json.loads(json.dumps(report))
    assert data["n"] == 240 and data["n_labelled"] == 240
    assert {c["judge"] for c in data["cells"]} == {"A", "B", "Q"}
    assert data["ranking"]["judges"] == ["human", "A", "B", "Q"]
    assert data["refusals"][0]["refused"] > 0


def test_bootstrap_in_blocks_equals_one_draw(monkeypatch):
    """Large samples are resampled in blocks (bounded memory); the numbers do not change."""
    rows = _rows(seed=4, n=300)
    h = np.array([r["human_correct"] for r in rows])
    j = np.array([r["verdicts"]["A"]["correct"] for r in rows])
    q = np.array([r["human_score"] for r in rows], dtype=float)
    s = np.array([r["verdicts"]["Q"]["score"] for r in rows], dtype=float)
    whole = ar.bootstrap_intervals(h, j, q, s, n_boot=500, seed=2)
    monkeypatch.setattr(ar, "_BLOCK", 7 * 20)  # a handful of resamples per block
    assert ar.bootstrap_intervals(h, j, q, s, n_boot=500, seed=2) == whole
