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

Items of the listening-test templates (:mod:`annotation.listening_tests`: ab, abx,
ccr, dcr, smos, mushra, ranking) hold their clips in ``stimuli`` instead of
``audio``, each with a role (and, for systems, the system and condition names)::

    {"id": "m1", "stimuli": [{"role": "reference", "audio": "ref.wav"},
                             {"role": "hidden_reference", "audio": "ref.wav"},
                             {"role": "anchor", "audio": "lp35.wav", "condition": "lp3.5k"},
                             {"role": "system", "audio": "a.wav", "system": "tts-a"}]}

In CSV the stimuli are numbered column groups: ``stimulus1_role``,
``stimulus1_audio``, ``stimulus1_system``, ``stimulus1_condition``, ``stimulus2_role``…
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quiz.importing import AudioReader, AudioRef, ImportFailed, Problem, RowChecker, read_records
from quiz.validation import LIMITS, DuplicateTracker

from . import listening_tests
from .scales import CriterionError, validate_value

__all__ = ["ImportFailed", "ItemRow", "Problem", "StimulusRow", "parse_items"]

KINDS = ("regular", "gold", "trap", "training", "qualification")
TEXT_FIELDS = ("context", "question", "reference", "response")
META_FIELDS = ("system", "task", "condition", "source", "batch")


STIMULUS_FIELDS = ("role", "audio", "system", "condition", "metadata")
#: roles that stand for a system under test: they need its name
NAMED_ROLES = ("system", "A", "B")
#: kinds a multi-stimulus item may be: controls and qualification only where one value
#: per criterion says the answer (not MUSHRA or ranking, rated per stimulus)
MULTI_KINDS = {"mushra": ("regular",), "ranking": ("regular",)}
MULTI_KINDS_DEFAULT = ("regular", "gold", "trap", "qualification")


@dataclass
class StimulusRow:
    """A validated stimulus of a multi-stimulus item."""

    position: int
    role: str
    audio: AudioRef
    system: str
    condition: str
    metadata: dict[str, Any] = field(default_factory=dict)


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
    stimuli: list[StimulusRow] = field(default_factory=list)


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


def _raw_stimuli(record: dict, check: RowChecker) -> list[tuple[str, dict[str, Any]]] | None:
    """The row's stimuli as (field prefix, fields), from ``stimuli`` (JSON) or numbered
    ``stimulusN_*`` columns (CSV); ``None`` when the row names none."""
    raw = record.get("stimuli")
    numbered: dict[int, dict[str, Any]] = {}
    for key, value in record.items():
        head, sep, name = str(key).partition("_")
        if (sep and head.startswith("stimulus") and head[8:].isdigit() and name in STIMULUS_FIELDS
                and value not in (None, "")):
            numbered.setdefault(int(head[8:]), {})[name] = value
    if raw in (None, "") and not numbered:
        return None
    if raw not in (None, "") and numbered:
        check.add("stimuli", "give the stimuli either as a 'stimuli' list or as stimulusN_* columns, not both")
        return []
    if numbered:
        return [(f"stimulus{n}_", numbered[n]) for n in sorted(numbered)]
    if not isinstance(raw, list):
        check.add("stimuli", "must be a list of objects {role, audio, system?, condition?, metadata?}")
        return []
    out: list[tuple[str, dict[str, Any]]] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            check.add(f"stimuli[{i}]", "must be an object {role, audio, system?, condition?, metadata?}")
            continue
        unknown = sorted(str(k) for k in entry if k not in STIMULUS_FIELDS)
        if unknown:
            check.add(f"stimuli[{i}].{unknown[0][:40]}", f"unknown field; one of {', '.join(STIMULUS_FIELDS)}")
            continue
        out.append((f"stimuli[{i}].", entry))
    return out


def _stimuli(record: dict, template: str, kind: str, make: Callable[[str, str], Problem],
             audio: AudioReader, problems: list[Problem], line: int, unit: str) -> list[StimulusRow]:
    """The validated stimuli of a multi-stimulus row (problems appended to ``problems``)."""
    check = RowChecker(problems, make)
    spec = listening_tests.spec_for(template)
    assert spec is not None
    limits = LIMITS["item"]
    kinds = MULTI_KINDS.get(template, MULTI_KINDS_DEFAULT)
    if kind in KINDS and kind not in kinds:
        check.add("kind", f"a {template} item can be {', '.join(kinds)}, not {kind}")
    if record.get("audio") not in (None, ""):
        check.add("audio", f"a {template} item holds its clips in 'stimuli', each with a role; "
                           "there is no item-level audio")
    raw = _raw_stimuli(record, check)
    if raw is None:
        check.add("stimuli", f"a {template} item needs its stimuli (roles: {', '.join(spec.roles)})")
        return []
    before = len(problems)
    out: list[StimulusRow] = []
    for position, (prefix, entry) in enumerate(raw):
        check = RowChecker(problems, lambda f, m, prefix=prefix: make(prefix + f, m))
        if isinstance(entry.get("metadata"), str) and prefix.startswith("stimulus"):
            try:  # a CSV cell holds the JSON text
                entry["metadata"] = json.loads(entry["metadata"])
            except ValueError as exc:
                check.add("metadata", f"is not a JSON object ({exc})")
                entry["metadata"] = None
        role = check.text(entry, "role", max_length=20)
        if not role:
            check.add("role", f"is required (one of {', '.join(spec.roles)})")
        elif role not in spec.roles:
            check.add("role", f"{role[:40]!r} is not a role of a {template} item "
                                       f"(one of {', '.join(spec.roles)})")
        system = check.text(entry, "system", max_length=limits["system"])
        condition = check.text(entry, "condition", max_length=limits["condition"])
        if role in NAMED_ROLES and not system:
            check.add("system", f"a {role!r} stimulus needs the name of its system")
        if role == "anchor" and not (system or condition):
            check.add("condition", "an anchor needs its condition (e.g. lp3.5k) or a system name")
        metadata = check.metadata(entry)
        name = entry.get("audio")
        ref: AudioRef | None = None
        if name in (None, "") or not isinstance(name, str) or not name.strip():
            check.add("audio", "is required (a file name)")
        else:
            found: list[Problem] = []
            ref = audio.read(name.strip(), line, found, unit)
            problems.extend(Problem(p.file, p.line, f"{prefix}audio", p.message, p.unit) for p in found)
        if ref is not None and role:
            out.append(StimulusRow(position=position, role=role, audio=ref, system=system,
                                   condition=condition, metadata=metadata))
    if len(problems) > before:
        return []
    for field_name, message in _stimulus_set_problems(spec, out):
        problems.append(make(field_name, message))
    return out


def _stimulus_set_problems(spec: listening_tests.TestSpec,
                           stimuli: list[StimulusRow]) -> list[tuple[str, str]]:
    """Whole-item rules: roles per template, X and the hidden reference's audio,
    one stimulus per system and condition."""
    by_role: dict[str, list[StimulusRow]] = {}
    for s in stimuli:
        by_role.setdefault(s.role, []).append(s)
    sha = {s.position: s.audio.info.sha256 for s in stimuli}
    x_matches = None
    if spec.template == "abx" and all(len(by_role.get(r, [])) == 1 for r in "ABX"):
        a, b, x = (sha[by_role[r][0].position] for r in "ABX")
        if a == b:
            return [("stimuli", "A and B are the same audio: ABX needs two different stimuli")]
        x_matches = x in (a, b)
    try:
        listening_tests.check_roles(spec, [s.role for s in stimuli], x_matches=x_matches)
    except listening_tests.RoleError as exc:
        return [("stimuli", str(exc))]
    refs = by_role.get("reference", [])
    for hidden in by_role.get("hidden_reference", []):
        if not refs:
            return [("stimuli", "a hidden reference needs the open reference it hides")]
        if sha[hidden.position] != sha[refs[0].position]:
            return [("stimuli", "the hidden reference must be the same audio as the reference")]
    seen: dict[tuple[str, str], int] = {}
    for s in stimuli:
        if s.role in ("reference", "hidden_reference", "X"):
            continue
        key = (s.system, s.condition)
        if key in seen:
            return [("stimuli", f"two stimuli ({seen[key] + 1} and {s.position + 1}) stand for the same "
                                f"system and condition {s.system!r}/{s.condition!r}")]
        seen[key] = s.position
    return []


def parse_items(path: Path, *, criteria: Sequence[Mapping[str, Any]],
                audio_dir: Path | None = None, template: str = "") -> list[ItemRow]:
    """Read and validate campaign items; raise :class:`ImportFailed` listing every problem.

    ``template``: the campaign's; a listening-test template (:data:`listening_tests.SPECS`)
    reads ``stimuli`` and checks their roles, any other refuses them.
    """
    multi = listening_tests.spec_for(template) is not None
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
        stimuli: list[StimulusRow] = []
        name = record.get("audio")
        if multi:
            stimuli = _stimuli(record, template, kind, lambda f, m, item=item: item.problem(file, f, m),
                               audio, problems, line, item.unit)
        elif _raw_stimuli(record, RowChecker([], lambda f, m: None)) is not None:
            check.add("stimuli", f"a {template or 'single-clip'} campaign rates one clip per item ('audio'); "
                                 "items with several stimuli need a listening-test template "
                                 f"({', '.join(listening_tests.SPECS)})")
        elif name not in (None, "") and not isinstance(name, str):
            check.add("audio", "must be a file name")
        elif name and name.strip():
            ref = audio.read(name.strip(), line, problems, item.unit)
        elif not any(texts.values()):
            check.add("audio", "an item needs audio or text (context, question, reference, response)")
        expected = _expected(record, kind, criteria, check)
        if len(problems) == before:
            rows.append(ItemRow(line=line, external_id=external_id, kind=kind, audio=ref, texts=texts,
                                meta=meta, metadata=metadata, expected=expected, stimuli=stimuli))
    if not problems and not rows:
        problems.append(Problem(file, 0, "", "no items found"))
    if problems:
        raise ImportFailed(problems)
    return rows
