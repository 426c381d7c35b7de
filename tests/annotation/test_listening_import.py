"""Import of listening-test items (several stimuli with roles): every refusal names
FILE:LINE: field, nothing is written by a failed import, re-imports keep what
annotators were served."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command

from annotation import selectors, services
from annotation.importing import ImportFailed
from annotation.models import Item, Rating, Stimulus
from quiz.models import Clip

from .conftest import heard_all, listening_rows, write_items

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign_of(project):
    def make(template: str, **fields):
        return services.campaign_create(project=project, name=template, slug=f"imp-{template}",
                                        template=template, **fields)
    return make


@pytest.fixture
def audio(tmp_path, wav):
    """Tones ref.wav (also same.wav: identical bytes), a.wav, b.wav, c.wav in tmp_path."""
    for name, freq in (("ref", 440), ("a", 500), ("b", 560), ("c", 620)):
        (tmp_path / f"{name}.wav").write_bytes(wav(freq, 0.3))
    (tmp_path / "same.wav").write_bytes((tmp_path / "ref.wav").read_bytes())
    (tmp_path / "bad.wav").write_bytes(b"RIFF not audio")
    return tmp_path


MUSHRA_OK = [{"role": "reference", "audio": "ref.wav"}, {"role": "hidden_reference", "audio": "same.wav"},
             {"role": "anchor", "audio": "a.wav", "condition": "lp3.5k"},
             {"role": "system", "audio": "b.wav", "system": "tts-b"},
             {"role": "system", "audio": "c.wav", "system": "tts-c"}]


def _problems(campaign, folder, rows) -> list[str]:
    path = write_items(folder, rows)
    with pytest.raises(ImportFailed) as caught:
        services.items_import(campaign=campaign, path=path)
    assert not Item.objects.exists() and not Stimulus.objects.exists() and not Clip.objects.exists()
    return [str(p) for p in caught.value.problems]


def test_mushra_import_stores_stimuli_in_order(campaign_of, audio):
    campaign = campaign_of("mushra")
    summary = services.items_import(campaign=campaign, path=write_items(audio, [
        {"id": "m1", "stimuli": MUSHRA_OK, "context": "a sentence", "metadata": {"speaker": "f1"}}]))
    assert (summary.created, summary.clips_created) == (1, 4)  # the hidden reference is the reference's clip
    item = Item.objects.get()
    assert item.clip is None and item.metadata == {"speaker": "f1"}
    got = list(item.stimuli.values_list("position", "role", "system", "condition"))
    assert got == [(0, "reference", "", ""), (1, "hidden_reference", "", ""), (2, "anchor", "", "lp3.5k"),
                   (3, "system", "tts-b", ""), (4, "system", "tts-c", "")]
    ref, hidden = item.stimuli.order_by("position")[:2]
    assert ref.clip_id == hidden.clip_id and ref.public_id != hidden.public_id


def test_csv_numbered_columns(campaign_of, audio):
    campaign = campaign_of("ab")
    (audio / "items.csv").write_text(
        "id,context,stimulus1_role,stimulus1_audio,stimulus1_system,stimulus2_role,stimulus2_audio,"
        "stimulus2_system,stimulus2_condition,stimulus2_metadata\n"
        'p1,hello,A,a.wav,tts-a,B,b.wav,tts-b,fast,"{""rate"": 1.2}"\n'
        "p2,,A,b.wav,tts-b,B,c.wav,tts-c,,\n")
    assert services.items_import(campaign=campaign, path=audio / "items.csv").created == 2
    b = Stimulus.objects.get(item__external_id="p1", role="B")
    assert (b.system, b.condition, b.metadata) == ("tts-b", "fast", {"rate": 1.2})


def test_abx_import(campaign_of, audio):
    campaign = campaign_of("abx")
    services.items_import(campaign=campaign, path=write_items(audio, [{"id": "x1", "stimuli": [
        {"role": "A", "audio": "a.wav", "system": "s1"}, {"role": "B", "audio": "b.wav", "system": "s2"},
        {"role": "X", "audio": "b.wav"}]}]))
    x = Stimulus.objects.get(role="X")
    assert x.clip_id == Stimulus.objects.get(role="B").clip_id


def _one(stimuli, **row):
    return [{"id": "bad", "stimuli": stimuli, **row}]


def _replace(index, **change):
    out = [dict(s) for s in MUSHRA_OK]
    out[index] = {k: v for k, v in {**out[index], **change}.items() if v is not None}
    return out


@pytest.mark.parametrize(("template", "rows", "expected"), [
    pytest.param("mushra", [{"id": "bad", "context": "text only"}], "items.jsonl:1: stimuli: a mushra item needs its "
                 "stimuli", id="no-stimuli"),
    pytest.param("mushra", _one(MUSHRA_OK, audio="a.wav"), "items.jsonl:1: audio: a mushra item holds its clips in "
                 "'stimuli'", id="item-level-audio"),
    pytest.param("mushra", _one("ref.wav"), "items.jsonl:1: stimuli: must be a list", id="not-a-list"),
    pytest.param("mushra", _one([*MUSHRA_OK, "c.wav"]), "items.jsonl:1: stimuli[5]: must be an object",
                 id="entry-not-object"),
    pytest.param("mushra", _one(_replace(3, gain=2)), "items.jsonl:1: stimuli[3].gain: unknown field",
                 id="unknown-field"),
    pytest.param("mushra", _one(_replace(0, role=None)), "items.jsonl:1: stimuli[0].role: is required",
                 id="no-role"),
    pytest.param("mushra", _one(_replace(3, role="X")), "items.jsonl:1: stimuli[3].role: 'X' is not a role of a "
                 "mushra item", id="role-of-another-test"),
    pytest.param("mushra", _one(_replace(3, role="villain")), "items.jsonl:1: stimuli[3].role: 'villain' is not",
                 id="unknown-role"),
    pytest.param("mushra", _one(_replace(3, system=None)), "items.jsonl:1: stimuli[3].system: a 'system' stimulus "
                 "needs the name of its system", id="system-without-name"),
    pytest.param("mushra", _one(_replace(2, condition=None)), "items.jsonl:1: stimuli[2].condition: an anchor needs",
                 id="anchor-without-condition"),
    pytest.param("mushra", _one(_replace(4, audio=None)), "items.jsonl:1: stimuli[4].audio: is required",
                 id="no-audio"),
    pytest.param("mushra", _one(_replace(4, audio="missing.wav")), "items.jsonl:1: stimuli[4].audio: missing file",
                 id="missing-audio"),
    pytest.param("mushra", _one(_replace(4, audio="../x.wav")), "items.jsonl:1: stimuli[4].audio: '../x.wav' "
                 "points outside", id="path-escape"),
    pytest.param("mushra", _one(_replace(4, audio="bad.wav")), "items.jsonl:1: stimuli[4].audio: ", id="corrupt"),
    pytest.param("mushra", _one(_replace(3, system={"a": 1})), "items.jsonl:1: stimuli[3].system: ",
                 id="system-not-text"),
    pytest.param("mushra", _one(_replace(3, metadata=[1])), "items.jsonl:1: stimuli[3].metadata: must be a JSON "
                 "object", id="metadata-not-object"),
    pytest.param("mushra", _one([s for s in MUSHRA_OK if s["role"] != "hidden_reference"]),
                 "items.jsonl:1: stimuli: a mushra item needs one 'hidden_reference' stimulus, got 0",
                 id="no-hidden-reference"),
    pytest.param("mushra", _one([s for s in MUSHRA_OK if s["role"] != "system"]),
                 "items.jsonl:1: stimuli: a mushra item needs one 'system' stimulus, got 0", id="no-system"),
    pytest.param("mushra", _one([MUSHRA_OK[0], *MUSHRA_OK]),
                 "items.jsonl:1: stimuli: a mushra item takes at most 1 'reference' stimulus, got 2",
                 id="two-references"),
    pytest.param("mushra", _one(_replace(1, audio="a.wav")), "items.jsonl:1: stimuli: the hidden reference must be "
                 "the same audio as the reference", id="hidden-reference-differs"),
    pytest.param("mushra", _one(_replace(4, system="tts-b")), "items.jsonl:1: stimuli: two stimuli (4 and 5) stand "
                 "for the same system and condition", id="same-system-twice"),
    pytest.param("mushra", _one(MUSHRA_OK, kind="gold", gold=50), "items.jsonl:1: kind: a mushra item can be "
                 "regular, not gold", id="gold-mushra"),
    pytest.param("mushra", _one(MUSHRA_OK + [{"role": "system", "audio": "c.wav", "system": f"s{i}"}
                                             for i in range(12)]),
                 "items.jsonl:1: stimuli: an item holds at most 16 stimuli", id="too-many"),
    pytest.param("ab", _one([{"role": "A", "audio": "a.wav", "system": "s1"}]),
                 "items.jsonl:1: stimuli: a ab item needs one 'B' stimulus, got 0", id="ab-without-b"),
    pytest.param("ab", _one([{"role": "A", "audio": "a.wav", "system": "s1"}, {"role": "B", "audio": "b.wav"}]),
                 "items.jsonl:1: stimuli[1].system: a 'B' stimulus needs the name", id="ab-b-without-system"),
    pytest.param("abx", _one([{"role": "A", "audio": "a.wav", "system": "s1"},
                              {"role": "B", "audio": "b.wav", "system": "s2"}, {"role": "X", "audio": "c.wav"}]),
                 "items.jsonl:1: stimuli: X must be the same audio as exactly one of A and B", id="abx-x-matches-none"),
    pytest.param("abx", _one([{"role": "A", "audio": "ref.wav", "system": "s1"},
                              {"role": "B", "audio": "same.wav", "system": "s2"}, {"role": "X", "audio": "ref.wav"}]),
                 "items.jsonl:1: stimuli: A and B are the same audio", id="abx-a-equals-b"),
    pytest.param("ccr", _one([{"role": "system", "audio": "a.wav", "system": "s1"}]),
                 "items.jsonl:1: stimuli: a ccr item needs one 'reference' stimulus, got 0", id="ccr-no-reference"),
    pytest.param("dcr", _one([{"role": "reference", "audio": "ref.wav"}, {"role": "system", "audio": "a.wav",
                              "system": "s1"}, {"role": "system", "audio": "b.wav", "system": "s2"}]),
                 "items.jsonl:1: stimuli: a dcr item takes at most 1 'system' stimulus, got 2", id="dcr-two-systems"),
    pytest.param("smos", _one([{"role": "reference", "audio": "ref.wav"}]),
                 "items.jsonl:1: stimuli: a smos item needs one 'system' stimulus", id="smos-no-system"),
    pytest.param("ranking", _one([{"role": "system", "audio": "a.wav", "system": "s1"}]),
                 "items.jsonl:1: stimuli: a ranking item needs at least 2 'system' stimulus", id="ranking-one"),
    pytest.param("mos", _one(MUSHRA_OK), "items.jsonl:1: stimuli: a mos campaign rates one clip per item",
                 id="stimuli-in-a-mos-campaign"),
])
def test_refusals_name_file_line_field_and_write_nothing(campaign_of, audio, template, rows, expected):
    good = {"mushra": {"id": "good", "stimuli": MUSHRA_OK}}.get(template)
    problems = _problems(campaign_of(template), audio, [good, *rows] if good else rows)
    if good:
        expected = expected.replace("items.jsonl:1:", "items.jsonl:2:")
    assert any(p.startswith(expected) for p in problems), problems


def test_csv_refusals_name_the_column(campaign_of, audio):
    campaign = campaign_of("ab")
    (audio / "items.csv").write_text(
        "id,stimulus1_role,stimulus1_audio,stimulus1_system,stimulus2_role,stimulus2_audio,stimulus2_metadata,stimuli\n"
        "p1,A,a.wav,s1,B,b.wav,,\n"
        "p2,A,a.wav,s1,B,nope.wav,{oops,\n"
        'p3,A,a.wav,s1,,,,"[]"\n')
    with pytest.raises(ImportFailed) as caught:
        services.items_import(campaign=campaign, path=audio / "items.csv")
    text = [str(p) for p in caught.value.problems]
    assert any(t.startswith("items.csv:2: stimulus2_system: a 'B' stimulus needs") for t in text), text
    assert any(t.startswith("items.csv:3: stimulus2_metadata: is not a JSON object") for t in text), text
    assert any(t.startswith("items.csv:3: stimulus2_audio: missing file") for t in text), text
    assert any(t.startswith("items.csv:4: stimuli: give the stimuli either") for t in text), text
    assert not Item.objects.exists() and not Clip.objects.exists()


def test_command_prints_the_problems(campaign_of, audio):
    campaign = campaign_of("mushra")
    path = write_items(audio, _one(_replace(1, audio="a.wav")))
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("annotation_import", campaign.slug, str(path), "--project", campaign.project.slug, stderr=err)
    assert "items.jsonl:1: stimuli: the hidden reference must be the same audio as the reference" in err.getvalue()


def test_reimport_updates_unserved_items_and_keeps_served_ones(campaign_of, audio, make_annotator, wav):
    campaign = campaign_of("ab")
    rows = [{"id": f"p{i}", "stimuli": [{"role": "A", "audio": "a.wav", "system": "s1"},
                                        {"role": "B", "audio": "b.wav", "system": f"s{i + 2}"}]} for i in range(2)]
    services.items_import(campaign=campaign, path=write_items(audio, rows))
    services.campaign_set_status(campaign=campaign, status="open")
    annotator = make_annotator(campaign)
    served = services.assignment_next_for_annotator(annotator, campaign)
    served.campaign = campaign
    before = {s.pk for s in Stimulus.objects.filter(item=served.item)}
    payload = selectors.item_payload(served)
    services.rating_submit(annotator=annotator, assignment_id=served.public_id, client_token="t",
                           values={"preference": payload["test"]["stimuli"][0]["id"]}, played=heard_all(payload),
                           now=served.served_at + timedelta(seconds=5))
    other = next(r for r in rows if r["id"] != served.item.external_id)
    # unchanged re-import (new metadata only): the served item keeps its stimuli and ratings
    again = [{**r, "stimuli": [{**s, "metadata": {"v": 2}} for s in r["stimuli"]]} for r in rows]
    services.items_import(campaign=campaign, path=write_items(audio, again, name="again.jsonl"))
    assert {s.pk for s in Stimulus.objects.filter(item=served.item)} == before
    assert Stimulus.objects.filter(item=served.item, metadata={"v": 2}).count() == 2
    assert Rating.objects.count() == 1
    # changing the unserved item replaces its stimuli
    changed = [{**other, "stimuli": [other["stimuli"][0], {"role": "B", "audio": "c.wav", "system": "s9"}]}]
    services.items_import(campaign=campaign, path=write_items(audio, changed, name="changed.jsonl"))
    assert set(Stimulus.objects.filter(item__external_id=other["id"]).values_list("system", flat=True)) == {"s1", "s9"}
    # changing the served one is refused, naming the line, and changes nothing
    line = {"id": served.item.external_id, "stimuli": [{"role": "A", "audio": "c.wav", "system": "s1"},
                                                        {"role": "B", "audio": "b.wav", "system": "s2"}]}
    path = write_items(audio, [changed[0], line], name="refused.jsonl")
    with pytest.raises(ImportFailed) as caught:
        services.items_import(campaign=campaign, path=path)
    assert [str(p) for p in caught.value.problems] == [
        f"refused.jsonl:2: stimuli: item {served.item.external_id!r} has been served to annotators: its stimuli "
        "cannot change (import the new version under a new id)"]
    assert {s.pk for s in Stimulus.objects.filter(item=served.item)} == before


def test_listening_rows_helper_imports_for_every_template(campaign_of, tmp_path, wav):
    for template in ("mushra", "ab", "abx", "ccr", "dcr", "smos", "ranking"):
        folder = tmp_path / template
        folder.mkdir()
        campaign = campaign_of(template)
        rows = listening_rows(folder, wav, template, n=2)
        assert services.items_import(campaign=campaign, path=write_items(folder, rows)).created == 2
    assert json.loads(json.dumps(rows))  # plain JSON rows, as a researcher would write them


def test_command_line_creates_imports_and_opens_a_listening_test(project, audio):
    out = io.StringIO()
    call_command("annotation_create_campaign", "cli-mushra", "--project", project.slug, "--template", "mushra",
                 stdout=out)
    path = write_items(audio, [{"id": "m1", "stimuli": MUSHRA_OK}])
    call_command("annotation_import", "cli-mushra", str(path), "--project", project.slug, stdout=out)
    campaign = project.campaigns.get(slug="cli-mushra")
    assert (campaign.policy, campaign.policy_k, campaign.criteria[0]["scale"]) == ("overlap", 20, "mushra100")
    assert campaign.instructions.startswith("You will hear a reference")
    assert Stimulus.objects.filter(item__campaign=campaign).count() == 5
