"""Prolific links create or resume a pseudonymous annotator; finishing returns the study code."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from annotation import services
from annotation.models import Annotator, Assignment

pytestmark = pytest.mark.django_db

PARAMS = "?PROLIFIC_PID=5f1a2b3c4d&STUDY_ID=study42&SESSION_ID=sess1"


def start_url(campaign, params=PARAMS):
    return reverse("annotation:start", args=[campaign.project.slug, campaign.slug]) + params


def test_prolific_link_creates_a_pseudonymous_annotator(client, make_campaign):
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1)
    response = client.get(start_url(campaign))
    assert response.status_code == 302 and response["Location"].endswith("/consent/")
    annotator = Annotator.objects.get()
    assert (annotator.platform, annotator.external_id, annotator.study_id, annotator.session_id) == (
        "prolific", "5f1a2b3c4d", "study42", "sess1")
    assert annotator.user.is_guest and "5f1a2b3c4d" not in annotator.user.handle
    assert "5f1a2b3c4d" not in annotator.user.username


def test_same_pid_resumes_in_a_new_browser(client, make_campaign, django_user_model):
    from django.test import Client

    campaign = make_campaign(n=2, conditions=("x",), policy_n=2)
    client.get(start_url(campaign))
    first = Annotator.objects.get()
    services.annotator_step(annotator=first, step="consent")
    services.annotator_step(annotator=first, step="instructions")
    other = Client()
    response = other.get(start_url(campaign, "?PROLIFIC_PID=5f1a2b3c4d&STUDY_ID=study42&SESSION_ID=sess2"))
    assert response["Location"].endswith("/work/")
    assert Annotator.objects.count() == 1 and django_user_model.objects.filter(is_guest=True).count() == 1
    first.refresh_from_db()
    assert first.session_id == "sess2"


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
    client.get(start_url(campaign))
    annotator = Annotator.objects.get()
    for step in ("consent", "instructions"):
        services.annotator_step(annotator=annotator, step=step)
    work = reverse("annotation:work", args=[campaign.project.slug, campaign.slug])
    client.get(work)
    a = Assignment.objects.get()
    services.rating_submit(annotator=annotator, assignment_id=a.public_id, values={"mos": 3},
                           client_token="x", now=a.served_at + timedelta(seconds=5))
    done = client.get(work)
    page = client.get(done["Location"]).content.decode()
    assert "C0DE42" in page
    assert f'content="8;url={expected}"' in page.replace("&amp;", "&")
    assert f'href="{expected}"' in page.replace("&amp;", "&")


def test_other_platforms_use_the_same_participant_model(make_campaign):
    campaign = make_campaign(n=1)
    a = services.annotator_from_platform(campaign=campaign, platform="other", external_id="mturk-1")
    b = services.annotator_from_platform(campaign=campaign, platform="other", external_id="mturk-1")
    c = services.annotator_from_platform(campaign=campaign, platform="prolific", external_id="mturk-1")
    assert a.pk == b.pk != c.pk
