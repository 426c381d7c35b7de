"""The game on a phone (390 × 844): buzz into a pyramid, answer in time, see points and the machines.

Also checks that no game page needs sideways scrolling at phone width (D16): the
question page before and after answering, the round summary, the leaderboard with
the machines' rows, the daily page and "you vs the machines".
"""

import pytest
from django.core.management import call_command

from quiz.models import Response

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _fits(page, where):
    """No sideways scrolling: the page is no wider than the phone (a mobile browser would
    otherwise zoom out to the content's width, so compare with the device width itself)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"{where}: page is {width} px wide on a {PHONE['width']} px phone"


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def test_buzz_on_a_phone_scores_and_shows_the_machines(phone, live_server):
    from accounts.models import Project
    from quiz.study import study_update

    call_command("quiz_demo", players=0)
    project = Project.objects.get(slug="demo")
    study_update(project=project, design="one_mode", one_mode="free", round_size=3, leaderboard_min_answers=1)
    page = phone
    page.goto(f"{live_server.url}/p/demo/play/")
    _fits(page, "start")
    page.fill("#handle", "phone-player")
    page.check("input[name=category][value=name-the-music-songs-artists-composers]", force=True)
    page.click("#start")
    for _ in range(3):  # the category's pyramid comes within its three questions
        page.wait_for_selector("#question[data-ready]")
        if page.locator("#buzz").count():
            break
        page.click("#skip")  # "I don't know": a pass, stored as its own outcome
        page.wait_for_selector("#feedback:not([hidden])")
        assert "pass" in page.inner_text("#verdict").lower()
        page.click("#next")
    _fits(page, "pyramid before the buzz")
    assert page.locator("#answer-form").is_hidden() and page.locator("#buzz").is_visible()
    # Clues play one after another: listen to the first, then buzz with the key.
    page.click(".clue .player-play")
    page.wait_for_function("document.querySelector('.clue audio').currentTime > 0.2")
    page.locator("body").press(" ")
    page.wait_for_selector("#answer-form:not([hidden])")
    assert page.locator("#timer").is_visible() and page.inner_text("#timer").strip().endswith("s")
    assert page.locator("#reveal").count() == 0 or page.locator("#reveal").is_hidden()
    page.fill("#answer", "Ode to Joy")
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback:not([hidden])")
    assert page.inner_text("#verdict") == "Correct!"
    points = int(page.inner_text("#points").split()[0].lstrip("+"))
    assert points > 10  # an early buzz earns a bonus
    page.wait_for_selector("#machines:not([hidden])")
    assert page.locator("#machine-list li").count() >= 1
    _fits(page, "pyramid after answering")
    stored = Response.objects.get(question__external_id="pyramid-ode", responder__kind="human")
    assert stored.clue_index == 0 and stored.outcome == "answer" and stored.buzz_position < 1
    assert stored.clue_time_s is not None and stored.clue_time_s >= 0.2

    # Finish the round of three; the summary fits the phone and lists the machines.
    for _ in range(3):
        if "round" in (page.get_attribute("#next", "href") or ""):
            break
        page.click("#next")
        page.wait_for_selector("#question[data-ready]")
        page.click("#skip")
        page.wait_for_selector("#feedback:not([hidden])")
    page.click("#next")
    page.wait_for_selector("#round-summary")
    _fits(page, "round summary")
    assert page.locator("#round-machines .machine-row").count() >= 1

    for path in ("/p/demo/leaderboard/", "/p/demo/daily/", "/p/demo/play/vs/", "/p/demo/play/me/"):
        page.goto(f"{live_server.url}{path}")
        _fits(page, path)
    page.goto(f"{live_server.url}/p/demo/leaderboard/")
    assert page.locator("tr.machine-row").count() >= 1
