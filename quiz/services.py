"""Writes for the quiz: imports, responders, serving questions and submitting answers."""

from __future__ import annotations

import os
import random
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.core.files.base import ContentFile, File
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import Project

from .importing import ImportFailed, Problem, parse_bank, parse_model_outputs, resolve_mcq_choice
from .models import (
    Category,
    Clip,
    Mode,
    ModelSystem,
    Presentation,
    Question,
    QuestionClip,
    Responder,
    ResponderKind,
    Response,
)

#: The six categories of the Audita benchmark, seeded in every new project.
DEFAULT_CATEGORIES = (
    "Cultural Geography in Sound",
    "Name The Music: Songs, Artists & Composers",
    "Who's Who? Name That Persona",
    "Elements of Musical Works",
    "Pop Culture and Media",
    "Environmental and Acoustic Sound Recognition",
)

MCQ_RULE_VERSION = "mcq-1"


class SubmissionError(ValueError):
    """A submission that cannot be accepted (names the offending field)."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def categories_ensure_defaults(project: Project) -> None:
    """Create the default categories that the project does not have yet."""
    for position, name in enumerate(DEFAULT_CATEGORIES):
        category_get_or_create(project=project, name=name, position=position)


def category_get_or_create(*, project: Project, name: str, position: int | None = None) -> Category:
    """Find a category by name (case-insensitive) or add it at the end."""
    existing = Category.objects.filter(project=project, name__iexact=name).first()
    if existing:
        return existing
    if position is None:
        position = Category.objects.filter(project=project).count()
    base = slugify(name)[:100] or "category"
    slug, n = base, 2
    while Category.objects.filter(project=project, slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return Category.objects.create(project=project, name=name, slug=slug, position=position)


def clip_store(*, project: Project, name: str, data: bytes | os.PathLike | IO[bytes], info) -> tuple[Clip, bool]:
    """Store audio content once per project (deduplicated by SHA-256).

    ``data`` is the bytes, a path or an open (seekable) file; paths and files are
    copied in chunks.

    The stored file name is derived from the content hash, never from ``name``:
    names such as ``GuessTheVoiceAdele_01.wav`` would give answers away.
    """
    existing = Clip.objects.filter(project=project, sha256=info.sha256).first()
    if existing:
        return existing, False
    clip = Clip(
        project=project,
        original_name=name[:255],
        sha256=info.sha256,
        content_type=info.content_type,
        format=info.format,
        subtype=info.subtype,
        duration_s=info.duration_s,
        sample_rate=info.sample_rate,
        channels=info.channels,
        frames=info.frames,
        size_bytes=info.size_bytes,
    )
    extension = Path(name).suffix.lower() or ".wav"
    target = f"{project.pk}/{info.sha256[:2]}/{info.sha256}{extension}"
    if isinstance(data, bytes | bytearray):
        clip.file.save(target, ContentFile(data), save=False)
    elif isinstance(data, str | os.PathLike):
        with open(data, "rb") as handle:  # copied in chunks, never held whole in memory
            clip.file.save(target, File(handle), save=False)
    else:
        data.seek(0)
        clip.file.save(target, data if isinstance(data, File) else File(data), save=False)
    clip.save()
    return clip, True


@dataclass
class ImportSummary:
    """What an import did."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    clips_created: int = 0
    messages: list[str] = field(default_factory=list)


def bank_import(*, project: Project, path: Path, audio_dir: Path | None = None) -> ImportSummary:
    """Import a question bank (JSONL/CSV + audio) into ``project``.

    Every row and audio file is validated first; any problem raises
    :class:`~quiz.importing.ImportFailed` and nothing is written. Re-importing
    updates questions by their external id instead of duplicating them.
    """
    rows = parse_bank(Path(path), audio_dir=Path(audio_dir) if audio_dir else None)
    summary = ImportSummary()
    written_files: list[Clip] = []
    try:
        with transaction.atomic():
            for row in rows:
                category = category_get_or_create(project=project, name=row.category)
                clips = []
                for ref in row.audio:
                    clip, created = clip_store(project=project, name=ref.name, data=ref.path, info=ref.info)
                    if created:
                        written_files.append(clip)
                        summary.clips_created += 1
                    clips.append(clip)
                values = {
                    "prompt": row.prompt,
                    "answerline": row.answerline,
                    "counterfactual_answerline": row.counterfactual_answerline,
                    "category": category,
                    "source": row.source,
                    "choices": row.choices,
                    "correct_choice": row.correct_choice,
                    "pyramidal": row.pyramidal,
                    "metadata": row.metadata,
                    "is_active": True,
                }
                question = Question.objects.filter(project=project, external_id=row.external_id).first()
                if question is None:
                    question = Question.objects.create(project=project, external_id=row.external_id, **values)
                    summary.created += 1
                else:
                    changed = any(getattr(question, k) != v for k, v in values.items())
                    old_clips = list(question.question_clips.values_list("clip_id", flat=True))
                    if changed or old_clips != [c.pk for c in clips]:
                        if question.responses.exists() and (
                            question.answerline != row.answerline
                            or question.correct_choice != row.correct_choice
                        ):
                            summary.messages.append(
                                f"line {row.line}: {row.external_id}: answer changed; "
                                "run judging_rescore to re-judge stored responses"
                            )
                        for key, value in values.items():
                            setattr(question, key, value)
                        question.save()
                        summary.updated += 1
                    else:
                        summary.unchanged += 1
                        continue
                    question.question_clips.all().delete()
                QuestionClip.objects.bulk_create(
                    [QuestionClip(question=question, clip=c, position=i) for i, c in enumerate(clips)]
                )
    except BaseException:
        for clip in written_files:
            clip.file.storage.delete(clip.file.name)
        raise
    return summary


def question_save(*, project: Project, data: dict[str, Any], instance: Question | None = None) -> Question:
    """Create or update one question (and its ordered clips) in one transaction.

    ``data`` holds Question fields plus ``category`` (a name; created if new) and
    ``clips`` (opaque clip ids in clue order). Unknown clips or a duplicate external
    id raise :class:`SubmissionError` naming the field; nothing is written then.
    """
    data = dict(data)
    clip_ids = data.pop("clips", None)
    clips: list[Clip] = []
    if clip_ids is not None:
        found = {c.public_id: c for c in Clip.objects.filter(project=project, public_id__in=clip_ids)}
        missing = [c for c in clip_ids if c not in found]
        if missing:
            raise SubmissionError("clips", ", ".join(f"unknown clip id {m!r}" for m in missing))
        clips = [found[c] for c in clip_ids]
    with transaction.atomic():
        if "category" in data:
            data["category"] = category_get_or_create(project=project, name=data["category"])
        if instance is None:
            if Question.objects.filter(project=project, external_id=data["external_id"]).exists():
                raise SubmissionError("external_id", "a question with this id exists in the project")
            instance = Question.objects.create(project=project, **data)
        else:
            data.pop("external_id", None)
            for key, value in data.items():
                setattr(instance, key, value)
            instance.save()
        if clip_ids is not None:
            instance.question_clips.all().delete()
            QuestionClip.objects.bulk_create(
                [QuestionClip(question=instance, clip=c, position=i) for i, c in enumerate(clips)]
            )
    return instance


def responder_for_user(*, project: Project, user) -> Responder:
    """The human responder for ``user`` in ``project`` (created on first use)."""
    responder = Responder.objects.filter(project=project, kind=ResponderKind.HUMAN, user=user).first()
    if responder:
        return responder
    try:
        with transaction.atomic():
            return Responder.objects.create(
                project=project, kind=ResponderKind.HUMAN, user=user, label=user.handle
            )
    except IntegrityError:
        return Responder.objects.get(project=project, kind=ResponderKind.HUMAN, user=user)


def responder_for_model(*, project: Project, system_name: str, condition: str) -> Responder:
    """The responder for a model system under a condition (both created on first use)."""
    system, _ = ModelSystem.objects.get_or_create(project=project, name=system_name)
    responder, _ = Responder.objects.get_or_create(
        project=project,
        kind=ResponderKind.MODEL,
        system=system,
        condition=condition,
        defaults={"label": f"{system_name} ({condition})"},
    )
    return responder


def presentation_get_or_create(
    *, responder: Responder, question: Question, mode: str, rng: random.Random | None = None,
    stage: int = 1, design: str = "",
) -> Presentation:
    """Serve ``question`` to ``responder``: fix (and store) the MCQ option order shown.

    ``stage`` 2 marks the multiple-choice version served after a free answer (the
    *free then MCQ* design); ``design`` records the study design in force.
    """
    if mode == Mode.MCQ and not question.has_mcq:
        raise SubmissionError("mode", "this question has no multiple-choice options")
    existing = Presentation.objects.filter(responder=responder, question=question, mode=mode).first()
    if existing:
        return existing
    order: list[int] = []
    if mode == Mode.MCQ:
        order = list(range(len(question.choices)))
        (rng or random.SystemRandom()).shuffle(order)
    try:
        with transaction.atomic():
            return Presentation.objects.create(
                responder=responder, question=question, mode=mode, option_order=order,
                stage=stage, design=design,
            )
    except IntegrityError:
        return Presentation.objects.get(responder=responder, question=question, mode=mode)


def verdict_for(question: Question, mode: str, *, answer_text: str = "", choice: int | None = None) -> dict[str, Any]:
    """Judge one answer with the project's judging code; returns Response verdict fields."""
    if mode == Mode.MCQ:
        chosen = question.choices[choice] if choice is not None else ""
        right = question.choices[question.correct_choice]
        correct = choice == question.correct_choice
        return {
            "correct": correct,
            "prompt": False,
            "score": 1.0 if correct else 0.0,
            "rule": "mcq",
            "rule_version": MCQ_RULE_VERSION,
            "matched": right if correct else "",
            "explanation": (
                f"Chose “{chosen}”, the correct option."
                if correct
                else f"Chose “{chosen}”; the correct option is “{right}”."
            ),
        }
    from judging.equivalence import EQUIVALENCE_VERSION, judge

    verdict = judge(answer_text, question.answerline, question=question.prompt)
    return {
        "correct": bool(verdict.correct),
        "prompt": bool(verdict.prompt),
        "score": float(verdict.score),
        "rule": verdict.rule[:60],
        "rule_version": EQUIVALENCE_VERSION,
        "matched": verdict.matched or "",
        "explanation": verdict.explanation,
    }


def response_submit(
    *,
    responder: Responder,
    question: Question,
    mode: str,
    client_token: str,
    answer_text: str = "",
    choice_position: int | None = None,
    choice: int | None = None,
    option_order: list[int] | None = None,
    clue_index: int | None = None,
    clue_time_s: float | None = None,
    clip_time_s: float | None = None,
    latency_ms: int | None = None,
    prompted: bool = False,
    stage: int | None = None,
    design: str = "",
    listening: dict | None = None,
    listened_fraction: float | None = None,
    buzz_position: float | None = None,
    round_id: int | None = None,
) -> tuple[Response, bool]:
    """Store and judge one answer; idempotent by ``client_token``.

    Returns ``(response, created)``. Submitting the same token again, or answering a
    question already answered in this mode, returns the stored response unchanged.
    MCQ answers from the browser give ``choice_position`` (the option's position on
    screen); the author's index is recovered from the stored presentation order.
    """
    client_token = (client_token or "").strip()
    if not client_token or len(client_token) > 64:
        raise SubmissionError("client_token", "is required (1-64 characters)")
    if mode not in Mode.values:
        raise SubmissionError("mode", f"must be one of {', '.join(Mode.values)}")
    if question.project_id != responder.project_id:
        raise SubmissionError("question", "does not belong to this project")
    previous = Response.objects.filter(responder=responder, client_token=client_token).first()
    if previous:
        if previous.question_id != question.pk or previous.mode != mode:
            raise SubmissionError("client_token", "was already used for another answer")
        return previous, False
    previous = Response.objects.filter(responder=responder, question=question, mode=mode).first()
    if previous:
        return previous, False

    presentation = Presentation.objects.filter(responder=responder, question=question, mode=mode).first()
    if mode == Mode.MCQ:
        if not question.has_mcq:
            raise SubmissionError("mode", "this question has no multiple-choice options")
        if option_order is None:
            option_order = presentation.option_order if presentation else list(range(len(question.choices)))
        if choice is None:
            if choice_position is None or not 0 <= int(choice_position) < len(option_order):
                raise SubmissionError("choice", "pick one of the options")
            choice = option_order[int(choice_position)]
        elif not 0 <= int(choice) < len(question.choices):
            raise SubmissionError("choice", "is not one of the options")
        if choice_position is None:
            choice_position = option_order.index(choice)
        answer_text = question.choices[choice]
    else:
        answer_text = (answer_text or "").strip()
        if not answer_text:
            raise SubmissionError("answer", "must not be empty")
        if len(answer_text) > 2000:
            raise SubmissionError("answer", "is longer than 2000 characters")
        option_order = []
    clip_count = question.question_clips.count()
    if clue_index is not None and not 0 <= int(clue_index) < max(clip_count, 1):
        raise SubmissionError("clue_index", f"must be between 0 and {clip_count - 1}")
    if stage is None:
        stage = presentation.stage if presentation is not None else 1
    now = timezone.now()
    if latency_ms is None and presentation is not None:
        latency_ms = int((now - presentation.served_at).total_seconds() * 1000)
    verdict = verdict_for(question, mode, answer_text=answer_text, choice=choice)
    try:
        with transaction.atomic():
            response = Response.objects.create(
                project_id=question.project_id,
                question=question,
                responder=responder,
                mode=mode,
                answer_text=answer_text,
                choice=choice,
                choice_position=choice_position,
                option_order=option_order,
                clue_index=clue_index,
                clue_time_s=clue_time_s,
                clip_time_s=clip_time_s,
                latency_ms=latency_ms,
                client_token=client_token,
                prompted=prompted,
                stage=stage,
                design=design or (presentation.design if presentation is not None else ""),
                listening=listening or {},
                listened_fraction=listened_fraction,
                buzz_position=buzz_position,
                round_id=round_id if round_id is not None else (presentation.round_id if presentation else None),
                judged_at=now,
                **verdict,
            )
    except IntegrityError:
        stored = Response.objects.filter(responder=responder, client_token=client_token).first()
        stored = stored or Response.objects.get(responder=responder, question=question, mode=mode)
        return stored, False
    return response, True


def model_responses_import(*, project: Project, path: Path, allow_empty: bool = False) -> ImportSummary:
    """Import model outputs (JSONL/CSV); judge each with the same code as human answers.

    Unknown question ids, options that do not exist and malformed rows are all
    reported with their line numbers, and nothing is written unless every row is
    valid. Re-importing the same file changes nothing; a changed answer replaces
    the stored one and is re-judged.
    """
    from . import variants

    rows = parse_model_outputs(Path(path), allow_empty=allow_empty)
    file = Path(path).name
    ids = {row.question_id for row in rows}
    questions = {q.external_id: q for q in Question.objects.filter(project=project, external_id__in=ids)}
    problems: list[Problem] = []
    resolved = []
    extra, problems = variants.variant_rows_resolve(rows=[r for r in rows if r.is_variant], questions=questions,
                                                    file=file)
    for row in (r for r in rows if not r.is_variant):
        question = questions.get(row.question_id)
        if question is None:
            problems.append(row.problem(file, "question_id", f"unknown question id {row.question_id!r}"))
            continue
        choice = None
        if row.mode == Mode.MCQ:
            choice, problem = resolve_mcq_choice(row, question, file)
            if problem is not None:
                problems.append(problem)
                continue
        resolved.append((row, question, choice))
    problems.extend(_stored_token_clashes(project, file, resolved))
    if problems:
        raise ImportFailed(problems)
    summary = ImportSummary()
    now = timezone.now()
    with transaction.atomic():
        variants.variant_answers_store(project=project, resolved=extra, summary=summary, now=now)
        for row, question, choice in resolved:
            responder = responder_for_model(project=project, system_name=row.system, condition=row.condition)
            order = row.option_order or (list(range(len(question.choices))) if row.mode == Mode.MCQ else [])
            answer = question.choices[choice] if choice is not None else row.answer
            stored = Response.objects.filter(responder=responder, question=question, mode=row.mode).first()
            if stored and stored.answer_text == answer and stored.choice == choice:
                summary.unchanged += 1
                continue
            verdict = verdict_for(question, row.mode, answer_text=answer, choice=choice)
            values = {
                "project": project, "answer_text": answer, "choice": choice,
                "choice_position": order.index(choice) if choice is not None else None,
                "option_order": order, "latency_ms": row.latency_ms, "judged_at": now,
                "client_token": row.client_token, **verdict,
            }
            if stored:
                for key, value in values.items():
                    setattr(stored, key, value)
                stored.save()
                summary.updated += 1
            else:
                Response.objects.create(question=question, responder=responder, mode=row.mode, **values)
                summary.created += 1
    return summary


def _stored_token_clashes(project: Project, file: str, resolved: list) -> list[Problem]:
    """Rows whose client token a stored answer of the same model responder already uses
    for another question or mode (the unique key would refuse them mid-import)."""
    tokens = sorted({row.client_token for row, _, _ in resolved})
    stored: dict[tuple[str, str, str], tuple[str, str]] = {}
    for start in range(0, len(tokens), 500):  # bounded IN lists (SQLite's variable limit)
        stored.update({
            (name, condition, token): (qid, mode)
            for name, condition, token, qid, mode in Response.objects.filter(
                project=project, responder__kind=ResponderKind.MODEL, client_token__in=tokens[start:start + 500],
            ).values_list("responder__system__name", "responder__condition", "client_token",
                          "question__external_id", "mode")
        })
    problems = []
    for row, question, _ in resolved:
        owner = stored.get((row.system, row.condition, row.client_token))
        if owner is not None and owner != (question.external_id, row.mode):
            problems.append(row.problem(file, "client_token", (
                f"{row.client_token!r} is already the token of {row.system}/{row.condition}'s "
                f"{owner[1]} answer to {owner[0]!r}")))
    return problems


def new_client_token() -> str:
    """A fresh idempotency token (the browser makes its own; this is for scripts)."""
    return secrets.token_hex(16)
