"""Item banks on PostgreSQL: freeze a fit, score stored and new responders (service,
API with its permission matrix, ``irt_score`` command)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from tests.irt import django_helpers as helpers

_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data
fast_fit = helpers.fast_fit
succeeded_fit = helpers.succeeded_fit

pytestmark = pytest.mark.django_db


@pytest.fixture
def bank(succeeded_fit):
    from irt.bank_services import irt_bank_create

    return irt_bank_create(fit=succeeded_fit, name="calibration-1")


def test_bank_freezes_the_fits_items(succeeded_fit, bank):
    from irt.models import BankItem

    items = {i.question_id: i for i in succeeded_fit.items.all()}
    frozen = list(BankItem.objects.filter(bank=bank))
    assert bank.n_items == len(frozen) == len(items) == 3
    for row in frozen:
        fitted = items[row.question_id]
        assert row.a == pytest.approx(fitted.a) and row.b == pytest.approx(fitted.b)
        assert row.sd_log_a == pytest.approx(fitted.a_sd / fitted.a) and row.sd_b == pytest.approx(fitted.b_sd)
        assert (row.c, row.d) == (0.0, 1.0)
    assert bank.mode == "free" and bank.fit_id == succeeded_fit.pk
    # the stand-in fit has one population: every kind that answered shares N(0, 1)
    assert bank.populations == {"human": [0.0, 1.0], "model": [0.0, 1.0]}


def test_bank_outlives_its_fit(bank, succeeded_fit):
    from irt.bank_selectors import bank_load

    succeeded_fit.delete()
    bank.refresh_from_db()
    assert bank.fit_id is None and bank_load(bank).n_items == 3


def test_bank_create_refuses_unfinished_fit_and_taken_name(irt_data, succeeded_fit, bank):
    from irt.bank_services import BankError, irt_bank_create
    from irt.models import ItemBank
    from irt.services import irt_fit_create

    queued = irt_fit_create(project=irt_data.project, options={"mode": "free"}, dispatch=False)
    with pytest.raises(BankError, match=r"fit: fit #\d+ has not succeeded"):
        irt_bank_create(fit=queued)
    with pytest.raises(BankError, match="name: a bank named 'calibration-1' already exists"):
        irt_bank_create(fit=succeeded_fit, name="calibration-1")
    assert ItemBank.objects.count() == 1


def test_scores_match_the_pure_function_on_stored_verdicts(irt_data, bank):
    """The selector feeds exactly the responder's free-form verdicts on bank questions
    (not the MCQ answer) to irt.bank.score_responder."""
    from irt.bank import score_responder
    from irt.bank_selectors import bank_load, bank_score_responders

    pure = bank_load(bank)
    human = irt_data.responders["human-a"]
    (got,) = bank_score_responders(bank, [human.pk])
    q = [irt_data.questions[k].pk for k in ("q1", "q2", "q3")]
    want = score_responder(pure, pure.index(q), [1, 0, 1], prior_loc=0.0, prior_scale=1.0, seed=human.pk)
    assert got.score == want and got.kind == "human" and got.score.n_answered == 3
    every = bank_score_responders(bank)
    assert [s.responder_id for s in every] == sorted(r.pk for r in irt_data.responders.values())


def _api(client, user, method, url, body=None):
    if user is not None:
        client.force_login(user)
    if method == "get":
        return client.get(url)
    return client.post(url, json.dumps(body or {}), content_type="application/json")


@pytest.fixture
def other_researcher(make_user):
    from accounts.models import Role
    from accounts.services import membership_set, project_create

    other = project_create(slug="elsewhere", name="Elsewhere")
    user = make_user(handle="res-elsewhere")
    membership_set(project=other, user=user, role=Role.RESEARCHER)
    return user


@pytest.mark.parametrize("endpoint", ["list", "create", "score"])
@pytest.mark.parametrize(
    ("who", "expected"),
    [
        pytest.param("researcher", {"list": 200, "create": 201, "score": 200}, id="researcher"),
        pytest.param("participant", 403, id="participant"),
        pytest.param("other", 404, id="other-project-researcher"),
        pytest.param("anonymous", "login", id="anonymous"),
    ],
)
def test_bank_api_permissions(client, irt_data, succeeded_fit, bank, other_researcher, endpoint, who, expected):
    from irt.models import ItemBank

    user = {"researcher": irt_data.researcher, "participant": irt_data.participant,
            "other": other_researcher, "anonymous": None}[who]
    base = f"/api/v1/projects/{irt_data.project.slug}/irt/banks/"
    method, url, body = {
        "list": ("get", base, None),
        "create": ("post", base, {"fit": succeeded_fit.pk, "name": "second"}),
        "score": ("post", f"{base}{bank.pk}/score/", {}),
    }[endpoint]
    resp = _api(client, user, method, url, body)
    if expected == "login":
        assert resp.status_code in (401, 403)
    else:
        want = expected[endpoint] if isinstance(expected, dict) else expected
        assert resp.status_code == want, resp.content
    if who != "researcher":
        assert ItemBank.objects.count() == 1


def test_api_scores_new_answers_and_names_bad_input(client, irt_data, bank):
    base = f"/api/v1/projects/{irt_data.project.slug}/irt/banks/{bank.pk}/score/"
    q1, q3 = irt_data.questions["q1"].pk, irt_data.questions["q3"].pk
    resp = _api(client, irt_data.researcher, "post", base,
                {"answers": [{"question": q1, "correct": True}, {"question": q3, "correct": False}], "kind": "model"})
    assert resp.status_code == 200, resp.content
    (score,) = resp.json()["scores"]
    assert score["n_answered"] == 2 and score["n_correct"] == 1
    assert score["ci_low"] < score["theta"] < score["ci_high"] and score["sd"] >= score["sd_measurement"]
    bad = client.post(base, json.dumps({"answers": [{"question": 10**9, "correct": True}]}),
                      content_type="application/json")
    assert bad.status_code == 400 and f"{10**9}" in bad.json()["answers"][0]
    both = client.post(base, json.dumps({"answers": [], "responders": [1]}), content_type="application/json")
    assert both.status_code == 400
    stranger = client.post(base, json.dumps({"responders": [10**9]}), content_type="application/json")
    assert stranger.status_code == 400 and "responders" in stranger.json()
    scored = client.post(base, json.dumps({"responders": [irt_data.responders["model-A"].pk]}),
                         content_type="application/json").json()["scores"]
    assert [s["label"] for s in scored] == [irt_data.responders["model-A"].label]


def test_api_bank_of_another_project_is_404(client, irt_data, bank, other_researcher):
    resp = _api(client, other_researcher, "post", f"/api/v1/projects/elsewhere/irt/banks/{bank.pk}/score/", {})
    assert resp.status_code == 404


def test_irt_score_command_freezes_once_and_scores(irt_data, succeeded_fit, capsys):
    from irt.models import ItemBank

    call_command("irt_score", "--project", irt_data.project.slug, "--fit", str(succeeded_fit.pk), "--json")
    call_command("irt_score", "--project", irt_data.project.slug, "--fit", str(succeeded_fit.pk), "--json")
    assert ItemBank.objects.count() == 1
    out = capsys.readouterr().out
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(rows) == 8 and {r["kind"] for r in rows} == {"human", "model"}
    assert all(np.isfinite(r["theta"]) and r["sd"] > 0 for r in rows)


def test_irt_score_command_answers_file_errors_name_the_line(irt_data, bank, tmp_path, capsys):
    q1 = irt_data.questions["q1"].pk
    good = tmp_path / "new-model.jsonl"
    good.write_text(json.dumps({"question": q1, "correct": 1}) + "\n")
    call_command("irt_score", "--project", irt_data.project.slug, "--bank", str(bank.pk), "--answers", str(good))
    assert "new-model.jsonl" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"question": q1, "correct": 1}) + "\n" + json.dumps({"question": q1, "correct": 3}) + "\n")
    with pytest.raises(CommandError, match=r"bad.jsonl:2: correct"):
        call_command("irt_score", "--project", irt_data.project.slug, "--bank", str(bank.pk), "--answers", str(bad))
    with pytest.raises(CommandError, match="bank #999999 is not in project"):
        call_command("irt_score", "--project", irt_data.project.slug, "--bank", "999999")


def test_fit_report_and_page_carry_the_model_comparison(client, irt_data, succeeded_fit):
    """The worker stores the 1PL-4PL comparison; the report, its CSV and the page show it."""
    from irt.selectors import fit_report

    tables = fit_report(succeeded_fit)
    comp = tables["model_comparison"]
    assert list(comp["model"]) == ["1pl", "2pl", "3pl", "4pl"]
    np.testing.assert_allclose(comp["aic"], -2 * comp["log_lik"] + 2 * comp["n_params"])
    assert (comp["delta_bic"] >= 0).all() and (comp["delta_bic"] == 0).sum() >= 1
    # 3 items x (1, 2, 3, 4) parameters + the models' population mean and SD
    assert comp["n_params"].tolist() == [5, 8, 11, 14]
    assert len(tables["asymptotes"]) == 3 and tables["asymptotes"]["c_3pl"].between(0, 1).all()
    client.force_login(irt_data.researcher)
    page = client.get(f"/p/{irt_data.project.slug}/irt/{succeeded_fit.pk}/")
    assert page.status_code == 200 and "table-model_comparison" in page.content.decode()
    csv = client.get(f"/p/{irt_data.project.slug}/irt/{succeeded_fit.pk}/tables/model_comparison/?format=csv")
    assert csv.status_code == 200 and csv.content.decode().splitlines()[0].startswith("model,log_lik,n_params,aic,bic")


def test_model_comparison_is_skipped_above_the_limit(irt_data, fast_fit, settings):
    from irt.selectors import fit_report
    from irt.services import irt_fit_create, irt_fit_run

    settings.EARSHOT_IRT_COMPARE_MAX_OBS = 5
    fit = irt_fit_run(irt_fit_create(project=irt_data.project, options={"mode": "free"}, dispatch=False).pk)
    assert fit.result["model_comparison"]["rows"] == []
    assert "not computed: 11 responses > 5" in fit.result["model_comparison"]["note"]
    assert fit_report(fit)["model_comparison"].empty
