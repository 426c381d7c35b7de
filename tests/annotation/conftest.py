"""Fixtures for the annotation service tests: campaigns with imported items and annotators."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def write_items(folder: Path, rows: list[dict], wav=None, name: str = "items.jsonl") -> Path:
    """Write ``rows`` as JSONL; create any referenced audio with ``wav`` (distinct tones)."""
    for i, row in enumerate(rows):
        audio = row.get("audio")
        if audio and wav is not None and not (folder / audio).exists():
            (folder / audio).write_bytes(wav(300 + 17 * i, 0.3))
    path = folder / name
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def make_campaign(project, tmp_path, wav):
    """Create an open campaign with ``n`` regular audio items (and optional extra rows)."""
    from annotation import services

    counter = {"n": 0}

    def make(*, n: int = 6, template: str = "mos", conditions=("clean", "noisy"), extra=(),
             audio: bool = True, status: str = "open", **fields):
        counter["n"] += 1
        folder = tmp_path / f"c{counter['n']}"
        folder.mkdir()
        campaign = services.campaign_create(project=project, name=f"Campaign {counter['n']}",
                                            slug=f"c{counter['n']}", template=template, **fields)
        rows = []
        for i in range(n):
            row = {"id": f"i{i}", "system": f"sys{i % 2}", "task": f"task{i % 3}",
                   "condition": conditions[i % len(conditions)], "batch": f"b{i % 2}"}
            if audio:
                row["audio"] = f"c{counter['n']}_{i}.wav"
            else:
                row["response"] = f"response {i}"
            rows.append(row)
        rows.extend(extra)
        services.items_import(campaign=campaign, path=write_items(folder, rows, wav))
        if status != "draft":
            services.campaign_set_status(campaign=campaign, status=status)
        return campaign

    return make


@pytest.fixture
def make_annotator(db):
    """Enrol a new guest user in a campaign, consent given (no password hashing: fast)."""
    from accounts.services import guest_create
    from annotation import services

    def make(campaign):
        annotator = services.annotator_enrol(campaign=campaign, user=guest_create())
        return services.annotator_step(annotator=annotator, step="consent")

    return make


def heard(assignment) -> list[list[float]] | None:
    """The player's report for having heard the whole clip (``None`` for text items)."""
    item = assignment.item
    if item.clip_id is None:
        return None
    return [[0.0, float(item.clip.duration_s)]]


#: one item's stimuli per listening-test template: (role, audio key, system, condition)
LISTENING_STIMULI = {
    "mushra": [("reference", "ref", "", ""), ("hidden_reference", "ref", "", ""),
               ("anchor", "lp35", "", "lp3.5k"), ("anchor", "lp7", "", "lp7k"),
               ("system", "sa", "sys-alpha", "cond-clean"), ("system", "sb", "sys-beta", "cond-clean")],
    "ab": [("A", "sa", "sys-alpha", "cond-clean"), ("B", "sb", "sys-beta", "cond-clean")],
    "abx": [("A", "sa", "sys-alpha", ""), ("B", "sb", "sys-beta", ""), ("X", "sb", "", "")],
    "ccr": [("reference", "ref", "", ""), ("system", "sa", "sys-alpha", "cond-clean")],
    "dcr": [("reference", "ref", "", ""), ("system", "sa", "sys-alpha", "cond-clean")],
    "smos": [("reference", "ref", "", ""), ("system", "sa", "sys-alpha", "cond-clean")],
    "ranking": [("system", "sa", "sys-alpha", ""), ("system", "sb", "sys-beta", ""),
                ("system", "sc", "sys-gamma", "")],
}
TONES = {"ref": 440, "lp35": 470, "lp7": 500, "sa": 530, "sb": 560, "sc": 590}


def listening_rows(folder: Path, wav, template: str, n: int = 2, seconds: float = 0.3) -> list[dict]:
    """``n`` items of ``template`` (stimuli from :data:`LISTENING_STIMULI`), audio written
    to ``folder`` with file names that spell the role and system (so blinding tests can
    look for them)."""
    rows = []
    for i in range(n):
        stimuli = []
        for role, key, system, condition in LISTENING_STIMULI[template]:
            name = f"{key}_{i}_{role}_{system or 'none'}.wav"
            if not (folder / name).exists():
                same = next((p for p in folder.glob(f"{key}_{i}_*.wav")), None)
                (folder / name).write_bytes(same.read_bytes() if same else wav(TONES[key] + 7 * i, seconds))
            entry = {"role": role, "audio": name}
            if system:
                entry["system"] = system
            if condition:
                entry["condition"] = condition
            stimuli.append(entry)
        rows.append({"id": f"{template}{i}", "stimuli": stimuli})
    return rows


@pytest.fixture
def make_listening_campaign(project, tmp_path, wav):
    """An open campaign of a listening-test template with ``n`` imported items."""
    from annotation import services

    counter = {"n": 0}

    def make(template: str, *, n: int = 2, status: str = "open", **fields):
        counter["n"] += 1
        folder = tmp_path / f"lt{counter['n']}"
        folder.mkdir()
        campaign = services.campaign_create(project=project, name=f"{template} {counter['n']}",
                                            slug=f"lt{counter['n']}-{template}", template=template, **fields)
        services.items_import(campaign=campaign, path=write_items(folder, listening_rows(folder, wav, template, n)))
        if status != "draft":
            services.campaign_set_status(campaign=campaign, status=status)
        return campaign

    return make


def heard_all(payload: dict) -> dict[str, list[list[float]]]:
    """The multi-stimulus player's report for having heard every stimulus in full."""
    test = payload["test"]
    shown = [*test["stimuli"], *(s for s in (test["reference"], test["x"]) if s)]
    return {s["id"]: [[0.0, float(s["duration_s"])]] for s in shown}
