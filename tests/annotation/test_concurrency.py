"""Many annotators asking for work at once, on PostgreSQL (row locks, SKIP LOCKED).

Each thread has its own database connection and calls the real service. SQLite
serializes writers, so these tests only mean something on PostgreSQL.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection, connections

from annotation import services
from annotation.models import Assignment, AssignmentStatus, Item, Rating

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED across connections"),
]


def run_threads(n: int, target) -> list:
    """Start ``n`` threads at the same moment; collect results and re-raise errors."""
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list[BaseException] = []

    def body(i: int) -> None:
        try:
            barrier.wait()
            results[i] = target(i)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return results


@pytest.mark.parametrize(
    ("policy", "k", "n_items", "n_threads"),
    [
        pytest.param("overlap", 3, 12, 24, id="overlap-k3"),
        pytest.param("partition", None, 10, 16, id="partition"),
    ],
)
def test_concurrent_annotators_never_over_assign_or_lose_ratings(
        make_campaign, make_annotator, policy, k, n_items, n_threads):
    template = "multi_criteria" if policy == "overlap" else "naturalness"
    extra = {"policy_k": k} if k else {}
    campaign = make_campaign(n=n_items, template=template, audio=False, policy=policy, **extra)
    annotators = [make_annotator(campaign) for _ in range(n_threads)]
    value = "yes" if policy == "overlap" else "natural"

    def work(i: int) -> list[str]:
        me = annotators[i]
        tokens = []
        for _ in range(n_items + 1):
            a = services.assignment_next_for_annotator(me, campaign)
            if a is None:
                break
            token = f"t{i}-{a.public_id}"
            services.rating_submit(annotator=me, assignment_id=a.public_id, client_token=token,
                                   values={c["key"]: value for c in campaign.criteria})
            tokens.append(token)
        return tokens

    submitted = [t for tokens in run_threads(n_threads, work) for t in tokens]
    cap = k or 1
    per_item = Counter(Assignment.objects.filter(campaign=campaign, status__in=services.LIVE)
                       .values_list("item_id", flat=True))
    assert max(per_item.values()) <= cap
    assert len(per_item) == n_items and set(per_item.values()) == {cap}  # all filled, none over
    pairs = list(Assignment.objects.filter(campaign=campaign).values_list("annotator_id", "item_id"))
    assert len(pairs) == len(set(pairs))
    stored = set(Rating.objects.filter(campaign=campaign).values_list("client_token", flat=True))
    assert stored == set(submitted)  # nothing lost, nothing extra
    n_criteria = len(campaign.criteria)
    assert Rating.objects.filter(campaign=campaign).count() == len(submitted) * n_criteria
    assert not Assignment.objects.filter(status=AssignmentStatus.ACTIVE).exists()
    for item in Item.objects.filter(campaign=campaign):
        assert (item.n_active, item.n_done) == (0, cap)


def test_concurrent_double_submission_stores_one_rating(make_campaign, make_annotator):
    campaign = make_campaign(n=2, template="quality_0_5", audio=False)
    me = make_annotator(campaign)
    a = services.assignment_next_for_annotator(me, campaign)

    def twin(i: int):
        result = services.rating_submit(annotator=me, assignment_id=a.public_id,
                                        client_token="one-click", values={"quality": "3"})
        return result.created, tuple(r.pk for r in result.ratings)

    results = run_threads(16, twin)
    assert sum(created for created, _ in results) == 1
    assert len({pks for _, pks in results}) == 1
    assert Rating.objects.filter(campaign=campaign).count() == 1
