"""Parsing and validating campaign items (JSONL/CSV + audio), no Django.

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

from quiz.importing import AudioReader, AudioRef, ImportFailed, Problem, _read_records, _text

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
              problems: list[Problem], file: str, line: int) -> dict[str, str]:
    """Gold / trap / qualification answers, checked against the criteria's scales."""
    by_key = {c["key"]: c for c in criteria}
    raw: Any = record.get("expected")
    if raw in (None, ""):
        scalar = record.get("gold") if kind != "trap" else record.get("trap")
        if scalar in (None, "") and kind == "trap":
            scalar = record.get("gold")
        raw = {} if scalar in (None, "") or not criteria else {criteria[0]["key"]: scalar}
    if not isinstance(raw, dict):
        problems.append(Problem(file, line, "expected", "must be an object {criterion: value}"))
        return {}
    out: dict[str, str] = {}
    for key, value in raw.items():
        if key not in by_key:
            problems.append(Problem(file, line, "expected", f"unknown criterion {key!r}"))
            continue
        try:
            out[key] = validate_value(by_key[key], value)
        except CriterionError as exc:
            problems.append(Problem(file, line, "expected", str(exc)))
    if kind in ("gold", "trap", "qualification") and not out and not any(
            p.line == line and p.field == "expected" for p in problems):
        problems.append(Problem(file, line, "expected",
                                f"a {kind} item needs its answer ('gold', 'trap' or 'expected')"))
    return out


def parse_items(path: Path, *, criteria: Sequence[Mapping[str, Any]],
                audio_dir: Path | None = None) -> list[ItemRow]:
    """Read and validate campaign items; raise :class:`ImportFailed` listing every problem."""
    file = path.name
    audio_dir = audio_dir or path.parent
    problems: list[Problem] = []
    rows: list[ItemRow] = []
    seen_ids: dict[str, int] = {}
    audio = AudioReader(audio_dir, file)
    if not path.exists():
        raise ImportFailed([Problem(file, 0, "", "file not found")])
    for line, record, error in _read_records(path):
        if error:
            problems.append(Problem(file, line, "", error))
            continue
        assert record is not None
        before = len(problems)
        external_id = _text(record, "id", problems, file, line, required=True)
        if external_id:
            if len(external_id) > 120:
                problems.append(Problem(file, line, "id", "is longer than 120 characters"))
            if external_id in seen_ids:
                problems.append(Problem(file, line, "id",
                                        f"duplicate id {external_id!r} (first on line {seen_ids[external_id]})"))
            else:
                seen_ids[external_id] = line
        kind = (_text(record, "kind", problems, file, line, required=False) or "regular").lower()
        if kind not in KINDS:
            problems.append(Problem(file, line, "kind", f"must be one of {', '.join(KINDS)}, got {kind!r}"))
        texts = {k: _text(record, k, problems, file, line, required=False) for k in TEXT_FIELDS}
        meta = {k: _text(record, k, problems, file, line, required=False) for k in META_FIELDS}
        for k, v in meta.items():
            if len(v) > 120 and k != "source":
                problems.append(Problem(file, line, k, "is longer than 120 characters"))
        metadata = record.get("metadata") or {}
        if not isinstance(metadata, dict):
            problems.append(Problem(file, line, "metadata", "must be a JSON object"))
            metadata = {}
        ref: AudioRef | None = None
        name = str(record.get("audio") or "").strip()
        if name:
            ref = audio.read(name, line, problems)
        elif not any(texts.values()):
            problems.append(Problem(file, line, "audio",
                                    "an item needs audio or text (context, question, reference, response)"))
        expected = _expected(record, kind, criteria, problems, file, line)
        if len(problems) == before:
            rows.append(ItemRow(line=line, external_id=external_id, kind=kind, audio=ref, texts=texts,
                                meta=meta, metadata=metadata, expected=expected))
    if not problems and not rows:
        problems.append(Problem(file, 0, "", "no items found"))
    if problems:
        raise ImportFailed(problems)
    return rows
