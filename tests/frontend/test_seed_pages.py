"""The seed-paper tables page, its CSV/JSON exports and its part of the report bundle,
rendered from imported data (a bank with a counterfactual key and metadata, plain and
variant model outputs) with the numbers a reader can check by hand."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from accounts.services import membership_set
from frontend import report_bundle
from quiz.services import bank_import, model_responses_import

pytestmark = pytest.mark.django_db


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


@pytest.fixture
def seeded(imported, bank_dir, tmp_path):
    rows = [json.loads(line) for line in (bank_dir / "bank.jsonl").read_text().splitlines()]
    rows[0]["counterfactual_answerline"] = "Sydney"
    for row, where in zip(rows, ("start", "end", "start"), strict=True):
        row["metadata"] = {"evidence_position": where}
    _write(bank_dir / "bank.jsonl", rows)
    bank_import(project=imported, path=bank_dir / "bank.jsonl")
    m = {"system": "m", "condition": "audio+text"}
    outputs = [
        {**m, "question_id": "q1", "mode": "free", "answer": "Canberra"},
        {**m, "question_id": "q2", "mode": "free", "answer": "Batman"},
        {**m, "question_id": "q3", "mode": "free", "answer": "Bolero"},
        {**m, "question_id": "q1", "mode": "mcq", "choice": "B"},
        {**m, "question_id": "q1", "mode": "free", "answer": "Sydney", "context": "counterfactual"},
        {**m, "question_id": "q3", "mode": "free", "answer": "Bolero", "clue_index": 0},
        {**m, "question_id": "q3", "mode": "free", "answer": "Ode to Joy", "clue_index": 1},
        {**m, "question_id": "q1", "mode": "free", "answer": "Canberra", "prompt_variant": "p1"},
        {**m, "question_id": "q2", "mode": "free", "answer": "Robin", "prompt_variant": "p1"},
        {**m, "question_id": "q1", "mode": "free", "answer": "Canberra", "prompt_variant": "p2"},
        {**m, "question_id": "q2", "mode": "free", "answer": "Batman", "prompt_variant": "p2"},
        {**m, "question_id": "q1", "mode": "free", "answer": "Canberra", "prompt_language": "en"},
        {**m, "question_id": "q2", "mode": "free", "answer": "Robin", "prompt_language": "en"},
        {**m, "question_id": "q1", "mode": "free", "answer": "Canberra", "prompt_language": "th"},
        {**m, "question_id": "q2", "mode": "free", "answer": "Batman", "prompt_language": "th"},
        {"system": "m", "condition": "transcript-only", "question_id": "q3", "mode": "free", "answer": "Ode to Joy"},
    ]
    model_responses_import(project=imported, path=_write(tmp_path / "outputs.jsonl", outputs))
    return imported


@pytest.fixture
def researcher(seeded, make_user):
    user = make_user()
    membership_set(project=seeded, user=user, role=Role.OWNER)
    client = Client()
    client.force_login(user)
    return client


def _csv(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_page_shows_every_paper_with_readable_headers_and_numbers(seeded, researcher):
    response = researcher.get(reverse("frontend:seed_tables", args=[seeded.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("Audita", "KoALa", "SEA-SpeechBench", "Bank composition by source", "Speech faithfulness",
                 "Prompt Advantage Score", "% of bank", "Mean clip duration (s)", "Best-of-k",
                 'title="share_of_bank"'):
        assert text in html, text
    assert "Gave the factual answer instead" in html
    assert "{%" not in html and "{#" not in html


def test_csv_keeps_raw_keys_and_hand_checked_values(seeded, researcher):
    slug = seeded.slug
    faith = _csv(researcher.get(reverse("frontend:seed_table", args=[slug, "faithfulness", "csv"])))
    assert faith[0]["system"] == "m (audio+text) · free"
    assert (faith[0]["n"], faith[0]["followed"], float(faith[0]["sf_score"])) == ("1", "1", 1.0)
    bank = {r["source"]: r for r in _csv(researcher.get(reverse("frontend:seed_table", args=[slug, "bank_source", "csv"])))}
    assert bank["test-src"]["questions"] == "1" and float(bank["(none)"]["share_of_bank"]) == pytest.approx(2 / 3)
    pas = _csv(researcher.get(reverse("frontend:seed_table", args=[slug, "prompt_advantage", "csv"])))
    assert pas[0]["prompt_language"] == "th" and float(pas[0]["pas"]) == pytest.approx(0.5)
    variants = json.loads(researcher.get(reverse("frontend:seed_table", args=[slug, "prompt_variants", "json"])).content)
    assert variants[0]["best_prompt"] == "p2" and variants[0]["best_of_k"] == 1.0 and variants[0]["k"] == 2
    clues = _csv(researcher.get(reverse("frontend:seed_table", args=[slug, "clue_curves_systems", "csv"])))
    assert [(r["clue"], r["correct"], r["n"]) for r in clues if r["label"] == "m (audio+text)"] == [
        ("1", "0", "1"), ("2", "1", "1"), ("3", "0", "1")]
    by_meta = _csv(researcher.get(reverse("frontend:seed_table", args=[slug, "by_metadata", "csv"]) + "?field=evidence_position"))
    start = next(r for r in by_meta if r["evidence_position"] == "start" and r["mode"] == "free"
                 and r["group"] == "m (audio+text)")
    assert (start["n"], start["correct"]) == ("2", "1")  # q1 right, q3 wrong
    failure = _csv(researcher.get(reverse("frontend:seed_table", args=[slug, "failure_items", "csv"])))
    assert {(r["question_id"], r["failure_mode"]) for r in failure} >= {("q3", "perceptual"), ("q1", "solved")}


def test_variant_answers_export_is_pseudonymous_and_complete(seeded, researcher):
    rows = _csv(researcher.get(reverse("frontend:seed_variant_answers", args=[seeded.slug, "csv"])))
    assert len(rows) == 11  # the variant rows of the fixture
    cf = next(r for r in rows if r["context"] == "counterfactual")
    assert (cf["question_id"], cf["answer_text"], cf["correct"], cf["matches_factual"]) == ("q1", "Sydney", "True", "False")
    assert cf["responder"] == "m (audio+text)" and "user" not in rows[0]
    data = json.loads(researcher.get(reverse("frontend:seed_variant_answers", args=[seeded.slug, "json"])).content)
    assert {r["clue_index"] for r in data if r["clue_index"] is not None} == {0, 1}


def test_json_of_all_tables_and_unknown_table_404(seeded, researcher):
    data = researcher.get(reverse("frontend:seed_tables", args=[seeded.slug]) + "?format=json").json()
    assert data["metadata_field"] == "evidence_position"
    assert data["tables"]["faithfulness_cases"][0]["case"] == "case_1"
    assert "qa_audit" in data["notes"]  # no campaign: said, not hidden
    assert researcher.get(f"/p/{seeded.slug}/seeds/tables/nope.csv").status_code == 404


def test_bundle_holds_the_seed_tables(seeded):
    files, manifest = report_bundle.build(seeded)
    assert "tables/seed_faithfulness.csv" in files and "faithfulness" in manifest["seed_tables"]
    assert any(o["section"] == "seed_qa_audit" for o in manifest["omitted"])
    html = files["report.html"].decode()
    assert "KoALa: tables from the paper" in html and "Speech faithfulness" in html


def test_every_seed_table_belongs_to_one_part():
    from frontend.seed_selectors import PARTS, SEED_TABLES

    keys = [k for part in PARTS.values() for k in part]
    assert sorted(keys) == sorted(SEED_TABLES) and len(keys) == len(set(keys))


def test_empty_project_says_what_each_table_needs(project, make_user):
    user = make_user()
    membership_set(project=project, user=user, role=Role.OWNER)
    client = Client()
    client.force_login(user)
    html = client.get(reverse("frontend:seed_tables", args=[project.slug])).content.decode()
    assert "No rows yet." in html and "Needs model outputs with context" in html
    one = client.get(reverse("frontend:seed_table", args=[project.slug, "faithfulness", "csv"]))
    assert one.status_code == 200
