"""Writes and reads of crowd operations: screening steps, the rater blocklist, the
time-on-item signal and the approval/bonus report. The rules themselves are pure
(:mod:`annotation.screening`, :mod:`annotation.crowd`, :mod:`annotation.post_screening`).

Screening and the integrity rules: a failed step is stored as a
:class:`~annotation.models.ScreeningResult` with its reason, the annotator's
qualification becomes ``failed`` and their participation ends at once as
``screened_out`` with the campaign's screened-out code (never the completion code);
no item is served before every step has passed (:func:`screening_pending` gates the
rating page and the API).
"""

from __future__ import annotations

import csv
import dataclasses
import io
from decimal import Decimal, InvalidOperation
from typing import Any

import pandas as pd
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.crypto import salted_hmac

from accounts.models import Project, User

from . import crowd, screening
from .models import (
    Annotator,
    AssignmentStatus,
    Campaign,
    Outcome,
    Platform,
    Qualification,
    RaterBlock,
    Rating,
    ScreeningResult,
)

# ------------------------------------------------------------------------- screening


def screening_steps(campaign: Campaign) -> list[screening.StepConfig]:
    """The campaign's validated screening steps (empty: none)."""
    return screening.parse_screening(campaign.screening)


def screening_seed(annotator: Annotator, step: str) -> int:
    """The trials' seed: an HMAC of the annotator and step under the server's secret, so
    nobody can regenerate the trials (and their answers) outside the server."""
    digest = salted_hmac("annotation.screening", f"{annotator.pk}:{annotator.public_id}:{step}").digest()
    return int.from_bytes(digest[:8], "big")


def screening_trials(annotator: Annotator, config: screening.StepConfig):
    """The step's trials for this annotator (regenerated identically on every call)."""
    return screening.step_trials(config, screening_seed(annotator, config.step))


def screening_pending(annotator: Annotator) -> screening.StepConfig | None:
    """The first screening step the annotator has still to take; ``None`` when every step
    has a result (passed, or one failed: then the qualification says so)."""
    steps = screening_steps(annotator.campaign)
    if not steps:
        return None
    done = dict(annotator.screening_results.values_list("step", "passed"))
    if False in done.values():
        return None
    return next((s for s in steps if s.step not in done), None)


def screening_outcome(annotator: Annotator) -> str:
    """``failed`` (a step failed), ``pending`` (a step to take) or ``passed``."""
    steps = screening_steps(annotator.campaign)
    done = dict(annotator.screening_results.values_list("step", "passed"))
    if False in done.values():
        return Qualification.FAILED
    if any(s.step not in done for s in steps):
        return Qualification.PENDING
    return Qualification.PASSED


class ScreeningError(ValueError):
    """A malformed screening submission (names the field)."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def screening_submit(*, annotator: Annotator, step: str, answers: list[Any]) -> ScreeningResult:
    """Score and store one screening step (once: a repeat returns the stored result).

    A failure sets the annotator's qualification to ``failed`` and ends their
    participation as ``screened_out`` (:func:`annotation.services.annotator_complete`).
    """
    from .services import annotator_complete

    pending = screening_pending(annotator)
    found = annotator.screening_results.filter(step=step).first()
    if found is not None:
        return found
    if pending is None or pending.step != step:
        raise ScreeningError("step", "this check is not the next one to take")
    expected = [t.answer for t in screening_trials(annotator, pending)]
    if len(answers) != len(expected) or any(str(a or "").strip() == "" for a in answers):
        raise ScreeningError("answers", "please answer every question")
    outcome = screening.score_step(pending, expected, answers)
    with transaction.atomic():
        locked = Annotator.objects.select_for_update().select_related("campaign").get(pk=annotator.pk)
        try:
            with transaction.atomic():
                result = ScreeningResult.objects.create(
                    annotator=locked, step=step, passed=outcome.passed, n_correct=outcome.n_correct,
                    n_trials=outcome.n_trials, answers=[str(a)[:20] for a in answers], reason=outcome.reason)
        except IntegrityError:  # a concurrent twin stored it first
            return annotator.screening_results.get(step=step)
        state = screening_outcome(locked)
        if state == Qualification.FAILED:
            locked.qualification = Qualification.FAILED
            locked.save(update_fields=["qualification"])
            annotator_complete(annotator=locked)
        annotator.qualification = locked.qualification
        annotator.completed_at, annotator.outcome = locked.completed_at, locked.outcome
        annotator.completion_code = locked.completion_code
    return result


# ------------------------------------------------------------------------- blocklist


class BlockError(ValueError):
    """A refused blocklist change (names the field)."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def rater_block_add(*, project: Project, rater_id: str, reason: str, by: User | None = None) -> RaterBlock:
    """Block the rater behind the pseudonymous annotator id ``rater_id`` (any campaign of
    ``project``) from every further campaign of the project, with ``reason``."""
    reason = (reason or "").strip()
    if not reason:
        raise BlockError("reason", "say why the rater is blocked (it is shown to your colleagues)")
    annotator = (Annotator.objects.filter(campaign__project=project, public_id=(rater_id or "").strip())
                 .select_related("user").first())
    if annotator is None:
        raise BlockError("rater_id", "no rater with this id in this project's campaigns")
    existing = rater_block_find(project=project, user=annotator.user, platform=annotator.platform,
                                external_id=annotator.external_id)
    if existing is not None:
        raise BlockError("rater_id", "this rater is already blocked")
    try:
        with transaction.atomic():
            return RaterBlock.objects.create(
                project=project, user=annotator.user, platform=annotator.platform,
                external_id=annotator.external_id, rater_id=annotator.public_id, reason=reason[:500],
                created_by=by if by is not None and by.is_authenticated else None)
    except IntegrityError:
        raise BlockError("rater_id", "this rater is already blocked") from None


def rater_block_remove(*, project: Project, block_id: int) -> None:
    """Lift a block (the rater may join the project's campaigns again)."""
    deleted, _ = RaterBlock.objects.filter(project=project, pk=block_id).delete()
    if not deleted:
        raise BlockError("block", "no such block in this project")


def rater_block_find(*, project: Project, user: User | None = None, platform: str = Platform.DIRECT,
                     external_id: str = "") -> RaterBlock | None:
    """The block matching this account or platform participant id in ``project``, if any."""
    match = Q()
    if user is not None and user.pk is not None:
        match |= Q(user=user)
    if external_id:
        match |= Q(platform=platform, external_id=external_id[:120])
    if not match:
        return None
    return RaterBlock.objects.filter(match, project=project).first()


# ------------------------------------------------------------------ time on item, payment


def time_on_item_config(campaign: Campaign) -> crowd.TimeOnItemConfig:
    """The campaign's time-on-item thresholds (``Campaign.crowd`` overrides the defaults)."""
    names = {f.name for f in dataclasses.fields(crowd.TimeOnItemConfig)}
    return crowd.TimeOnItemConfig(**{k: v for k, v in (campaign.crowd or {}).items() if k in names})


def payment_config(campaign: Campaign) -> crowd.PaymentConfig:
    """The approval report's bonus and rejection rules (``Campaign.crowd``)."""
    raw = campaign.crowd or {}
    try:
        bonus = Decimal(str(raw.get("bonus", "0")))
    except InvalidOperation:
        raise ValueError("crowd.bonus: must be an amount such as 0.50") from None
    reject_on = raw.get("reject_on", ["trap", "gold"])
    if not isinstance(reject_on, list) or not all(isinstance(r, str) for r in reject_on):
        raise ValueError("crowd.reject_on: a list of rule names, e.g. [\"trap\", \"gold\"]")
    return crowd.PaymentConfig(bonus=bonus, reject_on=frozenset(reject_on))


def crowd_validate(campaign: Campaign) -> None:
    """Check ``screening`` and ``crowd``; ``ValueError`` names the field."""
    screening.parse_screening(campaign.screening)
    if not isinstance(campaign.crowd or {}, dict):
        raise ValueError("crowd: must be an object")
    try:
        time_on_item_config(campaign)
    except TypeError as exc:
        raise ValueError(f"crowd: {exc}") from exc
    payment_config(campaign)
    names = campaign.crowd.get("mid_anchor_conditions") if isinstance(campaign.crowd, dict) else None
    if names is not None and (not isinstance(names, list) or not all(isinstance(n, str) and n for n in names)):
        raise ValueError("crowd.mid_anchor_conditions: a list of condition names, e.g. [\"lp7000\"]")


def item_durations(campaign: Campaign) -> dict[int, float]:
    """Audio seconds per item, for the time-on-item thresholds: its clip, or the sum of
    its distinct stimulus clips (a MUSHRA hidden reference is the reference's audio)."""
    from .models import Stimulus

    out = {pk: float(d or 0.0) for pk, d in campaign.items.values_list("pk", "clip__duration_s")}
    seen: set[tuple[int, int]] = set()
    for item_id, clip_id, duration in (Stimulus.objects.filter(item__campaign=campaign)
                                       .values_list("item_id", "clip_id", "clip__duration_s")):
        if (item_id, clip_id) not in seen:
            seen.add((item_id, clip_id))
            out[item_id] = out.get(item_id, 0.0) + float(duration or 0.0)
    return out


def time_on_item_for(campaign: Campaign) -> crowd.TimeOnItemResult:
    """The time-on-item signal over the campaign's submitted items."""
    rows = list(Rating.objects.filter(campaign=campaign, assignment__status=AssignmentStatus.SUBMITTED)
                .values_list("annotator__public_id", "item_id", "elapsed_ms").distinct())
    durations = item_durations(campaign)
    frame = pd.DataFrame.from_records(rows, columns=["rater_id", "item_id", "elapsed_ms"])
    frame["duration_s"] = [durations.get(i, 0.0) for i in frame["item_id"]]
    return crowd.time_on_item(frame, time_on_item_config(campaign))


#: names of the mid-range (7 kHz) anchor condition recognised by default; a campaign
#: names its own with ``Campaign.crowd["mid_anchor_conditions"]``
MID_ANCHOR_CONDITIONS = ("lp7000", "lp7k", "lp7.0k", "lp7khz", "anchor_mid", "mid_anchor")


def mushra_frame(campaign: Campaign) -> pd.DataFrame:
    """MUSHRA ratings as :func:`annotation.post_screening.mushra_post_screen` reads them:
    one row per rated stimulus (``rater_id``, ``item_id``, ``role``, ``condition``,
    ``score``); with several criteria, each (item, criterion) counts as one test item."""
    rows = list(Rating.objects.filter(campaign=campaign, stimulus__isnull=False,
                                      item__kind="regular")
                .values_list("annotator__public_id", "item__external_id", "criterion", "stimulus__role",
                             "stimulus__condition", "value"))
    frame = pd.DataFrame.from_records(rows, columns=["rater_id", "item", "criterion", "role", "condition",
                                                     "score"])
    several = frame["criterion"].nunique() > 1
    frame["item_id"] = frame["item"] + (":" + frame["criterion"] if several else "")
    frame["condition"] = frame["condition"].str.lower()
    return frame[["rater_id", "item_id", "role", "condition", "score"]]


def mushra_post_screen_for(campaign: Campaign):
    """BS.1534-3 post-screening of a MUSHRA campaign's listeners (``None`` for other templates)."""
    from .post_screening import PostScreenConfig, mushra_post_screen

    if campaign.template != "mushra":
        return None
    names = (campaign.crowd or {}).get("mid_anchor_conditions") or MID_ANCHOR_CONDITIONS
    config = PostScreenConfig(mid_anchor_conditions=frozenset(str(n).lower() for n in names),
                              anchor_rule=bool((campaign.crowd or {}).get("mid_anchor_rule", True)))
    return mushra_post_screen(mushra_frame(campaign), config)


def _quality_exclusions(campaign: Campaign) -> dict[str, tuple[str, ...]]:
    """rater_id -> the quality rules that excluded them (campaign report's QC)."""
    from .selectors import ratings_frame, report_for

    out: dict[str, tuple[str, ...]] = {}
    screened = mushra_post_screen_for(campaign)
    if screened is not None:
        for e in screened.exclusions:
            if e.excluded:
                out[e.rater_id] = (*out.get(e.rater_id, ()), e.rule)
        return out  # the MOS-style QC rules below do not apply to 0-100 multi-stimulus ratings
    frame = ratings_frame(campaign)
    if frame.empty:
        return out
    quality = report_for(campaign, frame).rater_quality
    if "excluded" not in quality:
        return out
    from .services import qc_config_for

    rules = [r for r in qc_config_for(campaign).exclude_on if r in quality]
    for rater, row in quality.iterrows():
        if bool(row["excluded"]):
            out[str(rater)] = tuple(sorted(r for r in rules if row[r] == "fail"))
    return out


def payment_report(campaign: Campaign) -> tuple[list[dict[str, str]], crowd.TimeOnItemResult]:
    """The approval/bonus rows of every annotator, and the time-on-item result they used."""
    timing = time_on_item_for(campaign)
    excluded = _quality_exclusions(campaign)
    failed_reasons = dict(ScreeningResult.objects.filter(annotator__campaign=campaign, passed=False)
                          .values_list("annotator__public_id", "reason"))
    people = []
    for a in campaign.annotators.order_by("pk").values("public_id", "external_id", "outcome"):
        rid = a["public_id"]
        flags = ()
        if rid in timing.raters.index and bool(timing.raters.loc[rid, "flagged"]):
            flags = ("too fast: " + timing.raters.loc[rid, "reason"],)
        people.append(crowd.Participant(
            rater_id=rid, participant_id=a["external_id"], outcome=a["outcome"] or Outcome.NONE,
            excluded_by=excluded.get(rid, ()), flags=flags,
            screening_reason=failed_reasons.get(rid, "")))
    return crowd.payment_rows(people, payment_config(campaign)), timing


def payment_csv(rows: list[dict[str, str]]) -> str:
    """The report as CSV (formula-guarded cells: frontend.csv_safety)."""
    from frontend.csv_safety import escape_mapping

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(crowd.PAYMENT_COLUMNS), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(escape_mapping(row))
    return out.getvalue()
