"""Judge-human agreement: statistics against references, the report, page/exports, label import."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from scipy.stats import chi2_contingency, spearmanr
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

from judging import agreement as ag
from judging.baseline import exact_match
from judging.models import HumanJudgement, JudgementSource
from tests.judging.django_fixtures import *  # noqa: F403
from tests.judging.django_fixtures import answer

# ------------------------------------------------------------------ pure statistics

# A hand-made 2x2 table: tp=20, fn=5, fp=10, tn=15 (rows: human correct/wrong).
HUMAN = [True] * 25 + [False] * 25
JUDGE = [True] * 20 + [False] * 5 + [True] * 10 + [False] * 15


def test_confusion_hand_table():
    assert ag.confusion(HUMAN, JUDGE) == {"tp": 20, "fp": 10, "fn": 5, "tn": 15}


def test_kappa_and_mcc_hand_computed():
    # p_o = 35/50 = .7; p_e = .5*.6 + .5*.4 = .5; kappa = .2/.5 = .4
    assert ag.cohen_kappa(HUMAN, JUDGE) == pytest.approx(0.4)
    # MCC = (20*15 - 10*5) / sqrt(30*25*20*25) = 250 / sqrt(375000)
    assert ag.matthews(HUMAN, JUDGE) == pytest.approx(250 / math.sqrt(375_000))
    assert ag.judge_agreement("x", HUMAN, JUDGE).accuracy == pytest.approx(0.7)


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed-{s}") for s in (0, 1, 2, 3)])
def test_kappa_and_mcc_match_references(seed):
    rng = np.random.default_rng(seed)
    human = rng.random(300) < 0.6
    judge = np.where(rng.random(300) < 0.8, human, ~human)
    c = ag.confusion(human, judge)
    table = np.array([[c["tp"], c["fn"]], [c["fp"], c["tn"]]])
    assert ag.cohen_kappa(human, judge) == pytest.approx(sm_kappa(table).kappa, abs=1e-12)
    chi2 = chi2_contingency(table, correction=False)[0]
    phi = math.sqrt(chi2 / table.sum())
    assert ag.matthews(human, judge) == pytest.approx(phi, abs=1e-12)  # positive association here


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed-{s}") for s in (0, 1, 2)])
def test_spearman_matches_scipy_with_ties(seed):
    rng = np.random.default_rng(seed)
    human = rng.integers(0, 6, size=80)           # 0-5 scores: many ties
    judge = np.clip(human + rng.normal(0, 1.5, size=80), 0, 1)
    assert ag.spearman(human, judge) == pytest.approx(spearmanr(human, judge).statistic, abs=1e-12)


@pytest.mark.parametrize(
    ("human", "judge", "kappa", "mcc"),
    [
        pytest.param([True] * 4, [True] * 4, None, None, id="all-agree-constant"),
        pytest.param([True, False], [True, True], 0.0, None, id="judge-constant"),
        pytest.param([], [], None, None, id="empty"),
        pytest.param([True, False], [False, True], -1.0, -1.0, id="perfect-disagreement"),
    ],
)
def test_degenerate_cases(human, judge, kappa, mcc):
    assert ag.cohen_kappa(human, judge) == kappa
    assert ag.matthews(human, judge) == mcc


def test_spearman_undefined_for_constant():
    assert ag.spearman([1, 1, 1], [0.1, 0.2, 0.3]) is None
    assert ag.spearman([1], [1]) is None


def test_report_by_group_and_missing_judge():
    rows = [
        {"human_correct": True, "human_score": 5, "category": "A", "language": "en",
         "rules_correct": True, "rules_score": 0.9, "llm_correct": None},
        {"human_correct": False, "human_score": 1, "category": "A", "language": "ko",
         "rules_correct": True, "rules_score": 0.6, "llm_correct": False},
        {"human_correct": False, "human_score": None, "category": "B", "language": None,
         "rules_correct": False, "rules_score": 0.1, "llm_correct": False},
    ]
    report = ag.agreement_report(rows, ["rules", "llm"])
    rules, llm = report.overall
    assert (rules.n, rules.tp, rules.fp, rules.tn, rules.n_scored) == (3, 1, 1, 1, 2)
    assert rules.spearman == pytest.approx(1.0)
    assert (llm.n, llm.accuracy) == (2, 1.0)  # llm did not judge the first row
    assert set(report.groups["language"]) == {"en", "ko", "unknown"}
    assert [a.n for a in report.groups["category"]["A"]] == [2, 1]
    flat = ag.report_rows(report)
    assert flat[0]["scope"] == "overall" and {r["scope"] for r in flat} == {"overall", "category", "language"}
    json.dumps(report.as_dict())


@pytest.mark.parametrize(
    ("candidate", "answerline", "expected"),
    [
        pytest.param("the Canberra", "Canberra [accept Canberra, ACT]", True, id="article"),
        pytest.param("Bruce Wayne", "Batman [accept Bruce Wayne or Dark Knight]", True, id="accept"),
        pytest.param("Dvorak", "Dvořák", True, id="diacritics"),
        pytest.param("Canberra, Australia", "Canberra", False, id="not-exact"),
        pytest.param("", "Canberra", False, id="empty"),
        pytest.param("Paris", ["Paris", "City of Light"], True, id="list"),
    ],
)
def test_exact_match_baseline(candidate, answerline, expected):
    assert exact_match(candidate, answerline) is expected


# ------------------------------------------------------------- Django: rows, page, import


@pytest.fixture
def labelled(judged, people, imported):
    """Human labels on all four answers; the model's grey answer labelled correct."""
    from judging import services

    services.override_set(response=judged.alice_wrong, correct=False, quality=1, by=people.researcher)
    services.override_set(response=judged.bob_right, correct=True, quality=5, by=people.researcher)
    services.override_set(response=judged.model_grey, correct=True, quality=4, by=people.researcher)
    services.override_set(response=judged.model_right, correct=True, quality=5, by=people.researcher)
    return judged


@pytest.mark.django_db
def test_agreement_rows_and_numbers(labelled, imported):
    from judging.selectors import AGREEMENT_JUDGES, agreement_rows

    rows = agreement_rows(project=imported)
    assert len(rows) == 4
    report = ag.agreement_report(rows, AGREEMENT_JUDGES)
    by_judge = {a.judge: a for a in report.overall}
    rules = by_judge["rules"]
    # rules: right on alice (wrong), bob, Canberra; wrong on the grey model answer.
    assert (rules.tp, rules.fp, rules.fn, rules.tn) == (2, 0, 1, 1)
    assert rules.kappa == pytest.approx(sm_kappa([[2, 1], [0, 1]]).kappa)
    assert by_judge["llm"].n == 0 and by_judge["llm"].accuracy is None
    assert by_judge["exact"].tp == 2  # "Bruce Wayne" and "Canberra" match exactly


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["json", "csv", "page"])
def test_agreement_exports(client, labelled, people, fmt):
    client.force_login(people.researcher)
    url = reverse("judging:agreement", args=["t"]) + ("?n_boot=50" if fmt == "page" else f"?format={fmt}&n_boot=50")
    reply = client.get(url)
    assert reply.status_code == 200
    if fmt == "json":
        data = reply.json()
        assert data["n_labelled"] == 4 and data["judges"][0] == "exact" and data["judges"][1].startswith("rules@")
        overall = [c for c in data["cells"] if (c["language"], c["condition"], c["task"]) == ("all",) * 3]
        rules = next(c for c in overall if c["judge"].startswith("rules@"))
        assert (rules["tp"], rules["fp"], rules["fn"], rules["tn"]) == (2, 0, 1, 1)
        assert any(c["task"] == "Who's Who? Name That Persona" for c in data["cells"])
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(reply.content.decode())))
        assert rows[0]["language"] == "all" and rows[1]["judge"].startswith("rules@") and rows[1]["n"] == "4"
        assert reply["Content-Disposition"].endswith('t-judge-agreement.csv"')
    else:
        html = reply.content.decode()
        assert "Judge–human agreement" in html and "rules@" in html and "By language and condition" in html


@pytest.mark.django_db
def test_agreement_api(client, labelled, people):
    client.force_login(people.researcher)
    data = client.get(reverse("judging-agreement", args=["t"]) + "?n_boot=20").json()
    assert data["n_labelled"] == 4 and data["cells"][1]["judge"].startswith("rules@")


def _write(tmp_path, rows):
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


@pytest.mark.django_db
def test_import_labels(tmp_path, judged, imported):
    other = answer(imported, "gpt-audio", "q3", "Ode to Joy", condition="text-only")
    path = _write(tmp_path, [
        {"response_id": judged.alice_wrong.pk, "human_correct": False, "human_score": 1, "annotator": "a1"},
        {"question_id": "q3", "system": "gpt-audio", "condition": "text-only", "mode": "free",
         "human_correct": True},
    ])
    out = io.StringIO()
    call_command("judging_import_labels", str(path), "--project", "t", stdout=out)
    assert "2 human judgements added" in out.getvalue()
    got = HumanJudgement.objects.get(response=other)
    assert (got.correct, got.source) == (True, JudgementSource.IMPORT)
    call_command("judging_import_labels", str(path), "--project", "t", stdout=out)
    assert HumanJudgement.objects.count() == 2  # re-import adds nothing


@pytest.mark.django_db
def test_import_labels_reports_every_problem_and_writes_nothing(tmp_path, judged):
    path = _write(tmp_path, [
        {"response_id": judged.alice_wrong.pk, "human_correct": True},
        "{not json",
        {"response_id": 99999, "human_correct": True},
        {"response_id": judged.bob_right.pk, "human_correct": "yes"},
        {"response_id": judged.bob_right.pk, "human_correct": True, "human_score": 7},
        {"question_id": "nope", "system": "gpt-audio", "human_correct": True},
        {"question_id": "q1", "system": "ghost", "human_correct": True},
        {"human_correct": True},
    ])
    err = io.StringIO()
    with pytest.raises(CommandError, match="7 problem"):
        call_command("judging_import_labels", str(path), "--project", "t", stderr=err)
    lines = err.getvalue().splitlines()
    assert [line.split(":")[1] for line in lines] == ["2", "3", "4", "5", "6", "7", "8"]
    assert "labels.jsonl:5: human_score" in lines[3]
    assert not HumanJudgement.objects.exists()


@pytest.mark.parametrize("module", ["judging.agreement", "judging.agreement_report", "judging.baseline",
                                    "judging.demo_agreement", "judging.demo_llm", "judging.human_labels",
                                    "judging.llm", "judging.refusal", "judging.registry"])
def test_pure_modules_do_not_import_django(module):
    import subprocess
    import sys
    from pathlib import Path

    code = f"import sys, {module}; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"
