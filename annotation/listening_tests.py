"""Listening tests with several stimuli per item: roles, presentation, rating rules (pure).

One :class:`TestSpec` per multi-stimulus campaign template says which stimulus roles
an item must hold, which stimuli the annotator rates, which are shuffled per
annotator, and how one submission is checked. No Django: the import
(:mod:`annotation.importing`), the services and the pages call these functions with
plain data, and the statistics modules read the same conventions.

How a rating is stored (one ``Rating`` row per value):

==========  ======================  ==========================================================
template    rows per criterion       ``value`` / ``stimulus``
==========  ======================  ==========================================================
ab          1                       the chosen stimulus' role ``A``/``B`` (its import role,
                                    never its on-screen position) and that stimulus; ``none``
                                    with no stimulus for "no preference"
abx         1                       the role (``A``/``B``) of the stimulus the annotator says X
                                    is, and that stimulus; correct when its clip is X's clip
ccr         1 (the system)          CMOS of the system against the reference, −3…+3, already
                                    turned round when the reference was played second
dcr, smos   1 (the system)          1–5, the system stimulus
mushra      1 per rated stimulus    0–100 for each hidden reference, anchor and system
ranking     1 per rated stimulus    rank 1 (best) … N, a permutation over the item's stimuli
==========  ======================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .scales import CriterionError, validate_value

__all__ = [
    "SPECS",
    "Presented",
    "RoleError",
    "SubmissionProblem",
    "TestSpec",
    "check_roles",
    "presentation_order",
    "spec_for",
    "validate_submission",
]

REFERENCE, HIDDEN_REFERENCE, ANCHOR, SYSTEM = "reference", "hidden_reference", "anchor", "system"
ROLES = (REFERENCE, HIDDEN_REFERENCE, ANCHOR, SYSTEM, "A", "B", "X")
#: roles whose stimulus is told apart from the others on the page ("Reference", "X")
OPEN_ROLES = frozenset({REFERENCE, "X"})


@dataclass(frozen=True)
class TestSpec:
    """The rules of one multi-stimulus template.

    ``roles``: role -> (fewest, most; ``None`` = no limit) stimuli of that role in one
    item. ``rated``: roles that get one value per criterion (empty: a choice test).
    ``choice``: the value names one stimulus (AB, ABX). ``shuffled``: roles presented
    in a random order per annotator. ``open_reference``: the reference is labelled
    "Reference" on the page (DCR, SMOS, MUSHRA; in CCR it is one of two blind samples).
    ``scales``: the criterion scales this template accepts.
    """

    template: str
    roles: Mapping[str, tuple[int, int | None]]
    rated: frozenset[str]
    shuffled: frozenset[str]
    scales: frozenset[str]
    choice: bool = False
    open_reference: bool = True


SPECS: dict[str, TestSpec] = {
    "ab": TestSpec("ab", {"A": (1, 1), "B": (1, 1), REFERENCE: (0, 1)}, frozenset(),
                   frozenset({"A", "B"}), frozenset({"preference", "forced_ab"}), choice=True),
    "abx": TestSpec("abx", {"A": (1, 1), "B": (1, 1), "X": (1, 1)}, frozenset(),
                    frozenset({"A", "B"}), frozenset({"forced_ab"}), choice=True),
    "ccr": TestSpec("ccr", {REFERENCE: (1, 1), SYSTEM: (1, 1)}, frozenset({SYSTEM}),
                    frozenset({REFERENCE, SYSTEM}), frozenset({"ccr7"}), open_reference=False),
    "dcr": TestSpec("dcr", {REFERENCE: (1, 1), SYSTEM: (1, 1)}, frozenset({SYSTEM}),
                    frozenset({SYSTEM}), frozenset({"dcr5", "acr5"})),
    "smos": TestSpec("smos", {REFERENCE: (1, 1), SYSTEM: (1, 1)}, frozenset({SYSTEM}),
                     frozenset({SYSTEM}), frozenset({"smos5", "acr5"})),
    "mushra": TestSpec("mushra", {REFERENCE: (1, 1), HIDDEN_REFERENCE: (1, 1), ANCHOR: (0, None),
                                  SYSTEM: (1, None)},
                       frozenset({HIDDEN_REFERENCE, ANCHOR, SYSTEM}),
                       frozenset({HIDDEN_REFERENCE, ANCHOR, SYSTEM}), frozenset({"mushra100"})),
    "ranking": TestSpec("ranking", {REFERENCE: (0, 1), HIDDEN_REFERENCE: (0, 1), ANCHOR: (0, None),
                                    SYSTEM: (2, None)},
                        frozenset({HIDDEN_REFERENCE, ANCHOR, SYSTEM}),
                        frozenset({HIDDEN_REFERENCE, ANCHOR, SYSTEM}), frozenset({"rank"})),
}

#: scales only a listening test can present (a single-clip page has no stimuli to name)
LISTENING_SCALES = frozenset({"ccr7", "preference", "forced_ab", "mushra100", "rank"})

#: most stimuli one item may hold (a MUSHRA screen of 12 conditions is already a lot)
MAX_STIMULI = 16


class RoleError(ValueError):
    """An item's stimuli do not fit its template (the message names the role)."""


def spec_for(template: str) -> TestSpec | None:
    """The spec of a multi-stimulus template; ``None`` for single-clip templates."""
    return SPECS.get(template)


def check_roles(spec: TestSpec, roles: Sequence[str], *, x_matches: bool | None = None) -> None:
    """Raise :class:`RoleError` unless ``roles`` (one per stimulus) fit ``spec``.

    ``x_matches`` (ABX): whether X's audio is identical to A's or B's, and not both.
    """
    if len(roles) > MAX_STIMULI:
        raise RoleError(f"an item holds at most {MAX_STIMULI} stimuli, got {len(roles)}")
    for role in roles:
        if role not in ROLES:
            raise RoleError(f"unknown role {str(role)[:40]!r}; one of {', '.join(ROLES)}")
        if role not in spec.roles:
            raise RoleError(f"a {spec.template} item takes no {role!r} stimulus "
                            f"(roles: {', '.join(spec.roles)})")
    for role, (low, high) in spec.roles.items():
        n = sum(1 for r in roles if r == role)
        if n < low:
            need = "one" if low == 1 else f"at least {low}"
            raise RoleError(f"a {spec.template} item needs {need} {role!r} stimulus, got {n}")
        if high is not None and n > high:
            raise RoleError(f"a {spec.template} item takes at most {high} {role!r} stimulus, got {n}")
    if spec.template == "abx" and x_matches is False:
        raise RoleError("X must be the same audio as exactly one of A and B")


def presentation_order(spec: TestSpec, stimuli: Sequence[tuple[int, str]],
                       rng: np.random.Generator) -> list[int]:
    """The on-screen order of an item's shuffled stimuli for one annotator.

    ``stimuli``: (id, role) in import order. Returns the ids of the stimuli whose role
    the spec shuffles, permuted by ``rng``; open stimuli (the labelled reference, X)
    keep their fixed place on the page and are not listed.
    """
    ids = [sid for sid, role in stimuli if role in spec.shuffled]
    return [ids[i] for i in rng.permutation(len(ids))]


@dataclass(frozen=True)
class Presented:
    """A stimulus as the rating rules see it: id, role, and its on-screen position
    (``None`` for the open reference and X, which are not shuffled)."""

    id: int
    role: str
    position: int | None


class SubmissionProblem(ValueError):
    """A refused submission: the offending field (``values.mushra.<stimulus>``) and why."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def _value(criterion: Mapping[str, Any], raw: Any, field: str) -> str:
    try:
        return validate_value(criterion, raw)
    except CriterionError as exc:
        raise SubmissionProblem(field, str(exc).split(": ", 1)[-1]) from None


def validate_submission(spec: TestSpec, criteria: Sequence[Mapping[str, Any]],
                        stimuli: Sequence[Presented], public_ids: Mapping[int, str],
                        values: Mapping[str, Any]) -> list[tuple[str, int | None, str]]:
    """Check one submission of a multi-stimulus item; return the rows to store.

    ``stimuli``: every stimulus of the item with its on-screen position;
    ``public_ids``: stimulus id -> the opaque id the page used. ``values`` per
    criterion key, as the page sends them:

    * choice tests (ab, abx): the opaque id of the chosen stimulus, or ``"none"``
      (ab with the ``preference`` scale) -> (key, that stimulus, its role);
    * ccr: the value of the second sample against the first -> (key, the system,
      the value turned round when the reference was the second sample);
    * dcr, smos: the value -> (key, the system, value);
    * mushra, ranking: ``{opaque id: value}`` with every rated stimulus exactly once
      (ranking: ranks 1..N, each once) -> (key, stimulus, value) per stimulus.

    Raises :class:`SubmissionProblem` naming ``values.<key>`` (or ``values.<key>.<id>``).
    """
    by_public = {public_ids[s.id]: s for s in stimuli}
    known = {c["key"] for c in criteria}
    unknown = sorted(set(values) - known)
    if unknown:
        raise SubmissionProblem(f"values.{str(unknown[0])[:60]}", "unknown criterion")
    rated = [s for s in stimuli if s.role in spec.rated]
    out: list[tuple[str, int | None, str]] = []
    for crit in criteria:
        key = crit["key"]
        field = f"values.{key}"
        raw = values.get(key)
        if raw in (None, "") or raw == {}:
            raise SubmissionProblem(field, "an answer is required")
        if spec.choice:
            if crit["scale"] == "preference" and raw == "none":
                out.append((key, None, "none"))
                continue
            chosen = by_public.get(raw) if isinstance(raw, str) else None
            if chosen is None or chosen.role not in ("A", "B"):
                raise SubmissionProblem(field, "choose one of the two samples")
            out.append((key, chosen.id, _value(crit, chosen.role, field)))
            continue
        if spec.template in ("ccr", "dcr", "smos"):
            system = next(s for s in stimuli if s.role == SYSTEM)
            value = _value(crit, raw, field)
            if spec.template == "ccr":
                reference = next(s for s in stimuli if s.role == REFERENCE)
                if (reference.position or 0) > (system.position or 0):
                    value = str(-int(value))  # the reference was the second sample
            out.append((key, system.id, value))
            continue
        if not isinstance(raw, Mapping):
            raise SubmissionProblem(field, "send one value per sample: {sample id: value}")
        extra = sorted(str(k) for k in raw if k not in by_public or by_public[k].role not in spec.rated)
        if extra:
            raise SubmissionProblem(f"{field}.{extra[0][:40]}", "not a sample of this item")
        seen: dict[str, str] = {}
        for s in sorted(rated, key=lambda s: (s.position is None, s.position)):
            pid = public_ids[s.id]
            if pid not in raw or raw[pid] in (None, ""):
                raise SubmissionProblem(f"{field}.{pid}", "every sample needs a value")
            seen[pid] = _value(crit, raw[pid], f"{field}.{pid}")
            out.append((key, s.id, seen[pid]))
        if crit["scale"] == "rank":
            ranks = sorted(int(v) for v in seen.values())
            if ranks != list(range(1, len(rated) + 1)):
                raise SubmissionProblem(field, f"give each sample a different rank from 1 to {len(rated)}")
    return out
