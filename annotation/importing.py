"""Parsing and validating campaign items (JSONL, JSON array or CSV + audio), no Django.

Same rules as the quiz import (``quiz.importing``): the whole file and every audio
file are checked first; any problem raises :class:`~quiz.importing.ImportFailed`
listing each one by line and field, and nothing is written.

One row per item::

    {"id": "u001", "audio": "clips/u001.wav", "kind": "regular",
     "context": "...", "question": "...", "reference": "...", "response": "...",
     "system": "tts-a", "task": "tts", "condition": "clean", "source": "koala", "batch": "b1",
     "metadata": {...}, "gold": 4}          # or "trap": 2, or "expected": {"mos": 4}

``kind``: regular (default), gold, trap, training, qualification. A row needs audio,
text (context / question / reference / response) or both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quiz.importing import AudioReader, AudioRef, ImportFailed, Problem, RowChecker, read_records
from quiz.validation import LIMITS, DuplicateTracker

from .scales import CriterionError, validate_value

__all__ = ["ImportFailed", "ItemRow", "Problem", "parse_items"]

KINDS = ("regular", "gold", "trap", "training", "qualification")
TEXT_FIELDS = ("context", "question", "reference", "response")
META_FIELDS = ("system", "task", "condition", "source", "batch")


@dataclass
class ItemRow:
    """A validated item row."""

    line: int
    external_id: str
    kind: str
    audio: AudioRef | None
    texts: dict[str, str]
    meta: dict[str, str]
    metadata: dict[str, Any] = field(default_factory=dict)
    expected: dict[str, str] = field(default_factory=dict)


def _expected(record: dict, kind: str, criteria: Sequence[Mapping[str, Any]],
              check: RowChecker) -> dict[str, str]:
    """Gold / trap / qualification answers, checked against the criteria's scales."""
    by_key = {c["key"]: c for c in criteria}
    raw: Any = record.get("expected")
    if raw in (None, ""):
        scalar = record.get("gold") if kind != "trap" else record.get("trap")
        if scalar in (None, "") and kind == "trap":
            scalar = record.get("gold")
        raw = {} if scalar in (None, "") or not criteria else {criteria[0]["key"]: scalar}
    if not isinstance(raw, dict):
        check.add("expected", "must be an object {criterion: value}")
        return {}
    out: dict[str, str] = {}
    failed = False
    for key, value in raw.items():
        if key not in by_key:
            check.add("expected", f"unknown criterion {str(key)[:60]!r}")
            failed = True
            continue
        try:
            out[key] = validate_value(by_key[key], value)
        except CriterionError as exc:
            check.add("expected", str(exc))
            failed = True
    if kind in ("gold", "trap", "qualification") and not out and not failed:
        check.add("expected", f"a {kind} item needs its answer ('gold', 'trap' or 'expected')")
    return out


def parse_items(path: Path, *, criteria: Sequence[Mapping[str, Any]],
                audio_dir: Path | None = None) -> list[ItemRow]:
    """Read and validate campaign items; raise :class:`ImportFailed` listing every problem."""
    file = path.name
    audio_dir = audio_dir or path.parent
    problems: list[Problem] = []
    rows: list[ItemRow] = []
    ids = DuplicateTracker()
    audio = AudioReader(audio_dir, file)
    limits = LIMITS["item"]
    if not path.exists():
        raise ImportFailed([Problem(file, 0, "", "file not found")])
    for item in read_records(path):
        if item.error:
            problems.append(item.problem(file, "", item.error))
            continue
        assert item.record is not None
        record, line = item.record, item.line
        check = RowChecker(problems, lambda f, m, item=item: item.problem(file, f, m))
        before = len(problems)
        external_id = check.text(record, "id", required=True, max_length=limits["id"])
        if external_id and (first := ids.first(external_id, line)) is not None:
            check.add("id", f"duplicate id {external_id!r} (first on {item.unit} {first})")
        kind = (check.text(record, "kind", max_length=20) or "regular").lower()
        if kind not in KINDS:
            check.add("kind", f"must be one of {', '.join(KINDS)}, got {kind[:40]!r}")
        texts = {k: check.text(record, k) for k in TEXT_FIELDS}
        meta = {k: check.text(record, k, max_length=limits[k]) for k in META_FIELDS}
        metadata = check.metadata(record)
        ref: AudioRef | None = None
        name = record.get("audio")
        if name not in (None, "") and not isinstance(name, str):
            check.add("audio", "must be a file name")
        elif name and name.strip():
            ref = audio.read(name.strip(), line, problems, item.unit)
        elif not any(texts.values()):
            check.add("audio", "an item needs audio or text (context, question, reference, response)")
        expected = _expected(record, kind, criteria, check)
        if len(problems) == before:
            rows.append(ItemRow(line=line, external_id=external_id, kind=kind, audio=ref, texts=texts,
                                meta=meta, metadata=metadata, expected=expected))
    if not problems and not rows:
        problems.append(Problem(file, 0, "", "no items found"))
    if problems:
        raise ImportFailed(problems)
    return rows
