"""Pooled Fleiss' κ, keep-if-every-criterion-passes and the QA-audit loop, hand-computed.

Fleiss' κ is checked against statsmodels' ``fleiss_kappa`` on the same count tables.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss
from statsmodels.stats.proportion import proportion_confint

from annotation.seed_audit import all_pass_decisions, pooled_kappa, qa_audit_loop


def _ratings(spec, **extra):
    """spec: {(item, criterion): [values of raters 1..n]}."""
    return pd.DataFrame([
        {"item_id": item, "rater_id": r, "criterion": crit, "value": v, **extra}
        for (item, crit), values in spec.items() for r, v in enumerate(values, start=1)
    ])


SPEC = {
    (1, "grammatical"): ["yes", "yes", "no"], (1, "plausible"): ["yes", "yes", "yes"],
    (2, "grammatical"): ["no", "no", "no"], (2, "plausible"): ["yes", "no", "no"],
    (3, "grammatical"): ["yes", "yes", "yes"], (3, "plausible"): ["no", "yes", "yes"],
    (4, "grammatical"): ["yes", "no", "yes"], (4, "plausible"): ["no", "no", "yes"],
}


def test_pooled_kappa_matches_statsmodels():
    table = pooled_kappa(_ratings(SPEC)).set_index("criterion")
    # count tables [yes, no] per item, by hand from SPEC
    gram = np.array([[2, 1], [0, 3], [3, 0], [2, 1]])
    plaus = np.array([[3, 0], [1, 2], [2, 1], [1, 2]])
    assert table.loc["grammatical", "kappa"] == pytest.approx(sm_fleiss(gram), abs=1e-12)
    assert table.loc["plausible", "kappa"] == pytest.approx(sm_fleiss(plaus), abs=1e-12)
    pooled = np.vstack([gram, plaus])
    assert table.loc["pooled", "kappa"] == pytest.approx(sm_fleiss(pooled), abs=1e-12)
    assert table.loc["pooled", "subjects"] == 8 and table.loc["pooled", "ratings"] == 24


def test_pooled_kappa_says_why_unequal_raters_give_none():
    spec = dict(SPEC)
    spec[(5, "grammatical")] = ["yes", "yes"]
    table = pooled_kappa(_ratings(spec)).set_index("criterion")
    assert np.isnan(table.loc["grammatical", "kappa"])
    assert "vary" in table.loc["grammatical", "reason"]


def test_all_pass_decisions_funnel():
    items, funnel = all_pass_decisions(_ratings(SPEC))
    # majority: item 1 (yes, yes), 2 (no, no), 3 (yes, yes), 4 (yes, no)
    assert sorted(items.loc[items["keep"], "item_id"]) == [1, 3]
    steps = funnel.set_index("step")
    assert steps.loc["rated", "kept"] == 4
    assert steps.loc["grammatical", "kept"] == 3 and steps.loc["plausible", "kept"] == 2
    assert steps.loc["all criteria", "kept"] == 2 and steps.loc["all criteria", "share"] == 0.5


def test_qa_audit_loop_flags_and_reaudits():
    first = _ratings(SPEC, batch="b1", round=1)
    good = _ratings({(10 + i, c): ["yes", "yes", "no"] for i in range(10) for c in ("grammatical", "plausible")},
                    batch="b2", round=1)
    fixed = _ratings({(2, c): ["yes", "yes", "yes"] for c in ("grammatical", "plausible")}
                     | {(4, c): ["yes", "yes", "no"] for c in ("grammatical", "plausible")},
                     batch="b1", round=2)
    table = qa_audit_loop(pd.concat([first, good, fixed], ignore_index=True)).set_index(["round", "batch"])
    b1 = table.loc[(1, "b1")]
    assert b1["items"] == 4 and b1["grammatical_passed"] == 3 and b1["plausible_rate"] == 0.5
    assert b1["status"] == "flagged: fix and re-audit" and b1["lowest_axis"] == "plausible"
    assert (b1["plausible_ci_low"], b1["plausible_ci_high"]) == pytest.approx(
        proportion_confint(2, 4, method="wilson"), abs=1e-12)
    assert table.loc[(1, "b2"), "status"] == "passed" and table.loc[(1, "b2"), "all_rate"] == 1.0
    assert table.loc[(2, "b1"), "items"] == 2 and table.loc[(2, "b1"), "status"] == "re-audit passed"


def test_seed_audit_imports_without_django():
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys, annotation.seed_audit\n"
            "print(sorted(k for k in sys.modules if k == 'django' or k.startswith('django.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"
