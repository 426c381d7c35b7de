"""Variant model answers: counterfactual context, prompt variants and per-clue answers.

A model output row that names a counterfactual ``context``, a ``prompt_variant``, a
``prompt_language`` or a ``clue_index`` is stored as a :class:`VariantAnswer`
(docs/import-format.md), judged by the same code as every answer, against the key
of the context it saw. :func:`variant_rows_resolve` checks every such row against
the questions (before anything is written); :func:`variant_answers_store` writes
them inside the import's transaction.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from accounts.models import Project

from .importing import Problem, ResponseRow, resolve_mcq_choice
from .models import AnswerContext, Mode, Question, VariantAnswer


def variant_rows_resolve(*, rows: list[ResponseRow], questions: dict[str, Question],
                         file: str) -> tuple[list[tuple[ResponseRow, Question, int | None]], list[Problem]]:
    """Match variant rows to their questions and options; every problem names FILE:LINE: field."""
    resolved: list[tuple[ResponseRow, Question, int | None]] = []
    problems: list[Problem] = []
    for row in rows:
        question = questions.get(row.question_id)
        if question is None:
            problems.append(row.problem(file, "question_id", f"unknown question id {row.question_id!r}"))
            continue
        if row.context == AnswerContext.COUNTERFACTUAL and not question.counterfactual_answerline:
            problems.append(row.problem(file, "context", (
                f"question {row.question_id!r} has no counterfactual_answerline to judge a "
                "counterfactual answer against")))
            continue
        if row.clue_index is not None:
            n_clues = question.question_clips.count()
            if not question.pyramidal:
                problems.append(row.problem(file, "clue_index", f"question {row.question_id!r} is not pyramidal"))
                continue
            if row.clue_index >= n_clues:
                problems.append(row.problem(file, "clue_index", (
                    f"{row.clue_index} is past the last clue of {row.question_id!r} "
                    f"(clues 0-{n_clues - 1})")))
                continue
        choice = None
        if row.mode == Mode.MCQ:
            choice, problem = resolve_mcq_choice(row, question, file)
            if problem is not None:
                problems.append(problem)
                continue
        resolved.append((row, question, choice))
    return resolved, problems


def variant_verdict(question: Question, mode: str, context: str, *, answer_text: str,
                    choice: int | None) -> dict[str, Any]:
    """Judge a variant answer against both keys; ``correct`` is the key of its context.

    A multiple-choice answer matches the factual key when it is the correct option and
    the counterfactual key when the chosen option's text is judged equivalent to the
    counterfactual answerline.
    """
    from judging.equivalence import EQUIVALENCE_VERSION, judge

    from .services import verdict_for

    factual = verdict_for(question, mode, answer_text=answer_text, choice=choice)
    counter = None
    if question.counterfactual_answerline:
        text = question.choices[choice] if choice is not None else answer_text
        counter = judge(text, question.counterfactual_answerline, question=question.prompt)
    if context == AnswerContext.COUNTERFACTUAL and counter is not None:
        return {"correct": bool(counter.correct), "matches_factual": bool(factual["correct"]),
                "matches_counterfactual": bool(counter.correct), "score": float(counter.score),
                "rule": counter.rule[:60], "rule_version": EQUIVALENCE_VERSION,
                "explanation": counter.explanation}
    return {"correct": bool(factual["correct"]), "matches_factual": bool(factual["correct"]),
            "matches_counterfactual": None if counter is None else bool(counter.correct),
            "score": factual["score"], "rule": factual["rule"], "rule_version": factual["rule_version"],
            "explanation": factual["explanation"]}


def variant_answers_store(*, project: Project, resolved: list[tuple[ResponseRow, Question, int | None]],
                          summary: Any, now: dt.datetime) -> None:
    """Create or update the variant answers (call inside the import's transaction)."""
    from .services import responder_for_model

    for row, question, choice in resolved:
        responder = responder_for_model(project=project, system_name=row.system, condition=row.condition)
        context = row.context or AnswerContext.FACTUAL
        answer = question.choices[choice] if choice is not None else row.answer
        key = {"responder": responder, "question": question, "mode": row.mode, "context": context,
               "prompt_variant": row.prompt_variant, "prompt_language": row.prompt_language,
               "clue_index": row.clue_index}
        stored = VariantAnswer.objects.filter(**key).first()
        if stored and stored.answer_text == answer and stored.choice == choice:
            summary.unchanged += 1
            continue
        values = {"project": project, "answer_text": answer, "choice": choice, "latency_ms": row.latency_ms,
                  "judged_at": now, **variant_verdict(question, row.mode, context, answer_text=answer,
                                                      choice=choice)}
        if stored:
            for name, value in values.items():
                setattr(stored, name, value)
            stored.save()
            summary.updated += 1
        else:
            VariantAnswer.objects.create(**key, **values)
            summary.created += 1
