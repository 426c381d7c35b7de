"""Prolific links create or resume a pseudonymous annotator; finishing returns the study code."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from annotation import services
from annotation.models import Annotator, Assignment
from tests.annotation.conftest import heard

pytestmark = pytest.mark.django_db

PARAMS = "?PROLIFIC_PID=5f1a2b3c4d&STUDY_ID=study42&SESSION_ID=sess1"


def start_url(campaign, params=PARAMS):
    return reverse("annotation:start", args=[campaign.project.slug, campaign.slug]) + params


def consent(client, campaign, params=PARAMS):
    return client.post(start_url(campaign, params), {"agree": "yes"})


def test_prolific_link_creates_a_pseudonymous_annotator(client, make_campaign, django_user_model):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    response = client.get(start_url(campaign))
    assert response.status_code == 200 and 'id="agree"' in response.content.decode()
    # a GET creates no account and logs nobody in (F-4, F-5: account creation by GET)
    assert not Annotator.objects.exists() and not django_user_model.objects.exists()
    assert "_auth_user_id" not in client.session
    response = consent(client, campaign)
    assert response.status_code == 302 and response["Location"].endswith("/instructions/")
    annotator = Annotator.objects.get()
    assert (annotator.platform, annotator.external_id, annotator.study_id, annotator.session_id) == (
        "prolific", "5f1a2b3c4d", "study42", "sess1")
    assert annotator.consent_at is not None
    assert annotator.user.is_guest and "5f1a2b3c4d" not in annotator.user.handle
    assert "5f1a2b3c4d" not in annotator.user.username


def test_same_pid_resumes_in_a_new_browser_with_its_session_id(client, make_campaign, django_user_model):
    from django.test import Client

    campaign = make_campaign(n=2, conditions=("x",), policy_n=2)
    consent(client, campaign)
    first = Annotator.objects.get()
    services.annotator_step(annotator=first, step="instructions")
    other = Client()
    page = other.get(start_url(campaign))  # the same PID and SESSION_ID: asked, not switched
    assert page.status_code == 200 and "_auth_user_id" not in other.session
    response = other.post(start_url(campaign))
    assert response["Location"].endswith("/work/")
    assert Annotator.objects.count() == 1 and django_user_model.objects.filter(is_guest=True).count() == 1


@pytest.mark.parametrize("params", [
    pytest.param("?PROLIFIC_PID=5f1a2b3c4d", id="pid-only"),
    pytest.param("?PROLIFIC_PID=5f1a2b3c4d&STUDY_ID=study42&SESSION_ID=sess-attacker", id="other-session"),
])
def test_a_participant_id_alone_does_not_take_over_an_annotator(client, make_campaign, params):
    """F-4: knowing someone's PROLIFIC_PID is not enough to continue as them."""
    from django.test import Client

    campaign = make_campaign(n=2, conditions=("x",), policy_n=2)
    consent(client, campaign)
    victim = Annotator.objects.get()
    attacker = Client()
    page = attacker.get(start_url(campaign, params))
    assert page.status_code == 409 and "another browser" in page.content.decode()
    for response in (attacker.post(start_url(campaign, params), {"agree": "yes"}),
                     attacker.get(reverse("annotation:work", args=[campaign.project.slug, campaign.slug]))):
        assert response.status_code in (302, 409)
        assert "_auth_user_id" not in attacker.session or attacker.session["_auth_user_id"] != str(victim.user_id)
    assert Annotator.objects.count() == 1
    victim.refresh_from_db()
    assert victim.session_id == "sess1"  # never overwritten by a caller


def test_a_get_never_switches_a_signed_in_researcher(client, make_campaign, make_user):
    """F-5: a participant link (even cross-site, e.g. an <img>) must not log a researcher out."""
    from accounts.models import Role
    from accounts.services import membership_set

    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    researcher = make_user()
    membership_set(project=campaign.project, user=researcher, role=Role.RESEARCHER)
    client.force_login(researcher)
    page = client.get(start_url(campaign, "?PROLIFIC_PID=attacker-chosen-pid"),
                      HTTP_REFERER="http://evil.example/")
    assert page.status_code == 200 and 'id="switching"' in page.content.decode()
    assert client.session["_auth_user_id"] == str(researcher.pk)
    assert not Annotator.objects.exists()
    workspace = reverse("annotation:campaign_list", args=[campaign.project.slug])
    assert client.get(workspace).status_code == 200  # still the researcher
    # only the consent POST (CSRF-protected) switches, and the page said so first
    consent(client, campaign, "?PROLIFIC_PID=real-pid")
    assert client.session["_auth_user_id"] != str(researcher.pk)


@pytest.mark.parametrize(
    ("completion_url", "expected"),
    [
        pytest.param("https://app.prolific.com/submissions/complete?cc={code}",
                     "https://app.prolific.com/submissions/complete?cc=C0DE42", id="placeholder"),
        pytest.param("https://app.prolific.com/submissions/complete?cc=C0DE42",
                     "https://app.prolific.com/submissions/complete?cc=C0DE42", id="literal"),
    ],
)
def test_finishing_redirects_to_the_study_completion_url(client, make_campaign, completion_url, expected):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1, completion_code="C0DE42",
                             completion_url=completion_url)
    consent(client, campaign)
    annotator = Annotator.objects.get()
    services.annotator_step(annotator=annotator, step="instructions")
    work = reverse("annotation:work", args=[campaign.project.slug, campaign.slug])
    client.get(work)
    a = Assignment.objects.get()
    services.rating_submit(annotator=annotator, assignment_id=a.public_id, values={"mos": 3}, played=heard(a),
                           client_token="x", now=a.served_at + timedelta(seconds=5))
    done = client.get(work)
    page = client.get(done["Location"]).content.decode()
    assert "C0DE42" in page
    assert f'content="8;url={expected}"' in page.replace("&amp;", "&")
    assert f'href="{expected}"' in page.replace("&amp;", "&")


def test_other_platforms_use_the_same_participant_model(make_campaign):
    campaign = make_campaign(n=1)
    a = services.annotator_from_platform(campaign=campaign, platform="other", external_id="mturk-1",
                                         session_id="s1")
    b = services.annotator_from_platform(campaign=campaign, platform="other", external_id="mturk-1",
                                         session_id="s1")
    c = services.annotator_from_platform(campaign=campaign, platform="prolific", external_id="mturk-1")
    assert a.pk == b.pk != c.pk
    with pytest.raises(services.EnrolError):  # the id without its session: refused
        services.annotator_from_platform(campaign=campaign, platform="other", external_id="mturk-1")
