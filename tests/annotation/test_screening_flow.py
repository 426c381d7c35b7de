"""Screening steps before rating (headphone check, volume, digits in noise): the page,
its audio, pass and fail, the integrity rules (no item before passing, the screened-out
code on failure, never the completion code) and the API gate."""

from __future__ import annotations

import io

import pytest
import soundfile as sf
from django.test import Client
from django.urls import reverse

from annotation import services, services_crowd
from annotation.models import Annotator, Assignment, ScreeningResult

pytestmark = pytest.mark.django_db

CODES = {"completion_code": "PAID-OK", "no_work_code": "NO-WORK", "screened_out_code": "SCREENED"}


def url(campaign, name, *extra):
    return reverse(f"annotation:{name}", args=[campaign.project.slug, campaign.slug, *extra])


def enter(client, campaign):
    client.post(url(campaign, "start"), {"agree": "yes"})
    return client.post(url(campaign, "instructions"))


def me(client) -> Annotator:
    return Annotator.objects.select_related("campaign").get(user_id=int(client.session["_auth_user_id"]))


def answers(annotator, step, wrong=False):
    config = next(s for s in services_crowd.screening_steps(annotator.campaign) if s.step == step)
    truth = [t.answer for t in services_crowd.screening_trials(annotator, config)]
    if wrong:  # a different answer on every trial
        truth = [("1" if a != "1" else "2") if len(a) == 1 else a[::-1] + "9" for a in truth]
    return {f"trial-{i}": a for i, a in enumerate(truth)}


SCREENING = [{"step": "calibration"}, {"step": "headphones"}, {"step": "digits", "snr_db": [6, 0]}]


def test_screening_comes_before_any_item_and_passing_leads_to_work(client, make_campaign):
    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, screening=SCREENING, **CODES)
    assert enter(client, campaign)["Location"] == url(campaign, "screening")
    annotator = me(client)
    assert annotator.qualification == "pending"
    assert client.get(url(campaign, "work"))["Location"] == url(campaign, "screening")
    for step, n_trials in (("calibration", 2), ("headphones", 6), ("digits", 2)):
        page = client.get(url(campaign, "screening"))
        html = page.content.decode()
        assert page.status_code == 200 and f'data-step="{step}"' in html
        assert html.count("<audio") == n_trials
        truth = answers(annotator, step)
        for value in set(truth.values()):  # no answer anywhere in the page
            assert f'value="{value}" checked' not in html and f'value="{value}"' not in html.replace(
                'value="1"', "").replace('value="2"', "").replace('value="3"', "")
        response = client.post(url(campaign, "screening"), truth)
        assert response.status_code == 302
    assert response["Location"] == url(campaign, "work")
    assert not Assignment.objects.filter(annotator=annotator).exists()  # nothing served while screening
    assert client.get(url(campaign, "work")).status_code == 200
    annotator.refresh_from_db()
    assert annotator.qualification == "passed"
    results = dict(ScreeningResult.objects.filter(annotator=annotator).values_list("step", "passed"))
    assert results == {"calibration": True, "headphones": True, "digits": True}


def test_screening_audio_is_the_annotators_own_generated_trial(client, make_campaign):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1, screening=[{"step": "headphones"}])
    enter(client, campaign)
    response = client.get(url(campaign, "screening_audio", "headphones", 0))
    assert response.status_code == 200 and response["Content-Type"] == "audio/wav"
    data, sr = sf.read(io.BytesIO(response.content))
    assert data.ndim == 2 and data.shape[1] == 2 and sr == 44100  # stereo: the check needs two ears
    ranged = client.get(url(campaign, "screening_audio", "headphones", 0), HTTP_RANGE="bytes=0-99")
    assert ranged.status_code == 206 and len(ranged.content) == 100
    assert client.get(url(campaign, "screening_audio", "headphones", 6)).status_code == 404
    assert client.get(url(campaign, "screening_audio", "digits", 0)).status_code == 404
    other = Client()
    assert other.get(url(campaign, "screening_audio", "headphones", 0)).status_code == 404
    # the same trials on a reload; another annotator gets trials from their own seed.
    # (One anti-phase trial has only 6 orders, so two annotators' first clips match 1 time
    # in 6: compare the seeds and the whole step, not one clip.)
    again = client.get(url(campaign, "screening_audio", "headphones", 0))
    assert again.content == response.content
    enter(other, campaign)
    first, second = me(client), me(other)
    assert services_crowd.screening_seed(first, "headphones") != services_crowd.screening_seed(second, "headphones")
    config = next(s for s in services_crowd.screening_steps(campaign) if s.step == "headphones")
    for who, annotator in ((client, first), (other, second)):
        own = services_crowd.screening_trials(annotator, config)
        for i, trial in enumerate(own):
            served, _ = sf.read(io.BytesIO(who.get(url(campaign, "screening_audio", "headphones", i)).content))
            assert served.shape == trial.signal.shape
            assert abs(served - trial.signal).max() < 1e-3  # 16-bit PCM of the annotator's own trial


def test_failing_the_headphone_check_screens_out_politely_with_the_screened_out_code(client, make_campaign):
    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, screening=[{"step": "headphones"}], **CODES)
    enter(client, campaign)
    annotator = me(client)
    response = client.post(url(campaign, "screening"), answers(annotator, "headphones", wrong=True))
    assert response["Location"] == url(campaign, "done")
    annotator.refresh_from_db()
    assert (annotator.qualification, annotator.outcome, annotator.completion_code) == (
        "failed", "screened_out", "SCREENED")
    result = ScreeningResult.objects.get(annotator=annotator)
    assert not result.passed and result.reason == "headphone check: 0 of 6 correct (failed; 5 needed)"
    done = client.get(url(campaign, "done")).content.decode()
    assert 'data-outcome="screened_out"' in done and "SCREENED" in done and "PAID-OK" not in done
    # no second try, and no items
    assert client.get(url(campaign, "screening"))["Location"] == url(campaign, "done")
    assert client.get(url(campaign, "work"))["Location"] == url(campaign, "done")
    assert not Assignment.objects.filter(annotator=annotator).exists()


def test_one_wrong_headphone_trial_still_passes_five_of_six(client, make_campaign):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1, screening=[{"step": "headphones"}])
    enter(client, campaign)
    annotator = me(client)
    data = answers(annotator, "headphones")
    data["trial-0"] = "1" if data["trial-0"] != "1" else "2"
    assert client.post(url(campaign, "screening"), data)["Location"] == url(campaign, "work")
    assert ScreeningResult.objects.get(annotator=annotator).n_correct == 5


def test_unanswered_trials_are_asked_again_and_nothing_is_stored(client, make_campaign):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1, screening=[{"step": "calibration"}])
    enter(client, campaign)
    response = client.post(url(campaign, "screening"), {"trial-0": "3"})
    assert response.status_code == 400 and 'id="screening-error"' in response.content.decode()
    assert not ScreeningResult.objects.exists()


def test_the_api_refuses_items_until_the_browser_screening_is_passed(make_campaign, make_user):
    from rest_framework.authtoken.models import Token

    campaign = make_campaign(n=2, conditions=("x",), policy_n=2, screening=[{"step": "calibration"}])
    user = make_user()
    api = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    next_url = f"/api/v1/projects/{campaign.project.slug}/campaigns/{campaign.slug}/next/"
    first = api.post(next_url, {"consent": True}, content_type="application/json")
    assert first.status_code == 409 and first.json()["error"]["field"] == "screening"
    again = api.post(next_url, {}, content_type="application/json")  # the fast path's shape
    assert again.status_code == 409 and again.json()["error"]["field"] == "screening"
    annotator = Annotator.objects.get(user=user)
    assert annotator.completed_at is None  # not "no work": nothing decided yet
    services_crowd.screening_submit(annotator=annotator, step="calibration",
                                    answers=list(answers(annotator, "calibration").values()))
    served = api.post(next_url, {}, content_type="application/json")
    assert served.status_code == 200 and "assignment" in served.json()


@pytest.mark.parametrize("screening, field", [
    pytest.param([{"step": "hearing"}], "screening[0].step", id="unknown-step"),
    pytest.param([{"step": "headphones", "pass_min": 9}], "screening[0].pass_min", id="pass-above-trials"),
    pytest.param([{"step": "headphones", "method": "loud"}], "screening[0].method", id="bad-method"),
    pytest.param([{"step": "digits", "snr_db": []}], "screening[0].snr_db", id="no-snr"),
    pytest.param([{"step": "calibration"}, "calibration"], "screening[1].step", id="twice"),
    pytest.param({"step": "calibration"}, "screening", id="not-a-list"),
])
def test_bad_screening_configuration_is_refused_naming_the_field(project, screening, field):
    with pytest.raises(services.CampaignError) as caught:
        services.campaign_create(project=project, name="x", slug="x", template="mos", screening=screening)
    assert caught.value.field == "screening" and field in caught.value.message


def test_the_creation_form_configures_screening_steps(client, project, make_user):
    from accounts.models import Role
    from accounts.services import membership_set
    from annotation.models import Campaign

    user = make_user()
    membership_set(project=project, user=user, role=Role.RESEARCHER)
    client.force_login(user)
    base = {"name": "C", "slug": "screened", "template": "mos", "control_every": 4, "expiry_minutes": 30,
            "min_listen_fraction": 1, "require_full_listen": "on", "policy_n": 5}
    page = client.get(reverse("annotation:campaign_list", args=[project.slug])).content.decode()
    assert 'value="huggins"' in page
    both = client.post(reverse("annotation:campaign_list", args=[project.slug]),
                       {**base, "screening": ["headphones", "huggins"]})
    assert both.status_code == 400 and not Campaign.objects.exists()
    response = client.post(reverse("annotation:campaign_list", args=[project.slug]),
                           {**base, "screening": ["digits", "calibration", "huggins"]})
    assert response.status_code == 302
    assert Campaign.objects.get().screening == [
        {"step": "calibration"}, {"step": "headphones", "method": "huggins"}, {"step": "digits"}]


def test_the_api_creates_a_campaign_with_screening_and_crowd_settings(client, project, make_user):
    from accounts.models import Role
    from accounts.services import membership_set

    user = make_user()
    membership_set(project=project, user=user, role=Role.RESEARCHER)
    client.force_login(user)
    base = f"/api/v1/projects/{project.slug}/campaigns/"
    ok = client.post(base, {"name": "A", "slug": "a", "screening": [{"step": "headphones", "pass_min": 4}],
                            "crowd": {"bonus": "0.40"}}, content_type="application/json")
    assert ok.status_code == 201, ok.content
    assert ok.json()["screening"] == [{"step": "headphones", "pass_min": 4}] and ok.json()["crowd"]["bonus"] == "0.40"
    bad = client.post(base, {"name": "B", "slug": "b", "screening": [{"step": "headphones", "trials": 0}]},
                      content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "screening"
