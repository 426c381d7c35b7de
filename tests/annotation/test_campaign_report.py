"""Campaign report over stored ratings: numbers checked against statsmodels / scipy /
krippendorff, exclusions reported (never silent), exports pseudonymous, API permissions."""

from __future__ import annotations

import io
import json
import math
from datetime import timedelta

import numpy as np
import pandas as pd
import pytest
from django.urls import reverse
from scipy import stats
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from accounts.models import Role
from accounts.services import membership_set
from annotation import selectors, services
from annotation.models import Annotator
from tests.annotation.conftest import heard

pytestmark = pytest.mark.django_db

# rows: annotators; columns: items i0..i5 (every annotator rates every item: k = 4)
MOS = np.array([
    [5, 4, 3, 2, 1, 4],
    [4, 4, 3, 1, 2, 5],
    [5, 3, 2, 2, 1, 4],
    [4, 5, 3, 1, 1, 3],
])


def rate_all(campaign, values_for, n_annotators, *, trap_answer=None):
    """Each annotator drains the campaign; ``values_for(annotator_index, item)`` answers."""
    annotators = []
    from accounts.services import guest_create

    for r in range(n_annotators):
        a = services.annotator_step(annotator=services.annotator_enrol(campaign=campaign, user=guest_create()),
                                    step="consent")
        annotators.append(a)
        while (asg := services.assignment_next_for_annotator(a, campaign)) is not None:
            item = asg.item
            if item.kind == "trap":
                value = (trap_answer or {}).get(r, item.expected["mos"])
                values = {"mos": value}
            else:
                values = values_for(r, item)
            services.rating_submit(annotator=a, assignment_id=asg.public_id, values=values,
                                   client_token=asg.public_id, now=asg.served_at + timedelta(seconds=9),
                                   played=heard(asg))
    return annotators


@pytest.fixture
def mos_campaign(make_campaign):
    extra = [{"id": "trap", "kind": "trap", "audio": "trap.wav", "trap": 2}]
    campaign = make_campaign(n=6, policy="overlap", policy_k=4, policy_n=None, control_every=3, extra=extra)
    annotators = rate_all(campaign, lambda r, item: {"mos": int(MOS[r, int(item.external_id[1:])])}, 4,
                          trap_answer={3: 5})
    return campaign, annotators


def test_mos_and_agreement_match_reference_implementations(mos_campaign):
    campaign, annotators = mos_campaign
    frame = selectors.ratings_frame(campaign)
    assert len(frame) == 4 * 7  # 6 items + 1 trap each
    report = selectors.report_for(campaign, frame)
    # the rater who ignored the trap is excluded, with the reason reported
    bad = annotators[3].public_id
    assert report.exclusions.n_raters_excluded == 1 and bad in report.exclusions.excluded.index
    assert "trap" in report.rater_quality.loc[bad, "reasons"]
    kept = MOS[:3]
    # Fleiss' kappa over the kept raters (every item rated 3 times) vs statsmodels
    table = np.stack([np.bincount(kept[:, j], minlength=6)[1:] for j in range(6)])
    row = report.agreement.set_index("criterion").loc["mos"]
    assert row["statistic"] == "fleiss_kappa"
    assert row["value"] == pytest.approx(sm_fleiss(table), abs=1e-12)
    # Krippendorff's alpha (ordinal) vs the krippendorff package
    import krippendorff

    assert row["alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=kept.astype(float), level_of_measurement="ordinal"), abs=1e-9)
    # MOS per system/condition/task (one item, 3 ratings each here): below the minimum n
    # of an interval (D21), so no CI is shown, only "too few ratings"
    mos = report.mos[report.mos["criterion"] == "mos"]
    assert len(mos) == 6
    for j in range(6):
        x = kept[:, j].astype(float)
        row = mos[(mos["system"] == f"sys{j % 2}") & (mos["task"] == f"task{j % 3}")].iloc[0]
        assert row["n"] == 3 and row["mos"] == pytest.approx(x.mean())
        assert math.isnan(row["ci_low"]) and row["ci_note"] == "too few ratings"
    # the KoALa table per task (6 ratings): Student t 95 % CI vs scipy, cut to the 1-5 scale
    koala = report.koala.set_index("task")
    for task, cols in (("task0", [0, 3]), ("task1", [1, 4]), ("task2", [2, 5])):
        x = kept[:, cols].ravel().astype(float)
        low, high = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        if low >= 1 and high <= 5:
            assert koala.loc[task, "MOS ± CI"] == f"{x.mean():.2f} ± {(high - low) / 2:.2f}"
        else:
            assert koala.loc[task, "MOS ± CI"] == (
                f"{x.mean():.2f} [{max(low, 1.0):.2f}, {min(high, 5.0):.2f}]")


def test_majority_decisions_flag_ties(make_campaign):
    campaign = make_campaign(n=3, template="naturalness", policy="overlap", policy_k=2, audio=False)
    answers = {0: {"i0": "natural", "i1": "natural", "i2": "unnatural"},
               1: {"i0": "natural", "i1": "unnatural", "i2": "unnatural"}}
    rate_all(campaign, lambda r, item: {"natural": answers[r][item.external_id]}, 2)
    decisions = selectors.report_for(campaign).decisions.set_index("item_id")
    assert decisions.loc["i0", "decision"] == "keep"
    assert decisions.loc["i1", "decision"] == "tie" and bool(decisions.loc["i1", "tie"])
    assert decisions.loc["i2", "decision"] == "discard"


@pytest.fixture
def researcher_client(client, make_user, project):
    user = make_user()
    membership_set(project=project, user=user, role=Role.RESEARCHER)
    client.force_login(user)
    return client


def test_report_page_shows_tables_plots_and_exclusions(researcher_client, mos_campaign):
    campaign, annotators = mos_campaign
    page = researcher_client.get(reverse("annotation:campaign_report", args=["t", campaign.slug])).content.decode()
    for text in ("fleiss_kappa", "MOS ± CI", "<svg", "excluded", annotators[3].public_id, "trap"):
        assert text in page


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_exports_are_pseudonymous(researcher_client, mos_campaign, fmt):
    campaign, annotators = mos_campaign
    response = researcher_client.get(reverse("annotation:campaign_export", args=["t", campaign.slug, "ratings", fmt]))
    assert response.status_code == 200
    body = response.content
    frame = {"csv": lambda b: pd.read_csv(io.BytesIO(b)), "json": lambda b: pd.DataFrame(json.loads(b)),
             "parquet": lambda b: pd.read_parquet(io.BytesIO(b))}[fmt](body)
    assert set(frame["rater_id"]) == {a.public_id for a in annotators}
    for a in Annotator.objects.select_related("user"):
        assert a.user.username.encode() not in body and a.user.handle.encode() not in body


@pytest.mark.parametrize(
    ("role", "expected"),
    [pytest.param(None, 401, id="anonymous"), pytest.param("participant", 403, id="participant"),
     pytest.param("researcher", 200, id="researcher"), pytest.param("owner", 200, id="owner")],
)
def test_report_api_permissions(client, make_user, mos_campaign, role, expected):
    campaign, _ = mos_campaign
    if role:
        user = make_user()
        membership_set(project=campaign.project, user=user, role=role)
        client.force_login(user)
    response = client.get(f"/api/v1/projects/t/campaigns/{campaign.slug}/report/")
    assert response.status_code == expected
    if expected == 200:
        data = response.json()
        assert data["agreement"][0]["statistic"] == "fleiss_kappa"
        assert data["exclusions"]["raters"][0]["rater_id"] == campaign.annotators.order_by("pk")[3].public_id
