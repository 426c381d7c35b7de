"""Assignment policies as pure functions (no Django): which item(s) an annotator gets next.

The database service owns concurrency; this module owns the decision. The intended use
inside one transaction is::

    with transaction.atomic():
        rows = (Item.objects.filter(campaign=c, ...)            # candidate items
                .select_for_update(skip_locked=True)             # lock them
                .annotate(active=..., complete=...)              # current counts
                .order_by("id"))                                 # stable order -> reproducible
        picked = choose_next(policy, state, [to_candidate(r) for r in rows], rng)
        Assignment.objects.bulk_create(...)                      # for the picked ids only

Because the candidate rows are locked and their counts are read under the lock, the
capacity checks below (``taken + 1 <= cap``) hold even with concurrent annotators:
two transactions can never both see a free slot on the same row.

Policies (:class:`Policy`)
--------------------------
* ``partition``       every item to exactly one annotator (cap 1), at most ``quota`` items
                      per annotator so the split is even (``partition_quota``).
* ``overlap``         every item to ``k`` distinct annotators (cap ``k``); ``prefer="fill"``
                      completes partly-rated items first, ``"spread"`` starts new ones.
                      Annotators never see each other's answers (a view concern).
* ``listener_sample`` every listener gets ``n`` items, balanced across conditions (counts
                      differ by at most one), least-rated items first, random order;
                      either planned at enrolment (:func:`plan_listener_sample`) and
                      followed, or chosen step by step with the same balance.
* ``audit_sample``    ``n`` random items per batch are audited (by ``k`` reviewers).

Nobody gets the same item twice unless ``Policy.allow_repeat`` is set.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

import numpy as np

__all__ = [
    "AnnotatorState",
    "Candidate",
    "Policy",
    "PolicyKind",
    "choose_next",
    "partition_quota",
    "plan_audit_sample",
    "plan_listener_sample",
    "plan_partition",
]

ItemId = Hashable
RngLike = np.random.Generator | int


class PolicyKind(StrEnum):
    """The assignment strategies a campaign can use."""

    PARTITION = "partition"
    OVERLAP = "overlap"
    LISTENER_SAMPLE = "listener_sample"
    AUDIT_SAMPLE = "audit_sample"


@dataclass(frozen=True)
class Policy:
    """A campaign's assignment configuration.

    ``k``: distinct annotators per item (overlap; reviewers per audited item for audit;
    for listener_sample an optional cap on ratings per item, ``None`` = no cap).
    ``n``: items per listener (listener_sample) or per batch (audit_sample).
    ``quota``: most items one annotator may get (partition, overlap); ``None`` = no limit.
    ``batch_size``: most items handed out per call. ``allow_repeat``: the same annotator
    may get the same item again (never twice in one call).
    """

    kind: PolicyKind
    k: int | None = None
    n: int | None = None
    quota: int | None = None
    batch_size: int = 1
    allow_repeat: bool = False
    prefer: Literal["fill", "spread"] = "fill"

    def __post_init__(self) -> None:
        kind = PolicyKind(self.kind)
        object.__setattr__(self, "kind", kind)
        if kind is PolicyKind.PARTITION:
            if self.k not in (None, 1):
                raise ValueError("partition gives every item to exactly one annotator (k = 1)")
            object.__setattr__(self, "k", 1)
        elif kind is PolicyKind.OVERLAP:
            if self.k is None or self.k < 1:
                raise ValueError("overlap needs k >= 1 annotators per item")
        elif kind is PolicyKind.AUDIT_SAMPLE:
            object.__setattr__(self, "k", 1 if self.k is None else self.k)
        if kind in (PolicyKind.LISTENER_SAMPLE, PolicyKind.AUDIT_SAMPLE) and (
            self.n is None or self.n < 1
        ):
            raise ValueError(f"{kind.value} needs n >= 1")
        if self.k is not None and self.k < 1:
            raise ValueError("k must be >= 1")
        if self.batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if self.quota is not None and self.quota < 0:
            raise ValueError("quota must be >= 0")
        if self.prefer not in ("fill", "spread"):
            raise ValueError("prefer must be 'fill' or 'spread'")

    @property
    def capacity(self) -> int | None:
        """Most assignments (active + complete) one item may have; ``None`` = unlimited."""
        return self.k


@dataclass(frozen=True)
class Candidate:
    """One locked candidate item and its current state.

    ``active``: assignments handed out and not yet complete (the service leaves out
    expired ones); ``complete``: submitted ratings. ``condition`` feeds the listener
    balance, ``batch`` the audit sample.
    """

    item_id: ItemId
    condition: Hashable | None = None
    batch: Hashable | None = None
    active: int = 0
    complete: int = 0

    @property
    def taken(self) -> int:
        """Assignments that occupy a slot on this item."""
        return self.active + self.complete


@dataclass(frozen=True)
class AnnotatorState:
    """What the service knows about the requesting annotator in this campaign.

    ``seen``: every item ever assigned to them (active or complete). ``n_assigned``
    defaults to ``len(seen)``. ``condition_counts``: their assigned items per condition
    (listener balance; derived from ``plan``-less history by the service). ``plan``: a
    listener sample fixed at enrolment (:func:`plan_listener_sample`), followed in order.
    """

    annotator_id: Hashable
    seen: frozenset[ItemId] = frozenset()
    n_assigned: int | None = None
    condition_counts: Mapping[Hashable, int] = field(default_factory=dict)
    plan: tuple[ItemId, ...] = ()

    @property
    def assigned(self) -> int:
        """Items assigned so far (``n_assigned`` or ``len(seen)``)."""
        return len(self.seen) if self.n_assigned is None else self.n_assigned


def _rng(rng: RngLike) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def partition_quota(n_items: int, n_annotators: int) -> int:
    """Per-annotator quota that splits ``n_items`` evenly: ``ceil(n_items / n_annotators)``."""
    if n_annotators < 1:
        raise ValueError("n_annotators must be >= 1")
    return math.ceil(n_items / n_annotators)


def _ranked(keys: Sequence[float], rng: np.random.Generator) -> list[int]:
    """Indices sorted by ``keys`` ascending with seeded random tie-breaks."""
    tie = rng.permutation(len(keys))
    order = np.lexsort((tie, np.asarray(keys, dtype=float)))
    return [int(i) for i in order]


def choose_next(
    policy: Policy,
    annotator: AnnotatorState,
    candidates: Sequence[Candidate],
    rng: RngLike,
    *,
    batch_counts: Mapping[Hashable, int] | None = None,
) -> list[ItemId]:
    """Decide which candidate items to hand to ``annotator`` now.

    Contract (what the service may rely on):

    * Returns item ids taken from ``candidates`` only, without duplicates, at most
      ``policy.batch_size`` of them, possibly none (annotator done, campaign full).
    * Every returned item has ``taken + 1 <= policy.capacity`` (1 for partition, ``k``
      for overlap/audit), counted from the locked rows passed in.
    * Unless ``policy.allow_repeat``, no returned item is in ``annotator.seen``.
    * Per-annotator limits hold: ``quota`` (partition/overlap), ``n`` items in total
      (listener_sample).
    * Deterministic for the same inputs and RNG state; pass candidates in a stable order
      (e.g. by primary key) to make assignment reproducible from a campaign seed.

    ``batch_counts`` (audit only): items per batch already drawn into the audit. If
    omitted it is counted from ``candidates`` (items with ``taken > 0``), which is only
    right when the candidates include every item of the batch.
    """
    gen = _rng(rng)
    kind = policy.kind
    cap = policy.capacity
    seen = annotator.seen

    def eligible(c: Candidate) -> bool:
        if cap is not None and c.taken >= cap:
            return False
        return policy.allow_repeat or c.item_id not in seen

    # unique by item id (first occurrence), then eligibility
    uniq: dict[ItemId, Candidate] = {}
    for c in candidates:
        uniq.setdefault(c.item_id, c)
    pool = [c for c in uniq.values() if eligible(c)]

    room = policy.batch_size
    if kind in (PolicyKind.PARTITION, PolicyKind.OVERLAP) and policy.quota is not None:
        room = min(room, policy.quota - annotator.assigned)
    if kind is PolicyKind.LISTENER_SAMPLE:
        assert policy.n is not None
        room = min(room, policy.n - annotator.assigned)
    if room <= 0 or not pool:
        return []

    if kind is PolicyKind.PARTITION:
        return [pool[i].item_id for i in _ranked([0.0] * len(pool), gen)[:room]]

    if kind is PolicyKind.OVERLAP:
        sign = -1.0 if policy.prefer == "fill" else 1.0
        order = _ranked([sign * c.taken for c in pool], gen)
        return [pool[i].item_id for i in order[:room]]

    if kind is PolicyKind.LISTENER_SAMPLE:
        if annotator.plan:
            by_id = {c.item_id: c for c in pool}
            return [i for i in annotator.plan if i in by_id][:room]
        return _listener_step(pool, dict(annotator.condition_counts), room, gen)

    # audit sample
    assert policy.n is not None
    if batch_counts is None:
        counted = Counter(c.batch for c in uniq.values() if c.taken > 0)
    else:
        counted = Counter(dict(batch_counts))
    started = [c for c in pool if c.taken > 0]  # already in the audit: no new quota needed
    picked = [started[i].item_id for i in _ranked([-c.taken for c in started], gen)]
    fresh = [c for c in pool if c.taken == 0]
    for i in _ranked([0.0] * len(fresh), gen):
        c = fresh[i]
        if counted[c.batch] < policy.n:
            picked.append(c.item_id)
            counted[c.batch] += 1
        if len(picked) >= room:
            break
    return picked[:room]


def _listener_step(
    pool: list[Candidate], counts: dict[Hashable, int], room: int, gen: np.random.Generator
) -> list[ItemId]:
    """Pick ``room`` items one at a time: least-served condition, then least-rated item."""
    by_cond: dict[Hashable, list[Candidate]] = {}
    for c in pool:
        by_cond.setdefault(c.condition, []).append(c)
    for cond, items in by_cond.items():  # least-rated first, seeded ties
        by_cond[cond] = [items[i] for i in _ranked([c.taken for c in items], gen)]
    picked: list[ItemId] = []
    while len(picked) < room:
        conds = [c for c, items in by_cond.items() if items]
        if not conds:
            break
        # fewest items of this condition for this listener first; among those, the
        # condition whose least-rated item has the fewest ratings (even clip coverage)
        big = 1 + max(by_cond[c][0].taken for c in conds)
        keys = [counts.get(c, 0) * big + by_cond[c][0].taken for c in conds]
        best = conds[_ranked(keys, gen)[0]]
        picked.append(by_cond[best].pop(0).item_id)
        counts[best] = counts.get(best, 0) + 1
    return picked


def plan_listener_sample(
    items_by_condition: Mapping[Hashable, Sequence[ItemId]],
    n: int,
    rng: RngLike,
    *,
    exclude: frozenset[ItemId] | set[ItemId] = frozenset(),
    counts: Mapping[ItemId, int] | None = None,
) -> list[ItemId]:
    """Draw ``n`` items for one listener, balanced across conditions, in random order.

    Each condition gets ``n // C`` or ``n // C + 1`` items (which ones get the extra is
    random); a condition with too few items gives its share to the others, so per-
    condition counts differ by at most one wherever supply allows. Within a condition,
    items are drawn at random, least-rated first when ``counts`` (ratings per item so
    far) is given, so clips collect ratings evenly across listeners. Items in
    ``exclude`` (already rated by this listener) are never drawn. The result is shuffled.
    Raises ``ValueError`` if fewer than ``n`` items are available.
    """
    gen = _rng(rng)
    if n < 0:
        raise ValueError("n must be >= 0")
    pools: dict[Hashable, list[ItemId]] = {}
    for cond, items in items_by_condition.items():
        avail = list(dict.fromkeys(i for i in items if i not in exclude))
        if avail:
            pools[cond] = avail
    total = sum(len(v) for v in pools.values())
    if n > total:
        raise ValueError(f"asked for {n} items but only {total} are available")
    conds = list(pools)
    quota = dict.fromkeys(conds, 0)
    left = n
    while left > 0:  # round-robin in a fresh random order each round: even + random extras
        open_conds = [c for c in conds if quota[c] < len(pools[c])]
        order = gen.permutation(len(open_conds))
        for j in order[:left]:
            quota[open_conds[int(j)]] += 1
        left -= min(left, len(open_conds))
    chosen: list[ItemId] = []
    for cond in conds:
        items = pools[cond]
        keys = [counts.get(i, 0) for i in items] if counts is not None else [0] * len(items)
        chosen.extend(items[i] for i in _ranked(keys, gen)[: quota[cond]])
    return [chosen[int(i)] for i in gen.permutation(len(chosen))]


def plan_partition(
    item_ids: Sequence[ItemId], annotator_ids: Sequence[Hashable], rng: RngLike
) -> dict[Hashable, list[ItemId]]:
    """Split items at random into one list per annotator; sizes differ by at most one.

    For campaigns that assign everything up front instead of on demand. Every item goes
    to exactly one annotator (duplicates in ``item_ids`` are dropped).
    """
    if not annotator_ids:
        raise ValueError("plan_partition needs at least one annotator")
    gen = _rng(rng)
    items = list(dict.fromkeys(item_ids))
    order = gen.permutation(len(items))
    plan: dict[Hashable, list[ItemId]] = {a: [] for a in annotator_ids}
    slots = list(plan)
    offset = int(gen.integers(len(slots)))  # who gets the extra items is random too
    for pos, idx in enumerate(order):
        plan[slots[(pos + offset) % len(slots)]].append(items[int(idx)])
    return plan


def plan_audit_sample(
    items_by_batch: Mapping[Hashable, Sequence[ItemId]], n: int, rng: RngLike
) -> dict[Hashable, list[ItemId]]:
    """Draw ``n`` random items per batch (all of a batch's items if it has fewer)."""
    if n < 0:
        raise ValueError("n must be >= 0")
    gen = _rng(rng)
    out: dict[Hashable, list[ItemId]] = {}
    for batch, items in items_by_batch.items():
        uniq = list(dict.fromkeys(items))
        out[batch] = [uniq[int(i)] for i in gen.permutation(len(uniq))[:n]]
    return out
