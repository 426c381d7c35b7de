"""Parsing and validating question banks and model outputs (no Django).

The import is two-phase: this module reads a whole file, checks every row and
every audio file, and returns either clean rows or a list of :class:`Problem`
naming the file, line and field. Only a file with no problems is written, in one
transaction (see ``quiz.services``), so a failed import changes nothing.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .audio import AudioError, AudioInfo, inspect_audio

MAX_TEXT = 20_000
LETTERS = "ABCD"


@dataclass(frozen=True)
class Problem:
    """One validation error: where it is and what is wrong."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class ImportFailed(Exception):
    """Raised with every problem found; nothing was written."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class AudioRef:
    """An audio file referenced by a row, read and measured."""

    name: str
    data: bytes
    info: AudioInfo


class AudioReader:
    """Reads the audio files an import names, once each, relative to one folder.

    Problems (a path outside the folder, a missing file, unreadable audio) come back
    as :class:`Problem` for the row that named the file; the same file named on
    several rows is read and decoded once.
    """

    def __init__(self, audio_dir: Path, file: str):
        self.audio_dir = audio_dir
        self.root = audio_dir.resolve()
        self.file = file
        self._cache: dict[Path, AudioRef | Problem] = {}

    def read(self, name: str, line: int, problems: list[Problem]) -> AudioRef | None:
        """The measured audio for ``name``, or ``None`` with a problem appended."""
        candidate = (self.audio_dir / name).resolve()
        if self.root not in candidate.parents:
            problems.append(Problem(self.file, line, "audio", f"{name!r} points outside the audio directory"))
            return None
        cached = self._cache.get(candidate)
        if cached is None:
            if not candidate.is_file():
                cached = Problem(self.file, line, "audio", f"missing file {name!r} in {self.audio_dir}")
            else:
                data = candidate.read_bytes()
                try:
                    cached = AudioRef(name=name, data=data, info=inspect_audio(data, name=name))
                except AudioError as exc:
                    cached = Problem(self.file, line, "audio", str(exc))
            self._cache[candidate] = cached
        if isinstance(cached, Problem):
            problems.append(Problem(self.file, line, cached.field, cached.message))
            return None
        return cached


@dataclass
class BankRow:
    """A validated question row."""

    line: int
    external_id: str
    prompt: str
    answerline: str
    category: str
    source: str
    audio: list[AudioRef]
    choices: list[str]
    correct_choice: int | None
    pyramidal: bool
    metadata: dict[str, Any] = field(default_factory=dict)


def _read_records(path: Path) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """Yield (line number, record or None, parse error or None) for JSONL or CSV."""
    suffix = path.suffix.lower()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        yield 0, None, f"file is not UTF-8 text ({exc.reason} at byte {exc.start})"
        return
    if suffix in {".jsonl", ".ndjson", ".json"}:
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except json.JSONDecodeError as exc:
                yield number, None, f"malformed JSON ({exc.msg} at column {exc.colno})"
                continue
            if not isinstance(record, dict):
                yield number, None, "each line must be a JSON object"
                continue
            yield number, record, None
    elif suffix in {".csv", ".tsv"}:
        reader = csv.DictReader(io.StringIO(text), delimiter="\t" if suffix == ".tsv" else ",")
        for record in reader:
            if None in record:
                yield reader.line_num, None, "row has more cells than the header"
                continue
            yield reader.line_num, {k.strip(): v for k, v in record.items() if k}, None
    else:
        yield 0, None, f"unsupported file type {suffix!r} (use .jsonl or .csv)"


def _text(record: dict, key: str, problems: list[Problem], file: str, line: int,
          *, required: bool) -> str:
    value = record.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            problems.append(Problem(file, line, key, "is required and must not be empty"))
        return ""
    if not isinstance(value, str | int | float):
        problems.append(Problem(file, line, key, "must be a string"))
        return ""
    value = str(value).strip()
    if len(value) > MAX_TEXT:
        problems.append(Problem(file, line, key, f"is longer than {MAX_TEXT} characters"))
    return value


def _choices(record: dict, problems: list[Problem], file: str,
             line: int) -> tuple[list[str], int | None]:
    """Read MCQ options in either JSON (list) or CSV (choice_a..choice_d) form."""
    raw = record.get("choices")
    if raw is None:
        cells = [record.get(f"choice_{c}") or record.get(f"choice_{i + 1}")
                 for i, c in enumerate("abcd")]
        raw = [c for c in cells if c not in (None, "")] or None
    if raw in (None, "", []):
        if record.get("correct") not in (None, ""):
            problems.append(Problem(file, line, "correct", "given but the row has no choices"))
        return [], None
    if not isinstance(raw, list):
        problems.append(Problem(file, line, "choices", "must be a list of 4 options"))
        return [], None
    texts: list[str] = []
    flagged: list[int] = []
    for index, option in enumerate(raw):
        if isinstance(option, dict):
            text = str(option.get("text", "")).strip()
            if option.get("correct") is True:
                flagged.append(index)
        else:
            text = str(option).strip()
        if not text:
            problems.append(Problem(file, line, f"choices[{index}]", "empty option"))
        texts.append(text)
    if len(texts) != 4:
        problems.append(Problem(file, line, "choices", f"needs exactly 4 options, got {len(texts)}"))
    if len({t.casefold() for t in texts}) != len(texts):
        problems.append(Problem(file, line, "choices", "options must be distinct"))
    correct = record.get("correct")
    if correct not in (None, ""):
        if flagged:
            problems.append(
                Problem(file, line, "correct", "give either 'correct' or per-option flags, not both")
            )
        index = _choice_index(correct, texts)
        if index is None:
            problems.append(
                Problem(file, line, "correct", f"{correct!r} is not one of the options (A-D, 0-3 or the text)")
            )
        else:
            flagged = [index]
    if len(flagged) != 1:
        problems.append(
            Problem(file, line, "choices", f"MCQ needs exactly one correct option, got {len(flagged)}")
        )
        return texts, None
    return texts, flagged[0]


def _choice_index(value: Any, texts: list[str]) -> int | None:
    """Interpret a correct/choice value: 0-based int, letter A-D, '1'-'4' in CSV, or text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < len(texts) else None
    text = str(value).strip()
    if len(text) == 1 and text.upper() in LETTERS[: len(texts)]:
        return LETTERS.index(text.upper())
    folded = [t.casefold() for t in texts]
    if text.casefold() in folded:
        return folded.index(text.casefold())
    if text.isdigit() and 1 <= int(text) <= len(texts):
        return int(text) - 1
    return None


def _audio_names(record: dict) -> list[str]:
    raw = record.get("audio", record.get("clips"))
    if raw in (None, ""):
        return []
    if isinstance(raw, list):
        return [str(x).strip() for x in raw if str(x).strip()]
    return [part.strip() for part in str(raw).split("|") if part.strip()]


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in {"1", "true", "yes", "y"}


def parse_bank(path: Path, *, audio_dir: Path | None = None) -> list[BankRow]:
    """Read and validate a question bank; raise :class:`ImportFailed` listing every problem."""
    file = path.name
    audio_dir = audio_dir or path.parent
    problems: list[Problem] = []
    rows: list[BankRow] = []
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
            if external_id in seen_ids:
                problems.append(
                    Problem(file, line, "id", f"duplicate id {external_id!r} (first on line {seen_ids[external_id]})")
                )
            else:
                seen_ids[external_id] = line
        prompt = _text(record, "prompt", problems, file, line, required=True)
        answerline = _text(record, "answerline", problems, file, line, required=True)
        category = _text(record, "category", problems, file, line, required=True)
        source = _text(record, "source", problems, file, line, required=False)
        choices, correct = _choices(record, problems, file, line)
        names = _audio_names(record)
        if not names:
            problems.append(Problem(file, line, "audio", "at least one audio file is required"))
        refs = [ref for name in names if (ref := audio.read(name, line, problems)) is not None]
        metadata = record.get("metadata") or {}
        if not isinstance(metadata, dict):
            problems.append(Problem(file, line, "metadata", "must be a JSON object"))
            metadata = {}
        pyramidal = _bool(record.get("pyramidal", len(names) > 1))
        if pyramidal and len(names) < 2:
            problems.append(Problem(file, line, "pyramidal", "a pyramidal question needs 2 or more clips"))
        if len(problems) == before:
            rows.append(
                BankRow(
                    line=line, external_id=external_id, prompt=prompt, answerline=answerline,
                    category=category, source=source, audio=refs, choices=choices,
                    correct_choice=correct, pyramidal=pyramidal, metadata=metadata,
                )
            )
    if not problems and not rows:
        problems.append(Problem(file, 0, "", "no questions found"))
    if problems:
        raise ImportFailed(problems)
    return rows


@dataclass
class ResponseRow:
    """A validated model-output row (question resolved later against the database)."""

    line: int
    system: str
    condition: str
    question_id: str
    mode: str
    answer: str
    choice: Any
    option_order: list[int] | None
    latency_ms: int | None
    client_token: str


def parse_model_outputs(path: Path, *, allow_empty: bool = False) -> list[ResponseRow]:
    """Read and validate model outputs; raise :class:`ImportFailed` listing every problem."""
    file = path.name
    problems: list[Problem] = []
    rows: list[ResponseRow] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    if not path.exists():
        raise ImportFailed([Problem(file, 0, "", "file not found")])
    for line, record, error in _read_records(path):
        if error:
            problems.append(Problem(file, line, "", error))
            continue
        assert record is not None
        before = len(problems)
        system = _text(record, "system", problems, file, line, required=True)
        condition = _text(record, "condition", problems, file, line, required=False) or "default"
        question_id = _text(record, "question_id", problems, file, line, required=True)
        mode = _text(record, "mode", problems, file, line, required=True).lower()
        if mode and mode not in {"free", "mcq"}:
            problems.append(Problem(file, line, "mode", f"must be 'free' or 'mcq', got {mode!r}"))
        answer = ""
        choice = None
        if mode == "free":
            answer = str(record.get("answer") or "").strip()
            if not answer and not allow_empty:
                problems.append(Problem(file, line, "answer", "is empty (use --allow-empty to score empty answers as wrong)"))
        elif mode == "mcq":
            choice = record.get("choice")
            if choice in (None, ""):
                problems.append(Problem(file, line, "choice", "is required for mode 'mcq'"))
        order = record.get("option_order")
        if order is not None and (
            not isinstance(order, list) or sorted(order) != [0, 1, 2, 3]
        ):
            problems.append(Problem(file, line, "option_order", "must be a permutation of [0, 1, 2, 3]"))
            order = None
        latency = record.get("latency_ms")
        if latency is not None and (not isinstance(latency, int | float) or latency < 0):
            problems.append(Problem(file, line, "latency_ms", "must be a non-negative number"))
            latency = None
        key = (system, condition, question_id, mode)
        if all(key) and key in seen:
            problems.append(
                Problem(file, line, "question_id", f"second answer by {system}/{condition} to {question_id!r} in mode {mode} (first on line {seen[key]})")
            )
        elif all(key):
            seen[key] = line
        token = str(record.get("client_token") or f"import:{system}:{condition}:{question_id}:{mode}")[:64]
        if len(problems) == before:
            rows.append(
                ResponseRow(
                    line=line, system=system, condition=condition, question_id=question_id,
                    mode=mode, answer=answer, choice=choice, option_order=order,
                    latency_ms=int(latency) if latency is not None else None, client_token=token,
                )
            )
    if not problems and not rows:
        problems.append(Problem(file, 0, "", "no rows found"))
    if problems:
        raise ImportFailed(problems)
    return rows
