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
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from quiz.models import Response


class VerdictEvent(models.TextChoices):
    SUPERSEDED = "superseded", "Replaced by a re-score"
    SHADOWED = "shadowed", "Computed under a human judgement (not applied)"
    ADDED = "added", "Verdict of another judge"


class VerdictRecord(models.Model):
    """One automatic verdict on a response that is not (or no longer) the current one."""

    response = models.ForeignKey(Response, on_delete=models.CASCADE, related_name="verdict_records")
    judge = models.CharField(max_length=80, help_text='"rules" or "llm:<model>".')
    event = models.CharField(max_length=12, choices=VerdictEvent.choices)
    answer_text = models.TextField(blank=True, help_text="The answer that was judged.")
    correct = models.BooleanField(null=True, help_text="Null for a quality-only record.")
    prompt = models.BooleanField(default=False)
    score = models.FloatField(null=True, blank=True)
    quality = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0-5 (LLM quality).")
    rule = models.CharField(max_length=60, blank=True)
    rule_version = models.CharField(max_length=40, blank=True)
    matched = models.TextField(blank=True)
    explanation = models.TextField(blank=True)
    llm_call = models.ForeignKey(
        "LlmCall", null=True, blank=True, on_delete=models.SET_NULL, related_name="verdicts"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["response_id", "created_at", "id"]
        indexes = [models.Index(fields=["response", "judge"], name="verdictrecord_resp_judge")]

    def __str__(self) -> str:
        return f"{self.judge} {self.event} on response #{self.response_id}"


class JudgementSource(models.TextChoices):
    ADJUDICATION = "adjudication", "Adjudication page"
    CHALLENGE = "challenge", "Resolved challenge"
    API = "api", "REST API"
    IMPORT = "import", "Imported labels"


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
    OPEN = "open", "Open"
    UPHELD = "upheld", "Upheld"
    REJECTED = "rejected", "Rejected"


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
    purpose = models.CharField(max_length=20, help_text='"verdict" or "quality".')
    prompt_id = models.CharField(max_length=60)
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
