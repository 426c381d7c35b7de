"""A between-subjects quiz study played by two people in real browsers.

Each player meets each question once, in one mode chosen by the server, and the
second player gets the other mode of every question the first one had (the modes
fill up evenly across players). Clips play in Earshot's own player, and what was
heard is stored with the answer.
"""

import re

import pytest
from django.core.management import call_command

from accounts.models import Project
from quiz.models import Response

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CATEGORY = "name-the-music-songs-artists-composers"


def _play_category(page, live_server, handle):
    """Play every question of the category; return {prompt: mode served}."""
    page.goto(f"{live_server.url}/p/demo/play/")
    assert page.locator("input[name=mode]").count() == 0  # the server picks the mode
    page.fill("#handle", handle)
    page.check(f"input[name=category][value={CATEGORY}]", force=True)
    page.click("#start")
    served = {}
    for _ in range(10):
        page.wait_for_selector("#question[data-ready], section.panel > h1")
        if not page.locator("#question[data-ready]").count():
            break
        html = page.content()
        assert "[accept" not in html and "prompt on" not in html
        prompt = page.inner_text(".prompt").strip()
        mode = page.get_attribute("#question", "data-mode")
        served[prompt] = mode
        # Listen a little through Earshot's player (no <audio controls> in the page).
        assert page.locator("audio[controls]").count() == 0
        page.click(".clue .player-play")
        page.wait_for_function(
            "document.querySelector('.clue audio').currentTime > 0.2 || document.querySelector('.clue audio').ended")
        if page.locator("#buzz").count():  # a pyramid: buzz, then answer
            page.click("#buzz")
            page.wait_for_selector("#answer-form:not([hidden])")
        if mode == "mcq":
            page.locator(".option").first.click()
        else:
            page.fill("#answer", "something I heard")
            page.keyboard.press("Enter")
        page.wait_for_selector("#feedback:not([hidden])")
        page.click("#next")
    return served


def test_two_players_get_balanced_modes(browser, live_server):
    call_command("quiz_demo", players=0)
    project = Project.objects.get(slug="demo")
    assert project.quiz_study.design == "between"
    first = browser.new_context(bypass_csp=True)  # wait_for_function evals (tests/browser.py)
    second = browser.new_context(bypass_csp=True)
    try:
        one = _play_category(first.new_page(), live_server, "player-one")
        two = _play_category(second.new_page(), live_server, "player-two")
    finally:
        first.close()
        second.close()
    assert one and set(one) == set(two)
    for prompt, mode in one.items():
        assert two[prompt] == {"free": "mcq", "mcq": "free"}[mode], prompt
    stored = Response.objects.filter(responder__user__handle__in=["player-one", "player-two"])
    assert stored.count() == 2 * len(one)
    # One answer per player and question: no question met in two modes.
    assert stored.values("responder_id", "question_id").distinct().count() == stored.count()
    assert all(r.design == "between" and r.stage == 1 for r in stored)
    assert all(r.listened_fraction is not None and r.listened_fraction > 0 for r in stored)
    assert all(re.fullmatch(r"full|correctness|none", r.feedback) for r in stored)
