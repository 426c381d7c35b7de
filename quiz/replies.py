"""The JSON reply after an answer, a skip or a time-out: as much as the study lets the player see.

Under every policy the reply carries the ruling only after the answer is stored.
``full`` adds the answer (in plain words, D12) and the correct option;
``correctness`` right or wrong; ``none`` only that the answer is recorded. The
machines' verdicts and the players' share come only where
:func:`quiz.game.machines_visible` allows (never while the question may still be
served in another mode). The judge's technical explanation goes to researchers only.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from . import game, selectors
from . import study as studies
from .models import Mode, QuizStudy, Response
from .rendering import answer_for_player_html
from .rulings import player_ruling


def answer_reply(study: QuizStudy, response: Response, created: bool, *, researcher: bool = False) -> JsonResponse:
    """The reply to an answer (``created``: stored just now, else the stored one again)."""
    level = response.feedback or studies.feedback_level(study, response)
    data: dict = {
        "status": "judged" if level != "none" else "recorded",
        "feedback": level,
        "outcome": response.outcome,
        "response_id": response.pk,
        "created": created,
        "your_answer": response.answer_text,
        "message": _("Thanks: your answer is recorded.") if level == "none" else "",
        "challengeable": response.mode == Mode.FREE and response.outcome == "answer" and level != "none"
        and not response.correct,
    }
    if level in ("correctness", "full"):
        data["correct"] = response.correct
        data["ruling"] = player_ruling(outcome=response.outcome, correct=response.correct, mode=response.mode,
                                       prompted=response.prompted)
        data["stats"] = selectors.responder_accuracy_by_category(responder=response.responder)
        data["points"] = game.response_points(study, response)
        streak = game.player_streaks(response.responder)
        data["streak"] = {"current": streak.current, "best": streak.best}
    if level == "full":
        question = response.question
        data.update({
            "answerline_html": answer_for_player_html(question.answerline),
            "correct_position": (
                response.option_order.index(question.correct_choice)
                if response.mode == Mode.MCQ and response.option_order else None
            ),
        })
    if researcher and level != "none":
        data["technical"] = {"rule": response.rule, "rule_version": response.rule_version,
                             "score": response.score, "explanation": response.explanation}
    if game.machines_visible(study, response):
        data["machines"] = game.machine_results(question_id=response.question_id, mode=response.mode)
        data["players"] = game.players_share(question_id=response.question_id, mode=response.mode)
    if response.round_id:
        play_round = response.round
        answered = game.round_answered(play_round)
        done = game.round_finish_if_done(play_round, study=study)
        slug = response.question.project.slug
        data["round"] = {
            "kind": play_round.kind, "answered": answered, "size": play_round.size, "done": done,
            "summary_url": reverse("quiz:daily", args=[slug]) if play_round.kind == "daily"
            else reverse("quiz:round_summary", args=[slug, play_round.pk]),
        }
    return JsonResponse(data, status=201 if created else 200)
