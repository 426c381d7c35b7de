"""Question banks, audio clips, responders and their responses.

A *responder* is anyone who answers an item: a human player (pseudonymous) or a
model system under a named condition. Humans and models answer the same questions
and are judged by the same code, so one response table feeds one IRT fit.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import Project


def _opaque_token() -> str:
    return secrets.token_urlsafe(18)


class Category(models.Model):
    """A question category, per project (the six Audita categories are seeded)."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "name"]
        verbose_name_plural = "categories"
        constraints = [
            models.UniqueConstraint(fields=["project", "name"], name="uniq_category_name"),
            models.UniqueConstraint(fields=["project", "slug"], name="uniq_category_slug"),
        ]

    def __str__(self) -> str:
        return self.name


class Clip(models.Model):
    """An audio file with measured properties. Served only under ``public_id``."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="clips")
    public_id = models.CharField(max_length=32, unique=True, default=_opaque_token, editable=False)
    file = models.FileField(upload_to="clips/")
    original_name = models.CharField(
        max_length=255, blank=True, help_text="For researchers only; never sent to players."
    )
    sha256 = models.CharField(max_length=64)
    content_type = models.CharField(max_length=60)
    format = models.CharField(max_length=20)
    subtype = models.CharField(max_length=30, blank=True)
    duration_s = models.FloatField()
    sample_rate = models.PositiveIntegerField()
    channels = models.PositiveSmallIntegerField()
    frames = models.BigIntegerField()
    size_bytes = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["project", "sha256"], name="uniq_clip_content"),
        ]

    def __str__(self) -> str:
        return f"clip {self.public_id} ({self.duration_s:.1f} s)"


class Question(models.Model):
    """A trivia question: prompt, author's answerline, optional MCQ options, clip(s)."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="questions")
    external_id = models.CharField(max_length=120)
    prompt = models.TextField()
    answerline = models.TextField(help_text="Quizbowl style, e.g. 'Batman [accept Bruce Wayne]'.")
    counterfactual_answerline = models.TextField(
        blank=True,
        help_text="The key when the audio says something else than the facts (KoALa's "
        "counterfactual speech); model answers in that context are judged against it.",
    )
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="questions")
    source = models.CharField(max_length=120, blank=True, db_index=True)
    choices = models.JSONField(
        default=list, blank=True, help_text="Multiple-choice options (2-10) in the author's order."
    )
    correct_choice = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Index into choices of the one correct option."
    )
    pyramidal = models.BooleanField(
        default=False, help_text="Clips reveal clues from obscure to obvious."
    )
    metadata = models.JSONField(default=dict, blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    clips = models.ManyToManyField(Clip, through="QuestionClip", related_name="questions")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["project", "external_id"], name="uniq_question_ext_id"),
            models.CheckConstraint(
                condition=models.Q(correct_choice__isnull=True) | models.Q(correct_choice__lt=10),
                name="question_correct_choice_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.external_id}: {self.prompt[:60]}"

    @property
    def has_mcq(self) -> bool:
        return 2 <= len(self.choices) <= 10 and self.correct_choice is not None


class QuestionClip(models.Model):
    """The ordered clips of a question; position 0 is the first (most obscure) clue."""

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="question_clips")
    clip = models.ForeignKey(Clip, on_delete=models.PROTECT, related_name="question_clips")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["question_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["question", "position"], name="uniq_question_clip_pos"),
        ]

    def __str__(self) -> str:
        return f"question #{self.question_id} clue {self.position}"


class ModelSystem(models.Model):
    """An AI system evaluated in a project (e.g. an audio language model)."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="model_systems")
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["project", "name"], name="uniq_model_system"),
        ]

    def __str__(self) -> str:
        return self.name


class ResponderKind(models.TextChoices):
    HUMAN = "human", _("Human")
    MODEL = "model", _("Model")


class Responder(models.Model):
    """Anyone who answers: a human player, or a model system under a condition."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="responders")
    kind = models.CharField(max_length=10, choices=ResponderKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="responders",
    )
    system = models.ForeignKey(
        ModelSystem, null=True, blank=True, on_delete=models.CASCADE, related_name="responders"
    )
    condition = models.CharField(
        max_length=60, blank=True, help_text="e.g. audio+text, text-only, transcript-only"
    )
    label = models.CharField(max_length=200, help_text="Pseudonymous display name.")
    browser_hash = models.CharField(
        max_length=64, blank=True, db_index=True,
        help_text="Keyed hash of the browser's Earshot cookie (never the cookie): spots handle changes.",
    )
    client_hash = models.CharField(
        max_length=64, blank=True,
        help_text="Keyed hash of the client address when a guest was created (rate limits only).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "user"],
                condition=models.Q(kind="human"),
                name="uniq_human_responder",
            ),
            models.UniqueConstraint(
                fields=["project", "system", "condition"],
                condition=models.Q(kind="model"),
                name="uniq_model_responder",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="human", user__isnull=False, system__isnull=True)
                    | models.Q(kind="model", user__isnull=True, system__isnull=False)
                ),
                name="responder_kind_matches_link",
            ),
        ]

    def __str__(self) -> str:
        return self.label


class Mode(models.TextChoices):
    FREE = "free", _("Free answer")
    MCQ = "mcq", _("Multiple choice")


class StudyDesign(models.TextChoices):
    """How a project's players meet its questions in the two modes (docs/quiz-studies.md)."""

    BETWEEN = "between", _("Between-subjects: each question in one mode per player, balanced")
    FREE_THEN_MCQ = "free_then_mcq", _("Free then multiple choice (second stage)")
    ONE_MODE = "one_mode", _("One mode for the whole project")
    CHOICE = "choice", _("Player's choice (casual play; each question once in any mode)")


class FeedbackPolicy(models.TextChoices):
    """What a player learns after answering."""

    FULL = "full", _("Show the answer and the ruling")
    CORRECTNESS = "correctness", _("Show right or wrong only")
    NONE = "none", _("Show nothing until the study ends")


class PlayAccess(models.TextChoices):
    """Who may play a project's quiz (on top of the project being public or private)."""

    OPEN = "open", _("Anyone allowed to see the project (guests welcome)")
    SIGN_IN = "sign_in", _("Registered, signed-in accounts only")
    STUDY_LINK = "study_link", _("Only through the study link")


class QuestionSelection(models.TextChoices):
    """Which new question a player meets next (the design still decides its mode)."""

    SEQUENTIAL = "sequential", _("In bank order")
    RANDOM = "random", _("At random")
    ADAPTIVE = "adaptive", _("Adaptive: the most informative question for the player's ability (IRT)")


class QuizStudy(models.Model):
    """A project's study settings for its quiz: design, feedback, access and protocol.

    Created with the defaults on first use (``quiz.study.study_for``). Every response
    records the design and feedback in force when it was given, and every export
    names them, so a paper can say exactly how its human scores were collected.
    """

    project = models.OneToOneField(Project, on_delete=models.CASCADE, related_name="quiz_study")
    design = models.CharField(max_length=20, choices=StudyDesign.choices, default=StudyDesign.BETWEEN)
    one_mode = models.CharField(
        max_length=10, choices=Mode.choices, default=Mode.FREE,
        help_text="The mode of every question under the one-mode design.",
    )
    selection = models.CharField(
        max_length=12, choices=QuestionSelection.choices, default=QuestionSelection.RANDOM,
        help_text="How the next new question is chosen (docs/quiz-studies.md); adaptive needs an IRT fit.",
    )
    feedback = models.CharField(max_length=20, choices=FeedbackPolicy.choices, default=FeedbackPolicy.FULL)
    results_released = models.BooleanField(
        default=False, help_text="The study has ended: players may now see answers and rulings."
    )
    access = models.CharField(max_length=20, choices=PlayAccess.choices, default=PlayAccess.OPEN)
    link_token = models.CharField(max_length=48, default=_opaque_token, editable=False)
    prompt_limit = models.PositiveSmallIntegerField(
        default=1, help_text="Prompts ('can you be more specific?') a player may get per question."
    )
    guests_per_hour = models.PositiveSmallIntegerField(
        default=5, help_text="Guest accounts one client (browser session or address) may create per hour."
    )
    leaderboard_min_answers = models.PositiveSmallIntegerField(
        default=10, help_text="Players with fewer answers are not ranked."
    )
    # Protocol (consent, instructions, questionnaire); every change makes a new version.
    consent_text = models.TextField(blank=True)
    instructions_text = models.TextField(blank=True)
    questionnaire = models.JSONField(
        default=list, blank=True,
        help_text="Extra questionnaire fields: [{'name', 'label', 'kind': text|choice, 'choices', 'required'}].",
    )
    ask_native_language = models.BooleanField(default=False)
    ask_trivia_experience = models.BooleanField(default=False)
    collect_payment_email = models.BooleanField(default=False)
    protocol_version = models.PositiveIntegerField(default=1)
    # Game settings (quiz.scoring; docs/playing.md).
    points_correct = models.PositiveSmallIntegerField(default=10, help_text="Points for a correct answer.")
    points_early_bonus = models.PositiveSmallIntegerField(
        default=10, help_text="Extra points for a correct buzz at the very start of a pyramid (falls to 0 at its end)."
    )
    points_wrong_early = models.PositiveSmallIntegerField(
        default=5, help_text="Points taken for a wrong buzz while more of the pyramid remained (0: no penalty)."
    )
    answer_seconds = models.PositiveSmallIntegerField(
        default=10, help_text="Seconds to answer after a buzz (the server adds a short grace)."
    )
    question_seconds = models.PositiveSmallIntegerField(
        default=0, help_text="Seconds per question from serving to buzz or answer (0: no question timer)."
    )
    round_size = models.PositiveSmallIntegerField(default=10, help_text="Questions in a round.")
    daily_size = models.PositiveSmallIntegerField(default=5, help_text="Questions in the daily challenge.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "quiz studies"

    def __str__(self) -> str:
        return f"study of {self.project_id} ({self.design}, feedback {self.feedback})"

    @property
    def has_protocol(self) -> bool:
        return bool(
            self.consent_text or self.instructions_text or self.questionnaire
            or self.ask_native_language or self.ask_trivia_experience or self.collect_payment_email
        )


class StudyProtocolVersion(models.Model):
    """A frozen copy of a study's consent, instructions and questionnaire at one version."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="quiz_protocols")
    version = models.PositiveIntegerField()
    consent_text = models.TextField(blank=True)
    instructions_text = models.TextField(blank=True)
    questionnaire = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["project", "version"], name="uniq_quiz_protocol_version"),
        ]

    def __str__(self) -> str:
        return f"protocol v{self.version} of project #{self.project_id}"


class PlayRound(models.Model):
    """A round of questions a player plays in one go, or their daily challenge of one day.

    Questions served while the round is open belong to it (``Presentation.round``,
    ``Response.round``); the round ends once ``size`` of them are answered (or when
    nothing is left to serve). A daily round's questions are the day's set
    (``quiz.scoring.daily_set``), the same for every player.
    """

    class Kind(models.TextChoices):
        ROUND = "round", _("Round")
        DAILY = "daily", _("Daily challenge")

    responder = models.ForeignKey(Responder, on_delete=models.CASCADE, related_name="rounds")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ROUND)
    day = models.DateField(null=True, blank=True, help_text="Daily challenge: the UTC day.")
    category = models.ForeignKey(Category, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    chosen_mode = models.CharField(max_length=10, blank=True, help_text="Casual play: the mode the player chose.")
    size = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["responder", "day"], condition=models.Q(kind="daily"), name="uniq_daily_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} of responder #{self.responder_id}"


class Presentation(models.Model):
    """A question served to a responder in a mode: fixes the MCQ option order shown.

    Created when the question is served (before any answer), so a reload shows the
    same order and the response can store exactly what the responder saw. For a
    pyramidal question it also holds how many clues the server has revealed; the
    reveal, prompt and listening events are :class:`PresentationEvent` rows.
    """

    responder = models.ForeignKey(
        Responder, on_delete=models.CASCADE, related_name="presentations"
    )
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="presentations")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    option_order = models.JSONField(
        default=list, blank=True, help_text="Author's option indices in the order shown."
    )
    stage = models.PositiveSmallIntegerField(
        default=1, help_text="2 for the multiple-choice stage that follows a free answer."
    )
    design = models.CharField(max_length=20, blank=True, help_text="Study design when served.")
    clues_revealed = models.PositiveSmallIntegerField(
        default=1, help_text="Pyramidal: clues the server has revealed (the first is revealed on serving)."
    )
    served_at = models.DateTimeField(auto_now_add=True)
    round = models.ForeignKey(PlayRound, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="presentations")
    buzzed_at = models.DateTimeField(null=True, blank=True, help_text="When the server took the player's buzz.")
    buzz_clue_index = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Pyramidal: the last clue the server had revealed at the buzz."
    )
    buzz_clue_time_s = models.FloatField(
        null=True, blank=True, help_text="Pyramidal: seconds between that reveal and the buzz."
    )
    closed_at = models.DateTimeField(
        null=True, blank=True,
        help_text="The question ended for this player without an answer of theirs (a live-room question "
                  "another player won): no longer pending, never served again.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["responder", "question", "mode"], name="uniq_presentation"
            ),
        ]

    def __str__(self) -> str:
        return f"question #{self.question_id} to responder #{self.responder_id} ({self.mode})"


class PresentationEvent(models.Model):
    """Something the server saw happen to a presentation, with its time.

    ``reveal``: a clue was revealed (``clue_index``); ``prompted``: the player was
    asked to be more specific (``detail.answer`` holds what they typed); ``audio``:
    a clue's audio was fetched (``detail.range``); ``buzz``: the player buzzed
    (``clue_index`` and ``detail.clue_time_s`` as the server measured them).
    """

    class Kind(models.TextChoices):
        REVEAL = "reveal", _("Clue revealed")
        PROMPTED = "prompted", _("Prompted")
        AUDIO = "audio", _("Audio fetched")
        BUZZ = "buzz", _("Buzzed")

    presentation = models.ForeignKey(Presentation, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    clue_index = models.PositiveSmallIntegerField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["presentation_id", "at", "id"]
        indexes = [models.Index(fields=["presentation", "kind"], name="presentation_event_kind")]

    def __str__(self) -> str:
        return f"{self.kind} on presentation #{self.presentation_id}"


class PlayerEnrolment(models.Model):
    """A player's passage through a quiz study's protocol (consent, instructions, questionnaire).

    Questionnaire answers are research data (pseudonymous, exported by responder);
    a payment e-mail is never stored here but in :class:`accounts.models.ContactInfo`.
    """

    responder = models.OneToOneField(Responder, on_delete=models.CASCADE, related_name="enrolment")
    protocol_version = models.PositiveIntegerField()
    consent_at = models.DateTimeField(null=True, blank=True)
    instructions_at = models.DateTimeField(null=True, blank=True)
    questionnaire_at = models.DateTimeField(null=True, blank=True)
    answers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"enrolment of responder #{self.responder_id} (protocol v{self.protocol_version})"


class Outcome(models.TextChoices):
    """What became of a served question (``quiz.scoring.OUTCOMES``)."""

    ANSWER = "answer", _("Answered (judged)")
    SKIP = "skip", _("I don't know (skipped)")
    TIMEOUT = "timeout", _("No answer in time")


class Response(models.Model):
    """One answer by one responder to one question in one mode, with its verdict.

    A skip ("I don't know") or a time-out is stored as a response too, with its own
    ``outcome`` and ``correct = False``: accuracies and IRT fits score it as not
    known (docs/quiz-studies.md), and exports name the outcome so it can be left out.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="responses")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="responses")
    responder = models.ForeignKey(Responder, on_delete=models.CASCADE, related_name="responses")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    answer_text = models.TextField(blank=True)
    choice = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Author's index of the chosen option (MCQ)."
    )
    choice_position = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Position on screen of the chosen option (MCQ)."
    )
    option_order = models.JSONField(default=list, blank=True)
    clue_index = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="Pyramidal: index of the last clue the server had revealed when the answer arrived.",
    )
    clue_time_s = models.FloatField(
        null=True, blank=True, help_text="Pyramidal: seconds since the server revealed that clue."
    )
    clip_time_s = models.FloatField(null=True, blank=True)
    stage = models.PositiveSmallIntegerField(
        default=1,
        help_text="2: the multiple-choice answer given after a free answer to the same question "
        "(not an independent answer; left out of accuracies and fits by default).",
    )
    design = models.CharField(max_length=20, blank=True, help_text="Study design when answered.")
    feedback = models.CharField(max_length=20, blank=True, help_text="What the player was shown after.")
    listening = models.JSONField(
        default=dict, blank=True, help_text="Listening evidence: played intervals per clip and the server's check."
    )
    listened_fraction = models.FloatField(
        null=True, blank=True, help_text="Share of the revealed audio the player heard (0-1)."
    )
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.ANSWER,
                               db_default=Outcome.ANSWER)
    buzz_position = models.FloatField(
        null=True, blank=True,
        help_text="Pyramidal: how far into the pyramid the buzz came, 0 (at once) to 1 (all heard).",
    )
    round = models.ForeignKey(PlayRound, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="responses")
    client_token = models.CharField(max_length=64)
    prompted = models.BooleanField(
        default=False, help_text="The player was prompted for more and this is their second try."
    )
    # Automatic verdict (see judging.equivalence); human overrides live in judging.
    correct = models.BooleanField()
    prompt = models.BooleanField(default=False)
    score = models.FloatField()
    rule = models.CharField(max_length=60)
    rule_version = models.CharField(max_length=40)
    matched = models.TextField(blank=True)
    explanation = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    judged_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["responder", "client_token"], name="uniq_response_client_token"
            ),
            models.UniqueConstraint(
                fields=["responder", "question", "mode"], name="uniq_response_per_mode"
            ),
        ]
        indexes = [
            models.Index(fields=["project", "mode"], name="response_project_mode"),
            models.Index(fields=["question", "mode"], name="response_question_mode"),
            # The dashboard's "has anything changed?" check: latest verdict per project.
            models.Index(fields=["project", "judged_at"], name="response_project_judged"),
        ]

    def __str__(self) -> str:
        return f"response #{self.pk} q={self.question_id} r={self.responder_id}"


class AnswerContext(models.TextChoices):
    """Which version of a question's audio a model answered (KoALa's faithfulness test)."""

    FACTUAL = "factual", _("Factual speech")
    COUNTERFACTUAL = "counterfactual", _("Counterfactual speech")


class VariantAnswer(models.Model):
    """A model's answer to a question under a named variant of how it was asked.

    The variant is the context it heard (factual or counterfactual speech), the prompt
    it was given (``prompt_variant``, ``prompt_language``) and, for a pyramidal
    question, how many clues it was given (``clue_index``: 0 = the first clue only).
    One responder may answer a question once per variant. These answers are kept
    apart from :class:`Response`, which holds one answer per responder, question and
    mode, so the dashboard, leaderboard and IRT fits count each model once; the
    seed-paper tables (``frontend.seed_selectors``) read both.

    ``correct`` is judged against the key of the context (the counterfactual
    answerline in a counterfactual context); ``matches_factual`` and
    ``matches_counterfactual`` say whether the answer matched each key.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="variant_answers")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="variant_answers")
    responder = models.ForeignKey(Responder, on_delete=models.CASCADE, related_name="variant_answers")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    context = models.CharField(max_length=20, choices=AnswerContext.choices, default=AnswerContext.FACTUAL)
    prompt_variant = models.CharField(max_length=60, blank=True)
    prompt_language = models.CharField(max_length=20, blank=True)
    clue_index = models.PositiveSmallIntegerField(null=True, blank=True)
    answer_text = models.TextField(blank=True)
    choice = models.PositiveSmallIntegerField(null=True, blank=True)
    correct = models.BooleanField()
    matches_factual = models.BooleanField()
    matches_counterfactual = models.BooleanField(null=True, blank=True)
    score = models.FloatField()
    rule = models.CharField(max_length=60)
    rule_version = models.CharField(max_length=40)
    explanation = models.TextField(blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    judged_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["responder", "question", "mode", "context", "prompt_variant", "prompt_language",
                        "clue_index"],
                name="uniq_variant_answer", nulls_distinct=False,
            ),
        ]
        indexes = [models.Index(fields=["project", "context"], name="variant_project_context")]

    def __str__(self) -> str:
        return f"variant answer #{self.pk} q={self.question_id} r={self.responder_id}"
