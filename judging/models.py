"""Judging records kept next to quiz responses.

``quiz.Response`` holds the *current automatic* verdict of the rule engine. This app
adds what happens around it:

* :class:`VerdictRecord` -- history of automatic verdicts: the rule verdicts a
  re-score replaced (``superseded``) or computed while a human judgement stood
  (``shadowed``), and verdicts/quality scores of other judges (the LLM judge).
* :class:`HumanJudgement` -- a human decision on a response (an *override*): from
  adjudication, a resolved challenge, the API or imported labels. The latest one
  always wins over every automatic verdict (see ``judging.selectors``).
* :class:`Challenge` -- a player's "I think my answer should count".
* :class:`LlmCall` -- the cache of LLM judge calls, one row per distinct input.
* :class:`Judge` -- the judge registry: the rule engine at a version, the exact-match
  baseline, or an LLM judge as (model, prompt, prompt version, parameters). Every
  automatic verdict record names the judge that made it; verdicts of several judges
  on the same response coexist.
* :class:`Rubric` -- a project's own judging prompt (binary verdict, 0-5 quality,
  0.0-1.0 score), versioned: an edit adds a version, old verdicts keep theirs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from quiz.models import Response


class VerdictEvent(models.TextChoices):
    SUPERSEDED = "superseded", _("Replaced by a re-score")
    SHADOWED = "shadowed", _("Computed under a human judgement (not applied)")
    ADDED = "added", _("Verdict of another judge (grey-zone routing: counts in the effective verdict)")
    STUDY = "study", _("Verdict of a judge-agreement study (never changes a result)")


class RubricPurpose(models.TextChoices):
    VERDICT = "verdict", _("Binary verdict (correct / wrong)")
    QUALITY = "quality", _("Quality 0-5 (SEA-SpeechBench SQA style)")
    SCORE = "score", _("Score 0.0-1.0 (KoALa instruction following style)")


class Rubric(models.Model):
    """One version of a project's judging prompt; rows are never edited in place.

    ``user`` may use the placeholders ``$question``, ``$answerline`` and ``$answer``
    (``$answer`` is required). Saving an edit adds the next version
    (``judging.services.rubric_save``); judges and their verdicts point at the
    version they used.
    """

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="rubrics")
    name = models.SlugField(max_length=40, help_text="e.g. sqa-quality; versions share the name.")
    version = models.PositiveIntegerField()
    purpose = models.CharField(max_length=10, choices=RubricPurpose.choices)
    system = models.TextField(help_text="System message: the rubric itself.")
    user = models.TextField(help_text="User message template with $question, $answerline, $answer.")
    note = models.CharField(max_length=200, blank=True, help_text="What changed in this version.")
    based_on = models.CharField(max_length=40, blank=True, help_text="Built-in prompt it started from.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project_id", "name", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["project", "name", "version"], name="uniq_rubric_version"),
        ]

    def __str__(self) -> str:
        return f"{self.name} v{self.version} ({self.purpose})"

    @property
    def label(self) -> str:
        """``"sqa-quality-v2"``: the prompt label stored on verdicts."""
        return f"{self.name}-v{self.version}"


class JudgeKind(models.TextChoices):
    RULES = "rules", _("Rule engine")
    EXACT = "exact", _("Exact-match baseline")
    LLM = "llm", _("LLM judge")


class Judge(models.Model):
    """A registered automatic judge: what exactly produced a verdict.

    ``key`` (sha256 of the identity) makes registration idempotent: the same rule
    version, or the same (model, prompt label, prompt version, parameters), is one
    judge. ``name`` is the readable label used in reports, e.g. ``rules@4`` or
    ``llm:gpt-4o/verdict-v1``.
    """

    key = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=JudgeKind.choices)
    purpose = models.CharField(max_length=10, choices=RubricPurpose.choices, default=RubricPurpose.VERDICT)
    version = models.CharField(max_length=40, blank=True, help_text="Rule engine version (rules).")
    model = models.CharField(max_length=120, blank=True)
    prompt_id = models.CharField(max_length=80, blank=True, help_text="Prompt label, e.g. verdict-v1.")
    prompt_version = models.CharField(max_length=20, blank=True)
    # A project's rubric judges go with the project; a judge with verdicts cannot be
    # deleted on its own (RESTRICT below), only together with those verdicts.
    rubric = models.ForeignKey(Rubric, null=True, blank=True, on_delete=models.CASCADE, related_name="judges")
    parameters = models.JSONField(default=dict, blank=True, help_text="temperature, max_tokens, ...")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "name", "id"]
        indexes = [models.Index(fields=["name"], name="judge_name")]

    def __str__(self) -> str:
        return self.name


class VerdictRecord(models.Model):
    """One automatic verdict on a response that is not (or no longer) the current one."""

    response = models.ForeignKey(Response, on_delete=models.CASCADE, related_name="verdict_records")
    judge = models.CharField(max_length=80, help_text='Family: "rules" or "llm:<model>".')
    judge_ref = models.ForeignKey(
        Judge, null=True, blank=True, on_delete=models.RESTRICT, related_name="verdicts",
        help_text="The registered judge that made this verdict (exact rule version, prompt, model).",
    )
    event = models.CharField(max_length=12, choices=VerdictEvent.choices)
    answer_text = models.TextField(blank=True, help_text="The answer that was judged.")
    correct = models.BooleanField(null=True, help_text="Null for a quality-only record.")
    prompt = models.BooleanField(default=False)
    score = models.FloatField(null=True, blank=True)
    quality = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0-5 (LLM quality).")
    rule = models.CharField(max_length=80, blank=True)
    rule_version = models.CharField(max_length=40, blank=True)
    matched = models.TextField(blank=True)
    explanation = models.TextField(blank=True)
    llm_call = models.ForeignKey(
        "LlmCall", null=True, blank=True, on_delete=models.SET_NULL, related_name="verdicts"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["response_id", "created_at", "id"]
        indexes = [
            models.Index(fields=["response", "judge"], name="verdictrecord_resp_judge"),
            models.Index(fields=["judge_ref", "event"], name="verdictrecord_judge_event"),
        ]

    def __str__(self) -> str:
        return f"{self.judge} {self.event} on response #{self.response_id}"


class JudgementSource(models.TextChoices):
    ADJUDICATION = "adjudication", _("Adjudication page")
    CHALLENGE = "challenge", _("Resolved challenge")
    API = "api", _("REST API")
    IMPORT = "import", _("Imported labels")
    CAMPAIGN = "campaign", _("Annotation campaign ratings")


class HumanJudgement(models.Model):
    """A human decision on a response (an override); the latest one is effective."""

    response = models.ForeignKey(Response, on_delete=models.CASCADE, related_name="human_judgements")
    correct = models.BooleanField()
    quality = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Optional 0-5 quality score."
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="human_judgements",
    )
    annotator = models.CharField(
        max_length=120, blank=True, help_text="Pseudonymous annotator label (imported labels)."
    )
    source = models.CharField(max_length=20, choices=JudgementSource.choices)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["response_id", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(quality__isnull=True) | models.Q(quality__lte=5),
                name="humanjudgement_quality_0_5",
            ),
        ]

    def __str__(self) -> str:
        return f"human {'correct' if self.correct else 'wrong'} on response #{self.response_id}"


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    UPHELD = "upheld", _("Upheld")
    REJECTED = "rejected", _("Rejected")


class Challenge(models.Model):
    """A player's request that their answer be counted; one per response."""

    response = models.OneToOneField(Response, on_delete=models.CASCADE, related_name="challenge")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges"
    )
    text = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="challenges_resolved",
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    judgement = models.ForeignKey(
        HumanJudgement, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenges"
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["status"], name="challenge_status")]

    def __str__(self) -> str:
        return f"challenge of response #{self.response_id} ({self.status})"


class LlmCall(models.Model):
    """One LLM judge request and its answer, cached by a hash of everything sent."""

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of prompt id, model, inputs.")
    purpose = models.CharField(max_length=20, help_text='"verdict", "quality" or "score".')
    prompt_id = models.CharField(max_length=80)
    model = models.CharField(max_length=120)
    request = models.JSONField(default=dict)
    response_text = models.TextField(blank=True)
    parsed = models.JSONField(null=True, blank=True)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True, help_text="Last error; failed calls are retried next run.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.purpose} {self.prompt_id} {self.model} ({'error' if self.error else 'ok'})"

    @property
    def ok(self) -> bool:
        return self.parsed is not None and not self.error
