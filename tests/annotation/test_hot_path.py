"""The annotators' hot path on PostgreSQL: few statements, the same answers as the reference.

``next`` and ``submit`` with an API token skip DRF's machinery and run a handful of
hand-written, prepared statements (annotation.apis._TokenFastPath, annotation.services,
annotation.selectors.annotator_context). These tests pin the statement counts, compare
the fast path's answers with DRF's and the SQL assignment with the ORM reference path,
and check that access rules still apply.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from accounts.models import Membership
from annotation import services
from annotation.models import Assignment, CampaignStatus, Rating
from annotation.scales import choices_for

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql",
                                reason="the hand-written hot path runs on PostgreSQL only")


def api(campaign, name: str) -> str:
    return f"/api/v1/projects/{campaign.project.slug}/campaigns/{campaign.slug}/{name}"


def call(client, url: str, body: dict, token: str | None = None):
    extra = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return client.post(url, data=json.dumps(body), content_type="application/json", **extra)


def age(public_id: str, seconds: float = 30) -> None:
    """Pretend the assignment was served a while ago (the clip has played)."""
    a = Assignment.objects.get(public_id=public_id)
    Assignment.objects.filter(pk=a.pk).update(served_at=a.served_at - timedelta(seconds=seconds))


@pytest.fixture
def enrolled(client, make_user):
    """A user with an API token, enrolled in ``campaign`` with consent (DRF's path)."""

    def make(campaign) -> str:
        token = Token.objects.create(user=make_user()).key
        assert call(client, api(campaign, "next/"), {"consent": True}, token).status_code in (200, 204)
        return token

    return make


@pytest.fixture
def no_expiry_sweep(monkeypatch):
    """The expiry sweep runs every few seconds per process; keep it out of the counts."""
    monkeypatch.setattr(services, "_expire_throttled", lambda campaign, now: None)


@pytest.mark.django_db(transaction=True)
def test_token_calls_take_few_statements(client, make_campaign, enrolled, no_expiry_sweep):
    campaign = make_campaign(n=6, template="quality_0_5", audio=False)
    token = enrolled(campaign)
    first = call(client, api(campaign, "next/"), {}, token).json()  # the current item again
    payload = {"assignment": first["assignment"], "values": {"quality": 3}, "client_token": "a"}
    with CaptureQueriesContext(connection) as submit:
        assert call(client, api(campaign, "ratings/submit/"), payload, token).status_code == 201
    with CaptureQueriesContext(connection) as nxt:
        assert call(client, api(campaign, "next/"), {}, token).status_code == 200
    # submit: context + one INSERT ... SELECT that also moves the assignment and counter
    # (was 12: token, project, role, campaign, annotator, BEGIN, lock, token check,
    # insert, assignment, counter, COMMIT)
    assert len(submit) == 2, [q["sql"][:80] for q in submit.captured_queries]
    # next: context, BEGIN, lock + live assignments, window, assignment + counter, COMMIT (was 12)
    assert len(nxt) <= 6, [q["sql"][:80] for q in nxt.captured_queries]
    assert not any("authtoken_token\".\"key\"" in q["sql"] for q in nxt.captured_queries)  # DRF skipped


@pytest.mark.django_db(transaction=True)
def test_hot_statements_are_prepared(client, make_campaign, enrolled):
    campaign = make_campaign(n=3, template="quality_0_5", audio=False)
    token = enrolled(campaign)
    for _ in range(2):
        call(client, api(campaign, "next/"), {}, token)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [r[0] for r in cursor.fetchall()]
    assert any("FROM authtoken_token" in s for s in statements)
    assert any("FOR NO KEY UPDATE OF me" in s for s in statements)


@pytest.mark.django_db
def test_fast_path_answers_like_drf(client, make_campaign, make_user, enrolled):
    campaign = make_campaign(n=4)  # audio items, full listening required
    token = enrolled(campaign)
    other = make_user()
    from django.test import Client

    session = Client()
    session.force_login(other)  # DRF's path: session authentication
    assert call(session, api(campaign, "next/"), {"consent": True}).status_code == 200

    fast = call(client, api(campaign, "next/"), {}, token)
    slow = call(session, api(campaign, "next/"), {})
    assert (fast.status_code, slow.status_code) == (200, 200)
    assert fast["Content-Type"] == slow["Content-Type"] == "application/json"
    a, b = fast.json(), slow.json()
    assert set(a) == set(b) and a["criteria"] == b["criteria"] and a["duration_s"] == b["duration_s"]
    assert a["audio_url"].endswith(f"/{a['assignment']}/") or a["audio_url"].endswith(a["assignment"])

    def submit(c, item, tok, token_header=None, value=4):
        return call(c, api(campaign, "ratings/submit/"),
                    {"assignment": item["assignment"], "values": {"mos": value}, "client_token": tok,
                     "played": [[0, item["duration_s"]]]}, token_header)

    age(a["assignment"], -60)  # served "just now" however slow this machine is: the clip
    age(b["assignment"], -60)  # has not played yet
    too_soon = [submit(client, a, "t1", token), submit(session, b, "s1")]
    assert [r.status_code for r in too_soon] == [400, 400]
    # the player's report says "heard it all", the server's clock says it cannot have been
    assert too_soon[0].json()["error"]["field"] == too_soon[1].json()["error"]["field"] == "played"
    assert too_soon[0].json()["error"]["message"] == too_soon[1].json()["error"]["message"]
    age(a["assignment"], 120)
    age(b["assignment"], 120)
    bad = [submit(client, a, "t1", token, value=9), submit(session, b, "s1", value=9)]
    assert [r.json()["error"]["field"] for r in bad] == ["values.mos", "values.mos"]
    stored = [submit(client, a, "t1", token), submit(session, b, "s1")]
    assert [r.status_code for r in stored] == [201, 201]
    x, y = stored[0].json(), stored[1].json()
    assert set(x) == set(y) and set(x["ratings"][0]) == set(y["ratings"][0])
    assert x["ratings"][0]["value"] == "4" and x["ratings"][0]["elapsed_ms"] >= 60_000
    again = submit(client, a, "t1", token)  # a double click
    assert again.status_code == 200 and again.json()["created"] is False
    assert again.json()["ratings"][0]["id"] == x["ratings"][0]["id"]
    rated = submit(client, a, "t2", token)  # same assignment, new token
    assert rated.status_code == 409
    foreign = submit(client, b, "t3", token)  # somebody else's assignment
    assert foreign.status_code == 404 and foreign.json()["error"]["field"] == "assignment"
    assert Rating.objects.filter(campaign=campaign).count() == 2


@pytest.mark.django_db
def test_fast_path_keeps_access_rules(client, make_campaign, private_project, enrolled, make_user):
    campaign = make_campaign(n=3, template="quality_0_5", audio=False)
    token = enrolled(campaign)
    # DRF's answers: 401 for a bad token (token authentication comes first and sends
    # the WWW-Authenticate challenge), 404 for what the caller may not see
    assert call(client, api(campaign, "next/"), {}, "not-a-token").status_code == 401
    # an expired token is refused on the fast path too (the same age limit as DRF's)
    from datetime import timedelta

    from django.utils import timezone

    created = Token.objects.get(key=token).created
    Token.objects.filter(key=token).update(created=timezone.now() - timedelta(days=400))
    assert call(client, api(campaign, "next/"), {}, token).status_code == 401
    Token.objects.filter(key=token).update(created=created)
    user = Token.objects.get(key=token).user
    campaign.status = CampaignStatus.DRAFT
    campaign.save(update_fields=["status"])
    assert call(client, api(campaign, "next/"), {}, token).status_code == 404
    campaign.status = CampaignStatus.OPEN
    campaign.save(update_fields=["status"])
    campaign.project.is_public = False
    campaign.project.save(update_fields=["is_public"])
    assert call(client, api(campaign, "next/"), {}, token).status_code == 200  # still a member
    Membership.objects.filter(project=campaign.project, user=user).delete()
    # enrolled in this campaign (as a campaign link enrols): this campaign only, both paths
    assert call(client, api(campaign, "next/"), {}, token).status_code == 200
    other = make_campaign(n=1, template="quality_0_5", audio=False)
    assert call(client, api(other, "next/"), {}, token).status_code == 404
    from annotation.models import Annotator

    Annotator.objects.filter(user=user).delete()
    assert call(client, api(campaign, "next/"), {}, token).status_code == 404  # neither member nor annotator
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    assert call(client, api(campaign, "next/"), {"consent": True}, token).status_code == 200  # staff may
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert call(client, api(campaign, "next/"), {}, token).status_code == 401  # "User inactive or deleted."


def play(campaign, annotators, rounds: int) -> list[tuple[int, str | None]]:
    """Each annotator in turn asks for an item and rates it; who got what, in order."""
    values = {c["key"]: choices_for(c)[0].value for c in campaign.criteria}
    order = []
    for r in range(rounds):
        for a in annotators:
            got = services.assignment_next_for_annotator(a, campaign)
            order.append((a.pk, got.item.external_id if got else None))
            if got:
                services.rating_submit(annotator=a, assignment_id=got.public_id, values=values,
                                       client_token=f"{a.pk}-{r}", now=got.served_at + timedelta(seconds=30))
    return order


@pytest.mark.django_db
@pytest.mark.parametrize(("fields", "conditions"), [
    pytest.param({"template": "multi_criteria", "policy_k": 2}, ("x",), id="overlap-k2"),
    pytest.param({"template": "naturalness", "policy_annotators": 3}, ("x",), id="partition"),
    pytest.param({"template": "mos", "policy_n": 4}, ("b", "B", "a"), id="listener-sample"),
])
def test_sql_assignment_matches_the_orm_reference(make_campaign, make_annotator, monkeypatch, fields, conditions):
    campaign = make_campaign(n=9, audio=False, conditions=conditions, control_every=0, **fields)
    annotators = [make_annotator(campaign) for _ in range(3)]
    sid = transaction.savepoint()
    fast = play(campaign, annotators, 5)
    transaction.savepoint_rollback(sid)
    monkeypatch.setattr(services, "_pg", lambda: False)
    reference = play(campaign, annotators, 5)
    assert fast == reference
    assert sum(1 for _, item in fast if item) >= 9


@pytest.mark.django_db(transaction=True)
def test_only_handing_out_an_item_skips_the_wal_flush(make_campaign, make_annotator):
    campaign = make_campaign(n=3, template="quality_0_5", audio=False)
    first, second = make_annotator(campaign), make_annotator(campaign)

    def async_commit(captured) -> bool:
        return any("synchronous_commit" in (q["sql"] or "") for q in captured.captured_queries)

    with CaptureQueriesContext(connection) as own:
        got = services.assignment_next_for_annotator(first, campaign)
    with CaptureQueriesContext(connection) as rate:
        services.rating_submit(annotator=first, assignment_id=got.public_id, values={"quality": "3"},
                               client_token="x", now=got.served_at + timedelta(seconds=5))
    with transaction.atomic(), CaptureQueriesContext(connection) as nested:
        services.assignment_next_for_annotator(second, campaign)
    assert async_commit(own)  # its own transaction: the assignment need not wait for fsync
    assert not async_commit(rate)  # ratings always wait for the flush
    assert not async_commit(nested)  # never for a caller's transaction
    with connection.cursor() as cursor:  # transaction-local: the session keeps the default
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"
