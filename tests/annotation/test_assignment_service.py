"""The assignment service: policies on real rows, expiry, controls, qualification, submit."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from annotation import services
from annotation.models import Assignment, AssignmentStatus, Item, Qualification, Rating
from tests.annotation.conftest import heard

pytestmark = pytest.mark.django_db


def submit(annotator, assignment, value="4", *, token=None, later=5.0, **kw):
    values = kw.pop("values", None)
    kw.setdefault("played", heard(assignment))
    if values is None:
        values = {c["key"]: value for c in assignment.campaign.criteria}
    return services.rating_submit(
        annotator=annotator, assignment_id=assignment.public_id, values=values,
        client_token=token or f"tok-{assignment.public_id}",
        now=assignment.served_at + timedelta(seconds=later), **kw)


def drain(annotator, campaign, value="4", limit=100):
    """Ask for work and rate it until the annotator is done; return the item ids."""
    got = []
    for _ in range(limit):
        a = services.assignment_next_for_annotator(annotator, campaign)
        if a is None:
            return got
        got.append(a.item.external_id)
        submit(annotator, a, value)
    raise AssertionError("never finished")


def recount_ok(campaign):
    """Item counters equal a recount of assignments."""
    for item in Item.objects.filter(campaign=campaign):
        live = Counter(item.assignments.values_list("status", flat=True))
        assert item.n_active == live[AssignmentStatus.ACTIVE], item
        assert item.n_done == live[AssignmentStatus.SUBMITTED], item


@pytest.mark.parametrize("k", [pytest.param(1, id="k1"), pytest.param(3, id="k3")])
def test_overlap_gives_each_item_to_k_distinct_annotators(make_campaign, make_annotator, k):
    campaign = make_campaign(n=5, template="multi_criteria", policy_k=k, audio=False)
    annotators = [make_annotator(campaign) for _ in range(k + 2)]
    for a in annotators:
        drain(a, campaign, value="yes")
    per_item = Counter(Rating.objects.filter(campaign=campaign, criterion="grammatical")
                       .values_list("item__external_id", flat=True))
    assert set(per_item.values()) == {k} and len(per_item) == 5
    pairs = Assignment.objects.values_list("annotator_id", "item_id")
    assert len(set(pairs)) == len(pairs)  # nobody got an item twice
    recount_ok(campaign)


def test_partition_splits_items_evenly(make_campaign, make_annotator):
    campaign = make_campaign(n=7, template="naturalness", policy_annotators=3)
    annotators = [make_annotator(campaign) for _ in range(3)]
    sizes = [len(drain(a, campaign, value="natural")) for a in annotators]
    assert sorted(sizes) == [1, 3, 3] or max(sizes) - min(sizes) <= 1 or sum(sizes) == 7
    assert sum(sizes) == 7 and max(sizes) == 3  # quota ceil(7/3)
    assert Rating.objects.filter(campaign=campaign).values("item").distinct().count() == 7


def test_listener_sample_balances_conditions(make_campaign, make_annotator):
    campaign = make_campaign(n=12, conditions=("a", "b", "c"), policy_n=6)
    for _ in range(3):
        a = make_annotator(campaign)
        items = drain(a, campaign)
        assert len(items) == 6 and len(set(items)) == 6
        conds = Counter(Item.objects.filter(campaign=campaign, external_id__in=items)
                        .values_list("condition", flat=True))
        assert sorted(conds.values()) == [2, 2, 2]


def test_audit_sample_takes_n_items_per_batch(make_campaign, make_annotator):
    campaign = make_campaign(n=10, template="qa_audit", policy_n=2, audio=False)
    a = make_annotator(campaign)
    items = drain(a, campaign, value="yes")
    batches = Counter(Item.objects.filter(external_id__in=items, campaign=campaign)
                      .values_list("batch", flat=True))
    assert batches == {"b0": 2, "b1": 2}


def test_abandoned_assignment_expires_and_is_handed_out_again(make_campaign, make_annotator):
    campaign = make_campaign(n=1, template="naturalness", policy_annotators=1)
    first, second = make_annotator(campaign), make_annotator(campaign)
    a1 = services.assignment_next_for_annotator(first, campaign)
    assert services.assignment_next_for_annotator(second, campaign) is None  # the only slot is taken
    later = a1.expires_at + timedelta(seconds=1)
    a2 = services.assignment_next_for_annotator(second, campaign, now=later)
    assert a2 is not None and a2.item_id == a1.item_id
    a1.refresh_from_db()
    assert a1.status == AssignmentStatus.EXPIRED
    with pytest.raises(services.RatingError) as err:
        submit(first, a1, "natural")
    assert err.value.field == "assignment" and err.value.status == 409
    submit(second, a2, "natural", later=600)
    recount_ok(campaign)


def test_reload_returns_the_same_active_assignment(make_campaign, make_annotator):
    campaign = make_campaign(n=3)
    a = make_annotator(campaign)
    first = services.assignment_next_for_annotator(a, campaign)
    assert services.assignment_next_for_annotator(a, campaign).pk == first.pk


def test_allow_repeat_hands_an_item_again(make_campaign, make_annotator):
    campaign = make_campaign(n=1, template="quality_0_5", policy_k=None, audio=False,
                             policy="overlap", allow_repeat=True, policy_quota=3)
    campaign.policy_k = 5
    campaign.save()
    a = make_annotator(campaign)
    items = drain(a, campaign, value="3")
    assert items == ["i0", "i0", "i0"]
    assert list(Assignment.objects.order_by("pk").values_list("repeat", flat=True)) == [0, 1, 2]


def test_controls_are_mixed_in_for_every_annotator(make_campaign, make_annotator):
    extra = [{"id": "gold1", "kind": "gold", "audio": "g.wav", "gold": 5},
             {"id": "trap1", "kind": "trap", "audio": "t.wav", "trap": 2}]
    campaign = make_campaign(n=8, conditions=("x",), policy_n=8, control_every=4, extra=extra)
    for _ in range(2):
        items = drain(make_annotator(campaign), campaign)
        assert len(items) == 10 and {"gold1", "trap1"} <= set(items)
        assert items.index("gold1") >= 4 or items.index("trap1") >= 4


def test_qualification_gates_the_work(make_campaign, make_annotator):
    extra = [{"id": "q1", "kind": "qualification", "audio": "q1.wav", "gold": 5},
             {"id": "q2", "kind": "qualification", "audio": "q2.wav", "gold": 1}]
    campaign = make_campaign(n=3, conditions=("x",), policy_n=3, extra=extra,
                             qc={"gold_tolerance": 1})
    good, bad = make_annotator(campaign), make_annotator(campaign)
    assert good.qualification == Qualification.PENDING
    for annotator, answers in ((good, {"q1": "5", "q2": "2"}), (bad, {"q1": "1", "q2": "5"})):
        for _ in range(2):
            a = services.assignment_next_for_annotator(annotator, campaign)
            assert a.item.kind == "qualification"
            submit(annotator, a, answers[a.item.external_id])
    assert services.assignment_next_for_annotator(good, campaign).item.kind == "regular"
    assert services.assignment_next_for_annotator(bad, campaign) is None
    bad.refresh_from_db()
    assert bad.qualification == Qualification.FAILED
    services.annotator_complete(annotator=bad)
    # failed qualification: the screened-out code, never the completion code
    assert bad.outcome == "screened_out"
    assert bad.completion_code == campaign.screened_out_code != campaign.completion_code


@pytest.mark.parametrize(
    ("values", "field"),
    [
        pytest.param({"mos": "6"}, "values.mos", id="off-scale"),
        pytest.param({}, "values.mos", id="missing"),
        pytest.param({"mos": "4", "other": "1"}, "values.other", id="unknown-criterion"),
    ],
)
def test_rating_submit_validates_values(make_campaign, make_annotator, values, field):
    campaign = make_campaign(n=1)
    a = make_annotator(campaign)
    assignment = services.assignment_next_for_annotator(a, campaign)
    with pytest.raises(services.RatingError) as err:
        submit(a, assignment, values=values)
    assert err.value.field == field
    assert not Rating.objects.exists()


def test_rating_too_early_is_rejected_with_a_field_error(make_campaign, make_annotator):
    campaign = make_campaign(n=1)
    a = make_annotator(campaign)
    assignment = services.assignment_next_for_annotator(a, campaign)
    duration = assignment.item.clip.duration_s
    with pytest.raises(services.RatingError) as err:
        submit(a, assignment, later=duration / 2)
    # the player says the whole clip was heard, but the server's clock says it cannot have been
    assert err.value.field == "played" and "too soon" in err.value.message
    result = submit(a, assignment, later=duration + 0.01)
    assert result.created and result.ratings[0].elapsed_ms >= int(duration * 1000)


def test_same_client_token_twice_stores_one_rating(make_campaign, make_annotator):
    campaign = make_campaign(n=2)
    a = make_annotator(campaign)
    assignment = services.assignment_next_for_annotator(a, campaign)
    first = submit(a, assignment, token="same")
    again = submit(a, assignment, "1", token="same")
    assert first.created and not again.created
    assert [r.pk for r in again.ratings] == [r.pk for r in first.ratings]
    assert Rating.objects.count() == 1 and Rating.objects.get().value == "4"
    with pytest.raises(services.RatingError) as err:
        submit(a, assignment, token="other")
    assert err.value.status == 409


def test_closed_campaign_hands_out_nothing(make_campaign, make_annotator):
    campaign = make_campaign(n=2, status="closed")
    assert services.assignment_next_for_annotator(make_annotator(campaign), campaign) is None
