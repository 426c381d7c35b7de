"""Stored IRT fits: options, provenance, status/progress, and the fitted numbers.

A :class:`Fit` is one run of :func:`irt.fit.fit` over a project's stored responses.
It records what went in (options, seed, judging rule versions, a SHA-256 of the
response triples, the triples themselves as a compact snapshot) and what came out
(the serialized :class:`irt.fit.IrtResult`), so any report can be redrawn exactly
and any fit reproduced. :class:`FitAbility` and :class:`FitItem` are the same
numbers as normalized rows, for joins and queries (e.g. "every fit this question
was in").
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Project
from quiz.models import Question, Responder


class FitStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    SUCCEEDED = "succeeded", _("Succeeded")
    # "Failed" alone is a rater's failed qualification: a fit fails in another sense
    FAILED = "failed", pgettext_lazy("IRT fit status", "Failed")


class Fit(models.Model):
    """One IRT fit over a project's stored responses (humans and models together)."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="irt_fits")
    status = models.CharField(max_length=12, choices=FitStatus.choices, default=FitStatus.QUEUED)
    mode = models.CharField(max_length=10, help_text="free or mcq (copied from options)")
    model = models.CharField(max_length=8, help_text="1pl, 2pl or 3pl (copied from options)")
    options = models.JSONField(default=dict, help_text="mode, model, method, source, category, seed")
    method = models.CharField(max_length=10, blank=True, help_text="Estimator actually used.")
    rule_versions = models.JSONField(
        default=list, blank=True, help_text="Judging rule versions of the verdicts fitted."
    )
    data_hash = models.CharField(
        max_length=64, blank=True,
        help_text="SHA-256 of the sorted (responder, question, correct) triples.",
    )
    n_responders = models.PositiveIntegerField(default=0)
    n_items = models.PositiveIntegerField(default=0)
    n_responses = models.PositiveIntegerField(default=0)
    progress = models.FloatField(default=0.0)
    progress_message = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Last progress write of the worker running the fit; a running fit silent "
        "for EARSHOT_IRT_STALE_AFTER_S is re-queued or marked failed (worker lost).",
    )
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="How many times a worker has claimed (started) this fit; a fit "
        "whose worker was lost is re-queued until EARSHOT_IRT_MAX_ATTEMPTS.",
    )
    claimed_by = models.CharField(
        max_length=200, blank=True,
        help_text="host:pid:task of the worker running the fit, so a redelivered task on the "
        "same host can tell that the claimant died.",
    )
    dispatched_at = models.DateTimeField(
        null=True, blank=True,
        help_text="When the fit was last handed to the task broker (null: not yet, or the "
        "broker refused it; workers re-dispatch such fits every minute).",
    )
    dispatch_error = models.CharField(
        max_length=500, blank=True,
        help_text="Why the last hand-over to the task broker failed (empty once it succeeds).",
    )
    duration_s = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True)
    warnings = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="irt_fits",
    )
    result = models.JSONField(
        null=True, blank=True,
        help_text="IrtResult.to_dict() plus responder_ids / question_ids (index order).",
    )
    snapshot = models.BinaryField(
        null=True, blank=True, editable=False,
        help_text="The fitted response triples (compressed .npz), so reports match the fit.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["project", "status"], name="irt_fit_project_status")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(progress__gte=0.0) & models.Q(progress__lte=1.0),
                name="irt_fit_progress_0_1",
            ),
        ]

    def __str__(self) -> str:
        return f"IRT fit #{self.pk} ({self.model}, {self.mode}, {self.status})"

    @property
    def is_done(self) -> bool:
        return self.status in (FitStatus.SUCCEEDED, FitStatus.FAILED)


class FitAbility(models.Model):
    """One responder's fitted ability in one fit."""

    fit = models.ForeignKey(Fit, on_delete=models.CASCADE, related_name="abilities")
    responder = models.ForeignKey(Responder, on_delete=models.CASCADE, related_name="irt_abilities")
    theta = models.FloatField()
    sd = models.FloatField(null=True, blank=True)
    ci_low = models.FloatField(null=True, blank=True)
    ci_high = models.FloatField(null=True, blank=True)
    n_answered = models.PositiveIntegerField()
    accuracy = models.FloatField()

    class Meta:
        ordering = ["fit_id", "-theta"]
        constraints = [
            models.UniqueConstraint(fields=["fit", "responder"], name="uniq_irt_fit_ability"),
        ]

    def __str__(self) -> str:
        return f"fit #{self.fit_id} responder #{self.responder_id}: θ={self.theta:.2f}"


class FitItem(models.Model):
    """One question's fitted item parameters in one fit."""

    fit = models.ForeignKey(Fit, on_delete=models.CASCADE, related_name="items")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="irt_items")
    a = models.FloatField()
    a_sd = models.FloatField(null=True, blank=True)
    b = models.FloatField()
    b_sd = models.FloatField(null=True, blank=True)
    c = models.FloatField(null=True, blank=True)
    n_answered = models.PositiveIntegerField()
    p_correct = models.FloatField()

    class Meta:
        ordering = ["fit_id", "-a"]
        constraints = [
            models.UniqueConstraint(fields=["fit", "question"], name="uniq_irt_fit_item"),
        ]

    def __str__(self) -> str:
        return f"fit #{self.fit_id} question #{self.question_id}: a={self.a:.2f} b={self.b:.2f}"


class ItemBank(models.Model):
    """A fit's item parameters frozen for scoring new responders without refitting.

    The bank keeps its own copy of every item's (a, b, c, d) and posterior SDs, the
    anchor's uncertainty and each responder kind's population on the bank's scale,
    so it stays valid when the fit it came from is deleted.  Scored by the pure
    :func:`irt.bank.score_responder`.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="irt_banks")
    fit = models.ForeignKey(
        Fit, null=True, blank=True, on_delete=models.SET_NULL, related_name="banks",
        help_text="The fit the parameters were frozen from (null once that fit is deleted).",
    )
    name = models.CharField(max_length=100)
    mode = models.CharField(max_length=10, help_text="free or mcq: the responses it scores")
    model = models.CharField(max_length=8, help_text="1pl, 2pl, 3pl or 4pl")
    anchor_loc_var = models.FloatField(default=0.0, help_text="Variance of the scale anchor's location.")
    anchor_scale_var = models.FloatField(default=0.0, help_text="Variance of the scale anchor's scale.")
    populations = models.JSONField(
        default=dict, blank=True,
        help_text="responder kind -> [mean, sd] of its population on the bank's scale (the prior when scoring).",
    )
    n_items = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="irt_banks",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["project", "name"], name="uniq_irt_bank_name"),
        ]

    def __str__(self) -> str:
        return f"item bank {self.name!r} ({self.model}, {self.mode}, {self.n_items} items)"


class BankItem(models.Model):
    """One question's frozen parameters in a bank."""

    bank = models.ForeignKey(ItemBank, on_delete=models.CASCADE, related_name="items")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="irt_bank_items")
    a = models.FloatField()
    sd_log_a = models.FloatField(default=0.0)
    b = models.FloatField()
    sd_b = models.FloatField(default=0.0)
    c = models.FloatField(default=0.0, help_text="Lower asymptote (guessing).")
    d = models.FloatField(default=1.0, help_text="Upper asymptote (feasibility).")

    class Meta:
        ordering = ["bank_id", "question_id"]
        constraints = [
            models.UniqueConstraint(fields=["bank", "question"], name="uniq_irt_bank_item"),
            models.CheckConstraint(condition=models.Q(a__gt=0.0), name="irt_bank_item_a_positive"),
            models.CheckConstraint(
                condition=models.Q(c__gte=0.0) & models.Q(d__lte=1.0) & models.Q(c__lt=models.F("d")),
                name="irt_bank_item_asymptotes",
            ),
        ]

    def __str__(self) -> str:
        return f"bank #{self.bank_id} question #{self.question_id}: a={self.a:.2f} b={self.b:.2f}"
