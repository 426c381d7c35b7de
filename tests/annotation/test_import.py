"""Item import: JSONL/CSV + audio, line-numbered errors, all or nothing, re-import updates."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from annotation import services
from annotation.importing import ImportFailed
from annotation.models import Item
from quiz.models import Clip

from .conftest import write_items

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(project):
    return services.campaign_create(project=project, name="MOS", slug="mos", template="mos")


def test_jsonl_import_with_audio_text_and_controls(campaign, tmp_path, wav):
    rows = [
        {"id": "a", "audio": "a.wav", "system": "s1", "task": "tts", "condition": "clean",
         "source": "koala", "batch": "b1", "metadata": {"speaker": "f1"}},
        {"id": "b", "response": "The capital is Canberra.", "question": "Capital?", "context": "ctx"},
        {"id": "g", "audio": "g.wav", "kind": "gold", "gold": 5},
        {"id": "t", "audio": "t.wav", "kind": "trap", "trap": "2"},
    ]
    summary = services.items_import(campaign=campaign, path=write_items(tmp_path, rows, wav))
    assert (summary.created, summary.clips_created) == (4, 3)
    a = Item.objects.get(external_id="a")
    assert (a.system, a.task, a.condition, a.source, a.batch, a.metadata) == (
        "s1", "tts", "clean", "koala", "b1", {"speaker": "f1"})
    assert a.clip.duration_s == pytest.approx(0.3, abs=0.01)
    assert Item.objects.get(external_id="g").expected == {"mos": "5"}
    assert Item.objects.get(external_id="t").expected == {"mos": "2"}
    assert Item.objects.get(external_id="b").clip is None


def test_csv_import(campaign, tmp_path, wav):
    (tmp_path / "x.wav").write_bytes(wav(500, 0.2))
    (tmp_path / "items.csv").write_text("id,audio,system,kind,gold\nx1,x.wav,sysA,regular,\nx2,x.wav,sysB,gold,4\n")
    summary = services.items_import(campaign=campaign, path=tmp_path / "items.csv")
    assert summary.created == 2 and Clip.objects.count() == 1  # same audio stored once


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        pytest.param({"id": "x"}, "audio", "needs audio or text", id="no-content"),
        pytest.param({"id": "x", "audio": "missing.wav"}, "audio", "missing file", id="missing-audio"),
        pytest.param({"id": "x", "audio": "../escape.wav"}, "audio", "outside", id="path-escape"),
        pytest.param({"id": "x", "audio": "bad.wav"}, "audio", "", id="corrupt-audio"),
        pytest.param({"id": "x", "response": "r", "kind": "weird"}, "kind", "must be one of", id="bad-kind"),
        pytest.param({"id": "x", "response": "r", "kind": "gold"}, "expected", "needs its answer", id="gold-no-answer"),
        pytest.param({"id": "x", "response": "r", "kind": "gold", "gold": 7}, "expected", "not on the scale",
                     id="gold-off-scale"),
        pytest.param({"id": "x", "response": "r", "expected": {"nope": 1}}, "expected", "unknown criterion",
                     id="unknown-criterion"),
        pytest.param({"id": "x", "response": "r", "metadata": [1]}, "metadata", "JSON object", id="bad-metadata"),
        pytest.param({"response": "r"}, "id", "required", id="no-id"),
    ],
)
def test_bad_rows_name_line_and_field_and_import_nothing(campaign, tmp_path, wav, row, field, message):
    (tmp_path / "bad.wav").write_bytes(b"RIFF0000WAVEjunk")
    (tmp_path / "ok.wav").write_bytes(wav(440, 0.2))
    good = {"id": "ok", "audio": "ok.wav"}
    path = write_items(tmp_path, [good, row])
    with pytest.raises(ImportFailed) as err:
        services.items_import(campaign=campaign, path=path)
    problems = err.value.problems
    assert any(p.line == 2 and p.field == field and message in p.message for p in problems), problems
    assert not Item.objects.exists() and not Clip.objects.exists()


def test_malformed_json_and_duplicate_ids(campaign, tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text('{"id": "a", "response": "x"}\n{not json\n{"id": "a", "response": "y"}\n')
    with pytest.raises(ImportFailed) as err:
        services.items_import(campaign=campaign, path=path)
    text = str(err.value)
    assert "items.jsonl:2: malformed JSON" in text and "items.jsonl:3: id: duplicate id 'a' (first on line 1)" in text


def test_reimport_updates_by_external_id(campaign, tmp_path):
    services.items_import(campaign=campaign, path=write_items(tmp_path, [{"id": "a", "response": "v1"}]))
    summary = services.items_import(campaign=campaign, path=write_items(
        tmp_path, [{"id": "a", "response": "v2"}, {"id": "b", "response": "new"}], name="again.jsonl"))
    assert (summary.created, summary.updated) == (1, 1)
    assert Item.objects.get(external_id="a").response == "v2"


def test_import_command_reports_problems(project, campaign, tmp_path, wav):
    path = write_items(tmp_path, [{"id": "a", "audio": "a.wav"}], wav)
    call_command("annotation_import", "mos", str(path), "--project", "t")
    assert Item.objects.count() == 1
    (tmp_path / "broken.jsonl").write_text('{"id": "z"}\n')
    with pytest.raises(CommandError, match="1 problem"):
        call_command("annotation_import", "mos", str(tmp_path / "broken.jsonl"), "--project", "t")


@pytest.mark.parametrize(
    ("template", "policy", "criteria_keys"),
    [
        pytest.param("mos", "listener_sample", ["mos"], id="mos"),
        pytest.param("naturalness", "partition", ["natural"], id="naturalness"),
        pytest.param("multi_criteria", "overlap", ["grammatical", "natural_aloud", "plausible"], id="multi"),
        pytest.param("qa_audit", "audit_sample", ["grounded", "correct", "diverse"], id="qa-audit"),
        pytest.param("quality_0_5", "overlap", ["quality"], id="quality"),
    ],
)
def test_create_campaign_command_from_template(project, template, policy, criteria_keys):
    call_command("annotation_create_campaign", f"x-{template}".replace("_", "-"), "--project", "t",
                 "--template", template)
    c = project.campaigns.get()
    assert (c.policy, [x["key"] for x in c.criteria], c.status) == (policy, criteria_keys, "draft")


def test_create_campaign_command_sets_the_three_codes(project):
    call_command("annotation_create_campaign", "codes", "--project", "t", "--completion-code", "OK1",
                 "--no-work-code", "NW1", "--screened-out-code", "SO1", "--min-listen-fraction", "0.8")
    c = project.campaigns.get()
    assert (c.completion_code, c.no_work_code, c.screened_out_code, c.min_listen_fraction) == (
        "OK1", "NW1", "SO1", 0.8)


def test_create_campaign_command_refuses_to_open_without_items(project):
    with pytest.raises(CommandError, match="without items"):
        call_command("annotation_create_campaign", "empty", "--project", "t", "--open")
    assert not project.campaigns.exists()  # nothing half-made


def test_create_campaign_command_rejects_bad_policy(project):
    with pytest.raises(CommandError, match="overlap needs k"):
        call_command("annotation_create_campaign", "bad", "--project", "t", "--template", "mos",
                     "--policy", "overlap", "--k", "0")
