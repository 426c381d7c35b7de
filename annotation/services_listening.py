"""Writes and page data for listening tests with several stimuli per item.

The rules are pure (:mod:`annotation.listening_tests`); this module loads an item's
stimuli, names them for the page without giving anything away, checks the listening
evidence of every stimulus, and builds the rating rows that
:func:`annotation.services.rating_submit` stores in its transaction.

Blinding: the page and every API reply before rating address stimuli by their opaque
``public_id`` and an on-screen label ("A", "B", "X", "1", "2", …, "Reference") that
depends only on the stored presentation order, never on the role, system, condition
or file name. Only the open reference (DCR, SMOS, MUSHRA, and AB when it has one) and
ABX's X are told apart, because the test asks the listener to compare with them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from frontend import listening

from . import listening_tests
from .models import Assignment, Campaign, Rating, Stimulus

__all__ = ["listening_submit_rows", "presented_stimuli", "stimuli_payload"]


def _load(assignment: Assignment) -> list[Stimulus]:
    cached = getattr(assignment, "_stimuli", None)
    if cached is None:
        cached = list(Stimulus.objects.filter(item_id=assignment.item_id).select_related("clip")
                      .order_by("position"))
        assignment._stimuli = cached  # type: ignore[attr-defined]
    return cached


def _order(spec: listening_tests.TestSpec, assignment: Assignment, stimuli: list[Stimulus]) -> list[int]:
    """The stored on-screen order (falls back to import order for rows written before
    the order was stored: none in practice, as it is set when the item is served)."""
    known = {s.pk for s in stimuli}
    stored = [pk for pk in assignment.stimulus_order or [] if pk in known]
    if stored:
        return stored
    return [s.pk for s in stimuli if s.role in spec.shuffled]


def presented_stimuli(spec: listening_tests.TestSpec, assignment: Assignment
                      ) -> tuple[list[Stimulus], list[listening_tests.Presented]]:
    """The item's stimuli and, for the rules, each one's role and on-screen position."""
    stimuli = _load(assignment)
    place = {pk: i for i, pk in enumerate(_order(spec, assignment, stimuli))}
    return stimuli, [listening_tests.Presented(s.pk, s.role, place.get(s.pk)) for s in stimuli]


def _label(spec: listening_tests.TestSpec, role: str, position: int | None) -> str:
    if position is None:
        return "X" if role == "X" else _("Reference")
    if spec.choice:
        return "AB"[position] if position < 2 else str(position + 1)
    if spec.template == "ccr":
        return _("Sample %(n)s") % {"n": position + 1}
    if spec.template in ("dcr", "smos"):
        return _("Sample")
    return str(position + 1)


def stimuli_payload(campaign: Campaign, assignment: Assignment, audio_url: str) -> dict[str, Any]:
    """What the page may know of a multi-stimulus item: opaque ids, labels, audio URLs
    and durations, in the annotator's stored order. ``audio_url`` holds ``{id}`` where
    the stimulus' public id goes."""
    spec = listening_tests.spec_for(campaign.template)
    assert spec is not None
    stimuli, presented = presented_stimuli(spec, assignment)
    by_pk = {s.pk: s for s in stimuli}

    def one(p: listening_tests.Presented) -> dict[str, Any]:
        s = by_pk[p.id]
        return {"id": s.public_id, "label": _label(spec, p.role, p.position),
                "audio_url": audio_url.replace("{id}", s.public_id), "duration_s": s.clip.duration_s}

    shown = sorted((p for p in presented if p.position is not None), key=lambda p: p.position)
    fixed = [p for p in presented if p.position is None]
    reference = next((one(p) for p in fixed if p.role == listening_tests.REFERENCE), None)
    x = next((one(p) for p in fixed if p.role == "X"), None)
    no_pref = any(c["scale"] == "preference" for c in campaign.criteria)
    return {"template": campaign.template, "mode": ("choice" if spec.choice else
                                                    "per_stimulus" if spec.template in ("mushra", "ranking")
                                                    else "single"),
            "reference": reference, "x": x, "stimuli": [one(p) for p in shown],
            "no_preference": bool(spec.choice and no_pref)}


def _evidence(campaign: Campaign, stimuli: list[Stimulus], labels: dict[int, str], played: Any, *,
              served_at: datetime, now: datetime) -> dict[int, listening.ListeningCheck] | None:
    """Each stimulus' listening verdict, or ``None`` when none is required or sent.

    ``played``: ``{stimulus public id: [[start, end], ...]}``. Every stimulus (the
    reference and X too) must meet the campaign's rule, and together they cannot have
    been heard for longer than the time since the audio was fetched (one plays at a
    time). Raises ``RatingError`` naming ``played.<id>``.
    """
    from .services import RatingError

    required = campaign.require_full_listen
    if played is None and not required:
        return None
    if played is None:
        played = {}
    if not isinstance(played, dict):
        raise RatingError("played", _("The playback report must give the played intervals of each sample."))
    known = {s.public_id for s in stimuli}
    extra = sorted(str(k) for k in played if k not in known)
    if extra:
        raise RatingError(f"played.{extra[0][:40]}", _("Not a sample of this item."))
    out: dict[int, listening.ListeningCheck] = {}
    for s in stimuli:
        check = listening.check_evidence(
            played.get(s.public_id, []), s.clip.duration_s, served_at=served_at, submitted_at=now,
            min_fraction=campaign.min_listen_fraction if required else 0.0)
        if not check.ok:
            raise RatingError(f"played.{s.public_id}", f"{labels[s.pk]}: {check.reason}")
        out[s.pk] = check
    heard = sum(c.heard_s for c in out.values())
    wall = (now - served_at).total_seconds()
    if wall + listening.TIMELINE_SLACK_S < heard:
        raise RatingError("played", _("The answer arrived %(wall).1f s after the samples were served, too soon "
                                      "to have heard %(heard).1f s of them.") % {"wall": max(wall, 0),
                                                                                   "heard": heard})
    return out


def listening_submit_rows(*, campaign: Campaign, assignment: Assignment, annotator: Any,
                          values: dict[str, Any], comments: dict[str, str], token: str, played: Any,
                          now: datetime, elapsed_ms: int) -> list[Rating]:
    """The rating rows of one multi-stimulus submission (not saved), after checking the
    values (:func:`listening_tests.validate_submission`) and each stimulus' listening
    evidence; the assignment's ``listening`` is filled in. Raises ``RatingError``."""
    from .services import RatingError

    spec = listening_tests.spec_for(campaign.template)
    assert spec is not None
    stimuli, presented = presented_stimuli(spec, assignment)
    labels = {p.id: _label(spec, p.role, p.position) for p in presented}
    try:
        rows = listening_tests.validate_submission(spec, campaign.criteria, presented,
                                                   {s.pk: s.public_id for s in stimuli}, values)
    except listening_tests.SubmissionProblem as exc:
        raise RatingError(exc.field, exc.message) from None
    # checked in on-screen order (the open reference and X first): a refusal must not
    # tell a probing client which stimulus was imported where (e.g. the hidden reference)
    place = {p.id: p.position for p in presented}
    shown = sorted(stimuli, key=lambda s: (place[s.pk] is not None, place[s.pk] or 0))
    checks = _evidence(campaign, shown, labels, played, served_at=assignment.audio_at or assignment.served_at,
                       now=now)
    if checks is not None:
        assignment.listening = {str(pk): {"played": [list(p) for p in c.intervals],
                                          "heard_fraction": c.heard_fraction} for pk, c in checks.items()}
    by_pk = {s.pk: s for s in stimuli}
    ratings = []
    for key, stimulus_id, value in rows:
        check = checks.get(stimulus_id) if checks is not None and stimulus_id is not None else None
        ratings.append(Rating(
            campaign=campaign, assignment=assignment, item=assignment.item, annotator=annotator,
            stimulus=by_pk.get(stimulus_id) if stimulus_id is not None else None, criterion=key, value=value,
            comment=str(comments.get(key, ""))[:5000], client_token=token, submitted_at=now,
            elapsed_ms=elapsed_ms, played=[list(p) for p in check.intervals] if check else [],
            heard_fraction=check.heard_fraction if check else None))
    return ratings
