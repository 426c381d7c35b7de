"""Listening-test reports on stored ratings: the real report page, exports and the bundle.

Campaigns are written row by row (items, stimuli, assignments, ratings) so each test
controls every value; the numbers on the page and in the exports are checked against
scipy/statsmodels computed here from the same values.
"""

from __future__ import annotations

import io
import json
from datetime import timedelta

import numpy as np
import pandas as pd
import pytest
from django.urls import reverse
from django.utils import timezone
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from accounts.models import Role
from accounts.services import membership_set
from annotation import selectors, services
from annotation.models import Assignment, Item, Rating, Stimulus
from quiz.models import Clip

pytestmark = pytest.mark.django_db


def _clip(project, key: str) -> Clip:
    return Clip.objects.create(project=project, file=f"lt/{key}.wav", sha256=f"{abs(hash(key)):064x}"[-64:],
                               content_type="audio/wav", format="WAV", subtype="PCM_16", duration_s=2.0,
                               sample_rate=16000, channels=1, frames=32000, size_bytes=64044)


def seed_listening(project, make_annotator, template: str, stimuli: list[dict], n_items: int,
                   n_raters: int, value_for, *, slug: str | None = None):
    """An open ``template`` campaign: ``n_items`` items with ``stimuli`` (role/system/
    condition dicts; ``same_as`` = index of the stimulus whose clip it shares, for ABX's
    X), every rater rating every item: ``value_for(rater, item, stimulus_or_None)`` returns
    the value for a rated stimulus, or ``(value, chosen stimulus index | None)`` for AB/ABX."""
    campaign = services.campaign_create(project=project, name=template.upper(), slug=slug or template,
                                        template=template)
    items = []
    for i in range(n_items):
        item = Item.objects.create(campaign=campaign, external_id=f"{template}{i}", position=i)
        made = []
        for k, spec in enumerate(stimuli):
            clip = made[spec["same_as"]].clip if "same_as" in spec else _clip(project, f"{campaign.pk}-{i}-{k}")
            made.append(Stimulus.objects.create(item=item, position=k, role=spec["role"], clip=clip,
                                                system=spec.get("system", ""),
                                                condition=spec.get("condition", "")))
        items.append((item, made))
    services.campaign_set_status(campaign=campaign, status="open")
    key = campaign.criteria[0]["key"]
    now = timezone.now()
    annotators = [make_annotator(campaign) for _ in range(n_raters)]
    for r, annotator in enumerate(annotators):
        for i, (item, made) in enumerate(items):
            asg = Assignment.objects.create(campaign=campaign, item=item, annotator=annotator, served_at=now,
                                            expires_at=now + timedelta(hours=1), submitted_at=now,
                                            status="submitted")
            rated = [s for s in made if s.role not in ("reference", "A", "B", "X")]
            if rated:
                for s in rated:
                    Rating.objects.create(campaign=campaign, assignment=asg, item=item, annotator=annotator,
                                          stimulus=s, criterion=key, value=str(value_for(r, i, s)),
                                          client_token=f"t{asg.pk}", submitted_at=now, elapsed_ms=9000)
            else:
                value, chosen = value_for(r, i, None)
                Rating.objects.create(campaign=campaign, assignment=asg, item=item, annotator=annotator,
                                      stimulus=None if chosen is None else made[chosen], criterion=key,
                                      value=value, client_token=f"t{asg.pk}", submitted_at=now,
                                      elapsed_ms=9000)
    return campaign, annotators


MUSHRA_STIMULI = [{"role": "reference"}, {"role": "hidden_reference"},
                  {"role": "anchor", "condition": "lp3500"}, {"role": "anchor", "condition": "lp7000"},
                  {"role": "system", "system": "tts-a"}, {"role": "system", "system": "tts-b"}]
MU = {"hidden_reference": 95, "lp3500": 20, "lp7000": 45, "tts-a": 78, "tts-b": 60}


def _mushra_value(r: int, i: int, s: Stimulus) -> int:
    label = "hidden_reference" if s.role == "hidden_reference" else (s.system or s.condition)
    if label == "hidden_reference":  # found by everyone but listener 5, who misses it every time
        return 35 if r == 5 else 92 + (3 * r + i) % 9
    rng = np.random.default_rng(1000 * r + 10 * i + s.position)
    return int(np.clip(round(MU[label] + rng.normal(0, 7)), 0, 100))


@pytest.fixture
def researcher_client(client, make_user, project):
    user = make_user()
    membership_set(project=project, user=user, role=Role.RESEARCHER)
    client.force_login(user)
    return client


@pytest.fixture
def mushra(project, make_annotator):
    return seed_listening(project, make_annotator, "mushra", MUSHRA_STIMULI, 4, 6, _mushra_value)


def _values(campaign, label: str, exclude=()) -> np.ndarray:
    qs = Rating.objects.filter(campaign=campaign).select_related("stimulus", "annotator")
    out = []
    for rt in qs:
        s = rt.stimulus
        name = "hidden_reference" if s.role == "hidden_reference" else (s.system or s.condition)
        if name == label and rt.annotator.public_id not in exclude:
            out.append(float(rt.value))
    return np.array(out)


def test_mushra_report_page_shows_conditions_tests_and_plots(researcher_client, mushra):
    campaign, annotators = mushra
    page = researcher_client.get(reverse("annotation:campaign_report", args=["t", campaign.slug])).content.decode()
    assert 'id="listening-test"' in page and "MUSHRA — mushra" in page
    section = page[page.index('id="listening-test"'):page.index('id="agreement"')]
    screened = "post-screening" in section.lower() and "not available" not in section
    excluded = [annotators[5].public_id] if screened else []
    for label in MU:
        x = _values(campaign, label, excluded)
        assert f"<td>{label}</td>" in section
        assert f"<td>{x.mean():.3f}</td>" in section  # the mean per condition
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert f"<td>{max(lo, 0):.3f}</td>" in section and f"<td>{min(hi, 100):.3f}</td>" in section
    assert "Friedman" in section and "Kendall" in section
    assert section.count("<svg") >= 1  # violin/box plot per condition
    # the generic tables treat each stimulus as a unit, labelled by its system/condition
    report = selectors.report_for(campaign)
    assert set(report.mos["system"]) == set(MU)
    assert report.agreement.iloc[0]["n_items"] == 4 * 5  # 5 rated stimuli per item
    assert report.agreement.iloc[0]["alpha_level"] == "interval"  # 0-100 slider scores


def test_mushra_post_screening_excludes_the_listener_with_the_reason(researcher_client, mushra):
    pytest.importorskip("annotation.post_screening")  # the screening helper's module
    campaign, annotators = mushra
    page = researcher_client.get(reverse("annotation:campaign_report", args=["t", campaign.slug])).content.decode()
    section = page[page.index('id="listening-test"'):page.index('id="agreement"')]
    assert annotators[5].public_id in section and "hidden reference below 90" in section
    x = _values(campaign, "hidden_reference", [annotators[5].public_id])
    assert f"<td>{x.mean():.3f}</td>" in section


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_mushra_exports_match_scipy(researcher_client, mushra, fmt):
    campaign, _ = mushra
    url = reverse("annotation:campaign_export", args=["t", campaign.slug, "systems", fmt])
    body = researcher_client.get(url).content
    frame = {"csv": lambda b: pd.read_csv(io.BytesIO(b)), "json": lambda b: pd.DataFrame(json.loads(b)),
             "parquet": lambda b: pd.read_parquet(io.BytesIO(b))}[fmt](body).set_index("condition")
    excluded = list(pd.DataFrame(json.loads(researcher_client.get(reverse(
        "annotation:campaign_export", args=["t", campaign.slug, "listening_excluded", "json"])).content))
        .get("rater_id", []))
    x = _values(campaign, "tts-a", excluded)
    assert frame.loc["tts-a", "mean"] == pytest.approx(x.mean())
    assert frame.loc["tts-a", "median"] == pytest.approx(np.median(x))
    ci = stats.quantile_test(x, q=float(np.median(x))).confidence_interval()
    assert (frame.loc["tts-a", "median_low"], frame.loc["tts-a", "median_high"]) == (ci.low, ci.high)
    assert frame["criterion"].eq("mushra").all()


def test_listening_json_export_holds_every_table(researcher_client, mushra):
    campaign, _ = mushra
    doc = json.loads(researcher_client.get(reverse(
        "annotation:campaign_export", args=["t", campaign.slug, "listening", "json"])).content)
    assert doc["template"] == "mushra"
    assert {"systems", "pairwise", "ranks", "friedman"} <= set(doc["tables"])
    assert len(doc["tables"]["pairwise"]) == 10  # 5 conditions, every pair
    assert researcher_client.get(reverse(
        "annotation:campaign_export", args=["t", campaign.slug, "listening", "csv"])).status_code == 404


def _ab_value(r: int, i: int, _s) -> tuple[str, int | None]:
    # A = tts-a (stimulus 0), B = tts-b (stimulus 1); 6 raters x 5 items = 30 answers
    k = 5 * r + i
    if k < 20:
        return "A", 0
    if k < 26:
        return "B", 1
    return "none", None


def test_ab_report_page_shows_preference_with_wilson_ci_and_sign_test(researcher_client, project,
                                                                      make_annotator):
    campaign, _ = seed_listening(project, make_annotator, "ab",
                                 [{"role": "A", "system": "tts-a"}, {"role": "B", "system": "tts-b"}],
                                 5, 6, _ab_value)
    page = researcher_client.get(reverse("annotation:campaign_report", args=["t", campaign.slug])).content.decode()
    section = page[page.index('id="listening-test"'):page.index('id="agreement"')]
    lo, hi = proportion_confint(20, 26, method="wilson")
    p = stats.binomtest(20, 26).pvalue
    for text in ("<td>tts-a</td><td>tts-b</td><td>20</td><td>6</td><td>4</td>", f"<td>{lo:.3f}</td>",
                 f"<td>{hi:.3f}</td>", f"<td>{p:.3f}</td>", "AB preference", "<svg"):
        assert text in section, text
    csv = pd.read_csv(io.BytesIO(researcher_client.get(reverse(
        "annotation:campaign_export", args=["t", campaign.slug, "preference", "csv"])).content))
    assert csv.loc[0, "share_first"] == pytest.approx(20 / 26)


def test_abx_and_ccr_reports(researcher_client, project, make_annotator):
    abx, _ = seed_listening(project, make_annotator, "abx",
                            [{"role": "A", "system": "codec"}, {"role": "B", "system": "clean"},
                             {"role": "X", "same_as": 0}], 4, 5,
                            lambda r, i, s: ("A", 0) if (r + i) % 5 else ("B", 1))
    page = researcher_client.get(reverse("annotation:campaign_report", args=["t", abx.slug])).content.decode()
    p = stats.binomtest(16, 20, alternative="greater").pvalue
    assert "<td>clean vs codec</td><td>20</td><td>16</td>" in page and f"<td>{p:.3f}</td>" in page

    def cmos(r, i, s):
        return {"good": 2, "bad": -1}[s.system] + (r % 3) - 1
    ccr, _ = seed_listening(project, make_annotator, "ccr", [{"role": "reference"},
                                                            {"role": "system", "system": "good"}], 3, 6,
                            lambda r, i, s: cmos(r, i, s))
    # a second system in other items of the same campaign
    bad, _ = seed_listening(project, make_annotator, "ccr", [{"role": "reference"},
                                                            {"role": "system", "system": "bad"}], 3, 6,
                            lambda r, i, s: cmos(r, i, s), slug="ccr-bad")
    page = researcher_client.get(reverse("annotation:campaign_report", args=["t", ccr.slug])).content.decode()
    x = np.array([cmos(r, 0, Stimulus(system="good")) for r in range(6) for _ in range(3)], dtype=float)
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert "CMOS — cmos" in page and f"<td>{x.mean():.3f}</td>" in page
    assert f"<td>{max(lo, -3):.3f}</td>" in page and f"<td>{min(hi, 3):.3f}</td>" in page
    del bad


def test_project_bundle_holds_listening_tables(researcher_client, mushra):
    campaign, _ = mushra
    from frontend.report_bundle import build

    files, manifest = build(campaign.project)
    names = set(files)
    assert f"tables/annotation_{campaign.slug}_systems.csv" in names
    assert f"tables/annotation_{campaign.slug}_pairwise.csv" in names
    assert any(n.startswith(f"figures/annotation_{campaign.slug}_") and n.endswith(".svg") for n in names)
    systems = pd.read_csv(io.BytesIO(files[f"tables/annotation_{campaign.slug}_systems.csv"]))
    assert set(systems["condition"]) == set(MU)
    assert manifest["files"]


def test_mushra_submitted_through_the_service_reaches_the_report(researcher_client, make_listening_campaign,
                                                                 make_annotator):
    """Import → serve → submit (the annotators' real path) → the report's tables."""
    from tests.annotation.conftest import heard_all

    campaign = make_listening_campaign("mushra", n=2, policy_k=3)
    scores = {"hidden_reference": 96, "lp3.5k": 18, "lp7k": 44, "sys-alpha": 81, "sys-beta": 63}
    sent = {label: [] for label in scores}
    for r in range(3):
        me = make_annotator(campaign)
        while (a := services.assignment_next_for_annotator(me, campaign)) is not None:
            payload = selectors.item_payload(a)
            by_id = {s.public_id: s for s in Stimulus.objects.filter(item=a.item)}
            values = {}
            for shown in payload["test"]["stimuli"]:
                s = by_id[shown["id"]]
                label = "hidden_reference" if s.role == "hidden_reference" else (s.system or s.condition)
                values[shown["id"]] = str(scores[label] - r)
                sent[label].append(float(scores[label] - r))
            services.rating_submit(annotator=me, assignment_id=a.public_id, values={"mushra": values},
                                   client_token=f"r{r}-{a.public_id}", played=heard_all(payload),
                                   now=a.served_at + timedelta(seconds=30))
    systems = selectors_listening_systems(campaign)
    for label, xs in sent.items():
        x = np.array(xs)
        assert len(x) == 6
        assert systems.loc[label, "mean"] == pytest.approx(x.mean())
        assert systems.loc[label, "median"] == pytest.approx(np.median(x))
    page = researcher_client.get(reverse("annotation:campaign_report", args=["t", campaign.slug])).content.decode()
    assert "<td>sys-alpha</td>" in page and f"<td>{np.mean(sent['sys-alpha']):.3f}</td>" in page


def selectors_listening_systems(campaign) -> pd.DataFrame:
    from annotation.listening_selectors import listening_report_for

    summary = listening_report_for(campaign, selectors.report_for(campaign))
    return summary.reports["mushra"].tables["systems"].set_index("condition")


def test_report_api_carries_the_listening_tables(researcher_client, mushra):
    campaign, _ = mushra
    data = researcher_client.get(f"/api/v1/projects/t/campaigns/{campaign.slug}/report/").json()
    systems = pd.DataFrame(data["listening"]["tables"]["systems"]).set_index("condition")
    x = _values(campaign, "tts-b", list(pd.DataFrame(data["listening"]["tables"]["listening_excluded"])
                                        .get("rater_id", [])))
    assert systems.loc["tts-b", "mean"] == pytest.approx(x.mean())
    assert data["listening"]["criteria"]["mushra"]["measure"] == "MUSHRA"
