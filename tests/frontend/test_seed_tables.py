"""The seed-paper tables (Audita, KoALa, SEA-SpeechBench) on small hand-computed cases.

Intervals are checked against statsmodels (Wilson, Newcombe) and scipy (Student t,
numerical integration of the EAP posterior); every count and share below was worked
out by hand from the rows given.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from frontend import seed_audita, seed_irt, seed_koala, seed_sea
from frontend.seed_stats import mean_t, newcombe, wilson


@pytest.mark.parametrize(("k", "n"), [(0, 5), (3, 10), (10, 10), (37, 120)])
def test_wilson_matches_statsmodels(k, n):
    lo, hi = proportion_confint(k, n, method="wilson")
    assert wilson(k, n) == pytest.approx((lo, hi), abs=1e-12)


@pytest.mark.parametrize(("k1", "n1", "k2", "n2"), [(7, 10, 3, 10), (20, 50, 25, 40), (0, 8, 5, 9)])
def test_newcombe_matches_statsmodels(k1, n1, k2, n2):
    d, lo, hi = newcombe(k1, n1, k2, n2)
    ref = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff")
    assert d == pytest.approx(k1 / n1 - k2 / n2)
    assert (lo, hi) == pytest.approx(ref, abs=1e-12)


def test_mean_t_matches_scipy():
    x = [3.0, 4.0, 5.0, 4.5]
    n, m, _sd, lo, hi = mean_t(x)
    ref = stats.t.interval(0.95, 3, loc=np.mean(x), scale=stats.sem(x))
    assert (n, m) == (4, pytest.approx(4.125))
    assert (lo, hi) == pytest.approx(ref)
    assert math.isnan(mean_t([1.0])[3])


# ----------------------------------------------------------------------------- Audita


def test_bank_composition_by_source_and_category():
    q = pd.DataFrame([
        {"question_id": "a", "source": "S1", "category": "Music", "prompt": "one two three", "duration_s": 10.0, "n_clips": 1},
        {"question_id": "b", "source": "S1", "category": "Geo", "prompt": "one", "duration_s": 9.0, "n_clips": 3},
        {"question_id": "c", "source": "S2", "category": "Music", "prompt": "one two", "duration_s": 5.0, "n_clips": 1},
        {"question_id": "d", "source": "S2", "category": "Music", "prompt": "a b c d", "duration_s": 7.0, "n_clips": 1},
    ])
    t = seed_audita.bank_composition(q, ["source"]).set_index("source")
    assert t.loc["S1", "questions"] == 2 and t.loc["S1", "share_of_bank"] == 0.5
    assert t.loc["S1", "clips"] == 4
    assert t.loc["S1", "mean_clip_duration_s"] == pytest.approx(19 / 4)
    assert t.loc["S1", "mean_question_words"] == 2.0
    assert t.loc["S2", "mean_clip_duration_s"] == 6.0
    assert t.loc["All", "questions"] == 4 and t.loc["All", "mean_clip_duration_s"] == pytest.approx(31 / 6)
    by_cat = seed_audita.bank_composition(q, ["category"]).set_index("category")
    assert by_cat.loc["Music", "share_of_bank"] == 0.75
    assert by_cat.loc["Music", "mean_question_chars"] == pytest.approx((13 + 7 + 7) / 3)


@pytest.mark.parametrize(("a", "t", "x", "mode"), [
    pytest.param(True, False, False, "solved", id="solved"),
    pytest.param(False, True, None, "perceptual", id="perceptual"),
    pytest.param(False, False, True, "audio-cue", id="audio-cue"),
    pytest.param(False, False, False, "knowledge", id="knowledge"),
    pytest.param(False, None, True, "undetermined", id="no-transcript"),
    pytest.param(None, True, True, "undetermined", id="no-audio"),
])
def test_failure_mode_classification(a, t, x, mode):
    assert seed_audita.classify(a, t, x) == mode


def test_failure_modes_counts_per_system():
    rows = []
    patterns = {"q1": (1, 0, 0), "q2": (0, 1, 0), "q3": (0, 0, 1), "q4": (0, 0, 0)}
    for qid, outcome in patterns.items():
        for cond, c in zip(("audio+text", "transcript-only", "text-only"), outcome, strict=True):
            rows.append({"system": "m", "question_id": qid, "condition": cond, "correct": c})
    rows.append({"system": "m2", "question_id": "q1", "condition": "audio+text", "correct": 0})
    rows.append({"system": "m2", "question_id": "q1", "condition": "transcript-only", "correct": 1})
    rows.append({"system": "m2", "question_id": "q1", "condition": "other", "correct": 1})
    table = seed_audita.failure_modes(pd.DataFrame(rows))
    m = table[table["system"] == "m"].set_index("failure_mode")
    assert m["questions"].to_dict() == {"solved": 1, "perceptual": 1, "audio-cue": 1, "knowledge": 1,
                                        "undetermined": 0}
    assert (m["n"] == 4).all() and m.loc["solved", "accuracy"] == 0.25
    assert m.loc["solved", "ci_low"] == pytest.approx(proportion_confint(1, 4, method="wilson")[0])
    everyone = table[table["system"] == "All"].set_index("failure_mode")
    assert everyone.loc["perceptual", "questions"] == 2 and everyone.loc["perceptual", "n"] == 5


def test_best_per_category_humans_and_models():
    per = pd.DataFrame([
        {"category": "Music", "kind": "human", "responder_id": 1, "label": "ann", "n": 4, "correct": 3},
        {"category": "Music", "kind": "human", "responder_id": 2, "label": "bob", "n": 8, "correct": 6},
        {"category": "Music", "kind": "human", "responder_id": 3, "label": "cy", "n": 1, "correct": 1},
        {"category": "Music", "kind": "model", "responder_id": 9, "label": "m (audio)", "n": 10, "correct": 4},
    ])
    t = seed_audita.best_per_category(per, min_answers=2, rank_by="accuracy").set_index("kind")
    assert t.loc["human", "label"] == "bob"  # 0.75 ties with ann; more answers wins; cy below min
    assert t.loc["human", "candidates"] == 2
    assert t.loc["model", "accuracy"] == 0.4
    # by the Wilson lower end, cy's 1/1 (0.207) loses to bob's 6/8 (0.409) even when allowed to compete
    w = seed_audita.best_per_category(per).set_index("kind")
    assert w.loc["human", "label"] == "bob" and w.loc["human", "candidates"] == 3
    assert seed_audita.best_per_category(per, rank_by="accuracy").set_index("kind").loc["human", "label"] == "cy"


def test_clue_curves_buzzes_and_per_clue_answers():
    rows = pd.DataFrame([
        # human A buzzes right after clue 2 of 3; human B buzzes wrong after clue 1
        {"kind": "human", "label": "A", "responder_id": 1, "question_id": "p", "clue_index": 1, "n_clues": 3, "correct": 1, "per_clue": False},
        {"kind": "human", "label": "B", "responder_id": 2, "question_id": "p", "clue_index": 0, "n_clues": 3, "correct": 0, "per_clue": False},
        # a model given 1, 2 and 3 clues: wrong, right, right
        {"kind": "model", "label": "m", "responder_id": 9, "question_id": "p", "clue_index": 0, "n_clues": 3, "correct": 0, "per_clue": True},
        {"kind": "model", "label": "m", "responder_id": 9, "question_id": "p", "clue_index": 1, "n_clues": 3, "correct": 1, "per_clue": True},
        {"kind": "model", "label": "m", "responder_id": 9, "question_id": "p", "clue_index": 2, "n_clues": 3, "correct": 1, "per_clue": True},
        # a model answered once with every clue heard (no clue index): counted at clue 3
        {"kind": "model", "label": "m2", "responder_id": 8, "question_id": "p", "clue_index": None, "n_clues": 3, "correct": 0, "per_clue": True},
    ])
    t = seed_audita.clue_curves(rows).set_index(["kind", "clue"])
    assert [t.loc[("human", k), "correct"] for k in (1, 2, 3)] == [0, 1, 1]
    assert [t.loc[("human", k), "n"] for k in (1, 2, 3)] == [2, 2, 2]
    assert [t.loc[("model", k), "n"] for k in (1, 2, 3)] == [1, 1, 2]
    assert t.loc[("model", 3), "accuracy"] == 0.5


# ------------------------------------------------------------------------------ KoALa


def test_faithfulness_cases_and_score():
    pairs = pd.DataFrame([
        {"system": "m", "question_id": "1", "factual_correct": True, "cf_follows": True, "cf_says_factual": False},
        {"system": "m", "question_id": "2", "factual_correct": True, "cf_follows": False, "cf_says_factual": True},
        {"system": "m", "question_id": "3", "factual_correct": True, "cf_follows": False, "cf_says_factual": False},
        {"system": "m", "question_id": "4", "factual_correct": False, "cf_follows": True, "cf_says_factual": False},
        {"system": "m", "question_id": "5", "factual_correct": False, "cf_follows": False, "cf_says_factual": False},
    ])
    cases = seed_koala.faithfulness_cases(pairs).set_index("case")
    assert cases["pairs"].to_dict() == {"case_1": 1, "case_2": 2, "case_3": 1, "case_4": 1}
    assert (cases["n"] == 5).all()
    sf = seed_koala.faithfulness(pairs).iloc[0]
    assert sf["sf_score"] == pytest.approx(2 / 5)
    assert sf["sf_known"] == pytest.approx(1 / 3) and sf["known_n"] == 3
    assert sf["override"] == 1
    assert (sf["sf_ci_low"], sf["sf_ci_high"]) == pytest.approx(proportion_confint(2, 5, method="wilson"))


def test_accuracy_by_metadata_field():
    rows = pd.DataFrame([
        {"kind": "model", "label": "m", "evidence_position": "start", "correct": 1},
        {"kind": "model", "label": "m", "evidence_position": "start", "correct": 0},
        {"kind": "model", "label": "m", "evidence_position": "end", "correct": 1},
        {"kind": "model", "label": "m", "evidence_position": None, "correct": 0},
    ])
    t = seed_koala.accuracy_by(rows, "evidence_position").set_index("evidence_position")
    assert t.loc["start", "accuracy"] == 0.5 and t.loc["start", "n"] == 2
    assert t.loc["(none)", "n"] == 1 and t.loc["end", "accuracy"] == 1.0


def test_prompt_variants_mean_best_and_best_of_k():
    rows = pd.DataFrame([
        {"label": "m", "question_id": q, "prompt_variant": p, "correct": c}
        for q, p, c in [("1", "p1", 1), ("2", "p1", 0), ("3", "p1", 0), ("4", "p1", 0),
                        ("1", "p2", 1), ("2", "p2", 1), ("3", "p2", 0), ("4", "p2", 0),
                        ("1", "p3", 0), ("2", "p3", 0), ("3", "p3", 1), ("4", "p3", 0)]
    ])
    t = seed_koala.prompt_variants(rows).iloc[0]
    assert t["k"] == 3 and t["questions"] == 4
    assert t["mean_accuracy"] == pytest.approx((0.25 + 0.5 + 0.25) / 3)
    assert t["best_prompt"] == "p2" and t["best_accuracy"] == 0.5 and t["best_n"] == 4
    assert t["best_of_k"] == 0.75  # questions 1, 2, 3 right under some prompt
    ref = stats.t.interval(0.95, 2, loc=np.mean([0.25, 0.5, 0.25]), scale=stats.sem([0.25, 0.5, 0.25]))
    assert (t["mean_ci_low"], t["mean_ci_high"]) == pytest.approx(ref)


# -------------------------------------------------------------------- SEA-SpeechBench


def test_duration_bins_half_open():
    rows = pd.DataFrame([
        {"kind": "model", "label": "m", "duration_s": d, "correct": c}
        for d, c in [(0.5, 1), (4.99, 0), (5.0, 1), (12.0, 1), (45.0, 0)]
    ])
    t = seed_sea.duration_bins(rows).set_index("bin")
    assert t.loc["0–5 s", "n"] == 2 and t.loc["0–5 s", "accuracy"] == 0.5
    assert t.loc["5–10 s", "n"] == 1 and t.loc["10–20 s", "n"] == 1 and t.loc["≥ 30 s", "n"] == 1
    assert "20–30 s" not in t.index


def test_prompt_advantage_against_english():
    rows = pd.DataFrame(
        [{"label": "m", "prompt_language": "en", "correct": c} for c in [1, 1, 0, 0]]
        + [{"label": "m", "prompt_language": "th", "correct": c} for c in [1, 1, 1, 0]]
        + [{"label": "noref", "prompt_language": "th", "correct": 1}]
    )
    t = seed_sea.prompt_advantage(rows)
    assert list(t["label"]) == ["m"]
    row = t.iloc[0]
    assert row["pas"] == pytest.approx(0.25) and row["pas_relative"] == pytest.approx(0.5)
    ref = confint_proportions_2indep(3, 4, 2, 4, method="newcomb", compare="diff")
    assert (row["pas_ci_low"], row["pas_ci_high"]) == pytest.approx(ref, abs=1e-12)


# ---------------------------------------------------------------------------- IRT tables


def _posterior_mean(a, b, y):
    def lik(t):
        p = 1 / (1 + np.exp(-np.asarray(a) * (t - np.asarray(b))))
        return np.prod(np.where(np.asarray(y) == 1, p, 1 - p)) * stats.norm.pdf(t)
    z = integrate.quad(lik, -10, 10)[0]
    m = integrate.quad(lambda t: t * lik(t), -10, 10)[0] / z
    v = integrate.quad(lambda t: (t - m) ** 2 * lik(t), -10, 10)[0] / z
    return m, math.sqrt(v)


def test_eap_matches_numerical_integration():
    frame = pd.DataFrame({"r": [1, 1, 1, 2, 2], "a": [1.2, 0.8, 2.0, 1.0, 1.5],
                          "b": [-0.5, 0.3, 1.0, 0.0, -1.0], "correct": [1, 0, 1, 0, 0]})
    out = seed_irt.eap(frame, ["r"]).set_index("r")
    for r in (1, 2):
        sub = frame[frame["r"] == r]
        m, sd = _posterior_mean(sub["a"], sub["b"], sub["correct"])
        assert out.loc[r, "theta"] == pytest.approx(m, abs=1e-6)
        assert out.loc[r, "theta_sd"] == pytest.approx(sd, abs=1e-6)


def _responses():
    return pd.DataFrame([
        {"responder_id": 1, "kind": "human", "label": "h1", "question_id": "q1", "source": "S", "category": "C", "mode": "free", "correct": 1},
        {"responder_id": 1, "kind": "human", "label": "h1", "question_id": "q2", "source": "T", "category": "C", "mode": "mcq", "correct": 0},
        {"responder_id": 2, "kind": "human", "label": "h2", "question_id": "q1", "source": "S", "category": "C", "mode": "free", "correct": 0},
        {"responder_id": 9, "kind": "model", "label": "m", "question_id": "q1", "source": "S", "category": "C", "mode": "free", "correct": 1},
        {"responder_id": 9, "kind": "model", "label": "m", "question_id": "q2", "source": "T", "category": "C", "mode": "mcq", "correct": 1},
    ])


def test_theta_by_subset_models_and_humans():
    items = pd.DataFrame({"question_id": ["q1", "q2"], "a": [1.0, 2.0], "b": [0.0, 0.5]})
    abilities = pd.DataFrame({"responder_id": [1, 2, 9], "kind": ["human", "human", "model"],
                              "label": ["h1", "h2", "m"], "condition": ["", "", "audio+text"],
                              "theta": [0.2, -0.4, 1.0]})
    t = seed_irt.theta_by_subset(_responses(), items, abilities)
    s_model = t[(t["dimension"] == "source") & (t["value"] == "S") & (t["group"] == "m")].iloc[0]
    m, sd = _posterior_mean([1.0], [0.0], [1])
    assert s_model["theta"] == pytest.approx(m, abs=1e-6) and s_model["n"] == 1
    assert s_model["theta_high"] == pytest.approx(m + 1.96 * sd, abs=1e-6)
    s_humans = t[(t["dimension"] == "source") & (t["value"] == "S") & (t["group"] == seed_irt.HUMANS)].iloc[0]
    assert s_humans["responders"] == 2
    assert s_humans["theta"] == pytest.approx((m + _posterior_mean([1.0], [0.0], [0])[0]) / 2, abs=1e-6)
    cond = t[t["dimension"] == "condition"].set_index("value")
    assert cond.loc["human", "theta"] == pytest.approx(-0.1) and cond.loc["human", "n"] == 3
    assert cond.loc["audio+text", "theta"] == 1.0


def test_joint_modes_table_side_by_side():
    items = pd.DataFrame({"question_id": ["q1", "q2"], "mode": ["free", "mcq"], "a": [1.0, 2.0], "b": [0.0, 0.5]})
    abilities = pd.DataFrame({"responder_id": [1, 2, 9], "kind": ["human", "human", "model"], "theta": [0.2, -0.4, 1.0]})
    t = seed_irt.joint_modes_table(_responses(), items, abilities).set_index("label")
    assert t.loc["m", "free_n"] == 1 and t.loc["m", "free_accuracy"] == 1.0 and t.loc["m", "free_rank"] == 1
    assert t.loc["m", "mcq_theta"] == pytest.approx(_posterior_mean([2.0], [0.5], [1])[0], abs=1e-6)
    assert t.loc["m", "joint_theta"] == 1.0
    assert t.loc[seed_irt.HUMANS, "free_n"] == 2 and t.loc[seed_irt.HUMANS, "free_accuracy"] == 0.5
    assert t.loc[seed_irt.HUMANS, "joint_theta"] == pytest.approx(-0.1)
