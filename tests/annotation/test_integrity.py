"""No code without work (D1, F-6, M-11, D23): outcomes, codes, stopped campaigns, expiry,
and listening evidence on the rating paths (D4)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from annotation import services
from annotation.models import Annotator, Assignment, Rating
from annotation.selectors import annotator_quota, campaign_progress
from tests.annotation.conftest import heard

pytestmark = pytest.mark.django_db


def url(campaign, name, *extra):
    return reverse(f"annotation:{name}", args=[campaign.project.slug, campaign.slug, *extra])


def enter(client, campaign, query=""):
    client.post(url(campaign, "start") + query, {"agree": "yes"})
    client.post(url(campaign, "instructions"))


def rate_page(client, campaign, value="4", later=30, played="full"):
    """Rate the browser's current item as the rating page would (evidence included)."""
    a = Assignment.objects.select_related("item__clip").get(
        status="active", annotator__user_id=int(client.session["_auth_user_id"]))
    Assignment.objects.filter(pk=a.pk).update(served_at=a.served_at - timedelta(seconds=later))
    return client.post(url(campaign, "rate"), json.dumps({
        "assignment": a.public_id, "values": {"mos": value}, "client_token": f"t-{a.public_id}",
        "played": heard(a) if played == "full" else played}), content_type="application/json")


def drain(client, campaign):
    """Rate until the page sends the browser elsewhere; the final redirect target."""
    for _ in range(50):
        response = client.get(url(campaign, "work"))
        if response.status_code != 200:
            return response
        assert rate_page(client, campaign).status_code == 200


CODES = {"completion_code": "PAID-OK", "no_work_code": "NO-WORK", "screened_out_code": "SCREENED"}


def test_a_full_study_gives_the_no_work_code_never_the_completion_code(client, make_campaign):
    """D1: the pool used up, a newcomer sees "study is full" and the no-work code."""
    from django.test import Client

    campaign = make_campaign(n=2, conditions=("x",), template="mos", policy="overlap", policy_k=1, **CODES)
    enter(client, campaign)
    assert drain(client, campaign)["Location"] == url(campaign, "done")
    first = Annotator.objects.get()
    assert (first.outcome, first.completion_code) == ("completed", "PAID-OK")
    late = Client()
    enter(late, campaign)
    response = late.get(url(campaign, "work"))
    assert response["Location"] == url(campaign, "done")
    page = late.get(url(campaign, "done")).content.decode()
    assert 'id="study-full"' in page and "This study is full" in page
    assert "NO-WORK" in page and "PAID-OK" not in page
    second = Annotator.objects.exclude(pk=first.pk).get()
    assert (second.outcome, second.completion_code) == ("no_work", "NO-WORK")
    assert not Rating.objects.filter(annotator=second).exists()


def test_completion_code_only_after_the_quota_including_controls(client, make_campaign):
    extra = [{"id": "g1", "kind": "gold", "audio": "g1.wav", "gold": 5}]
    campaign = make_campaign(n=3, conditions=("x",), policy_n=2, extra=extra, **CODES)
    enter(client, campaign)
    annotator = Annotator.objects.get()

    assert annotator_quota(annotator) == (0, 3)  # n = 2 regular + 1 gold
    drain(client, campaign)
    annotator.refresh_from_db()
    kinds = sorted(Rating.objects.filter(annotator=annotator).values_list("item__kind", flat=True))
    assert kinds == ["gold", "regular", "regular"]
    assert (annotator.outcome, annotator.completion_code) == ("completed", "PAID-OK")


def test_partial_work_when_the_pool_runs_out_is_no_work_not_completion(make_campaign, make_annotator):
    campaign = make_campaign(n=3, conditions=("x",), template="mos", policy="overlap", policy_k=1,
                             control_every=0, **CODES)
    first, second = make_annotator(campaign), make_annotator(campaign)
    a = services.assignment_next_for_annotator(first, campaign)
    services.rating_submit(annotator=first, assignment_id=a.public_id, values={"mos": "3"}, client_token="a",
                           played=heard(a), now=a.served_at + timedelta(seconds=5))
    for _ in range(2):
        b = services.assignment_next_for_annotator(second, campaign)
        services.rating_submit(annotator=second, assignment_id=b.public_id, values={"mos": "3"},
                               client_token=b.public_id, played=heard(b), now=b.served_at + timedelta(seconds=5))
    assert services.assignment_next_for_annotator(first, campaign) is None
    services.annotator_complete(annotator=first)
    assert (first.outcome, first.completion_code) == ("no_work", "NO-WORK")  # 1 of 3: not the quota


def test_screened_out_page_and_code(client, make_campaign):
    extra = [{"id": "q1", "kind": "qualification", "audio": "q1.wav", "gold": 5}]
    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, extra=extra, qc={"gold_tolerance": 0}, **CODES)
    enter(client, campaign)
    client.get(url(campaign, "work"))
    assert rate_page(client, campaign, value="1").status_code == 200  # fails the qualification item
    assert client.get(url(campaign, "work"))["Location"] == url(campaign, "done")
    page = client.get(url(campaign, "done")).content.decode()
    assert "SCREENED" in page and "PAID-OK" not in page and "NO-WORK" not in page
    assert Annotator.objects.get().outcome == "screened_out"


@pytest.mark.parametrize("status", ["paused", "closed"])
def test_a_stopped_campaign_takes_no_ratings_and_issues_no_code(client, make_campaign, status):
    """F-6: pausing or closing stops ratings at once (browser path) and hands out nothing."""
    campaign = make_campaign(n=3, conditions=("x",), policy_n=3, **CODES)
    enter(client, campaign)
    client.get(url(campaign, "work"))
    services.campaign_set_status(campaign=campaign, status=status)
    reply = rate_page(client, campaign)
    assert reply.status_code == 409 and reply.json()["error"]["field"] == "campaign"
    assert not Rating.objects.exists()
    page = client.get(url(campaign, "work"))
    assert page.status_code in (410, 503) and b'id="stopped"' in page.content
    annotator = Annotator.objects.get()
    assert annotator.completed_at is None and annotator.completion_code == ""
    services.annotator_complete(annotator=annotator)
    annotator.refresh_from_db()
    assert annotator.completion_code == ""
    # reopening resumes the same item
    services.campaign_set_status(campaign=campaign, status="open")
    assert rate_page(client, campaign).status_code == 200


@pytest.mark.parametrize("status", ["paused", "closed"])
def test_a_stopped_campaign_refuses_the_api_too(client, make_campaign, make_user, status):
    campaign = make_campaign(n=2, template="quality_0_5", audio=False)
    client.force_login(make_user())
    base = f"/api/v1/projects/{campaign.project.slug}/campaigns/{campaign.slug}/"
    item = client.post(base + "next/", {"consent": True}, content_type="application/json").json()
    services.campaign_set_status(campaign=campaign, status=status)
    reply = client.post(base + "ratings/submit/", {"assignment": item["assignment"], "values": {"quality": 3},
                                                   "client_token": "x"}, content_type="application/json")
    assert reply.status_code == 409 and not Rating.objects.exists()
    nxt = client.post(base + "next/", {}, content_type="application/json")
    assert nxt.status_code == 409 and nxt.json()["error"]["field"] == "campaign"
    assert Annotator.objects.get().completion_code == ""


def test_an_expired_assignment_is_refused_even_before_the_sweep(make_campaign, make_annotator):
    """M-11: past expires_at, no sweep run yet: refused with a clear message, nothing stored."""
    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, expiry_minutes=1)
    me = make_annotator(campaign)
    a = services.assignment_next_for_annotator(me, campaign)
    with pytest.raises(services.RatingError) as err:
        services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "3"}, client_token="late",
                               played=heard(a), now=a.served_at + timedelta(seconds=75))
    assert err.value.status == 409 and "expired" in err.value.message
    assert not Rating.objects.exists()
    assert Assignment.objects.get(pk=a.pk).status == "active"


def test_campaign_detail_counts_only_annotators_who_met_their_quota(client, make_campaign, make_user):
    """D23: "finished" means quota met, not "saw the done page"."""
    from django.test import Client

    from accounts.models import Role
    from accounts.services import membership_set

    campaign = make_campaign(n=1, conditions=("x",), template="mos", policy="overlap", policy_k=1, **CODES)
    enter(client, campaign)
    drain(client, campaign)
    for _ in range(2):
        late = Client()
        enter(late, campaign)
        late.get(url(campaign, "work"))
    progress = campaign_progress(campaign)
    assert progress["annotators"] == {**progress["annotators"], "total": 3, "completed": 1, "no_work": 2}
    researcher = make_user()
    membership_set(project=campaign.project, user=researcher, role=Role.RESEARCHER)
    browser = Client()
    browser.force_login(researcher)
    page = browser.get(reverse("annotation:campaign_detail", args=[campaign.project.slug, campaign.slug]))
    assert '<span id="n-finished">1</span>' in page.content.decode()


# ------------------------------------------------------------------- listening evidence


def test_seek_to_end_is_refused_by_the_server(client, make_campaign):
    """D4: the player's report of a seek to the end says the clip was not heard."""
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    enter(client, campaign)
    client.get(url(campaign, "work"))
    a = Assignment.objects.select_related("item__clip").get()
    d = a.item.clip.duration_s
    reply = rate_page(client, campaign, played=[[d - 0.05, d]])
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["field"] == "played" and error["message"].startswith("Please listen to the whole clip")
    assert rate_page(client, campaign, played=None).status_code == 400  # no report: not heard
    assert not Rating.objects.exists()
    assert rate_page(client, campaign).status_code == 200
    rating = Rating.objects.get()
    assert rating.heard_fraction == pytest.approx(1.0) and rating.played == [[0.0, d]]


def test_partial_listening_share_is_a_campaign_setting(make_campaign, make_annotator):
    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, min_listen_fraction=0.5)
    me = make_annotator(campaign)
    a = services.assignment_next_for_annotator(me, campaign)
    d = a.item.clip.duration_s
    later = a.served_at + timedelta(seconds=5)
    with pytest.raises(services.RatingError, match="at least 50%"):
        services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "3"},
                               client_token="a", played=[[0, d * 0.3]], now=later)
    result = services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "3"},
                                    client_token="b", played=[[0, d * 0.6]], now=later)
    assert result.ratings[0].heard_fraction == pytest.approx(0.6)


def test_evidence_is_optional_but_checked_when_listening_is_not_required(make_campaign, make_annotator):
    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, require_full_listen=False)
    me = make_annotator(campaign)
    a = services.assignment_next_for_annotator(me, campaign)
    with pytest.raises(services.RatingError, match="not valid"):
        services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "3"},
                               client_token="a", played=[[0, float("nan")]], now=a.served_at + timedelta(seconds=5))
    result = services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "3"},
                                    client_token="b", now=a.served_at + timedelta(seconds=5))
    assert result.ratings[0].heard_fraction is None


def test_listened_fraction_in_exports_and_the_report_filter(client, make_campaign, make_user, make_annotator):
    import io

    import pandas as pd

    from accounts.models import Role
    from accounts.services import membership_set

    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, min_listen_fraction=0.5, control_every=0)
    shares = {}
    for share in (0.6, 1.0):
        me = make_annotator(campaign)
        for _ in range(2):
            a = services.assignment_next_for_annotator(me, campaign)
            d = a.item.clip.duration_s
            services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "4"},
                                   client_token=a.public_id, played=[[0, d * share]],
                                   now=a.served_at + timedelta(seconds=5))
        shares[me.public_id] = share
    researcher = make_user()
    membership_set(project=campaign.project, user=researcher, role=Role.RESEARCHER)
    client.force_login(researcher)
    export = reverse("annotation:campaign_export", args=[campaign.project.slug, campaign.slug, "ratings", "csv"])
    frame = pd.read_csv(io.BytesIO(client.get(export).content))
    assert {"heard_fraction", "played", "elapsed_ms"} <= set(frame.columns)
    for rater, share in shares.items():
        assert frame.loc[frame["rater_id"] == rater, "heard_fraction"].tolist() == pytest.approx([share, share])
    filtered = pd.read_csv(io.BytesIO(client.get(export + "?min_heard=0.9").content))
    assert set(filtered["rater_id"]) == {r for r, s in shares.items() if s == 1.0}
    assert client.get(export + "?min_heard=2").status_code == 400
    report = reverse("annotation:campaign_report", args=[campaign.project.slug, campaign.slug])
    page = client.get(report + "?min_heard=0.9").content.decode()
    assert 'name="min_heard"' in page and 'value="0.9"' in page


def test_the_timeline_starts_when_the_clip_was_first_fetched(client, make_campaign):
    """Listening cannot start before the clip's bytes were first requested."""
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    enter(client, campaign)
    client.get(url(campaign, "work"))
    a = Assignment.objects.select_related("item__clip").get()
    Assignment.objects.filter(pk=a.pk).update(served_at=a.served_at - timedelta(seconds=30))
    assert client.get(url(campaign, "audio", a.public_id)).status_code == 200
    client.get(url(campaign, "audio", a.public_id), HTTP_RANGE="bytes=0-99")
    a.refresh_from_db()
    first = a.audio_at
    assert first is not None

    def post(token):
        return client.post(url(campaign, "rate"), json.dumps({
            "assignment": a.public_id, "values": {"mos": "4"}, "client_token": token,
            "played": heard(a)}), content_type="application/json")

    reply = post("now")  # served 30 s ago, but the clip was fetched just now
    assert reply.status_code == 400 and "too soon" in reply.json()["error"]["message"]
    Assignment.objects.filter(pk=a.pk).update(audio_at=first - timedelta(seconds=5))
    assert post("later").status_code == 200
