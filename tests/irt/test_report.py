"""Report tables against independent references (statsmodels, finite differences)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit
from statsmodels.stats.weightstats import DescrStatsW

from irt import report
from irt.fit import IrtResult
from irt.ids import IndexMap
from tests.irt._pure import _test_settings  # noqa: F401  (pure test: no Django settings)


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    """Three humans, two models, four items with hand-set parameters."""
    subj = IndexMap.from_ids(["h1", "h2", "h3", "m1", "m2"])
    items = IndexMap.from_ids(["q1", "q2", "q3", "q4"])
    theta = np.array([-0.5, 0.1, 0.7, 1.5, 0.9])
    sd = np.array([0.5, 0.4, 0.45, 0.1, 0.1])
    res = IrtResult(
        theta=theta, theta_sd=sd, theta_ci=np.stack([theta - 1.96 * sd, theta + 1.96 * sd], 1),
        a=np.array([1.0, 2.0, 0.1, 0.8]), a_sd=np.full(4, 0.1), b=np.array([-1.0, 0.0, 0.5, 3.5]),
        b_sd=np.full(4, 0.2), c=None, loss=np.zeros(1), method="map", model="2pl", seed=0,
        timings={}, n_obs=0,
    )
    responders = pd.DataFrame({
        "responder_id": ["h1", "h2", "h3", "m1", "m2"],
        "kind": ["human", "human", "human", "model", "model"],
        "name": ["p1", "p2", "p3", "GPT-x", "Qwen-y"], "condition": [None, None, None, "audio", "audio"],
    })
    meta = pd.DataFrame({
        "item_id": ["q1", "q2", "q3", "q4"], "category": ["music", "music", "film", "film"],
        "source": ["A", "A", "B", "B"], "question": ["?"] * 4, "answer": ["!"] * 4,
    })
    rows = [("h1", "q1", 1), ("h1", "q4", 0), ("h2", "q1", 1), ("h2", "q2", 0), ("h3", "q2", 1),
            ("h3", "q3", 0), ("m1", "q1", 1), ("m1", "q2", 1), ("m1", "q3", 1), ("m1", "q4", 1),
            ("m2", "q1", 1), ("m2", "q2", 0), ("m2", "q3", 1), ("m2", "q4", 0)]
    responses = pd.DataFrame(rows, columns=["responder_id", "item_id", "correct"])
    return res, subj, items, responders, meta, responses


def test_humans_vs_models_ci_matches_statsmodels(world) -> None:  # type: ignore[no-untyped-def]
    res, subj, _items, responders, _meta, responses = world
    t = report.humans_vs_models(res, subj, responders, responses).set_index("kind")
    lo, hi = DescrStatsW(res.theta[:3]).tconfint_mean(alpha=0.05)
    assert t.loc["human", "mean_theta_lo"] == pytest.approx(lo)
    assert t.loc["human", "mean_theta_hi"] == pytest.approx(hi)
    assert t.loc["human", "accuracy"] == pytest.approx(3 / 6)
    assert t.loc["model", "accuracy"] == pytest.approx(6 / 8)
    assert t.loc["model", "n_responders"] == 2 and "t-interval" in t.loc["model", "ci_method"]


def test_ranking_puts_models_and_human_population_in_order(world) -> None:  # type: ignore[no-untyped-def]
    res, subj, _items, responders, _meta, responses = world
    r = report.ranking(res, subj, responders, responses)
    assert list(r["entry"]) == ["GPT-x", "Qwen-y", "human population"]
    assert list(r["rank"]) == [1, 2, 3]
    assert r.iloc[2]["theta"] == pytest.approx(np.mean(res.theta[:3]))


def test_item_flags(world) -> None:  # type: ignore[no-untyped-def]
    res, _subj, items, responders, meta, responses = world
    f = report.item_flags(res, items, meta, responders, responses).set_index("item_id")
    assert set(f.index) == {"q3", "q4"}
    assert "low_a" in f.loc["q3", "reasons"] and "no_human_correct" in f.loc["q3", "reasons"]
    assert "extreme_b" in f.loc["q4", "reasons"]


def test_category_and_source_tables(world) -> None:  # type: ignore[no-untyped-def]
    res, _subj, items, responders, meta, responses = world
    c = report.category_difficulty(res, items, meta, responders, responses).set_index("category")
    assert c.loc["music", "mean_b"] == pytest.approx(-0.5)
    assert c.loc["music", "accuracy_human"] == pytest.approx(3 / 4)
    s = report.by_source_and_kind(res, items, meta, responders, responses)
    row = s[(s["source"] == "B") & (s["kind"] == "model")].iloc[0]
    assert row["accuracy"] == pytest.approx(3 / 4) and row["mean_b"] == pytest.approx(2.0)
    top, bottom = report.discriminating_items(res, items, meta, n=2)
    assert list(top["item_id"]) == ["q2", "q1"] and list(bottom["item_id"]) == ["q3", "q4"]


def test_icc_and_test_information_against_finite_differences(world) -> None:  # type: ignore[no-untyped-def]
    res = world[0]
    grid = np.array([-1.0, 0.0, 0.5])
    icc = report.item_characteristic_curves(res, [1], grid)
    np.testing.assert_allclose(icc["p"], expit(2.0 * grid))
    info = report.test_information(res, grid=grid)

    def loglik_curv(t: float) -> float:
        # expected negative second derivative of the test log-likelihood
        h = 1e-4
        tot = 0.0
        for a, b in zip(res.a, res.b, strict=True):
            p = expit(a * (t - b))
            for y, w in ((1, p), (0, 1 - p)):
                def f(x: float, a: float = a, b: float = b, y: int = y) -> float:
                    q = expit(a * (x - b))
                    return np.log(q) if y else np.log1p(-q)
                tot -= w * (f(t + h) - 2 * f(t) + f(t - h)) / h**2
        return tot

    np.testing.assert_allclose(info["information"], [loglik_curv(t) for t in grid], rtol=1e-4)
    np.testing.assert_allclose(info["se"], 1 / np.sqrt(info["information"]))


def test_responder_table_counts_answers(world) -> None:  # type: ignore[no-untyped-def]
    res, subj, _items, responders, _meta, responses = world
    t = report.responder_table(res, subj, responders, responses).set_index("responder_id")
    assert t.loc["m1", "n_answered"] == 4 and t.loc["m1", "accuracy"] == 1.0
    assert t.loc["h1", "kind"] == "human"
