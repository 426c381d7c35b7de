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
