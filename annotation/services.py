"""Writes for annotation campaigns: create, import, enrol, assign (race-free), rate.

Concurrency model
-----------------
``assignment_next_for_annotator`` runs in two short transactions:

1. expire stale assignments (``expires_at`` passed) and give their slots back;
2. lock the annotator's row (one request per annotator at a time), lock a window of
   candidate items with ``SELECT … FOR UPDATE SKIP LOCKED`` (PostgreSQL; SQLite
   serializes writers already), let the pure policy (:mod:`annotation.assignment`)
   choose among them using counts read under the lock, create the assignment and bump
   the item's counter in the same transaction.

Two transactions can therefore never take the last free slot of the same item: the
second one skips the locked row, and when every candidate is locked it waits once with
a blocking lock, after which PostgreSQL re-checks the capacity condition on the new row
version. The counters ``Item.n_active`` / ``n_done`` are only changed here, always
under the item's row lock (an ``UPDATE``), and a test recounts them from assignments.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from collections import Counter
from contextlib import nullcontext as _nothing
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import Project, User
from accounts.services import guest_create
from frontend import listening
from quiz.models import Clip
from quiz.services import clip_store

from . import assignment as policy_core
from . import listening_tests, prepared
from .importing import ImportFailed, Problem, parse_items
from .models import (
    CONTROL_KINDS,
    Annotator,
    Assignment,
    AssignmentStatus,
    Campaign,
    CampaignStatus,
    Item,
    ItemKind,
    Outcome,
    Platform,
    PolicyKind,
    Qualification,
    Rating,
    Stimulus,
    _access_token,
    _public_id,
)
from .quality import QcConfig, rater_quality
from .scales import CriterionError, normalize_criteria, template_criteria, validate_value
from .selectors import instance_from_row
from .services_listening import listening_submit_rows

LIVE = (AssignmentStatus.ACTIVE, AssignmentStatus.SUBMITTED)
WINDOW = 32  # candidate rows locked per request
PER_CONDITION = 8  # listener sample: candidate rows per condition


class RatingError(ValueError):
    """A rejected submission: which field, why, and the HTTP status that fits."""

    def __init__(self, field: str, message: str, status: int = 400):
        self.field = field
        self.message = message
        self.status = status
        super().__init__(f"{field}: {message}")


class CampaignError(ValueError):
    """An invalid campaign configuration, naming the field."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


# --------------------------------------------------------------------------- campaigns


def policy_for(campaign: Campaign, *, n_regular: int | None = None) -> policy_core.Policy:
    """The pure :class:`~annotation.assignment.Policy` of a campaign."""
    quota = campaign.policy_quota
    if campaign.policy == PolicyKind.PARTITION and campaign.policy_annotators:
        if n_regular is None:
            n_regular = campaign.items.filter(kind=ItemKind.REGULAR).count()
        quota = policy_core.partition_quota(n_regular, campaign.policy_annotators)
    k = campaign.policy_k
    if campaign.policy == PolicyKind.PARTITION:
        k = None
    elif campaign.policy == PolicyKind.OVERLAP and k is None:
        k = 1
    return policy_core.Policy(
        kind=campaign.policy, k=k, n=campaign.policy_n, quota=quota,
        allow_repeat=campaign.allow_repeat,
    )


def qc_config_for(campaign: Campaign) -> QcConfig:
    """The campaign's QC thresholds (``Campaign.qc`` overrides the defaults)."""
    names = {f.name for f in dataclasses.fields(QcConfig)}
    values = {k: v for k, v in (campaign.qc or {}).items() if k in names}
    if "exclude_on" in values:
        values["exclude_on"] = frozenset(values["exclude_on"])
    return QcConfig(**values)


def campaign_validate(campaign: Campaign) -> None:
    """Check criteria, policy and QC settings; raise :class:`CampaignError`."""
    try:
        campaign.criteria = normalize_criteria(campaign.criteria)
    except CriterionError as exc:
        raise CampaignError("criteria", str(exc)) from exc
    spec = listening_tests.spec_for(campaign.template)
    for i, crit in enumerate(campaign.criteria):
        if spec is not None and crit["scale"] not in spec.scales:
            raise CampaignError("criteria", f"criteria[{i}]: a {campaign.template} campaign rates on "
                                f"{' or '.join(sorted(spec.scales))}, not {crit['scale']}")
        if spec is None and crit["scale"] in listening_tests.LISTENING_SCALES:
            raise CampaignError("criteria", f"criteria[{i}]: the {crit['scale']} scale belongs to the "
                                "listening-test templates (ab, abx, ccr, dcr, smos, mushra, ranking)")
    try:
        policy_for(campaign, n_regular=0 if campaign.pk is None else None)
    except ValueError as exc:
        raise CampaignError("policy", str(exc)) from exc
    try:
        qc_config_for(campaign)
    except (TypeError, ValueError) as exc:
        raise CampaignError("qc", str(exc)) from exc
    if campaign.expiry_minutes < 1:
        raise CampaignError("expiry_minutes", "must be at least 1 minute")
    if campaign.policy == PolicyKind.OVERLAP and not campaign.policy_k:
        raise CampaignError("policy_k", "the overlap policy needs k (annotators per item)")
    if campaign.policy in (PolicyKind.LISTENER_SAMPLE, PolicyKind.AUDIT_SAMPLE) and not campaign.policy_n:
        raise CampaignError("policy_n", "this policy needs n (items per listener / per batch)")
    fraction = campaign.min_listen_fraction
    if fraction is None or not 0 <= fraction <= 1:
        raise CampaignError("min_listen_fraction", "must be between 0 and 1")
    from .services_crowd import crowd_validate

    try:
        crowd_validate(campaign)
    except ValueError as exc:  # "screening[1].trials: ..." -> field "screening"
        raise CampaignError(re.split(r"[\[.:]", str(exc), maxsplit=1)[0] or "crowd", str(exc)) from exc


#: what each template implies unless the caller says otherwise (the CLI, the API and the
#: creation form all start from these; docs/annotation-campaigns.md lists them)
TEMPLATE_DEFAULTS: dict[str, dict[str, Any]] = {
    "mos": {"policy": PolicyKind.LISTENER_SAMPLE, "policy_n": 10},
    "naturalness": {"policy": PolicyKind.PARTITION},
    "multi_criteria": {"policy": PolicyKind.OVERLAP, "policy_k": 3},
    "qa_audit": {"policy": PolicyKind.AUDIT_SAMPLE, "policy_n": 50, "require_full_listen": False},
    "quality_0_5": {"policy": PolicyKind.OVERLAP, "policy_k": 1, "require_full_listen": False},
    "custom": {"policy": PolicyKind.OVERLAP, "policy_k": 3},
    # listening tests: few items, each heard by many listeners (BS.1534-3 asks for 20
    # listeners after post-screening; P.808 for about 8 votes per condition and clip)
    "ab": {"policy": PolicyKind.OVERLAP, "policy_k": 10},
    "abx": {"policy": PolicyKind.OVERLAP, "policy_k": 10},
    "ccr": {"policy": PolicyKind.OVERLAP, "policy_k": 8},
    "dcr": {"policy": PolicyKind.OVERLAP, "policy_k": 8},
    "smos": {"policy": PolicyKind.OVERLAP, "policy_k": 8},
    "mushra": {"policy": PolicyKind.OVERLAP, "policy_k": 20},
    "ranking": {"policy": PolicyKind.OVERLAP, "policy_k": 10},
}

#: the instructions a listening-test campaign starts with when none are given (the
#: creation form shows them for editing; stored in the creator's language)
TEMPLATE_INSTRUCTIONS: dict[str, Any] = {
    "ab": gettext_lazy(
        "You will hear two samples, A and B, of the same content. Listen to both (switch between them "
        "at any time: the position is kept) and choose the one you prefer. Choose “No preference” "
        "only when you really cannot choose."),
    "abx": gettext_lazy(
        "You will hear A, B and X. X is exactly the same as either A or B. Listen to all three, as often "
        "as you like, and say which one X is. When you are unsure, make your best guess."),
    "ccr": gettext_lazy(
        "You will hear two samples of the same content. Rate the quality of the second sample compared "
        "with the first, from “Much worse” (−3) to “Much better” (+3)."),
    "dcr": gettext_lazy(
        "You will hear a reference and a sample. Rate how much the sample is degraded compared with the "
        "reference, from 5 (the degradation is inaudible) to 1 (the degradation is very annoying)."),
    "smos": gettext_lazy(
        "You will hear a reference recording and a sample. Ignoring what is said and the audio quality, "
        "rate how similar the voice of the sample is to the voice of the reference, from 1 (not at all "
        "similar) to 5 (extremely similar)."),
    "mushra": gettext_lazy(
        "You will hear a reference and several versions of it, all on one screen; one version is a hidden "
        "copy of the reference. Rate the basic audio quality of every version against the reference on "
        "the 0–100 scale, and give the version you find identical to the reference 100. Switch between "
        "versions as often as you like (the position is kept) and loop a short passage to compare details."),
    "ranking": gettext_lazy(
        "Listen to every sample and put them in order, best at the top and worst at the bottom, with the "
        "arrow buttons (or the ↑ / ↓ keys for the sample that is playing)."),
}

def template_instructions(template: str) -> str:
    """A template's default instructions in the active language ("" when it has none).

    Campaigns store the text in their creator's language at creation, so the form and
    :func:`campaign_create` call this inside the creator's request.
    """
    text = TEMPLATE_INSTRUCTIONS.get(template)
    return str(text) if text is not None else ""


#: the policy fields each policy reads (the form shows only these)
POLICY_FIELDS: dict[str, tuple[str, ...]] = {
    PolicyKind.PARTITION: ("policy_annotators", "policy_quota"),
    PolicyKind.OVERLAP: ("policy_k", "policy_quota"),
    PolicyKind.LISTENER_SAMPLE: ("policy_n",),
    PolicyKind.AUDIT_SAMPLE: ("policy_n", "policy_k"),
}


@transaction.atomic
def campaign_create(*, project: Project, name: str, slug: str, template: str = "mos",
                    criteria: list[dict[str, Any]] | None = None, **fields: Any) -> Campaign:
    """Create a campaign from a template (or custom ``criteria``); validated before saving."""
    if criteria is None:
        try:
            criteria = template_criteria(template)
        except CriterionError as exc:
            raise CampaignError("template", str(exc)) from exc
    defaults = dict(TEMPLATE_DEFAULTS.get(template, {}))
    if fields.get("policy") and fields["policy"] != defaults.get("policy"):
        # another policy than the template's: its k / n do not carry over
        defaults = {k: v for k, v in defaults.items() if not k.startswith("policy")}
    values = {**defaults, **{k: v for k, v in fields.items() if v is not None}}
    if not values.get("instructions") and template in TEMPLATE_INSTRUCTIONS:
        values["instructions"] = template_instructions(template)
    if Campaign.objects.filter(project=project, slug=slug).exists():
        raise CampaignError("slug", f"a campaign {slug!r} already exists in this project")
    campaign = Campaign(project=project, name=name, slug=slug, template=template,
                        criteria=criteria, **values)
    campaign_validate(campaign)
    campaign.save()
    return campaign


def campaign_set_status(*, campaign: Campaign, status: str) -> Campaign:
    """Open, pause or close a campaign.

    Pausing or closing takes effect at once: no new assignments, no ratings stored
    (both submission paths check the status under the assignment's lock), no codes.
    A campaign with nothing to rate cannot be opened.
    """
    if status not in CampaignStatus.values:
        raise CampaignError("status", f"must be one of {', '.join(CampaignStatus.values)}")
    if status == CampaignStatus.OPEN and not campaign.items.filter(kind=ItemKind.REGULAR).exists():
        raise CampaignError("status", "a campaign without items to rate cannot be opened: import items first")
    campaign.status = status
    campaign.save(update_fields=["status"])
    return campaign


def campaign_rotate_token(*, campaign: Campaign) -> Campaign:
    """A new secret for the campaign's link; links with the old one stop admitting newcomers."""
    campaign.access_token = _access_token()
    campaign.save(update_fields=["access_token"])
    return campaign


@dataclass
class ItemImportSummary:
    """What an item import did."""

    created: int = 0
    updated: int = 0
    clips_created: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)


def _stored_stimuli(item_ids: list[int]) -> dict[int, list[tuple[str, str, str, str]]]:
    """(role, audio SHA-256, system, condition) of each item's stimuli, in order."""
    stored: dict[int, list[tuple[str, str, str, str]]] = {}
    for item_id, *sig in (Stimulus.objects.filter(item_id__in=item_ids).order_by("item_id", "position")
                          .values_list("item_id", "role", "clip__sha256", "system", "condition")):
        stored.setdefault(item_id, []).append(tuple(sig))
    return stored


def items_import(*, campaign: Campaign, path: Path, audio_dir: Path | None = None) -> ItemImportSummary:
    """Import items (JSONL/CSV + audio) into ``campaign``: all or nothing.

    Every row and audio file is validated first (:func:`annotation.importing.parse_items`,
    the quiz import's rules, and for listening-test templates the stimuli's roles);
    any problem raises ``ImportFailed`` and nothing is written. Re-importing updates
    items by their external id; a multi-stimulus item's stimuli are replaced, unless
    annotators were already served the item and the stimuli differ (refused).
    """
    path = Path(path)
    rows = parse_items(path, criteria=campaign.criteria, template=campaign.template,
                       audio_dir=Path(audio_dir) if audio_dir else None)
    multi = listening_tests.spec_for(campaign.template) is not None
    summary = ItemImportSummary()
    written: list[Clip] = []

    def store(ref) -> Clip:
        clip, created = clip_store(project=campaign.project, name=ref.name, data=ref.path, info=ref.info)
        if created:
            written.append(clip)
            summary.clips_created += 1
        return clip

    try:
        with transaction.atomic():
            existing = {i.external_id: i for i in campaign.items.all()}
            # multi-stimulus re-imports: unchanged stimuli stay (assignments store their
            # ids in stimulus_order, ratings point at them); changed ones are replaced,
            # unless annotators were served the item already
            again = [existing[r.external_id].pk for r in rows if r.external_id in existing]
            stored = _stored_stimuli(again) if multi else {}
            served = (set(Assignment.objects.filter(item_id__in=again).values_list("item_id", flat=True))
                      if multi else set())
            locked: list[Problem] = []
            same: set[str] = set()
            for row in rows:
                if row.external_id not in existing:
                    continue
                pk = existing[row.external_id].pk
                if [(s.role, s.audio.info.sha256, s.system, s.condition) for s in row.stimuli] == stored.get(pk, []):
                    same.add(row.external_id)
                elif pk in served:
                    locked.append(Problem(path.name, row.line, "stimuli", (
                        f"item {row.external_id!r} has been served to annotators: its stimuli cannot change "
                        "(import the new version under a new id)")))
            if locked:
                raise ImportFailed(locked)
            position = len(existing)
            new_items: list[Item] = []
            stimuli: list[Stimulus] = []
            with_stimuli: list[tuple[Item, Any]] = []
            for row in rows:
                clip = store(row.audio) if row.audio is not None else None
                values = {"kind": row.kind, "clip": clip, **row.texts, **row.meta,
                          "metadata": row.metadata, "expected": row.expected}
                summary.by_kind[row.kind] = summary.by_kind.get(row.kind, 0) + 1
                item = existing.get(row.external_id)
                if item is None:
                    item = Item(campaign=campaign, external_id=row.external_id, position=position, **values)
                    new_items.append(item)
                    position += 1
                    summary.created += 1
                else:
                    for key, value in values.items():
                        setattr(item, key, value)
                    item.save()
                    summary.updated += 1
                if row.external_id in same:
                    for st in row.stimuli:
                        Stimulus.objects.filter(item=item, position=st.position).update(metadata=st.metadata)
                elif multi:
                    if item.pk is not None:
                        Stimulus.objects.filter(item=item).delete()
                    with_stimuli.append((item, row))
            Item.objects.bulk_create(new_items, batch_size=1000)
            for item, row in with_stimuli:
                stimuli += [Stimulus(item=item, position=st.position, role=st.role, system=st.system,
                                     condition=st.condition, clip=store(st.audio), metadata=st.metadata)
                            for st in row.stimuli]
            Stimulus.objects.bulk_create(stimuli, batch_size=1000)
    except BaseException:
        for clip in written:
            clip.file.storage.delete(clip.file.name)
        raise
    return summary


# -------------------------------------------------------------------------- annotators


def _needs_qualification(campaign: Campaign) -> bool:
    """Qualification items or screening steps (annotation.services_crowd) come first."""
    return bool(campaign.screening) or campaign.items.filter(kind=ItemKind.QUALIFICATION).exists()


def _refuse_blocked(campaign: Campaign, user: User | None, platform: str, external_id: str) -> None:
    """EnrolError when the project's blocklist names this account or participant id."""
    from .services_crowd import rater_block_find

    if rater_block_find(project=campaign.project, user=user, platform=platform, external_id=external_id):
        raise EnrolError("blocked", gettext("Sorry, you cannot take part in this study. Thank you for your "
                                            "interest."), 403)


class EnrolError(ValueError):
    """A refused enrolment or resume: which field, why (shown to the participant)."""

    def __init__(self, field: str, message: str, status: int = 403):
        self.field = field
        self.message = message
        self.status = status
        super().__init__(f"{field}: {message}")


def annotator_enrol(*, campaign: Campaign, user: User, platform: str = Platform.DIRECT,
                    external_id: str = "", study_id: str = "", session_id: str = "",
                    consent: bool = False, now: datetime | None = None) -> Annotator:
    """The user's annotator in ``campaign`` (created on first use, race-safe).

    Campaign-scoped: enrolment creates an :class:`Annotator` row only, never a project
    membership, so an annotator can reach this campaign and nothing else of the project
    (F-3). ``consent`` records consent in the same write (the consent form's POST).
    A rater on the project's blocklist (by account or platform id) is refused with
    :class:`EnrolError` (field ``blocked``) before anything is written.
    """
    found = Annotator.objects.filter(campaign=campaign, user=user).first()
    if found:
        return annotator_step(annotator=found, step="consent", now=now) if consent else found
    _refuse_blocked(campaign, user, platform, external_id)
    try:
        with transaction.atomic():
            return Annotator.objects.create(
                campaign=campaign, user=user, platform=platform, external_id=external_id[:120],
                study_id=study_id[:120], session_id=session_id[:120],
                consent_at=(now or timezone.now()) if consent else None,
                qualification=(Qualification.PENDING if _needs_qualification(campaign)
                               else Qualification.NOT_REQUIRED),
            )
    except IntegrityError:
        return Annotator.objects.get(campaign=campaign, user=user)


def annotator_platform_find(*, campaign: Campaign, platform: str, external_id: str) -> Annotator | None:
    """The annotator a platform participant id already belongs to, if any."""
    return (Annotator.objects.filter(campaign=campaign, platform=platform, external_id=external_id)
            .select_related("user", "campaign").first())


def annotator_platform_may_resume(annotator: Annotator, *, session_id: str) -> bool:
    """Whether a caller presenting this platform ``session_id`` may resume ``annotator``.

    A participant id alone is not a credential (anyone who saw it could claim the
    work and its payment, F-4): the caller must present the platform's per-participant
    session id that created the annotator (Prolific's ``SESSION_ID``), or be in the
    browser session that created it (checked by the caller).
    """
    stored = annotator.session_id
    return bool(stored) and bool(session_id) and secrets.compare_digest(stored, session_id[:120])


def annotator_from_platform(*, campaign: Campaign, platform: str, external_id: str,
                            study_id: str = "", session_id: str = "", user: User | None = None,
                            consent: bool = False) -> Annotator:
    """Create, or resume with proof, the pseudonymous annotator of a platform participant.

    The platform's participant id (e.g. ``PROLIFIC_PID``) is stored on the annotator,
    never used as a name: the account is ``user`` or a new guest with a generated handle.
    Resuming an existing annotator needs its platform session id
    (:func:`annotator_platform_may_resume`); otherwise :class:`EnrolError`.
    """
    found = annotator_platform_find(campaign=campaign, platform=platform, external_id=external_id)
    if found:
        if user is not None and found.user_id == user.pk:
            return found
        if not annotator_platform_may_resume(found, session_id=session_id):
            raise EnrolError("PROLIFIC_PID", "This participant id has already started this study in another "
                             "browser. Please continue in the browser you started in, or use the study "
                             "link your platform gave you.", 409)
        return found
    try:
        with transaction.atomic():
            return annotator_enrol(campaign=campaign, user=user or guest_create(), platform=platform,
                                   external_id=external_id, study_id=study_id, session_id=session_id,
                                   consent=consent)
    except IntegrityError:
        found = annotator_platform_find(campaign=campaign, platform=platform, external_id=external_id)
        if found is None or not annotator_platform_may_resume(found, session_id=session_id):
            raise EnrolError("PROLIFIC_PID", "This participant id has already started this study.", 409) from None
        return found


def annotator_step(*, annotator: Annotator, step: str, now: datetime | None = None) -> Annotator:
    """Record that the annotator passed ``consent``, ``instructions`` or ``training``."""
    column = {"consent": "consent_at", "instructions": "instructions_at", "training": "training_at"}[step]
    if getattr(annotator, column) is None:
        setattr(annotator, column, now or timezone.now())
        annotator.save(update_fields=[column])
    return annotator


def _qualification_evaluate(annotator: Annotator) -> str:
    """Pass/fail once every screening step is taken and every qualification item is rated
    (screening: annotation.services_crowd; items: the gold rule of annotation.quality)."""
    campaign = annotator.campaign
    if campaign.screening:
        from .services_crowd import screening_outcome

        state = screening_outcome(annotator)
        if state != Qualification.PASSED:
            return state
    items = list(campaign.items.filter(kind=ItemKind.QUALIFICATION).values_list("pk", "expected"))
    if not items:
        return Qualification.PASSED
    ratings = list(Rating.objects.filter(annotator=annotator, item__kind=ItemKind.QUALIFICATION)
                   .values_list("item_id", "criterion", "value"))
    if len({r[0] for r in ratings}) < len(items):
        return Qualification.PENDING
    expected = dict(items)
    frame = pd.DataFrame({
        "item_id": [r[0] for r in ratings],
        "rater_id": annotator.public_id,
        "criterion": [r[1] for r in ratings],
        "value": [r[2] for r in ratings],
        "gold_value": [expected[r[0]].get(r[1]) for r in ratings],
    })
    quality = rater_quality(frame, qc_config_for(campaign))
    outcome = quality.loc[annotator.public_id, "gold"]
    return Qualification.FAILED if outcome == "fail" else Qualification.PASSED


def annotator_complete(*, annotator: Annotator, now: datetime | None = None) -> Annotator:
    """Decide how the annotator's participation ended, once nothing is left to assign.

    Called when :func:`assignment_next_for_annotator` returns ``None`` for an open
    campaign. The outcome and the code it earns (the campaign's, configurable):

    * qualification failed -> ``screened_out`` and the screened-out code;
    * the annotator's quota met (every item the policy gives them, gold/trap and
      qualification items included: :func:`annotation.selectors.annotator_quota`) ->
      ``completed`` and the completion code;
    * otherwise (the pool ran out first, e.g. a full study) -> ``no_work`` and the
      no-work code (Prolific's "return" convention), never the completion code.

    A paused or closed campaign decides nothing and issues no code. Decided once.
    """
    from .selectors import annotator_quota

    campaign = annotator.campaign
    if annotator.completed_at is not None or campaign.status != CampaignStatus.OPEN:
        return annotator
    if campaign.screening and annotator.qualification == Qualification.PENDING:
        from .services_crowd import screening_pending

        if screening_pending(annotator) is not None:
            return annotator  # a listening check still to take: nothing is decided yet
    if annotator.qualification == Qualification.FAILED:
        outcome, code = Outcome.SCREENED_OUT, campaign.screened_out_code
    else:
        done, quota = annotator_quota(annotator)
        if quota > 0 and done >= quota:
            outcome, code = Outcome.COMPLETED, campaign.completion_code
        else:
            outcome, code = Outcome.NO_WORK, campaign.no_work_code
    annotator.completed_at = now or timezone.now()
    annotator.outcome = outcome
    annotator.completion_code = code
    annotator.save(update_fields=["completed_at", "outcome", "completion_code"])
    return annotator


# -------------------------------------------------------------------------- assignment


def assignments_expire(*, campaign: Campaign, now: datetime | None = None, limit: int = 500) -> int:
    """Expire active assignments past ``expires_at`` and free their item slots."""
    now = now or timezone.now()
    with transaction.atomic():
        stale = list(
            Assignment.objects.filter(campaign=campaign, status=AssignmentStatus.ACTIVE,
                                      expires_at__lte=now)
            .select_for_update(skip_locked=True).order_by("pk").values_list("pk", "item_id")[:limit]
        )
        if not stale:
            return 0
        Assignment.objects.filter(pk__in=[s[0] for s in stale]).update(status=AssignmentStatus.EXPIRED)
        for item_id, n in sorted(Counter(s[1] for s in stale).items()):
            Item.objects.filter(pk=item_id).update(n_active=F("n_active") - n)
    return len(stale)


EXPIRY_EVERY = timedelta(seconds=5)
_last_expiry: dict[int, datetime] = {}


def assignment_audio_fetched(*, assignment: Assignment, now: datetime | None = None) -> None:
    """Record when the assignment's clip was first requested (once; later requests and
    range requests change nothing). Listening cannot start earlier, so the listening
    check measures its timeline from here (from serving when the clip was never fetched
    through Earshot, e.g. an API client that has the audio already)."""
    Assignment.objects.filter(pk=assignment.pk, audio_at__isnull=True).update(audio_at=now or timezone.now())


def _expire_throttled(campaign: Campaign, now: datetime) -> None:
    """Expire stale assignments at most every few seconds per campaign and process.

    Assignments live for many minutes, so a few seconds' delay before an abandoned one
    is handed out again costs nothing, and saves a transaction on almost every request.
    """
    last = _last_expiry.get(campaign.pk)
    if last is not None and timedelta(0) <= now - last < EXPIRY_EVERY:
        return
    _last_expiry[campaign.pk] = now
    assignments_expire(campaign=campaign, now=now)


def _pg() -> bool:
    """True on PostgreSQL, where the hot path runs as a few hand-written statements.

    The ORM path below is the reference (and what SQLite runs); the PostgreSQL path
    does the same work in fewer round trips because 50 concurrent annotators on a
    2-core host are bound by per-request CPU (docs/benchmarks.md).
    """
    return connection.vendor == "postgresql"


_ITEM_COLUMNS = ", ".join(f"item.{f.column}" for f in Item._meta.concrete_fields)

# one statement: bump the item's counter (under its row lock, taken by the window
# query) and insert the assignment; returns the item row and its clip's duration
_CREATE_SQL = f"""
WITH item AS (
    UPDATE annotation_item SET n_active = n_active + 1 WHERE id = %s RETURNING *
), asg AS (
    INSERT INTO annotation_assignment
        (campaign_id, item_id, annotator_id, public_id, repeat, served_at, expires_at, status,
         stimulus_order, listening)
    VALUES (%s, %s, %s, %s, %s, %s, %s, 'active', %s::jsonb, '{{}}'::jsonb) RETURNING id
)
SELECT asg.id, clip.duration_s, {_ITEM_COLUMNS}
FROM asg, item LEFT JOIN quiz_clip clip ON clip.id = item.clip_id
"""


def stimulus_order_for(campaign: Campaign, annotator_id: int, item_id: int, repeat: int = 0) -> list[int]:
    """The per-annotator presentation order of a multi-stimulus item (``[]`` otherwise).

    Seeded by campaign seed, annotator, item and repeat, so it is reproducible from the
    stored data; stored on the assignment when it is created and never recomputed.
    """
    spec = listening_tests.spec_for(campaign.template)
    if spec is None:
        return []
    stimuli = list(Stimulus.objects.filter(item_id=item_id).order_by("position").values_list("pk", "role"))
    rng = np.random.default_rng([campaign.seed & 0xFFFFFFFF, annotator_id, item_id, repeat, 11])
    return listening_tests.presentation_order(spec, stimuli, rng)


def _create(annotator: Annotator, item_id: int, now: datetime, repeat: int = 0,
            item: Item | None = None) -> Assignment:
    campaign = annotator.campaign
    expires = now + timedelta(minutes=campaign.expiry_minutes)
    order = stimulus_order_for(campaign, annotator.pk, item_id, repeat)
    if _pg():
        public_id = _public_id()
        with prepared.cursor() as cursor:
            cursor.execute(_CREATE_SQL, [item_id, campaign.pk, item_id, annotator.pk, public_id,
                                         repeat, now, expires, json.dumps(order)])
            row = cursor.fetchone()
        loaded = instance_from_row(Item, row[2:])
        if loaded.clip_id is not None:
            loaded.clip = Clip.from_db(connection.alias, ["id", "duration_s"], [loaded.clip_id, row[1]])
        assignment = Assignment(pk=row[0], campaign=campaign, item=loaded, annotator=annotator,
                                public_id=public_id, repeat=repeat, served_at=now, expires_at=expires,
                                status=AssignmentStatus.ACTIVE, stimulus_order=order, listening={})
        assignment._state.adding = False
        assignment._state.db = connection.alias
        return assignment
    assignment = Assignment.objects.create(
        campaign=campaign, item_id=item_id, annotator=annotator, repeat=repeat, served_at=now,
        expires_at=expires, stimulus_order=order,
    )
    if item is not None:
        assignment.item = item
    Item.objects.filter(pk=item_id).update(n_active=F("n_active") + 1)
    return assignment


@dataclass(frozen=True)
class _Row:
    """A locked candidate item as the window query returns it (PostgreSQL path)."""

    pk: int
    condition: str
    batch: str
    n_active: int
    n_done: int


def _window_sql(campaign: Campaign, policy: policy_core.Policy, seen: frozenset[int],
                skip: bool) -> list[_Row] | None:
    """Lock the candidate window in one statement (PostgreSQL).

    The same rows, order and lock as the ORM window in :func:`_pick_regular`, without
    building querysets per request (listener sample: one statement instead of one per
    condition); ``None`` for the audit sample, which keeps the ORM path.
    """
    listener = policy.kind is policy_core.PolicyKind.LISTENER_SAMPLE
    if not listener and policy.kind not in (policy_core.PolicyKind.OVERLAP, policy_core.PolicyKind.PARTITION):
        return None
    where = ["campaign_id = %s", "kind = %s"]
    params: list[Any] = [campaign.pk, ItemKind.REGULAR]
    if policy.capacity is not None:
        where.append("(n_active + n_done) < %s")
        params.append(policy.capacity)
    if not policy.allow_repeat and seen:
        where.append("id <> ALL(%s::bigint[])")
        params.append(sorted(seen))
    lock = "FOR UPDATE SKIP LOCKED" if skip else "FOR UPDATE"
    if listener:
        # least-rated rows per condition, conditions in code-point order (Python's sort)
        params = [campaign.pk, ItemKind.REGULAR, *params, PER_CONDITION]
        sql = ("SELECT w.id, w.condition, w.batch, w.n_active, w.n_done FROM "
               "(SELECT DISTINCT condition FROM annotation_item WHERE campaign_id = %s AND kind = %s) c "
               "CROSS JOIN LATERAL (SELECT id, condition, batch, n_active, n_done FROM annotation_item "
               f"WHERE {' AND '.join(where)} AND condition = c.condition "
               f"ORDER BY (n_active + n_done), id LIMIT %s {lock}) w "
               'ORDER BY c.condition COLLATE "C"')
    else:
        order = "(n_active + n_done) DESC, id" if policy.prefer == "fill" else "(n_active + n_done), id"
        params.append(WINDOW)
        sql = (f"SELECT id, condition, batch, n_active, n_done FROM annotation_item "
               f"WHERE {' AND '.join(where)} ORDER BY {order} LIMIT %s {lock}")
    with prepared.cursor() as cursor:
        cursor.execute(sql, params)
        return [_Row(*r) for r in cursor.fetchall()]


def _lock(qs, *, skip: bool):
    return list(qs.select_for_update(skip_locked=skip, of=("self",)))


def _pick_regular(annotator: Annotator, campaign: Campaign, now: datetime,
                  mine: list[tuple[int, str]]) -> Assignment | None:
    """Choose a regular item by the campaign's policy; ``mine``: (item, condition) held."""
    policy = policy_for(campaign)
    seen = frozenset(m[0] for m in mine)
    state = policy_core.AnnotatorState(
        annotator_id=annotator.pk, seen=seen, n_assigned=len(mine),
        condition_counts=dict(Counter(m[1] for m in mine)),
    )
    rng = np.random.default_rng([campaign.seed & 0xFFFFFFFF, annotator.pk, len(mine)])
    cap = policy.capacity
    pg = _pg()

    def eligible() -> QuerySet[Item]:
        qs = Item.objects.filter(campaign=campaign, kind=ItemKind.REGULAR).alias(
            taken=F("n_active") + F("n_done"))
        if cap is not None:
            qs = qs.filter(taken__lt=cap)
        if not policy.allow_repeat and seen:
            # the annotator's own items, read above under their row lock: a short literal
            # list keeps the plan a simple index scan (an anti-join is easily mis-planned)
            qs = qs.exclude(pk__in=sorted(seen))
        return qs

    batch_counts = None
    if policy.kind is policy_core.PolicyKind.AUDIT_SAMPLE:
        # batch quotas span rows: serialize audit requests on the campaign row
        Campaign.objects.select_for_update(no_key=True).filter(pk=campaign.pk).first()
        batch_counts = dict(Item.objects.filter(campaign=campaign, kind=ItemKind.REGULAR)
                            .filter(Q(n_active__gt=0) | Q(n_done__gt=0))
                            .values("batch").annotate(n=Count("pk")).values_list("batch", "n"))

    def window(skip: bool) -> list[Item] | list[_Row]:
        if pg and (rows := _window_sql(campaign, policy, seen, skip)) is not None:
            return rows
        base = eligible()
        if policy.kind is policy_core.PolicyKind.LISTENER_SAMPLE:
            conditions = (Item.objects.filter(campaign=campaign, kind=ItemKind.REGULAR)
                          .values_list("condition", flat=True).distinct())
            rows: list[Item] = []
            for cond in sorted(set(conditions)):
                rows += _lock(base.filter(condition=cond).order_by("taken", "pk")[:PER_CONDITION], skip=skip)
            return rows
        if policy.kind is policy_core.PolicyKind.AUDIT_SAMPLE:
            return _lock(base.order_by("-taken", "pk")[:2000], skip=skip)
        order = ("-taken", "pk") if policy.prefer == "fill" else ("taken", "pk")
        return _lock(base.order_by(*order)[:WINDOW], skip=skip)

    def choose(rows: list[Item] | list[_Row]) -> Assignment | None:
        candidates = [policy_core.Candidate(item_id=r.pk, condition=r.condition, batch=r.batch,
                                            active=r.n_active, complete=r.n_done) for r in rows]
        picked = policy_core.choose_next(policy, state, candidates, rng, batch_counts=batch_counts)
        if not picked:
            return None
        repeat = 0
        if policy.allow_repeat:
            repeat = Assignment.objects.filter(annotator=annotator, item_id=picked[0]).count()
        by_id = {r.pk: r for r in rows if isinstance(r, Item)}
        return _create(annotator, picked[0], now, repeat, item=by_id.get(picked[0]))

    for _ in range(10):
        rows = window(skip=True)  # skip rows other requests hold
        if rows:
            return choose(rows)
        # every eligible row is locked by someone else (or none is left): wait on ONE row,
        # never on several, so two waiting requests cannot deadlock; PostgreSQL re-checks
        # the capacity filter on the row's new version once the lock is granted
        base = eligible()
        first = base.order_by("pk").values_list("pk", flat=True).first()
        if first is None:
            return None
        rows = _lock(base.filter(pk=first), skip=False)
        if rows:
            return choose(rows)
    return None


def _pick_kind(annotator: Annotator, campaign: Campaign, kinds: tuple[str, ...], now: datetime,
               *, shuffle: bool) -> Assignment | None:
    """The next unseen item of ``kinds`` for this annotator (controls, qualification)."""
    ids = list(Item.objects.filter(campaign=campaign, kind__in=kinds)
               .exclude(Exists(Assignment.objects.filter(annotator=annotator, item=OuterRef("pk"),
                                                         status__in=LIVE)))
               .order_by("position", "pk").values_list("pk", flat=True))
    if not ids:
        return None
    if shuffle:
        rng = np.random.default_rng([campaign.seed & 0xFFFFFFFF, annotator.pk, 7])
        ids = [ids[i] for i in rng.permutation(len(ids))]
    return _create(annotator, ids[0], now)


_LIVE_SQL = """
SELECT me.qualification, s.id, s.status, s.expires_at, s.item_id, item.kind, item.condition{extra}
FROM annotation_annotator me
LEFT JOIN annotation_assignment s ON s.annotator_id = me.id AND s.status IN ('active', 'submitted')
LEFT JOIN annotation_item item ON item.id = s.item_id
WHERE me.id = %s ORDER BY s.id FOR NO KEY UPDATE OF me
"""
# Handing out an item does not wait for its WAL to reach the disk (``synchronous_commit``
# off for that transaction only, set in the same statement: no extra round trip). Safe
# because nothing acknowledged can be lost: a crash may forget the last fraction of a
# second of *assignments*, which is what expiry does anyway (the annotator asks again
# and gets an item), while every rating is still committed synchronously — and that
# flush covers all earlier WAL, so an assignment someone has rated is always durable.
# Half the calls no longer wait for an fsync, and they hold their row locks shorter.
_LIVE_SQL_ASYNC_COMMIT = _LIVE_SQL.format(extra=", set_config('synchronous_commit', 'off', true)")
_LIVE_SQL = _LIVE_SQL.format(extra="")


def _lock_annotator(annotator: Annotator, campaign: Campaign, *,
                    async_commit: bool = False) -> tuple[Annotator, list[tuple]]:
    """Lock the annotator's row (one request per annotator at a time) and read their live
    assignments once: (pk, status, expires_at, item_id, item kind, item condition).

    PostgreSQL: one statement, and the caller's instance is reused (its qualification
    refreshed from the locked row), and ``async_commit`` turns off waiting for the WAL
    flush at this transaction's commit (see ``_LIVE_SQL_ASYNC_COMMIT``). Elsewhere: the
    ORM reference path.
    """
    if _pg():
        with prepared.cursor() as cursor:
            cursor.execute(_LIVE_SQL_ASYNC_COMMIT if async_commit else _LIVE_SQL, [annotator.pk])
            rows = cursor.fetchall()
        if not rows:
            raise Annotator.DoesNotExist(f"annotator {annotator.pk} is gone")
        annotator.qualification = rows[0][0]
        if annotator.campaign_id == campaign.pk:
            annotator.campaign = campaign
        return annotator, [r[1:] for r in rows if r[1] is not None]
    locked = (Annotator.objects.select_for_update(no_key=True, of=("self",))
              .select_related("campaign").get(pk=annotator.pk))
    annotator.qualification = locked.qualification
    live = list(Assignment.objects.filter(annotator=locked, status__in=LIVE).order_by("pk")
                .values_list("pk", "status", "expires_at", "item_id", "item__kind", "item__condition"))
    return locked, live


def assignment_next_for_annotator(annotator: Annotator, campaign: Campaign | None = None, *,
                                  now: datetime | None = None) -> Assignment | None:
    """The annotator's current item, or a newly assigned one; ``None`` when they are done.

    Order: an unexpired active assignment is returned again (reloads are harmless);
    then qualification items (all of them, in order); then work, chosen by the
    campaign's policy, with one gold/trap control after every ``control_every``
    regular items (remaining controls at the end). Race-free: see the module docstring.
    """
    campaign = campaign or annotator.campaign
    now = now or timezone.now()
    if campaign.status != CampaignStatus.OPEN:
        return None
    _expire_throttled(campaign, now)
    # only a transaction of our own may skip the WAL flush: inside a caller's
    # transaction it would cover the caller's writes too
    own_transaction = not connection.in_atomic_block
    with transaction.atomic():
        locked, live = _lock_annotator(annotator, campaign, async_commit=own_transaction)
        current = next((row[0] for row in live
                        if row[1] == AssignmentStatus.ACTIVE and row[2] > now), None)
        if current is not None:
            return Assignment.objects.select_related("item", "item__clip").get(pk=current)
        if locked.qualification == Qualification.PENDING:
            picked = _pick_kind(locked, campaign, (ItemKind.QUALIFICATION,), now, shuffle=False)
            if picked:
                return picked
            outcome = _qualification_evaluate(locked)
            if outcome != Qualification.PENDING:
                locked.qualification = annotator.qualification = outcome
                locked.save(update_fields=["qualification"])
        if locked.qualification in (Qualification.PENDING, Qualification.FAILED):
            return None
        counts = Counter(row[4] for row in live)
        n_regular = counts.get(ItemKind.REGULAR, 0)
        n_control = counts.get(ItemKind.GOLD, 0) + counts.get(ItemKind.TRAP, 0)
        if campaign.control_every and n_regular // campaign.control_every > n_control:
            picked = _pick_kind(locked, campaign, CONTROL_KINDS, now, shuffle=True)
            if picked:
                return picked
        mine = [(row[3], row[5]) for row in live if row[4] == ItemKind.REGULAR]
        picked = _pick_regular(locked, campaign, now, mine)
        if picked is None and n_regular > 0:
            picked = _pick_kind(locked, campaign, CONTROL_KINDS, now, shuffle=True)
        return picked


# ------------------------------------------------------------------------------ rating


def listening_verdict(campaign: Campaign, duration_s: float | None, played: Any, *,
                      served_at: datetime, now: datetime) -> listening.ListeningCheck | None:
    """The listening rule of a submission, shared by both submission paths.

    ``served_at``: when listening could start at the earliest (the clip's first fetch,
    else serving). ``None`` for items without audio. Otherwise the pure
    :func:`frontend.listening.check_evidence` verdict on the player's report, with
    ``min_fraction`` the campaign's ``min_listen_fraction`` when it requires listening
    (0 when not). Raises :class:`RatingError` (field ``played``) when the evidence
    is malformed or impossible (outside the clip, more heard than time passed) — always —
    or, when the campaign requires listening, says the clip was not heard.
    Not requiring listening and sending no report stores no evidence.
    """
    if duration_s is None:
        return None
    required = campaign.require_full_listen
    if played is None and not required:
        return None
    check = listening.check_evidence(
        [] if played is None else played, duration_s, served_at=served_at, submitted_at=now,
        min_fraction=campaign.min_listen_fraction if required else 0.0)
    if not check.ok:
        raise RatingError("played", check.reason)
    return check


# The fast path's listening rule is the same arithmetic as frontend.listening.check_evidence
# (a test compares both on a table of reports): the client's pairs, merged in Python,
# are clipped to the clip in SQL, summed, and checked against the duration and the time
# since serving; the stored intervals are the clipped, merged ones.
_SUBMIT_SQL = """
WITH target AS (
    SELECT s.id, s.item_id, s.served_at, coalesce(s.audio_at, s.served_at) AS heard_from,
           clip.duration_s AS d FROM annotation_assignment s
    JOIN annotation_campaign c ON c.id = s.campaign_id AND c.status = 'open'
    JOIN annotation_item item ON item.id = s.item_id
    LEFT JOIN quiz_clip clip ON clip.id = item.clip_id
    WHERE s.public_id = %(assignment)s AND s.annotator_id = %(annotator)s AND s.status = 'active'
      AND s.expires_at > %(now)s
      AND NOT EXISTS (SELECT 1 FROM annotation_rating r
                      WHERE r.annotator_id = %(annotator)s AND r.client_token = %(token)s)
    FOR UPDATE OF s
), heard AS (
    SELECT target.*, h.heard, h.played FROM target CROSS JOIN LATERAL (
        SELECT coalesce(sum(least(u.e, target.d) - greatest(u.s, 0))
                        FILTER (WHERE least(u.e, target.d) > greatest(u.s, 0)), 0) AS heard,
               coalesce(jsonb_agg(jsonb_build_array(greatest(u.s, 0), least(u.e, target.d)) ORDER BY u.s)
                        FILTER (WHERE least(u.e, target.d) > greatest(u.s, 0)), '[]'::jsonb) AS played
        FROM unnest(%(starts)s::float8[], %(ends)s::float8[]) AS u(s, e)) h
), ok AS (
    SELECT * FROM heard WHERE d IS NULL
       OR (NOT %(reported)s AND NOT %(full_listen)s)
       OR (%(reported)s AND d > 0 AND %(min_start)s >= -%(tol)s AND %(max_end)s <= d + %(tol)s
           AND extract(epoch FROM %(now)s - heard_from) + %(slack)s >= heard
           AND (NOT %(full_listen)s OR least(1, heard / d) >= %(min_fraction)s - %(fslack)s))
), done AS (
    UPDATE annotation_assignment s SET status = 'submitted', submitted_at = %(now)s
    FROM ok WHERE s.id = ok.id RETURNING s.item_id
), counted AS (
    UPDATE annotation_item item SET n_active = item.n_active - 1, n_done = item.n_done + 1
    FROM done WHERE item.id = done.item_id
)
INSERT INTO annotation_rating (campaign_id, assignment_id, item_id, annotator_id, criterion, value,
                               comment, client_token, submitted_at, elapsed_ms, played, heard_fraction)
SELECT %(campaign)s, ok.id, ok.item_id, %(annotator)s, v.criterion, v.value, v.comment,
       %(token)s, %(now)s, greatest(0, floor(extract(epoch FROM %(now)s - ok.served_at) * 1000))::int,
       CASE WHEN ok.d IS NULL OR NOT %(reported)s THEN '[]'::jsonb ELSE ok.played END,
       CASE WHEN ok.d IS NULL OR NOT %(reported)s THEN NULL ELSE least(1, ok.heard / ok.d) END
FROM ok CROSS JOIN unnest(%(criteria)s::text[], %(values)s::text[], %(comments)s::text[])
    AS v(criterion, value, comment)
RETURNING id, assignment_id, item_id, criterion, value, comment, elapsed_ms, played, heard_fraction
"""


def _submit_pg(annotator: Annotator, assignment_id: str, values: dict[str, Any], token: str,
               comments: dict[str, str], now: datetime, played: Any = None) -> list[Rating] | None:
    """The common submission as ONE statement (PostgreSQL); ``None`` = take the full path.

    It stores the ratings, marks the assignment submitted and moves the item's counter,
    all under the assignment's row lock, but only when nothing is unusual: the
    campaign is open, the assignment is the caller's, active and not expired, the
    listening evidence passes the campaign's rule (:func:`listening_verdict`'s
    arithmetic, in SQL), the token is new and every value is on its scale. Anything
    else (a repeated token, a rejection, a concurrent twin that won the lock) writes
    nothing here and goes through the reference path, which gives the stored ratings
    or the precise error.
    """
    campaign = annotator.campaign
    criteria = {c["key"]: c for c in campaign.criteria}
    if set(values) - set(criteria):
        return None
    clean: dict[str, str] = {}
    for key, crit in criteria.items():
        try:
            clean[key] = validate_value(crit, values.get(key))
        except CriterionError:
            return None
    try:
        pairs = listening.parse_intervals(played)
    except listening.EvidenceError:
        return None
    merged = listening.merge_intervals(pairs)
    keys = list(clean)
    params = {
        "assignment": str(assignment_id), "annotator": annotator.pk, "full_listen": campaign.require_full_listen,
        "now": now, "token": token, "campaign": campaign.pk, "criteria": keys,
        "values": [clean[k] for k in keys], "comments": [str(comments.get(k, ""))[:5000] for k in keys],
        "reported": played is not None, "starts": [p[0] for p in merged], "ends": [p[1] for p in merged],
        "min_start": min((p[0] for p in pairs), default=0.0), "max_end": max((p[1] for p in pairs), default=0.0),
        "tol": listening.END_TOLERANCE_S, "slack": listening.TIMELINE_SLACK_S,
        "fslack": listening.FRACTION_SLACK, "min_fraction": campaign.min_listen_fraction,
    }
    try:
        # a savepoint only inside an outer transaction; alone, one statement is atomic
        with transaction.atomic() if connection.in_atomic_block else _nothing(), prepared.cursor() as cursor:
            cursor.execute(_SUBMIT_SQL, params)
            rows = cursor.fetchall()
    except IntegrityError:  # the same token raced in on another assignment
        return None
    if not rows:
        return None
    by_key = {r[3]: r for r in rows}
    field = Rating._meta.get_field("played")
    return [Rating(pk=r[0], campaign=campaign, assignment_id=r[1], item_id=r[2], annotator=annotator,
                   criterion=r[3], value=r[4], comment=r[5], client_token=token, submitted_at=now,
                   elapsed_ms=r[6], played=field.from_db_value(r[7], None, connection) if isinstance(r[7], str)
                   else r[7], heard_fraction=r[8]) for r in (by_key[k] for k in keys)]


@dataclass
class SubmitResult:
    """The stored ratings of a submission and whether this call created them."""

    ratings: list[Rating]
    created: bool


def rating_submit(*, annotator: Annotator, assignment_id: str, values: dict[str, Any],
                  client_token: str, comments: dict[str, str] | None = None,
                  played: Any = None, now: datetime | None = None) -> SubmitResult:
    """Store one submission (every criterion of one assignment), idempotently.

    The same ``client_token`` twice returns the stored ratings and creates nothing.
    Rejected, with the offending field: a paused or closed campaign (409, nothing
    stored), unknown or foreign assignment, an assignment already rated or expired
    (also one past ``expires_at`` that no sweep has marked yet), values off the scale
    or missing, and listening evidence (``played``: the player's intervals
    ``[[start, end], ...]`` in clip seconds) that is malformed or, when the campaign
    requires listening, says the clip was not heard (:func:`listening_verdict`).
    """
    token = (client_token or "").strip()
    if not token or len(token) > 64:
        raise RatingError("client_token", "is required (at most 64 characters)")
    now = now or timezone.now()
    comments = comments or {}
    multi = listening_tests.spec_for(annotator.campaign.template) is not None
    if not multi and _pg() and (fast := _submit_pg(annotator, assignment_id, values, token, comments, now,
                                                    played)):
        return SubmitResult(fast, created=True)

    def stored() -> list[Rating]:
        return list(Rating.objects.filter(annotator=annotator, client_token=token).order_by("pk"))

    with transaction.atomic():
        assignment = (Assignment.objects.select_for_update(of=("self",))
                      .select_related("item", "item__clip", "campaign")
                      .filter(public_id=assignment_id, annotator=annotator).first())
        if assignment is None:
            raise RatingError("assignment", "no such assignment for this annotator", 404)
        if found := stored():  # a repeat, or a concurrent twin that committed while we waited
            return SubmitResult(found, created=False)
        campaign = assignment.campaign
        if campaign.status != CampaignStatus.OPEN:
            raise RatingError("campaign", f"this campaign is {campaign.status}: "
                              "your answer was not stored", 409)
        if assignment.status == AssignmentStatus.SUBMITTED:
            raise RatingError("assignment", "this item was already rated", 409)
        if assignment.status == AssignmentStatus.EXPIRED or assignment.expires_at <= now:
            raise RatingError("assignment", "the time for this item ran out (the assignment expired), so "
                              "your answer was not stored; ask for the next item", 409)
        elapsed_ms = max(0, int((now - assignment.served_at).total_seconds() * 1000))
        if listening_tests.spec_for(campaign.template) is not None:
            ratings = listening_submit_rows(campaign=campaign, assignment=assignment, annotator=annotator,
                                            values=values, comments=comments, token=token, played=played,
                                            now=now, elapsed_ms=elapsed_ms)
        else:
            criteria = {c["key"]: c for c in campaign.criteria}
            unknown = sorted(set(values) - set(criteria))
            if unknown:
                raise RatingError(f"values.{unknown[0]}", "unknown criterion")
            clean: dict[str, str] = {}
            for key, crit in criteria.items():
                if key not in values or values[key] in (None, ""):
                    raise RatingError(f"values.{key}", "an answer is required")
                try:
                    clean[key] = validate_value(crit, values[key])
                except CriterionError as exc:
                    raise RatingError(f"values.{key}", str(exc)) from exc
            elapsed = (now - assignment.served_at).total_seconds()
            clip = assignment.item.clip
            check = listening_verdict(campaign, clip.duration_s if clip is not None else None, played,
                                      served_at=assignment.audio_at or assignment.served_at, now=now)
            evidence = [list(p) for p in check.intervals] if check else []
            heard = check.heard_fraction if check else None
            ratings = [
                Rating(campaign=campaign, assignment=assignment, item=assignment.item, annotator=annotator,
                       criterion=key, value=value, comment=str(comments.get(key, ""))[:5000],
                       client_token=token, submitted_at=now, elapsed_ms=max(0, int(elapsed * 1000)),
                       played=evidence, heard_fraction=heard)
                for key, value in clean.items()
            ]
        Rating.objects.bulk_create(ratings)
        assignment.status = AssignmentStatus.SUBMITTED
        assignment.submitted_at = now
        assignment.save(update_fields=["status", "submitted_at", "listening"])
        Item.objects.filter(pk=assignment.item_id).update(n_active=F("n_active") - 1,
                                                          n_done=F("n_done") + 1)
    return SubmitResult(ratings, created=True)
