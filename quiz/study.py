"""Quiz study designs: which question a player meets next, in which mode, and what they may learn.

Three rules hold under every design (docs/quiz-studies.md):

* A player meets a question in one mode as an independent (stage 1) answer, once.
  Only the *free then MCQ* design serves the multiple-choice version afterwards,
  as a second stage that is stored apart and left out of accuracies and fits.
* No reply, page or export a player can read shows an answerline (or the correct
  option) while that question could still be served to them in any mode.
* The feedback policy decides what else a player learns after answering.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import Project

from .models import (
    Category,
    FeedbackPolicy,
    Mode,
    Presentation,
    Question,
    QuestionSelection,
    QuizStudy,
    Responder,
    Response,
    StudyDesign,
    StudyProtocolVersion,
)

#: Feedback levels from least to most revealing.
LEVELS = ("none", "correctness", "full")

_PROTOCOL_FIELDS = ("consent_text", "instructions_text", "questionnaire")

#: The game settings (docs/playing.md) and the whole numbers each accepts.
GAME_LIMITS: dict[str, tuple[int, int]] = {
    "points_correct": (0, 100), "points_early_bonus": (0, 100), "points_wrong_early": (0, 100),
    "answer_seconds": (3, 120), "question_seconds": (0, 600), "round_size": (1, 100), "daily_size": (1, 50),
}
_QUESTIONNAIRE_KINDS = ("text", "choice", "number")


class StudyError(ValueError):
    """A study setting that cannot be accepted (names the offending field)."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def study_for(project: Project) -> QuizStudy:
    """The project's quiz study settings (created with the defaults on first use)."""
    study = QuizStudy.objects.filter(project=project).first()
    if study is not None:
        return study
    try:
        with transaction.atomic():
            return QuizStudy.objects.create(project=project)
    except IntegrityError:
        return QuizStudy.objects.get(project=project)


def _validate_questionnaire(fields: object) -> list[dict]:
    if not isinstance(fields, list):
        raise StudyError("questionnaire", "must be a list of fields")
    clean, names = [], set()
    for number, entry in enumerate(fields, start=1):
        where = f"questionnaire[{number}]"
        if not isinstance(entry, dict):
            raise StudyError(where, "must be an object with name, label and kind")
        name = str(entry.get("name") or "").strip()
        label = str(entry.get("label") or "").strip()
        kind = str(entry.get("kind") or "text")
        if not name.isidentifier() or len(name) > 40:
            raise StudyError(f"{where}.name", "must be a short identifier (letters, digits, _)")
        if name in names or name in ("native_language", "trivia_experience"):
            raise StudyError(f"{where}.name", f"{name!r} is used twice or is a built-in field")
        if not label or len(label) > 200:
            raise StudyError(f"{where}.label", "is required (at most 200 characters)")
        if kind not in _QUESTIONNAIRE_KINDS:
            raise StudyError(f"{where}.kind", f"must be one of {', '.join(_QUESTIONNAIRE_KINDS)}")
        choices = [str(c).strip() for c in entry.get("choices") or [] if str(c).strip()]
        if kind == "choice" and len(choices) < 2:
            raise StudyError(f"{where}.choices", "a choice field needs at least two choices")
        names.add(name)
        clean.append({"name": name, "label": label, "kind": kind, "choices": choices,
                      "required": bool(entry.get("required", False))})
    return clean


def study_update(*, project: Project, **changes: object) -> QuizStudy:
    """Change a project's study settings; a changed protocol text makes a new protocol version.

    Unknown fields and bad values raise :class:`StudyError` and change nothing.
    """
    allowed = {
        "design", "one_mode", "selection", "feedback", "results_released", "access", "prompt_limit",
        "guests_per_hour", "leaderboard_min_answers", "consent_text", "instructions_text",
        "questionnaire", "ask_native_language", "ask_trivia_experience", "collect_payment_email",
        *GAME_LIMITS,
    }
    unknown = sorted(set(changes) - allowed)
    if unknown:
        raise StudyError(unknown[0], "is not a study setting")
    choices = {"design": StudyDesign, "one_mode": Mode, "feedback": FeedbackPolicy,
               "selection": QuestionSelection}
    from .models import PlayAccess

    choices["access"] = PlayAccess
    for key, enum in choices.items():
        if key in changes and changes[key] not in enum.values:
            raise StudyError(key, f"must be one of {', '.join(enum.values)}")
    limits = {"prompt_limit": (0, 5), "guests_per_hour": (0, 1000), "leaderboard_min_answers": (0, 1000),
              **GAME_LIMITS}
    for key, (low, top) in limits.items():
        if key in changes:
            value = changes[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
                raise StudyError(key, f"must be a whole number from {low} to {top}")
    if "questionnaire" in changes:
        changes["questionnaire"] = _validate_questionnaire(changes["questionnaire"])
    for key in ("consent_text", "instructions_text"):
        if key in changes:
            text = str(changes[key] or "")
            if "\x00" in text or len(text) > 20000:
                raise StudyError(key, "must be text of at most 20,000 characters")
            changes[key] = text
    with transaction.atomic():
        study = QuizStudy.objects.select_for_update().get(pk=study_for(project).pk)
        protocol_changed = any(
            key in changes and getattr(study, key) != changes[key] for key in _PROTOCOL_FIELDS
        )
        for key, value in changes.items():
            setattr(study, key, value)
        if protocol_changed:
            # The version players saw so far is kept as it was; the new one gets the next number.
            StudyProtocolVersion.objects.get_or_create(
                project=project, version=study.protocol_version,
                defaults=_protocol_snapshot(QuizStudy.objects.get(pk=study.pk)),
            )
            study.protocol_version += 1
        study.save()
        if protocol_changed or not StudyProtocolVersion.objects.filter(
            project=project, version=study.protocol_version
        ).exists():
            StudyProtocolVersion.objects.update_or_create(
                project=project, version=study.protocol_version, defaults=_protocol_snapshot(study)
            )
    return study


def _protocol_snapshot(study: QuizStudy) -> dict:
    return {key: getattr(study, key) for key in _PROTOCOL_FIELDS}


def study_link_rotate(*, project: Project) -> QuizStudy:
    """Give the study a new link token: links handed out before stop working."""
    import secrets

    study = study_for(project)
    study.link_token = secrets.token_urlsafe(18)
    study.save(update_fields=["link_token", "updated_at"])
    return study


# --- what to serve ----------------------------------------------------------------


@dataclass(frozen=True)
class Serving:
    """The next thing to serve a player: a question, its mode and its stage."""

    question: Question
    mode: str
    stage: int


def playable(project: Project, *, mode: str | None = None, category: Category | None = None):
    """Active questions with audio; with ``mode="mcq"`` only those that have options."""
    qs = Question.objects.filter(project=project, is_active=True, question_clips__isnull=False)
    if mode == Mode.MCQ:
        qs = qs.filter(correct_choice__isnull=False)
    if category is not None:
        qs = qs.filter(category=category)
    return qs.distinct()


def design_modes(study: QuizStudy, chosen_mode: str | None) -> tuple[str, ...]:
    """The modes in which new (stage 1) questions may be served under the study's design."""
    if study.design == StudyDesign.BETWEEN:
        return (Mode.FREE, Mode.MCQ)
    if study.design == StudyDesign.FREE_THEN_MCQ:
        return (Mode.FREE,)
    if study.design == StudyDesign.ONE_MODE:
        return (study.one_mode,)
    return (chosen_mode if chosen_mode in Mode.values else Mode.FREE,)


def players_choose_mode(study: QuizStudy) -> bool:
    """Only the casual *player's choice* design lets a player pick the mode."""
    return study.design == StudyDesign.CHOICE


def _stage_two_due(responder: Responder, category: Category | None):
    """Questions answered free (stage 1), with options, whose MCQ stage is not served yet.

    A free answer whose reply showed the answerline (an older design, or the policy
    at the time) gets no second stage: it would measure nothing.
    """
    mcq_served = Presentation.objects.filter(responder=responder, question=OuterRef("pk"), mode=Mode.MCQ)
    free_answered = Response.objects.filter(
        responder=responder, question=OuterRef("pk"), mode=Mode.FREE, stage=1
    ).exclude(feedback="full")
    return (
        playable(responder.project, mode=Mode.MCQ, category=category)
        .filter(Exists(free_answered))
        .exclude(Exists(mcq_served))
    )


def _pending(responder: Responder, category: Category | None):
    """Presentations served to the player and not answered yet (a reload shows them again)."""
    answered = Response.objects.filter(
        responder=responder, question=OuterRef("question_id"), mode=OuterRef("mode")
    )
    pending = Presentation.objects.filter(responder=responder, closed_at__isnull=True).exclude(Exists(answered))
    if category is not None:
        pending = pending.filter(question__category=category)
    return pending


def serving_next(
    *, study: QuizStudy, responder: Responder, category: Category | None = None,
    chosen_mode: str | None = None, rng: random.Random | None = None,
) -> Serving | Presentation | None:
    """What the player meets next: a pending presentation, a due second stage, or a new question.

    Returns the pending :class:`Presentation` itself when one is waiting for an
    answer (a reload shows the same question), a :class:`Serving` for something
    new, or ``None`` when nothing is left.
    """
    rng = rng or random.SystemRandom()
    waiting = _pending(responder, category).select_related("question").order_by("id").first()
    if waiting is not None:
        return waiting
    if study.design == StudyDesign.FREE_THEN_MCQ:
        due = _stage_two_due(responder, category).order_by("id").first()
        if due is not None:
            return Serving(due, Mode.MCQ, 2)
    modes = design_modes(study, chosen_mode)
    seen = Presentation.objects.filter(responder=responder, question=OuterRef("pk"))
    candidates = playable(
        responder.project, mode=Mode.MCQ if modes == (Mode.MCQ,) else None, category=category
    ).exclude(Exists(seen))
    ids = list(candidates.values_list("id", flat=True))
    if not ids:
        return None
    question = Question.objects.get(pk=pick_new(study=study, responder=responder, ids=ids, modes=modes,
                                                 category=category, rng=rng))
    return Serving(question, mode_for_new(study=study, responder=responder, question=question,
                                          modes=modes, rng=rng), 1)


#: adaptive play picks at random among this many most informative questions (randomesque
#: exposure control: a shared bank is not learnt from its few best questions), or among
#: the best tenth of the calibrated candidates when fewer than 50 are left (with a small
#: bank, five would be nearly all of it)
ADAPTIVE_TOP_K = 5


def adaptive_top_k(n_candidates: int) -> int:
    """How many of the most informative candidates adaptive play draws from."""
    return max(1, min(ADAPTIVE_TOP_K, -(-n_candidates // 10)))


def pick_new(
    *, study: QuizStudy, responder: Responder, ids: list[int], modes: tuple[str, ...],
    category: Category | None, rng: random.Random,
) -> int:
    """Which of the candidate questions ``ids`` (never served to this player) comes next.

    ``sequential``: bank order (the first imported); ``random``: uniform;
    ``adaptive``: :func:`adaptive_pick`, or uniform when it cannot pick. Only *which*
    question: the design's rules (mode, stages, never a question twice) are applied
    by the caller either way.
    """
    if study.selection == QuestionSelection.SEQUENTIAL:
        return min(ids)
    if study.selection == QuestionSelection.ADAPTIVE:
        picked = adaptive_pick(responder=responder, ids=ids, modes=modes, category=category, rng=rng)
        if picked is not None:
            return picked
    return rng.choice(ids)


def adaptive_pick(
    *, responder: Responder, ids: list[int], modes: tuple[str, ...], category: Category | None,
    rng: random.Random,
) -> int | None:
    """The most informative candidate for this player now, by the project's IRT fit.

    The bank is the newest succeeded fit over all questions in the first mode the
    design may serve that has one (:func:`irt.cat_selectors.bank_for_serving`); the
    player's ability is the EAP (prior N(0, 1), the human anchor) of their stage-1
    answers in that mode. Among the candidates the fit calibrated, one of the
    :func:`adaptive_top_k` with the most Fisher information at that ability is drawn,
    category shares kept like the bank's when the player did not pick a category.
    ``None`` (the caller then draws at random) when there is no fit or no calibrated
    candidate left: questions added after the fit are served once the calibrated ones
    are used up.
    """
    import numpy as np

    from irt import adaptive, cat_selectors

    try:
        fb = cat_selectors.bank_for_serving(responder.project, modes)
    except cat_selectors.BankError:
        return None  # e.g. a bank without items: play goes on at random
    if fb is None:
        return None
    available = np.zeros(fb.bank.n_items, dtype=bool)
    for qid in ids:
        k = fb.index.get(qid)
        if k is not None:
            available[k] = True
    if not available.any():
        return None
    items, correct = cat_selectors.responder_answers(fb, responder)
    post = adaptive.posterior(fb.bank, items, correct)
    targets = None
    if category is None:
        codes, counts = np.unique(fb.bank.category, return_counts=True)
        targets = {int(c): float(n) for c, n in zip(codes, counts, strict=True)}
    config = adaptive.CatConfig(top_k=adaptive_top_k(int(available.sum())), content_targets=targets,
                                max_items=fb.bank.n_items)
    chosen = adaptive.select_next(fb.bank, post, items, config, np.random.default_rng(rng.getrandbits(64)),
                                  available=available)
    return None if chosen is None else int(fb.bank.ids[chosen])


def mode_for_new(
    *, study: QuizStudy, responder: Responder, question: Question, modes: tuple[str, ...],
    rng: random.Random,
) -> str:
    """The mode of a question served for the first time to this player.

    Between subjects, the mode is the one fewer players have met this question in
    so far (so each question's two modes fill up evenly across players), ties broken
    by the player's own balance and then at random. A question without options is
    always free.
    """
    if len(modes) == 1:
        return modes[0]
    if not question.has_mcq:
        return Mode.FREE
    per_question = dict(
        Presentation.objects.filter(question=question, stage=1, responder__kind="human")
        .values_list("mode").annotate(n=Count("id")).values_list("mode", "n")
    )
    per_player = dict(
        Presentation.objects.filter(responder=responder, stage=1)
        .values_list("mode").annotate(n=Count("id")).values_list("mode", "n")
    )
    keyed = [(per_question.get(m, 0), per_player.get(m, 0), rng.random(), m) for m in modes]
    return min(keyed)[3]


def remaining_count(*, study: QuizStudy, responder: Responder, category: Category | None = None,
                    chosen_mode: str | None = None) -> int:
    """Questions (and due second stages) the player has not answered yet."""
    modes = design_modes(study, chosen_mode)
    seen = Presentation.objects.filter(responder=responder, question=OuterRef("pk"))
    pending = _pending(responder, category)
    new = playable(
        responder.project, mode=Mode.MCQ if modes == (Mode.MCQ,) else None, category=category
    ).exclude(Exists(seen)).count()
    extra = 0
    if study.design == StudyDesign.FREE_THEN_MCQ:
        extra = _stage_two_due(responder, category).count()
    return new + pending.count() + extra


# --- what a player may learn -------------------------------------------------------


def may_still_be_served(study: QuizStudy, response: Response) -> bool:
    """Could this question still reach the player in another mode after ``response``?"""
    return (
        study.design == StudyDesign.FREE_THEN_MCQ
        and response.mode == Mode.FREE
        and response.stage == 1
        and response.question.has_mcq
        and not Presentation.objects.filter(
            responder_id=response.responder_id, question_id=response.question_id, mode=Mode.MCQ
        ).exists()
    )


def feedback_level(study: QuizStudy, response: Response, *, at_answer: bool = False) -> str:
    """``"full"``, ``"correctness"`` or ``"none"``: what the player may see of ``response``.

    ``"full"`` (answerline, correct option, explanation) is never given while the
    question may still be served to the player in another mode, whatever the policy.
    With ``at_answer`` the stage-2 serving that follows is anticipated.
    """
    if study.feedback == FeedbackPolicy.NONE and not study.results_released:
        return "none"
    level = "correctness" if study.feedback == FeedbackPolicy.CORRECTNESS else "full"
    if study.results_released:
        level = "full"
    if level == "full" and may_still_be_served(study, response):
        return "correctness"
    return level


def results_visible(study: QuizStudy) -> bool:
    """Can players see accuracies (their own, the leaderboard's) now?"""
    return study.feedback != FeedbackPolicy.NONE or study.results_released


# --- identities ---------------------------------------------------------------------


def keyed_hash(value: str) -> str:
    """A keyed hash of a client value (cookie, address): comparable, not reversible."""
    if not value:
        return ""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()


def guests_created_recently(*, project: Project, client_hash: str, browser_hash: str) -> int:
    """Guest players this client (address or browser) created in the project in the last hour."""
    since = timezone.now() - timedelta(hours=1)
    match = Q()
    if client_hash:
        match |= Q(client_hash=client_hash)
    if browser_hash:
        match |= Q(browser_hash=browser_hash)
    if not match:
        return 0
    return Responder.objects.filter(
        match, project=project, kind="human", user__is_guest=True, created_at__gte=since
    ).count()
