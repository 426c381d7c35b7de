"""Assignment policies: capacities, no repeats, balance and seeded reproducibility.

The simulations below play the role of the database service: they keep the counts,
call ``choose_next`` with a snapshot, and record what was handed out.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest

from annotation.assignment import (
    AnnotatorState,
    Candidate,
    Policy,
    PolicyKind,
    choose_next,
    partition_quota,
    plan_audit_sample,
    plan_listener_sample,
    plan_partition,
)


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests need no Django settings: overrides the shared conftest's autouse fixture,
    so this module also runs with ``pytest -p no:django``."""


class FakeService:
    """In-memory stand-in for the DB service: counts, histories, completion."""

    def __init__(self, items: dict[str, tuple[str | None, str | None]]) -> None:
        self.meta = items  # item_id -> (condition, batch)
        self.active: Counter[str] = Counter()
        self.complete: Counter[str] = Counter()
        self.history: dict[str, list[str]] = defaultdict(list)

    def candidates(self) -> list[Candidate]:
        return [Candidate(i, cond, batch, self.active[i], self.complete[i])
                for i, (cond, batch) in sorted(self.meta.items())]

    def state(self, annotator: str) -> AnnotatorState:
        seen = self.history[annotator]
        conds = Counter(self.meta[i][0] for i in seen)
        return AnnotatorState(annotator, frozenset(seen), condition_counts=conds)

    def request(self, policy: Policy, annotator: str, rng: np.random.Generator) -> list[str]:
        picked = choose_next(policy, self.state(annotator), self.candidates(), rng)
        for item in picked:
            self.active[item] += 1
            self.history[annotator].append(item)
        return picked

    def finish_all(self) -> None:
        self.complete.update(self.active)
        self.active.clear()


def _items(n: int, conditions: int = 1, batches: int = 1) -> dict[str, tuple[str, str]]:
    return {f"it{i:03d}": (f"c{i % conditions}", f"b{i % batches}") for i in range(n)}


# --------------------------------------------------------------------------- partition


@pytest.mark.parametrize(
    ("n_items", "n_annotators", "batch_size"),
    [
        pytest.param(100, 7, 1, id="100-over-7"),
        pytest.param(30, 3, 4, id="30-over-3-batches"),
        pytest.param(5, 8, 1, id="more-annotators-than-items"),
    ],
)
def test_partition_splits_evenly_and_never_assigns_twice(n_items, n_annotators, batch_size):
    svc = FakeService(_items(n_items))
    quota = partition_quota(n_items, n_annotators)
    policy = Policy(PolicyKind.PARTITION, quota=quota, batch_size=batch_size)
    rng = np.random.default_rng(0)
    annotators = [f"a{j}" for j in range(n_annotators)]
    handed: list[str] = []
    for _ in range(10 * n_items):  # annotators come back in random order
        a = annotators[int(rng.integers(n_annotators))]
        handed += svc.request(policy, a, rng)
        if rng.random() < 0.5:
            svc.finish_all()
        if len(handed) == n_items:
            break
    for a in annotators:  # once everything is out, nobody gets anything more
        assert svc.request(policy, a, rng) == []
    assert sorted(handed) == sorted(svc.meta)  # every item exactly once
    sizes = [len(svc.history[a]) for a in annotators]
    assert max(sizes) <= quota
    assert sum(sizes) == n_items


def test_plan_partition_sizes_differ_by_at_most_one_and_is_seeded():
    items = [f"x{i}" for i in range(103)]
    plan = plan_partition(items, ["a", "b", "c", "d"], rng=42)
    assert sorted(i for lst in plan.values() for i in lst) == sorted(items)
    sizes = [len(v) for v in plan.values()]
    assert max(sizes) - min(sizes) <= 1
    assert plan == plan_partition(items, ["a", "b", "c", "d"], rng=42)
    assert plan != plan_partition(items, ["a", "b", "c", "d"], rng=43)


# --------------------------------------------------------------------------- overlap


@pytest.mark.parametrize("prefer", ["fill", "spread"])
@pytest.mark.parametrize(("k", "n_annotators"), [(3, 5), (2, 2), (5, 12)])
def test_overlap_never_exceeds_k_nor_repeats_an_annotator(k, n_annotators, prefer):
    svc = FakeService(_items(40))
    policy = Policy(PolicyKind.OVERLAP, k=k, batch_size=3, prefer=prefer)
    rng = np.random.default_rng(1)
    annotators = [f"a{j}" for j in range(n_annotators)]
    for _ in range(2000):
        svc.request(policy, annotators[int(rng.integers(n_annotators))], rng)
        taken = svc.active + svc.complete
        assert max(taken.values(), default=0) <= k
        if rng.random() < 0.3:
            svc.finish_all()
        if sum(taken.values()) == k * len(svc.meta):
            break  # every slot is filled
    for a in annotators:
        assert len(svc.history[a]) == len(set(svc.history[a]))
    taken = svc.active + svc.complete
    assert all(taken[i] == k for i in svc.meta)  # every item reached exactly k annotators


def test_overlap_fill_completes_started_items_first():
    cands = [Candidate("new", active=0), Candidate("half", complete=1), Candidate("full", complete=2)]
    policy = Policy(PolicyKind.OVERLAP, k=2)
    assert choose_next(policy, AnnotatorState("a"), cands, 0) == ["half"]
    spread = Policy(PolicyKind.OVERLAP, k=2, prefer="spread")
    assert choose_next(spread, AnnotatorState("a"), cands, 0) == ["new"]


def test_overlap_quota_and_allow_repeat():
    cands = [Candidate("x"), Candidate("y")]
    seen = AnnotatorState("a", seen=frozenset({"x", "y"}))
    assert choose_next(Policy(PolicyKind.OVERLAP, k=3, batch_size=2), seen, cands, 0) == []
    again = Policy(PolicyKind.OVERLAP, k=3, batch_size=5, allow_repeat=True)
    assert sorted(choose_next(again, seen, [*cands, cands[0]], 0)) == ["x", "y"]  # never twice per call
    capped = Policy(PolicyKind.OVERLAP, k=3, batch_size=5, quota=3)
    assert len(choose_next(capped, AnnotatorState("b", n_assigned=2), cands, 0)) == 1


# --------------------------------------------------------------------------- listener sample


def test_plan_listener_sample_is_balanced_and_seeded():
    by_cond = {f"c{j}": [f"c{j}-{i}" for i in range(20)] for j in range(4)}
    plan = plan_listener_sample(by_cond, 10, rng=np.random.default_rng(7))
    assert len(plan) == len(set(plan)) == 10
    per = Counter(i.split("-")[0] for i in plan)
    assert set(per) == set(by_cond) and max(per.values()) - min(per.values()) <= 1
    assert plan == plan_listener_sample(by_cond, 10, rng=np.random.default_rng(7))
    assert plan != plan_listener_sample(by_cond, 10, rng=np.random.default_rng(8))


def test_plan_listener_sample_random_order_not_grouped_by_condition():
    by_cond = {f"c{j}": [f"c{j}-{i}" for i in range(50)] for j in range(2)}
    orders = {tuple(i[:2] for i in plan_listener_sample(by_cond, 20, rng=s)) for s in range(5)}
    assert len(orders) > 1  # the condition sequence itself varies between listeners


def test_plan_listener_sample_short_condition_gives_share_to_others():
    by_cond = {"a": ["a1"], "b": [f"b{i}" for i in range(10)], "c": [f"c{i}" for i in range(10)]}
    plan = plan_listener_sample(by_cond, 9, rng=0, exclude={"b0"})
    per = Counter(i[0] for i in plan)
    assert per == {"a": 1, "b": 4, "c": 4}
    assert "b0" not in plan
    with pytest.raises(ValueError, match="only 20"):
        plan_listener_sample(by_cond, 25, rng=0, exclude={"b0"})


def test_plan_listener_sample_prefers_least_rated_items():
    by_cond = {"a": ["a1", "a2", "a3"], "b": ["b1", "b2", "b3"]}
    counts = {"a1": 5, "a2": 0, "a3": 5, "b1": 2, "b2": 2, "b3": 1}
    assert sorted(plan_listener_sample(by_cond, 2, rng=3, counts=counts)) == ["a2", "b3"]


def test_listener_sample_choose_next_balances_each_listener():
    svc = FakeService(_items(60, conditions=4))
    policy = Policy(PolicyKind.LISTENER_SAMPLE, n=10, batch_size=3)
    rng = np.random.default_rng(5)
    for listener in [f"l{j}" for j in range(12)]:
        while svc.request(policy, listener, rng):
            pass
        got = svc.history[listener]
        assert len(got) == len(set(got)) == 10
        per = Counter(svc.meta[i][0] for i in got)
        assert max(per.values()) - min(per.values()) <= 1
    taken = svc.active + svc.complete
    # clip coverage is best effort (the per-listener balance comes first): within 2
    assert max(taken.values()) - min(taken[i] for i in svc.meta) <= 2


def test_listener_sample_follows_plan_and_is_reproducible():
    cands = [Candidate(f"i{j}", condition=f"c{j % 3}") for j in range(9)]
    by_cond: dict[str, list[str]] = defaultdict(list)
    for c in cands:
        by_cond[c.condition].append(c.item_id)
    plan = tuple(plan_listener_sample(by_cond, 6, rng=11))
    policy = Policy(PolicyKind.LISTENER_SAMPLE, n=6, batch_size=2)
    state = AnnotatorState("l", seen=frozenset(plan[:2]), plan=plan)
    assert choose_next(policy, state, cands, 0) == list(plan[2:4])
    fresh = AnnotatorState("m")
    first = choose_next(policy, fresh, cands, np.random.default_rng(4))
    assert first == choose_next(policy, fresh, cands, np.random.default_rng(4))


# --------------------------------------------------------------------------- audit sample


def test_audit_sample_draws_n_per_batch():
    svc = FakeService(_items(50, batches=3))
    policy = Policy(PolicyKind.AUDIT_SAMPLE, n=4, batch_size=5)
    rng = np.random.default_rng(2)
    for _ in range(20):
        svc.request(policy, f"auditor{int(rng.integers(3))}", rng)
    per_batch = Counter(svc.meta[i][1] for i in svc.active)
    assert per_batch == {"b0": 4, "b1": 4, "b2": 4}
    assert max(svc.active.values()) == 1


def test_audit_sample_respects_given_batch_counts():
    cands = [Candidate(f"i{j}", batch="b") for j in range(5)]
    policy = Policy(PolicyKind.AUDIT_SAMPLE, n=3, batch_size=5)
    assert len(choose_next(policy, AnnotatorState("r"), cands, 0, batch_counts={"b": 2})) == 1


def test_plan_audit_sample_seeded():
    batches = {"b1": list(range(10)), "b2": [1, 2]}
    plan = plan_audit_sample(batches, 3, rng=9)
    assert len(plan["b1"]) == 3 and sorted(plan["b2"]) == [1, 2]
    assert plan == plan_audit_sample(batches, 3, rng=9)


# --------------------------------------------------------------------------- config


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        pytest.param({"kind": "partition", "k": 2}, "exactly one", id="partition-k"),
        pytest.param({"kind": "overlap"}, "k >= 1", id="overlap-needs-k"),
        pytest.param({"kind": "listener_sample"}, "n >= 1", id="listener-needs-n"),
        pytest.param({"kind": "audit_sample", "n": 0}, "n >= 1", id="audit-needs-n"),
        pytest.param({"kind": "overlap", "k": 2, "batch_size": 0}, "batch_size", id="batch"),
        pytest.param({"kind": "bogus"}, "bogus", id="unknown-kind"),
    ],
)

def test_policy_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Policy(**kwargs)
