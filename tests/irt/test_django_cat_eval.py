"""Efficient model evaluation against a fit's bank: the API endpoint and ``irt_cat_eval``.

The full-evaluation theta is checked against scipy's quadrature of the 2PL posterior
under the fitted model population's prior; theta_k against the same quadrature over
the k items the endpoint says it asked.
"""

from __future__ import annotations

import json
from io import StringIO

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from scipy import integrate, stats
from scipy.optimize import minimize_scalar

from tests.irt import django_helpers as helpers

_test_settings = helpers.django_test_settings
pytestmark = pytest.mark.django_db

N_ITEMS = 80
PRIOR = (0.8, 0.6)  # the fitted model-system population (group 1)


@pytest.fixture
def cat_bank(project, make_user):
    """80 calibrated questions, a succeeded fit over them, and three model systems that
    answered (most of) them by the 2PL."""
    from accounts.models import Role
    from accounts.services import membership_set
    from irt.models import Fit, FitItem, FitStatus
    from quiz.models import Question
    from quiz.services import category_get_or_create, responder_for_model

    rng = np.random.default_rng(5)
    a, b = np.exp(rng.normal(0, 0.3, N_ITEMS)), rng.normal(0, 1, N_ITEMS)
    cat = category_get_or_create(project=project, name="Music")
    questions = Question.objects.bulk_create([
        Question(project=project, external_id=f"c{n:03d}", prompt="?", answerline="x", category=cat)
        for n in range(N_ITEMS)
    ])
    fit = Fit.objects.create(
        project=project, status=FitStatus.SUCCEEDED, mode="free", model="2pl", method="map",
        options={"mode": "free"}, finished_at=timezone.now(),
        result={"irt": {"group_params": {"mu": [0.0, PRIOR[0]], "sigma": [1.0, PRIOR[1]]}},
                "responder_ids": [], "question_ids": [q.pk for q in questions]},
    )
    FitItem.objects.bulk_create([
        FitItem(fit=fit, question=q, a=float(a[n]), b=float(b[n]), n_answered=100, p_correct=0.5)
        for n, q in enumerate(questions)
    ])
    systems = {}
    for name, theta in (("sys-low", 0.0), ("sys-mid", 0.9), ("sys-high", 1.8)):
        responder = responder_for_model(project=project, system_name=name, condition="audio+text")
        p = 1 / (1 + np.exp(-a * (theta - b)))
        y = rng.random(N_ITEMS) < p
        for n, q in enumerate(questions):
            if name == "sys-mid" and n % 10 == 0:
                continue  # some items without an output
            helpers.add_response(responder, q, "free", int(y[n]))
        systems[name] = responder
    researcher = make_user(handle="cat-res")
    membership_set(project=project, user=researcher, role=Role.RESEARCHER)
    return {"project": project, "fit": fit, "a": a, "b": b, "questions": questions, "systems": systems,
            "researcher": researcher}


def _reference_eap(a, b, y, prior=PRIOR) -> float:
    def log_post(t):
        p = 1 / (1 + np.exp(-a * (t - b)))
        return np.sum(np.where(y == 1, np.log(p), np.log(1 - p))) + stats.norm.logpdf(t, *prior)

    # scaled by the peak: quad's absolute tolerance would otherwise swallow an integrand of ~1e-20
    mode = minimize_scalar(lambda t: -log_post(t), bounds=(-6, 6), method="bounded").x
    peak = log_post(mode)
    z = integrate.quad(lambda t: np.exp(log_post(t) - peak), -8, 8, points=[mode], limit=200)[0]
    return integrate.quad(lambda t: t * np.exp(log_post(t) - peak), -8, 8, points=[mode], limit=200)[0] / z


def _answers(responder, qindex):
    from quiz.models import Response

    return dict(Response.objects.filter(responder=responder).values_list("question_id", "correct"))


def test_api_reports_theta_k_against_the_full_evaluation(client, cat_bank):
    client.force_login(cat_bank["researcher"])
    slug, fit = cat_bank["project"].slug, cat_bank["fit"]
    reply = client.get(f"/api/v1/projects/{slug}/irt/fits/{fit.pk}/cat-eval/?k=10,20,40")
    assert reply.status_code == 200, reply.content
    body = reply.json()
    assert body["k"] == [10, 20, 40] and body["n_bank"] == N_ITEMS and body["criterion"] == "fisher"
    assert (body["source"], body["id"]) == ("fit", fit.pk)
    assert [r["responder_label"] for r in body["results"]] == [
        "sys-low (audio+text)", "sys-mid (audio+text)", "sys-high (audio+text)"]
    qindex = {q.pk: n for n, q in enumerate(cat_bank["questions"])}
    a, b = cat_bank["a"], cat_bank["b"]
    for res, responder in zip(body["results"], cat_bank["systems"].values(), strict=True):
        answers = _answers(responder, qindex)
        assert res["n_answered"] == len(answers) and (res["prior_mean"], res["prior_sd"]) == PRIOR
        idx = np.array([qindex[q] for q in answers])
        y = np.array([int(v) for v in answers.values()])
        full = _reference_eap(a[idx], b[idx], y)
        for row in res["rows"]:
            assert row["theta_full"] == pytest.approx(full, abs=1e-6)
            asked = row["question_ids"]
            assert len(asked) == row["k"] == row["n_used"] and len(set(asked)) == row["k"]
            assert set(asked) <= set(answers)  # only what the system answered
            k_idx = np.array([qindex[q] for q in asked])
            k_y = np.array([int(answers[q]) for q in asked])
            assert row["theta_k"] == pytest.approx(_reference_eap(a[k_idx], b[k_idx], k_y), abs=1e-6)
            assert row["abs_diff"] == pytest.approx(abs(row["theta_k"] - row["theta_full"]))
            assert row["sd_k"] >= row["sd_full"] - 1e-9
        assert res["rows"][-1]["sd_k"] < res["rows"][0]["sd_k"]


def test_api_one_responder_and_bad_queries(client, cat_bank, make_user):
    from irt.models import Fit

    client.force_login(cat_bank["researcher"])
    slug, fit = cat_bank["project"].slug, cat_bank["fit"]
    base = f"/api/v1/projects/{slug}/irt/fits/{fit.pk}/cat-eval/"
    mid = cat_bank["systems"]["sys-mid"]
    one = client.get(f"{base}?responder={mid.pk}&k=5&criterion=kl").json()
    assert [r["responder"] for r in one["results"]] == [mid.pk] and one["criterion"] == "kl"
    assert client.get(f"{base}?k=0").status_code == 400
    assert client.get(f"{base}?k=ten").status_code == 400
    assert client.get(f"{base}?criterion=best").status_code == 400
    assert client.get(f"{base}?responders=1").status_code == 400  # unknown parameter
    assert "responder" in client.get(f"{base}?responder=999999").json()
    queued = Fit.objects.create(project=cat_bank["project"], mode="free", model="2pl")
    assert client.get(f"/api/v1/projects/{slug}/irt/fits/{queued.pk}/cat-eval/").status_code == 409


def test_command_prints_the_table_and_json(cat_bank):
    fit = cat_bank["fit"]
    out = StringIO()
    call_command("irt_cat_eval", "--project", cat_bank["project"].slug, "--fit", str(fit.pk), "--k", "10", "20",
                 stdout=out)
    text = out.getvalue()
    assert f"fit #{fit.pk} (2pl, free) as a bank of {N_ITEMS} items" in text
    assert text.count("sys-high") == 2 and "theta_full" in text
    out = StringIO()
    high = cat_bank["systems"]["sys-high"]
    call_command("irt_cat_eval", "--project", cat_bank["project"].slug, "--responder", str(high.pk), "--json",
                 stdout=out)  # default: the newest unfiltered free fit
    data = json.loads(out.getvalue())
    assert [r["k"] for r in data[0]["rows"]] == [10, 20, 40] and data[0]["responder"] == high.pk
    with pytest.raises(CommandError, match="no fit #999999"):
        call_command("irt_cat_eval", "--project", cat_bank["project"].slug, "--fit", "999999")
    with pytest.raises(CommandError, match="no succeeded mcq fit"):
        call_command("irt_cat_eval", "--project", cat_bank["project"].slug, "--mode", "mcq")


def _freeze(cat_bank):
    """The same items as a frozen ItemBank (irt-core's), model population N(0.8, 0.6)."""
    from irt.models import BankItem, ItemBank

    stored = ItemBank.objects.create(
        project=cat_bank["project"], fit=cat_bank["fit"], name="frozen", mode="free", model="2pl",
        populations={"human": [0.0, 1.0], "model": list(PRIOR)}, n_items=N_ITEMS,
    )
    BankItem.objects.bulk_create([
        BankItem(bank=stored, question=q, a=float(cat_bank["a"][n]), b=float(cat_bank["b"][n]))
        for n, q in enumerate(cat_bank["questions"])
    ])
    return stored


def test_a_frozen_bank_gives_the_same_evaluation_as_its_fit(client, cat_bank):
    stored = _freeze(cat_bank)
    client.force_login(cat_bank["researcher"])
    slug = cat_bank["project"].slug
    by_bank = client.get(f"/api/v1/projects/{slug}/irt/banks/{stored.pk}/cat-eval/?k=10,20").json()
    by_fit = client.get(f"/api/v1/projects/{slug}/irt/fits/{cat_bank['fit'].pk}/cat-eval/?k=10,20").json()
    assert (by_bank["source"], by_bank["id"], by_bank["n_bank"]) == ("bank", stored.pk, N_ITEMS)
    assert by_bank["results"] == by_fit["results"]
    assert client.get(f"/api/v1/projects/{slug}/irt/banks/999999/cat-eval/").status_code == 404
    out = StringIO()
    call_command("irt_cat_eval", "--project", slug, "--bank", str(stored.pk), "--k", "10", stdout=out)
    assert f"bank #{stored.pk} (2pl, free) as a bank of {N_ITEMS} items" in out.getvalue()


def test_adaptive_play_prefers_the_projects_frozen_bank(cat_bank):
    from irt.cat_selectors import bank_for_serving

    assert bank_for_serving(cat_bank["project"], ("free",)).source == "fit"
    stored = _freeze(cat_bank)
    chosen = bank_for_serving(cat_bank["project"], ("mcq", "free"))
    assert (chosen.source, chosen.source_id) == ("bank", stored.pk)
    assert bank_for_serving(cat_bank["project"], ("mcq",)) is None
