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
from typing import IO, Any

from .audio import AudioError, AudioInfo, inspect_audio
from .validation import (
    LIMITS,
    MAX_TEXT,
    DuplicateTracker,
    RowChecker,
    check_choices,
    clean_text,
    text_problem,
)

LETTERS = "ABCDEFGHIJ"  # option letters for up to 10 options


@dataclass(frozen=True)
class Problem:
    """One validation error: where it is and what is wrong.

    ``line`` is the physical line (JSONL, CSV; 0 for the whole file) or, when
    ``unit`` is ``"item"``, the 1-based position of the element in a JSON array
    (``item 3`` is ``data[2]``).
    """

    file: str
    line: int
    field: str
    message: str
    unit: str = "line"

    @property
    def where(self) -> str:
        if self.unit == "item":
            return f"{self.file}:item {self.line}"
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        return f"{self.where}: {self.field}: {self.message}" if self.field else f"{self.where}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        """The REST form: ``{"line", "unit", "field", "message", "text"}``."""
        return {"line": self.line, "unit": self.unit, "field": self.field, "message": self.message,
                "text": str(self)}


class ImportFailed(Exception):
    """Raised with every problem found; nothing was written."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class AudioRef:
    """An audio file referenced by a row, measured; its bytes stay on disk until stored."""

    name: str
    path: Path
    info: AudioInfo

    @property
    def data(self) -> bytes:
        """The file's bytes (read now; prefer :meth:`open` or :attr:`path` for large files)."""
        return self.path.read_bytes()

    def open(self) -> IO[bytes]:
        return open(self.path, "rb")


class AudioReader:
    """Reads the audio files an import names, once each, relative to one folder.

    Problems (a path outside the folder, a missing file, unreadable audio) come back
    as :class:`Problem` for the row that named the file; the same file named on
    several rows is decoded once. Files are decoded from disk in blocks and not kept
    in memory.
    """

    def __init__(self, audio_dir: Path, file: str):
        self.audio_dir = audio_dir
        self.root = audio_dir.resolve()
        self.file = file
        self._cache: dict[Path, AudioRef | tuple[str, str]] = {}

    def read(self, name: str, line: int, problems: list[Problem], unit: str = "line") -> AudioRef | None:
        """The measured audio for ``name``, or ``None`` with a problem appended."""
        bad = text_problem(name, 1000)
        if bad:
            problems.append(Problem(self.file, line, "audio", f"file name {bad}", unit))
            return None
        try:
            candidate = (self.audio_dir / name).resolve()
        except (OSError, ValueError) as exc:
            problems.append(Problem(self.file, line, "audio", f"{name[:80]!r} is not a usable path ({exc})", unit))
            return None
        if self.root not in candidate.parents:
            problems.append(Problem(self.file, line, "audio", f"{name!r} points outside the audio directory", unit))
            return None
        cached = self._cache.get(candidate)
        if cached is None:
            if not candidate.is_file():
                cached = ("audio", f"missing file {name!r} in {self.audio_dir}")
            else:
                try:
                    cached = AudioRef(name=name, path=candidate, info=inspect_audio(candidate, name=name))
                except AudioError as exc:
                    cached = ("audio", str(exc))
                except OSError as exc:
                    cached = ("audio", f"{name}: cannot be read ({exc.strerror or exc})")
            self._cache[candidate] = cached
        if isinstance(cached, tuple):
            problems.append(Problem(self.file, line, cached[0], cached[1], unit))
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
    unit: str = "line"
    counterfactual_answerline: str = ""


@dataclass(frozen=True)
class Record:
    """One record of an import file: where it is, and its fields or why it could not be read."""

    line: int
    record: dict[str, Any] | None
    error: str | None
    unit: str = "line"

    def __iter__(self):  # (line, record, error), as before items were counted
        return iter((self.line, self.record, self.error))

    def problem(self, file: str, field: str, message: str) -> Problem:
        return Problem(file, self.line, field, message, self.unit)


def _json_loads(text: str) -> Any:
    """``json.loads`` with Python's own failures (deep nesting, 4,300-digit ints) as ValueError."""
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise ValueError("nested too deeply") from exc


def _json_error(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"malformed JSON ({exc.msg} at column {exc.colno})"
    return f"malformed JSON ({exc})"


def read_records(path: Path) -> Iterator[Record]:
    """Every record of a JSONL, JSON (array or lines), CSV or TSV file, in order.

    JSON lines and CSV rows are numbered by physical line; the elements of a JSON
    array by position (``item 1`` is the first). Unreadable files and records come
    back as a :class:`Record` with ``error`` set, never as an exception.
    """
    suffix = path.suffix.lower()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        yield Record(0, None, f"file is not UTF-8 text ({exc.reason} at byte {exc.start})")
        return
    except OSError as exc:
        yield Record(0, None, f"cannot be read ({exc.strerror or exc})")
        return
    if suffix == ".json" and text.lstrip()[:1] not in ("{", ""):
        yield from _array_records(text)
    elif suffix == ".json" and "\n" in text.strip():
        yield from _json_object_or_lines(text)
    elif suffix in {".jsonl", ".ndjson", ".json"}:
        yield from _line_records(text)
    elif suffix in {".csv", ".tsv"}:
        yield from _csv_records(text, "\t" if suffix == ".tsv" else ",")
    else:
        yield Record(0, None, f"unsupported file type {suffix!r} (use .jsonl, .json or .csv)")


def _array_records(text: str) -> Iterator[Record]:
    try:
        data = _json_loads(text)
    except json.JSONDecodeError as exc:
        yield Record(exc.lineno, None, f"malformed JSON ({exc.msg} at column {exc.colno})")
        return
    except ValueError as exc:
        yield Record(0, None, _json_error(exc))
        return
    if not isinstance(data, list):
        yield Record(0, None, "a .json file must hold an array of objects, or one JSON object per line")
        return
    for index, record in enumerate(data, start=1):
        if not isinstance(record, dict):
            yield Record(index, None, "each element of the array must be a JSON object", "item")
        else:
            yield Record(index, record, None, "item")


def _json_object_or_lines(text: str) -> Iterator[Record]:
    """A ``.json`` file that starts with ``{``: one (maybe pretty-printed) object, or JSON lines."""
    try:
        record = _json_loads(text)
    except ValueError:
        yield from _line_records(text)
        return
    yield Record(1, record, None) if isinstance(record, dict) else Record(1, None, "must be a JSON object")


def _line_records(text: str) -> Iterator[Record]:
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = _json_loads(raw)
        except ValueError as exc:
            yield Record(number, None, _json_error(exc))
            continue
        if not isinstance(record, dict):
            yield Record(number, None, "each line must be a JSON object")
            continue
        yield Record(number, record, None)


def _csv_records(text: str, delimiter: str) -> Iterator[Record]:
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for record in reader:
            if None in record:
                yield Record(reader.line_num, None, "row has more cells than the header")
                continue
            yield Record(reader.line_num, {k.strip(): v for k, v in record.items() if k}, None)
    except csv.Error as exc:  # raised before line_num counts the line being parsed
        yield Record(reader.line_num + 1, None, f"malformed CSV ({exc})")


#: Kept for callers written before JSON arrays: yields (line, record, error) triples too.
_read_records = read_records


def _text(record: dict, key: str, problems: list[Problem], file: str, line: int,
          *, required: bool, max_length: int = MAX_TEXT, unit: str = "line") -> str:
    errors: list[tuple[str, str]] = []
    value = clean_text(record.get(key), key, errors, max_length=max_length, required=required)
    problems.extend(Problem(file, line, f, m, unit) for f, m in errors)
    return value


def _checker(problems: list[Problem], file: str, item: Record) -> RowChecker:
    return RowChecker(problems, lambda f, m: item.problem(file, f, m))


def _choices(record: dict, check: RowChecker) -> tuple[list[str], int | None]:
    """Read MCQ options in either JSON (list) or CSV (choice_a..choice_d) form."""
    raw = record.get("choices")
    if raw is None:
        cells = [record.get(f"choice_{c}") or record.get(f"choice_{i + 1}")
                 for i, c in enumerate(LETTERS.lower())]
        raw = [c for c in cells if c not in (None, "")] or None
    if raw in (None, "", []):
        if record.get("correct") not in (None, ""):
            check.add("correct", "given but the row has no choices")
        return [], None
    if not isinstance(raw, list):
        check.add("choices", "must be a list of 2 to 10 options")
        return [], None
    texts: list[str] = []
    flagged: list[int] = []
    for index, option in enumerate(raw):
        if isinstance(option, dict):
            option_text = option.get("text", "")
            if option.get("correct") is True:
                flagged.append(index)
        else:
            option_text = option
        if isinstance(option_text, list | dict | bool):
            check.add(f"choices[{index}]", "must be text")
            option_text = ""
        texts.append(str(option_text if option_text is not None else "").strip())
    correct = record.get("correct")
    if correct not in (None, ""):
        if flagged:
            check.add("correct", "give either 'correct' or per-option flags, not both")
        index = _choice_index(correct, texts)
        if index is None:
            check.add("correct", f"{str(correct)[:80]!r} is not one of the options (a letter, a 0-based index or the text)")
            return texts, None
        flagged = [index]
    if len(flagged) > 1:
        check.add("choices", f"MCQ needs exactly one correct option, got {len(flagged)}")
        return texts, None
    correct_index = flagged[0] if flagged else None
    errors = check_choices(texts, correct_index)
    check.extend(errors)
    return texts, None if errors else correct_index


def resolve_mcq_choice(row: ResponseRow, question: Any, file: str) -> tuple[int | None, Problem | None]:
    """The bank index of a multiple-choice row's pick, or the problem (FILE:LINE: field) with it.

    ``question``: anything with ``has_mcq``, ``choices`` and the row's ``question_id``
    (a :class:`quiz.models.Question`). ``row.option_order`` is the order the options
    were shown in (default: bank order); the row's ``choice`` is read against that
    shown order and mapped back to the bank's. Shared by plain and variant imports.
    """
    if not question.has_mcq:
        return None, row.problem(file, "mode", f"question {row.question_id!r} has no options")
    order = row.option_order or list(range(len(question.choices)))
    if len(order) != len(question.choices):
        return None, row.problem(file, "option_order", (
            f"has {len(order)} entries but {row.question_id!r} has {len(question.choices)} options"))
    position = _choice_index(row.choice, [question.choices[i] for i in order])
    if position is None:
        return None, row.problem(file, "choice", f"{str(row.choice)[:80]!r} is not one of the options")
    return order[position], None


def _choice_index(value: Any, texts: list[str]) -> int | None:
    """Interpret a correct/choice value: 0-based int, letter A-D, '1'-'4' in CSV, or text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < len(texts) else None
    if not isinstance(value, str | float):
        return None
    text = str(value).strip()
    if len(text) == 1 and text.upper() in LETTERS[: len(texts)]:
        return LETTERS.index(text.upper())
    folded = [t.casefold() for t in texts]
    if text.casefold() in folded:
        return folded.index(text.casefold())
    if text.isdigit() and 1 <= int(text) <= len(texts):
        return int(text) - 1
    return None


def _audio_names(record: dict, check: RowChecker) -> list[str]:
    raw = record.get("audio", record.get("clips"))
    if raw in (None, ""):
        return []
    if isinstance(raw, list):
        if not all(isinstance(x, str) for x in raw):
            check.add("audio", "must be a file name or a list of file names")
            return []
        return [x.strip() for x in raw if x.strip()]
    if not isinstance(raw, str):
        check.add("audio", "must be a file name or a list of file names")
        return []
    return [part.strip() for part in raw.split("|") if part.strip()]


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
    ids = DuplicateTracker()
    audio = AudioReader(audio_dir, file)
    limits = LIMITS["question"]
    if not path.exists():
        raise ImportFailed([Problem(file, 0, "", "file not found")])
    for item in read_records(path):
        if item.error:
            problems.append(item.problem(file, "", item.error))
            continue
        assert item.record is not None
        record, line, check = item.record, item.line, _checker(problems, file, item)
        before = len(problems)
        external_id = check.text(record, "id", required=True, max_length=limits["id"])
        if external_id and (first := ids.first(external_id, line)) is not None:
            check.add("id", f"duplicate id {external_id!r} (first on {item.unit} {first})")
        prompt = check.text(record, "prompt", required=True)
        answerline = check.text(record, "answerline", required=True)
        counterfactual = check.text(record, "counterfactual_answerline")
        category = check.text(record, "category", required=True, max_length=limits["category"])
        source = check.text(record, "source", max_length=limits["source"])
        choices, correct = _choices(record, check)
        listed = len(problems)
        names = _audio_names(record, check)
        if not names and len(problems) == listed:
            check.add("audio", "at least one audio file is required")
        refs = [ref for name in names if (ref := audio.read(name, line, problems, item.unit)) is not None]
        metadata = check.metadata(record)
        pyramidal = _bool(record.get("pyramidal", len(names) > 1))
        if pyramidal and len(names) < 2:
            check.add("pyramidal", "a pyramidal question needs 2 or more clips")
        if len(problems) == before:
            rows.append(
                BankRow(
                    line=line, external_id=external_id, prompt=prompt, answerline=answerline,
                    category=category, source=source, audio=refs, choices=choices,
                    correct_choice=correct, pyramidal=pyramidal, metadata=metadata, unit=item.unit,
                    counterfactual_answerline=counterfactual,
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
    unit: str = "line"
    #: The variant the model answered under (docs/import-format.md); all empty: a plain answer.
    context: str = ""
    prompt_variant: str = ""
    prompt_language: str = ""
    clue_index: int | None = None

    @property
    def is_variant(self) -> bool:
        """Stored as a :class:`quiz.models.VariantAnswer` rather than a Response."""
        return bool(self.context == "counterfactual" or self.prompt_variant or self.prompt_language
                    or self.clue_index is not None)

    @property
    def variant_key(self) -> tuple[str, str, str, int | None]:
        return (self.context or "factual", self.prompt_variant, self.prompt_language, self.clue_index)

    def problem(self, file: str, field: str, message: str) -> Problem:
        return Problem(file, self.line, field, message, self.unit)


#: The contexts a model output may name (KoALa's factual / counterfactual speech).
CONTEXTS = ("factual", "counterfactual")


def _variant_words(variant: tuple[str, str, str, int | None]) -> str:
    """``"(counterfactual, prompt p2, clue 1) "`` for messages; empty for a plain answer."""
    context, prompt, language, clue = variant
    parts = [context] if context != "factual" else []
    parts += [f"prompt {prompt}"] if prompt else []
    parts += [f"language {language}"] if language else []
    parts += [f"clue {clue}"] if clue is not None else []
    return f"({', '.join(parts)}) " if parts else ""


#: Prefix of hashed default tokens; the readable form always starts ``import:``, so
#: the two can never be equal.
HASHED_TOKEN_PREFIX = "import-h:"


def default_client_token(system: str, condition: str, question_id: str, mode: str) -> str:
    """The idempotency token of a model answer that names none (stable across imports).

    ``import:{system}:{condition}:{question_id}:{mode}`` while that fits the 64-character
    column (so tokens stored by earlier imports stay the same); otherwise
    ``import-h:`` and the first 48 hex digits of the SHA-256 of the four fields joined
    by NUL, which cannot collide for distinct long names the way a cut-off prefix did.
    """
    readable = f"import:{system}:{condition}:{question_id}:{mode}"
    if len(readable) <= 64:
        return readable
    import hashlib

    digest = hashlib.sha256("\x00".join((system, condition, question_id, mode)).encode()).hexdigest()
    return HASHED_TOKEN_PREFIX + digest[:48]


def _option_order(record: dict, check: RowChecker) -> list[int] | None:
    order = record.get("option_order")
    if order in (None, ""):
        return None
    if isinstance(order, str):  # CSV: "2|0|1|3" or "2,0,1,3"
        parts = [p.strip() for p in order.replace("|", ",").split(",")]
        order = [int(p) if p.isdigit() else p for p in parts]
    if (not isinstance(order, list) or any(isinstance(i, bool) or not isinstance(i, int) for i in order)
            or not 2 <= len(order) <= 10 or sorted(order) != list(range(len(order)))):
        check.add("option_order", "must be a permutation of the option indices, e.g. [0, 1, 2, 3]")
        return None
    return order


def parse_model_outputs(path: Path, *, allow_empty: bool = False) -> list[ResponseRow]:
    """Read and validate model outputs; raise :class:`ImportFailed` listing every problem."""
    file = path.name
    problems: list[Problem] = []
    rows: list[ResponseRow] = []
    answers = DuplicateTracker()
    tokens = DuplicateTracker()
    limits = LIMITS["model_output"]
    if not path.exists():
        raise ImportFailed([Problem(file, 0, "", "file not found")])
    for item in read_records(path):
        if item.error:
            problems.append(item.problem(file, "", item.error))
            continue
        assert item.record is not None
        record, line, check = item.record, item.line, _checker(problems, file, item)
        before = len(problems)
        system = check.text(record, "system", required=True, max_length=limits["system"])
        condition = check.text(record, "condition", max_length=limits["condition"]) or "default"
        question_id = check.text(record, "question_id", required=True, max_length=limits["question_id"])
        mode = check.text(record, "mode", required=True, max_length=10).lower()
        if mode and mode not in {"free", "mcq"}:
            check.add("mode", f"must be 'free' or 'mcq', got {mode!r}")
        answer = ""
        choice = None
        if mode == "free":
            answer = check.text(record, "answer")
            if not answer and not allow_empty and not any(p.field == "answer" for p in problems[before:]):
                check.add("answer", "is empty (use --allow-empty to score empty answers as wrong)")
        elif mode == "mcq":
            choice = record.get("choice")
            if choice in (None, ""):
                check.add("choice", "is required for mode 'mcq'")
            elif not isinstance(choice, str | int) or isinstance(choice, bool):
                check.add("choice", "must be a letter A-D, an index 0-3 or the option text")
            elif isinstance(choice, str) and (bad := text_problem(choice, 2000)):
                check.add("choice", bad)
        order = _option_order(record, check)
        latency = check.integer(record, "latency_ms")
        context = check.text(record, "context", max_length=20).lower()
        if context and context not in CONTEXTS:
            check.add("context", f"must be 'factual' or 'counterfactual', got {context[:40]!r}")
        prompt_variant = check.text(record, "prompt_variant", max_length=60)
        prompt_language = check.text(record, "prompt_language", max_length=20)
        clue_index = check.integer(record, "clue_index", maximum=1000)
        variant = (context or "factual", prompt_variant, prompt_language, clue_index)
        key = (system, condition, question_id, mode)
        repeated = all(key) and (first := answers.first((*key, *variant), line)) is not None
        if repeated:
            check.add("question_id", f"second answer by {system}/{condition} to {question_id!r} in mode {mode} "
                      f"{_variant_words(variant)}(first on {item.unit} {first})")
        given = check.text(record, "client_token", max_length=limits["client_token"])
        plain = variant == ("factual", "", "", None)
        token = given or default_client_token(system, condition, question_id,
                                              mode if plain else f"{mode}:{_variant_words(variant).strip()}")
        if not repeated and system and (first := tokens.first((system, condition, token), line)) is not None:
            check.add("client_token", f"{token!r} is used twice by {system}/{condition} "
                      f"(first on {item.unit} {first})")
        if len(problems) == before:
            rows.append(
                ResponseRow(
                    line=line, system=system, condition=condition, question_id=question_id,
                    mode=mode, answer=answer, choice=choice, option_order=order,
                    latency_ms=latency, client_token=token, unit=item.unit, context=context,
                    prompt_variant=prompt_variant, prompt_language=prompt_language, clue_index=clue_index,
                )
            )
    if not problems and not rows:
        problems.append(Problem(file, 0, "", "no rows found"))
    if problems:
        raise ImportFailed(problems)
    return rows
