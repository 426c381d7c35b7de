"""The agreement report's pages, exports and APIs, rubric page/API, and the demo study."""

from __future__ import annotations

import csv
import io
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from judging import demo_agreement, services
from judging.models import Rubric
from tests.judging.django_fixtures import *  # noqa: F403
from tests.judging.django_fixtures import answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def study(judged, people, imported, fake_llm):
    """Labels on every answer, a refusal, and two LLM judges' study verdicts."""
    refusal = answer(imported, "gpt-audio", "q3", "I'm sorry, but I cannot identify the audio.")
    for r, ok, q in [(judged.alice_wrong, False, 1), (judged.bob_right, True, 5), (judged.model_grey, True, 4),
                     (judged.model_right, True, 5), (refusal, False, 0)]:
        services.override_set(response=r, correct=ok, quality=q, by=people.researcher)
    services.llm_judge_run(project=imported, scope="all", config=services.llm_config(model="judge-a"))
    fake_llm.reply = lambda body: json.dumps({"correct": "Robin" in body["messages"][1]["content"]})
    services.llm_judge_run(project=imported, scope="all", config=services.llm_config(model="judge-b"))
    return judged


def test_report_json_has_cells_rankings_and_refusals(client, study, people):
    client.force_login(people.researcher)
    data = client.get(reverse("judging:agreement", args=["t"]) + "?format=json&n_boot=100&seed=1").json()
    judges = data["judges"]
    assert "llm:judge-a/verdict-v1" in judges and "llm:judge-b/verdict-v1" in judges
    overall = {c["judge"]: c for c in data["cells"] if (c["language"], c["condition"], c["task"]) == ("all",) * 3}
    a = overall["llm:judge-a/verdict-v1"]  # says correct to everything: 3 of 5 right
    assert (a["n"], a["tp"], a["fp"], a["accuracy"]) == (5, 3, 2, 0.6)
    assert a["accuracy_ci"][0] <= 0.6 <= a["accuracy_ci"][1]
    b = overall["llm:judge-b/verdict-v1"]  # correct only for "Robin": every call wrong
    assert (b["tp"], b["fp"], b["fn"], b["tn"]) == (0, 1, 3, 1)
    assert data["bootstrap"] == {"n_boot": 100, "seed": 1, "level": 0.95, "method": "percentile"}
    systems = {s["system"]: s for s in data["ranking"]["systems"]}
    assert set(systems) == {"gpt-audio (audio+text)"}  # rankings and refusals: model answers only
    refusals = data["refusals"][0]
    assert (refusals["n"], refusals["refused"], refusals["accuracy_answered"]) == (3, 1, 1.0)
    again = client.get(reverse("judging:agreement", args=["t"]) + "?format=json&n_boot=100&seed=1").json()
    assert again == data  # seeded


@pytest.mark.parametrize(
    ("table", "first"),
    [("cells", "judge"), ("ranking", "system"), ("pairs", "judge_a"), ("refusals", "system")],
)
def test_report_csv_tables(client, study, people, table, first):
    client.force_login(people.researcher)
    reply = client.get(reverse("judging:agreement", args=["t"]) + f"?format=csv&table={table}&n_boot=20")
    assert reply.status_code == 200
    rows = list(csv.DictReader(io.StringIO(reply.content.decode())))
    assert rows and first in rows[0]


def test_report_rejects_bad_parameters(client, study, people):
    client.force_login(people.researcher)
    url = reverse("judging:agreement", args=["t"])
    assert client.get(url + "?n_boot=99999").status_code == 400
    assert client.get(url + "?format=csv&table=nope").status_code == 400
    api = client.get(reverse("judging-agreement", args=["t"]) + "?seed=x")
    assert api.status_code == 400 and "n_boot" in api.json()


def test_report_page_shows_tables(client, study, people):
    client.force_login(people.researcher)
    html = client.get(reverse("judging:agreement", args=["t"]) + "?n_boot=20").content.decode()
    for text in ("SEA-SpeechBench Table 5", "Ranking agreement", "Refusals", "llm:judge-b/verdict-v1",
                 "i cannot identify"):
        assert text in html


def test_pages_and_apis_need_a_research_role(client, study, people):
    client.force_login(people.alice)
    assert client.get(reverse("judging:agreement", args=["t"])).status_code == 403
    assert client.get(reverse("judging:rubrics", args=["t"])).status_code == 403
    assert client.get(reverse("judging-rubrics", args=["t"])).status_code == 403
    client.force_login(people.outsider)
    assert client.get(reverse("judging-judges", args=["t"])).status_code == 404


def test_judges_api(client, study, people):
    client.force_login(people.researcher)
    data = client.get(reverse("judging-judges", args=["t"])).json()
    names = {j["name"]: j for j in data}
    assert names["llm:judge-a/verdict-v1"]["verdicts"] == 5
    assert names["llm:judge-a/verdict-v1"]["parameters"] == {"temperature": 0.0, "max_tokens": 200}


def test_rubric_api_versions(client, imported, people):
    client.force_login(people.researcher)
    url = reverse("judging-rubrics", args=["t"])
    body = {"name": "sqa", "purpose": "quality", "system": "Rate 0-5.", "user": "Q: $question A: $answer",
            "based_on": "quality"}
    assert client.post(url, body, content_type="application/json").status_code == 201
    assert client.post(url, body, content_type="application/json").status_code == 200  # unchanged
    body["system"] = "Rate 0-5 strictly."
    second = client.post(url, body, content_type="application/json").json()
    assert second["version"] == "2" and second["label"] == "sqa-v2"
    listing = client.get(url).json()
    assert [r["name"] for r in listing if r["builtin"]] == ["verdict", "quality", "score"]
    assert [r["version"] for r in listing if not r["builtin"]] == ["2"]
    versions = client.get(reverse("judging-rubric-versions", args=["t", "sqa"])).json()
    assert [v["version"] for v in versions] == ["2", "1"]
    bad = client.post(url, body | {"user": "no answer here"}, content_type="application/json")
    assert bad.status_code == 400 and "user" in bad.json()
    assert client.get(reverse("judging-rubric-versions", args=["t", "nope"])).status_code == 404


def test_rubric_page_prefills_and_saves(client, imported, people):
    client.force_login(people.researcher)
    url = reverse("judging:rubrics", args=["t"])
    page = client.get(url + "?from=quality").content.decode()
    assert "rate the answer&#x27;s quality from 0 to 5" in page or "quality from 0 to 5" in page
    reply = client.post(url, {"name": "sqa", "purpose": "quality", "system": "Rate 0-5.",
                              "user": "$question / $answer", "note": "first", "based_on": "quality"})
    assert reply.status_code == 302 and Rubric.objects.get().label == "sqa-v1"
    reply = client.post(url, {"name": "sqa", "purpose": "quality", "system": "Rate.", "user": "$question"})
    assert reply.status_code == 200 and "must contain $answer" in reply.content.decode()
    assert Rubric.objects.count() == 1
    page = client.get(url).content.decode()
    assert "sqa-v1" in page and "first" in page


def test_demo_agreement_reproduces_table_shapes(fake_llm, tmp_path, settings):
    """SEA Table 5 (judge x language x prompt condition) and Table 14 (ranks) on the demo study."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    fake_llm.reply = demo_agreement.simulated_judge_reply
    out, path = StringIO(), tmp_path / "report.json"
    call_command("judging_demo_agreement", "--base-url", fake_llm.url, "--n-boot", "200",
                 "--json", str(path), stdout=out)
    report = json.loads(path.read_text())
    text = out.getvalue()
    assert "SEA Table 5 shape" in text and "SEA Table 14 shape" in text
    judges = ["llm:judge-a/verdict-v1", "llm:judge-b/verdict-v1"]
    cells = {(c["judge"], c["language"], c["condition"]): c for c in report["cells"] if c["task"] == "all"}
    for judge in judges:
        for lang in demo_agreement.LANGUAGES:
            for cond in demo_agreement.CONDITIONS:
                cell = cells[(judge, lang, cond)]
                assert cell["n"] > 0 and cell["kappa_ci"] is not None
    # judge-b errs more on native-language answers (30 % vs 6 %): it shows in kappa.
    b_eng, b_native = cells[(judges[1], "all", "eng-prompt")], cells[(judges[1], "all", "native-prompt")]
    assert b_eng["kappa"] > b_native["kappa"]
    ranking = report["ranking"]
    assert ranking["judges"][0] == "human" and set(judges) <= set(ranking["judges"])
    assert len(ranking["systems"]) == 6
    pair = next(p for p in ranking["pairs"] if {p["judge_a"], p["judge_b"]} == set(judges))
    assert pair["n_systems"] == 6 and pair["spearman"] > 0.5
    assert any(r["refused"] for r in report["refusals"])
    calls = fake_llm.calls
    call_command("judging_demo_agreement", "--base-url", fake_llm.url, "--n-boot", "0", stdout=StringIO())
    assert fake_llm.calls == calls  # a second build is all cached
