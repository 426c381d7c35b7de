"""Real browser: a researcher adjudicates by keyboard; a player challenges a wrong verdict."""

from __future__ import annotations

import pytest
from django.urls import reverse

from judging.models import Challenge, HumanJudgement
from tests.judging.django_fixtures import *  # noqa: F403

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]



def _login(page, live_server, user):
    """Log in through a session cookie made by Django's test client."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}])


def test_researcher_overrules_by_keyboard(page, live_server, judged, people):
    _login(page, live_server, people.researcher)
    page.goto(f"{live_server.url}{reverse('judging:adjudicate', args=['t'])}")
    assert "caped crusader" in page.inner_text("#adj-queue")
    page.keyboard.press("j")
    page.keyboard.press("n")
    page.keyboard.type("Batman's epithet")
    page.keyboard.press("Escape")
    page.locator(".adj-item").first.focus()
    page.keyboard.press("c")
    page.wait_for_selector("#trail-table >> text=Batman's epithet")
    judgement = HumanJudgement.objects.get(response=judged.model_grey)
    assert judgement.correct and judgement.by == people.researcher


def test_player_challenges_wrong_verdict(page, live_server, judged, people):
    """challenge.js on the play page (the quiz owner adds the script and response_id;
    here the test adds both, as play.js and the template will)."""
    from accounts.models import Project
    from quiz.models import Presentation
    from quiz.study import study_update

    study_update(project=Project.objects.get(slug="t"), design="one_mode", one_mode="free")
    _login(page, live_server, people.alice)
    page.goto(f"{live_server.url}/p/t/play/next/?mode=free&category=cultural-geography-in-sound")
    page.wait_for_selector("#question[data-ready]")  # play.js has enabled the form
    page.fill("#answer", "Sydney")
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback:not([hidden])")
    assert page.inner_text("#verdict").startswith("Not quite")
    presentation = Presentation.objects.filter(responder__user=people.alice).latest("id")
    response = presentation.responder.responses.get(question=presentation.question, mode="free")
    page.add_script_tag(url=f"{live_server.url}/static/judging/challenge.js", type="module")
    page.evaluate(f"document.getElementById('feedback').dataset.responseId = '{response.pk}'")
    page.click("#challenge-open")
    page.fill("#challenge-text", "Sydney is the biggest city")
    page.keyboard.press("Enter")
    page.wait_for_selector("#challenge >> text=A researcher will look")
    challenge = Challenge.objects.get(response=response)
    assert (challenge.by, challenge.text, challenge.status) == (people.alice, "Sydney is the biggest city", "open")
