"""Annotation campaigns: items, annotators, assignments and ratings.

Fields, constraints and tiny properties only; every write goes through
``annotation.services`` and every read used by pages and reports through
``annotation.selectors``. Item metadata (system, task, condition, source, batch) is
stored for the report but never rendered to annotators (blinding).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from accounts.models import Project
from quiz.models import Clip


def _public_id() -> str:
    return secrets.token_urlsafe(12)


def _completion_code() -> str:
    return secrets.token_hex(4).upper()


def _access_token() -> str:
    """The secret part of a private campaign's link (rotatable; 128 bits)."""
    return secrets.token_urlsafe(16)


class Template(models.TextChoices):
    MOS = "mos", _("MOS (ACR 1–5)")
    NATURALNESS = "naturalness", _("Binary naturalness")
    MULTI_CRITERIA = "multi_criteria", _("Multi-criteria yes/no")
    QA_AUDIT = "qa_audit", _("QA audit")
    QUALITY_0_5 = "quality_0_5", _("Quality scoring 0–5")
    CUSTOM = "custom", _("Custom questions")
    # listening tests with several stimuli per item (annotation.listening_tests)
    AB = "ab", _("AB preference")
    ABX = "abx", _("ABX discrimination")
    CCR = "ccr", _("CCR / CMOS (−3…+3 against a reference)")
    DCR = "dcr", _("DCR / DMOS (1–5 degradation against a reference)")
    SMOS = "smos", _("SMOS (similarity to a reference, 1–5)")
    MUSHRA = "mushra", _("MUSHRA (ITU-R BS.1534-3)")
    RANKING = "ranking", _("Ranking (order the stimuli)")


#: templates whose items hold several stimuli (``Item.stimuli``) instead of one clip
MULTI_STIMULUS = frozenset({Template.AB, Template.ABX, Template.CCR, Template.DCR, Template.SMOS,
                            Template.MUSHRA, Template.RANKING})


class PolicyKind(models.TextChoices):
    PARTITION = "partition", _("Partition (each item to one annotator)")
    OVERLAP = "overlap", _("Overlap k (each item to k annotators)")
    LISTENER_SAMPLE = "listener_sample", _("Listener sample (n items per listener)")
    AUDIT_SAMPLE = "audit_sample", _("Audit sample (n items per batch)")


class CampaignStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    OPEN = "open", _("Open")
    PAUSED = "paused", _("Paused")
    CLOSED = "closed", _("Closed")


class Campaign(models.Model):
    """A rating campaign: questions (criteria), texts shown to annotators, assignment policy."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="campaigns")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=60)
    template = models.CharField(max_length=20, choices=Template.choices, default=Template.MOS)
    criteria = models.JSONField(
        default=list,
        help_text="List of {key, label, scale, labels?, values?, comment?}; see docs/annotation-campaigns.md.",
    )
    question_text = models.TextField(blank=True, help_text="The question shown above the scale.")
    instructions = models.TextField(blank=True)
    consent_text = models.TextField(blank=True)
    language = models.CharField(max_length=10, blank=True, help_text="Language of the campaign texts, e.g. ko, th, vi.")
    policy = models.CharField(max_length=20, choices=PolicyKind.choices, default=PolicyKind.OVERLAP)
    policy_k = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Annotators per item.")
    policy_n = models.PositiveIntegerField(null=True, blank=True, help_text="Items per listener / per batch.")
    policy_quota = models.PositiveIntegerField(null=True, blank=True, help_text="Most items per annotator.")
    policy_annotators = models.PositiveIntegerField(
        null=True, blank=True, help_text="Partition: expected annotators (quota = ceil(items / annotators))."
    )
    control_every = models.PositiveSmallIntegerField(
        default=4, help_text="Serve one gold/trap item after this many regular items."
    )
    expiry_minutes = models.PositiveIntegerField(default=30)
    allow_repeat = models.BooleanField(default=False)
    require_full_listen = models.BooleanField(
        default=True, help_text="Refuse ratings whose listening evidence says the clip was not heard."
    )
    min_listen_fraction = models.FloatField(
        default=1.0, help_text="Share of each clip (0-1) the player must report as heard, when "
                               "listening is required."
    )
    qc = models.JSONField(default=dict, blank=True, help_text="annotation.quality.QcConfig overrides.")
    screening = models.JSONField(
        default=list, blank=True,
        help_text="Listening checks before rating, in order: [{step: calibration | headphones | digits, ...}] "
                  "(annotation.screening; docs/annotation-campaigns.md).")
    crowd = models.JSONField(
        default=dict, blank=True,
        help_text="Crowd operations: time-on-item thresholds (min_seconds, duration_factor, max_fast_share) "
                  "and the approval report's bonus (bonus, reject_on); annotation.crowd.")
    seed = models.BigIntegerField(default=0)
    completion_code = models.CharField(
        max_length=40, default=_completion_code, blank=True,
        help_text="Given only to annotators who met their quota.")
    no_work_code = models.CharField(
        max_length=40, default=_completion_code, blank=True,
        help_text="Given to annotators who arrive when there is nothing left to assign "
                  "(Prolific: a 'return' code).")
    screened_out_code = models.CharField(
        max_length=40, default=_completion_code, blank=True,
        help_text="Given to annotators who fail the qualification items (Prolific: 'screened out').")
    completion_url = models.URLField(max_length=500, blank=True)
    access_token = models.CharField(
        max_length=43, default=_access_token,
        help_text="Private projects: the campaign link must carry ?t=<this>; rotate it to revoke links.")
    status = models.CharField(max_length=10, choices=CampaignStatus.choices, default=CampaignStatus.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["project", "slug"], name="uniq_campaign_slug"),
        ]

    def __str__(self) -> str:
        return f"{self.project.slug}/{self.slug}"


class ItemKind(models.TextChoices):
    REGULAR = "regular", _("Regular")
    GOLD = "gold", _("Gold (known answer)")
    TRAP = "trap", _("Trap (says which answer to give)")
    TRAINING = "training", _("Training / anchor")
    QUALIFICATION = "qualification", _("Qualification")


CONTROL_KINDS = (ItemKind.GOLD, ItemKind.TRAP)


class Item(models.Model):
    """One thing to rate: a clip and/or text. Metadata is for the report only."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="items")
    external_id = models.CharField(max_length=120)
    public_id = models.CharField(max_length=24, unique=True, default=_public_id, editable=False)
    kind = models.CharField(max_length=15, choices=ItemKind.choices, default=ItemKind.REGULAR)
    clip = models.ForeignKey(Clip, null=True, blank=True, on_delete=models.PROTECT, related_name="annotation_items")
    context = models.TextField(blank=True)
    question = models.TextField(blank=True)
    reference = models.TextField(blank=True)
    response = models.TextField(blank=True)
    system = models.CharField(max_length=120, blank=True)
    task = models.CharField(max_length=120, blank=True)
    condition = models.CharField(max_length=120, blank=True)
    source = models.CharField(max_length=200, blank=True)
    batch = models.CharField(max_length=120, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    expected = models.JSONField(
        default=dict, blank=True, help_text="Gold / trap / qualification answers: {criterion key: value}."
    )
    position = models.PositiveIntegerField(default=0)
    # assignment counters, kept by annotation.services under the item's row lock
    n_active = models.PositiveIntegerField(default=0)
    n_done = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "external_id"], name="uniq_item_ext_id"),
        ]
        indexes = [
            models.Index(fields=["campaign", "kind", "condition"], name="item_campaign_kind"),
            # the assignment windows (annotation.services): fullest-first for overlap and
            # partition, least-rated-first per condition for the listener sample; an
            # index scan that stops after a few dozen rows instead of sorting every item
            models.Index(F("campaign"), F("kind"), (F("n_active") + F("n_done")).desc(), F("id"),
                         name="item_window_fill"),
            models.Index(F("campaign"), F("kind"), F("condition"), F("n_active") + F("n_done"), F("id"),
                         name="item_window_condition"),
        ]

    def __str__(self) -> str:
        return self.external_id


class StimulusRole(models.TextChoices):
    """What a stimulus is in its item. Only ``reference`` is ever named to annotators;
    hidden references and anchors look exactly like systems until after rating."""

    REFERENCE = "reference", _("Reference (open, labelled as such)")
    HIDDEN_REFERENCE = "hidden_reference", _("Hidden reference")
    ANCHOR = "anchor", _("Anchor")
    SYSTEM = "system", _("System under test")
    A = "A", _("A (AB / ABX)")
    B = "B", _("B (AB / ABX)")
    X = "X", _("X (ABX: the same audio as A or B)")


class Stimulus(models.Model):
    """One clip of a multi-stimulus item, with its role and the system/condition it
    stands for. Addressed by ``public_id`` only; role, system, condition and the clip's
    file name never reach an annotator before they rated the item."""

    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="stimuli")
    public_id = models.CharField(max_length=24, unique=True, default=_public_id, editable=False)
    position = models.PositiveSmallIntegerField(help_text="Order in the imported row (0-based).")
    role = models.CharField(max_length=20, choices=StimulusRole.choices)
    system = models.CharField(max_length=120, blank=True)
    condition = models.CharField(max_length=120, blank=True)
    clip = models.ForeignKey(Clip, on_delete=models.PROTECT, related_name="stimuli")
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["item", "position"]
        constraints = [
            models.UniqueConstraint(fields=["item", "position"], name="uniq_stimulus_position"),
        ]

    def __str__(self) -> str:
        return f"{self.item_id}:{self.position}:{self.role}"


class Platform(models.TextChoices):
    DIRECT = "direct", _("Direct link")
    PROLIFIC = "prolific", _("Prolific")
    OTHER = "other", _("Other")


class Qualification(models.TextChoices):
    NOT_REQUIRED = "not_required", _("Not required")
    PENDING = "pending", _("Pending")
    PASSED = "passed", _("Passed")
    FAILED = "failed", _("Failed")


class Outcome(models.TextChoices):
    """How an annotator's participation ended; decides which code they were given."""

    NONE = "", _("Not finished")
    COMPLETED = "completed", _("Completed (quota met)")
    NO_WORK = "no_work", _("No work left (study full)")
    SCREENED_OUT = "screened_out", _("Screened out (failed qualification)")


class Annotator(models.Model):
    """A participant in one campaign, platform-neutral and pseudonymous.

    ``public_id`` is the rater id in every export; user names and e-mails never are.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="annotators")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="annotations")
    public_id = models.CharField(max_length=24, unique=True, default=_public_id, editable=False)
    platform = models.CharField(max_length=20, choices=Platform.choices, default=Platform.DIRECT)
    external_id = models.CharField(max_length=120, blank=True, help_text="e.g. PROLIFIC_PID")
    study_id = models.CharField(max_length=120, blank=True)
    session_id = models.CharField(max_length=120, blank=True)
    consent_at = models.DateTimeField(null=True, blank=True)
    instructions_at = models.DateTimeField(null=True, blank=True)
    training_at = models.DateTimeField(null=True, blank=True)
    qualification = models.CharField(max_length=15, choices=Qualification.choices, default=Qualification.NOT_REQUIRED)
    completed_at = models.DateTimeField(null=True, blank=True, help_text="When the outcome was decided.")
    outcome = models.CharField(max_length=15, choices=Outcome.choices, blank=True, default=Outcome.NONE)
    completion_code = models.CharField(max_length=40, blank=True, help_text="The code this annotator was given.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="uniq_annotator_user"),
            models.UniqueConstraint(
                fields=["campaign", "platform", "external_id"],
                condition=~models.Q(external_id=""),
                name="uniq_annotator_external",
            ),
        ]

    def __str__(self) -> str:
        return self.public_id


class AssignmentStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    SUBMITTED = "submitted", _("Submitted")
    EXPIRED = "expired", _("Expired")


class Assignment(models.Model):
    """An item handed to an annotator. ``repeat`` > 0 only when the campaign allows repeats."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assignments")
    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="assignments")
    annotator = models.ForeignKey(Annotator, on_delete=models.CASCADE, related_name="assignments")
    public_id = models.CharField(max_length=24, unique=True, default=_public_id, editable=False)
    repeat = models.PositiveSmallIntegerField(default=0)
    served_at = models.DateTimeField()
    audio_at = models.DateTimeField(
        null=True, blank=True, help_text="When the clip's bytes were first requested (listening can start "
                                         "no earlier: the listening check's timeline starts here).")
    expires_at = models.DateTimeField()
    submitted_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=AssignmentStatus.choices, default=AssignmentStatus.ACTIVE)
    stimulus_order = models.JSONField(
        default=list, blank=True,
        help_text="Multi-stimulus items: the Stimulus ids in the order this annotator was shown them "
                  "(randomised per assignment, fixed at serving; the open reference is not shuffled "
                  "and not listed, except in CCR where it is one of the two samples).")
    listening = models.JSONField(
        default=dict, blank=True,
        help_text="Multi-stimulus items: listening evidence per stimulus, "
                  "{stimulus id: {\"played\": [[start, end], ...], \"heard_fraction\": f}}.")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["annotator", "item", "repeat"],
                condition=models.Q(status__in=["active", "submitted"]),
                name="uniq_live_assignment",
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "status", "expires_at"], name="assignment_expiry"),
            models.Index(fields=["annotator", "status"], name="assignment_annotator"),
        ]

    def __str__(self) -> str:
        return f"{self.annotator_id}:{self.item_id}:{self.status}"


class Rating(models.Model):
    """One answer to one criterion of one assignment. Values are stored as text."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ratings")
    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="ratings")
    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="ratings")
    annotator = models.ForeignKey(Annotator, on_delete=models.CASCADE, related_name="ratings")
    stimulus = models.ForeignKey(
        Stimulus, null=True, blank=True, on_delete=models.CASCADE, related_name="ratings",
        help_text="Multi-stimulus items: the stimulus this value is about (MUSHRA, ranking, CCR/DCR/SMOS: "
                  "the rated one; AB/ABX: the chosen one; null for 'no preference').")
    criterion = models.CharField(max_length=60)
    value = models.CharField(max_length=60)
    comment = models.TextField(blank=True)
    client_token = models.CharField(max_length=64)
    submitted_at = models.DateTimeField()
    elapsed_ms = models.PositiveIntegerField(help_text="Time from serving the item to the submission.")
    played = models.JSONField(
        default=list, blank=True,
        help_text="Listening evidence: merged played intervals [[start, end], ...] in clip seconds.")
    heard_fraction = models.FloatField(
        null=True, blank=True, help_text="Share of the clip heard (0-1); null for items without audio.")

    class Meta:
        constraints = [
            # one value per criterion (single-clip items, AB/ABX), or per criterion and
            # stimulus (MUSHRA, ranking, CCR/DCR/SMOS): two partial keys, because NULLs
            # are distinct in a plain unique key
            models.UniqueConstraint(fields=["assignment", "criterion"], condition=models.Q(stimulus__isnull=True),
                                    name="uniq_rating_criterion"),
            models.UniqueConstraint(fields=["assignment", "criterion", "stimulus"],
                                    condition=models.Q(stimulus__isnull=False), name="uniq_rating_stimulus"),
            models.UniqueConstraint(
                fields=["annotator", "client_token", "criterion"], condition=models.Q(stimulus__isnull=True),
                name="uniq_rating_token"
            ),
            models.UniqueConstraint(
                fields=["annotator", "client_token", "criterion", "stimulus"],
                condition=models.Q(stimulus__isnull=False), name="uniq_rating_token_stimulus"
            ),
        ]
        indexes = [models.Index(fields=["campaign", "id"], name="rating_campaign")]

    def __str__(self) -> str:
        return f"{self.criterion}={self.value}"


class ScreeningResult(models.Model):
    """The outcome of one screening step (headphone check, volume calibration, digits in
    noise) for one annotator: decided once, with the reason shown in the crowd report."""

    annotator = models.ForeignKey(Annotator, on_delete=models.CASCADE, related_name="screening_results")
    step = models.CharField(max_length=20)
    passed = models.BooleanField()
    n_correct = models.PositiveSmallIntegerField()
    n_trials = models.PositiveSmallIntegerField()
    answers = models.JSONField(default=list, blank=True, help_text="What the annotator answered, per trial.")
    reason = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["annotator", "step"], name="uniq_screening_step")]

    def __str__(self) -> str:
        return f"{self.annotator_id}:{self.step}:{'pass' if self.passed else 'fail'}"


class RaterBlock(models.Model):
    """A rater a project's researchers do not want in any further campaign of the project.

    Matched at enrolment by the account (``user``) or by the platform participant id
    (``platform`` + ``external_id``, e.g. a PROLIFIC_PID). ``rater_id`` is the
    pseudonymous annotator id the block was made from, the id researchers see in reports.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="rater_blocks")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    platform = models.CharField(max_length=20, choices=Platform.choices, default=Platform.DIRECT)
    external_id = models.CharField(max_length=120, blank=True)
    rater_id = models.CharField(max_length=24, blank=True)
    reason = models.CharField(max_length=500)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], condition=models.Q(user__isnull=False),
                                    name="uniq_block_user"),
            models.UniqueConstraint(fields=["project", "platform", "external_id"],
                                    condition=~models.Q(external_id=""), name="uniq_block_external"),
        ]

    def __str__(self) -> str:
        return f"{self.project_id}:{self.rater_id or self.external_id}"
