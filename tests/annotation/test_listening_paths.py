"""The PostgreSQL fast path and the ORM reference path apply the same listening,
status and expiry rules (the fast path's SQL is checked against the reference)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from annotation import services
from annotation.models import Rating

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(connection.vendor != "postgresql",
                                 reason="the hand-written hot path runs on PostgreSQL only")]

CASES = [
    pytest.param(lambda d: [[0, d]], 5, {}, id="whole"),
    pytest.param(lambda d: [[0, d * 0.97]], 5, {}, id="nearly-whole"),
    pytest.param(lambda d: [[d - 0.05, d]], 5, {}, id="seek-to-end"),
    pytest.param(lambda d: [[0, d * 0.4], [d * 0.2, d * 0.7]], 5, {"min_listen_fraction": 0.6}, id="overlap"),
    pytest.param(lambda d: [[0, d]], 0.01, {}, id="too-fast"),
    pytest.param(lambda d: [[-0.1, d + 0.1]], 5, {}, id="edges"),
    pytest.param(lambda d: [[0, d + 3]], 5, {}, id="beyond"),
    pytest.param(lambda d: None, 5, {}, id="no-report"),
    pytest.param(lambda d: None, 5, {"require_full_listen": False}, id="no-report-not-required"),
    pytest.param(lambda d: [[0, d * 0.2]], 5, {"require_full_listen": False}, id="partial-not-required"),
    pytest.param(lambda d: [[0, d]], 0.01, {"require_full_listen": False}, id="too-fast-not-required"),
    pytest.param(lambda d: [[0, "x"]], 5, {}, id="malformed"),
]


def outcome(make_campaign, make_annotator, played, later, fields, *, fast: bool, monkeypatch,
            fetched_after=None):
    if not fast:
        monkeypatch.setattr(services, "_submit_pg", lambda *a, **k: None)
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1, **fields)
    me = make_annotator(campaign)
    a = services.assignment_next_for_annotator(me, campaign)
    d = a.item.clip.duration_s
    if fetched_after is not None:
        services.assignment_audio_fetched(assignment=a, now=a.served_at + timedelta(seconds=fetched_after))
    try:
        result = services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "4"},
                                        client_token="t", played=played(d), now=a.served_at + timedelta(seconds=later))
    except services.RatingError as exc:
        return ("refused", exc.field, Rating.objects.count())
    stored = Rating.objects.get()
    assert stored.pk == result.ratings[0].pk
    played_rounded = [[round(x, 6) for x in p] for p in stored.played]
    heard = None if stored.heard_fraction is None else round(stored.heard_fraction, 6)
    return ("stored", heard, played_rounded)


@pytest.mark.parametrize(("played", "later", "fields"), CASES)
def test_fast_path_matches_the_reference_on_listening_evidence(make_campaign, make_annotator, monkeypatch,
                                                               played, later, fields):
    fast = outcome(make_campaign, make_annotator, played, later, fields, fast=True, monkeypatch=monkeypatch)
    Rating.objects.all().delete()
    reference = outcome(make_campaign, make_annotator, played, later, fields, fast=False, monkeypatch=monkeypatch)
    assert fast == reference


@pytest.mark.parametrize("fetched_after", [pytest.param(0.5, id="fetched-late-ok"),
                                           pytest.param(4.9, id="fetched-too-late")])
def test_fast_path_matches_the_reference_on_the_fetch_timeline(make_campaign, make_annotator, monkeypatch,
                                                               fetched_after):
    args = (make_campaign, make_annotator, lambda d: [[0, d]], 5, {})
    fast = outcome(*args, fast=True, monkeypatch=monkeypatch, fetched_after=fetched_after)
    Rating.objects.all().delete()
    reference = outcome(*args, fast=False, monkeypatch=monkeypatch, fetched_after=fetched_after)
    assert fast == reference
    assert fast[0] == ("stored" if fetched_after < 4.5 else "refused")


def test_fast_path_refuses_stopped_campaigns_and_expired_assignments(make_campaign, make_annotator):
    calls = []
    real = services._submit_pg

    def spy(*args, **kwargs):
        calls.append(result := real(*args, **kwargs))
        return result

    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, expiry_minutes=1)
    me = make_annotator(campaign)
    a = services.assignment_next_for_annotator(me, campaign)
    full = [[0, a.item.clip.duration_s]]
    import unittest.mock as mock

    with mock.patch.object(services, "_submit_pg", spy):
        with pytest.raises(services.RatingError, match="expired"):
            services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "4"},
                                   client_token="late", played=full, now=a.served_at + timedelta(seconds=90))
        campaign.status = "paused"
        campaign.save(update_fields=["status"])  # me.campaign still says "open": the SQL must check
        with pytest.raises(services.RatingError, match="paused"):
            services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mos": "4"},
                                   client_token="paused", played=full, now=a.served_at + timedelta(seconds=5))
    assert calls == [None, None] and not Rating.objects.exists()
