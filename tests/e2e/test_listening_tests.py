"""An annotator completes one MUSHRA item and one AB item through the real page
(headless Chromium), at desktop and at phone size.

The stimuli are generated tones (numpy + soundfile), decoded in the page with the Web
Audio API. The test listens to every sample through the page's own controls (the
sample buttons and the "to start" key), waits until the page marks each one heard,
answers with the keyboard or the sliders, and checks what the server stored: one
value per rated stimulus (MUSHRA), the chosen stimulus' role (AB), and listening
evidence for every stimulus. The page never names roles or systems, so the test looks
them up in the database by the opaque ids the page uses.
"""

from __future__ import annotations

import pytest
from django.urls import resolve

from annotation import services
from annotation.models import Annotator, Assignment, Rating, Stimulus
from tests.annotation.conftest import listening_rows, write_items

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def campaigns(tmp_path, wav):
    from accounts.services import project_create

    project = project_create(slug="lt", name="Listening tests", is_public=True)
    made = {}
    for template in ("mushra", "ab", "ranking"):
        folder = tmp_path / template
        folder.mkdir()
        campaign = services.campaign_create(project=project, name=f"E2E {template}", slug=template,
                                            template=template, completion_code=f"CODE-{template.upper()}")
        services.items_import(campaign=campaign,
                              path=write_items(folder, listening_rows(folder, wav, template, n=1, seconds=0.6)))
        services.campaign_set_status(campaign=campaign, status="open")
        made[template] = campaign
    return made


@pytest.fixture(params=sorted(SIZES))
def sized_page(request, browser):
    size = SIZES[request.param]
    context = browser.new_context(viewport=size, bypass_csp=True, has_touch=request.param == "phone",
                                  is_mobile=request.param == "phone")
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def _enter(page, base: str) -> None:
    page.goto(base)
    page.check("#agree")
    page.click("#continue")
    page.click("#continue")
    page.wait_for_selector("#rate.listening-test")
    page.wait_for_function("!document.getElementById('play').disabled", timeout=20_000)


def _listen_to_all(page) -> None:
    """Each sample from the start to the end, through the page's own controls."""
    for button in page.locator(".stimulus").all():
        button.click()  # switches (and plays) at the shared position
        page.keyboard.press("0")  # back to the start
        button.locator(".heard").filter(has_text="✓").wait_for(timeout=10_000)
    if page.evaluate("document.getElementById('play').textContent.includes('Pause')"):
        page.keyboard.press(" ")


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "no sideways scrolling"


def test_mushra_item_through_the_page(sized_page, live_server, campaigns):
    resolve("/")
    page = sized_page
    _enter(page, f"{live_server.url}/p/lt/c/mushra/")
    _fits(page)
    sliders = page.locator(".slider-row input[type=range]")
    assert sliders.count() == 5 and sliders.first.is_disabled()  # locked until everything is heard
    html = page.content()
    for secret in ("hidden_reference", "anchor", "sys-alpha", "sys-beta", "lp3.5k", ".wav"):
        assert secret not in html
    _listen_to_all(page)
    page.wait_for_function("!document.querySelector('.slider-row input').disabled")
    roles = dict(Stimulus.objects.values_list("public_id", "role"))
    wanted = {"hidden_reference": 100, "anchor": 15, "system": 62}
    for row in page.locator(".slider-row").all():
        role = roles[row.get_attribute("data-stimulus")]
        slider = row.locator("input[type=range]")
        box = slider.bounding_box()
        assert box["width"] >= 150 and box["height"] >= 24, "sliders are usable at this width"
        slider.fill(str(wanted[role]))
        assert row.locator("output").inner_text() == str(wanted[role])
    page.keyboard.press("Enter")
    page.wait_for_selector("text=CODE-MUSHRA")
    stored = {(r.stimulus.role, r.value) for r in Rating.objects.select_related("stimulus")}
    assert stored == {("hidden_reference", "100"), ("anchor", "15"), ("system", "62")}
    assert Rating.objects.count() == 5
    assignment = Assignment.objects.get()
    assert len(assignment.stimulus_order) == 5 and len(assignment.listening) == 6  # the reference too
    assert all(e["heard_fraction"] >= 0.95 for e in assignment.listening.values())
    assert Annotator.objects.get().outcome == "completed"


def test_ab_item_through_the_page(sized_page, live_server, campaigns):
    resolve("/")
    page = sized_page
    _enter(page, f"{live_server.url}/p/lt/c/ab/")
    _fits(page)
    assert "sys-alpha" not in page.content() and "sys-beta" not in page.content()
    options = page.locator(".criterion .option")
    assert options.count() == 3 and options.first.is_disabled()
    page.keyboard.press("a")  # ignored while locked
    _listen_to_all(page)
    page.wait_for_function("!document.querySelector('.criterion .option').disabled")
    shown_first = page.locator(".stimulus").first.get_attribute("data-stimulus")
    page.keyboard.press("a")  # the sample shown as A
    page.keyboard.press("Enter")
    page.wait_for_selector("text=CODE-AB")
    rating = Rating.objects.select_related("stimulus").get()
    chosen = Stimulus.objects.get(public_id=shown_first)
    assert rating.stimulus == chosen and rating.value == chosen.role  # the role, not the on-screen letter
    assert set(Assignment.objects.get().listening) == {str(s.pk) for s in Stimulus.objects.filter(item__campaign__slug="ab")}


def test_ranking_item_with_the_keyboard(page, live_server, campaigns):
    resolve("/")
    _enter(page, f"{live_server.url}/p/lt/c/ranking/")
    _listen_to_all(page)
    page.wait_for_function("!document.querySelector('.rank-up').disabled")
    rows = page.locator(".rank-row")
    last = rows.nth(2).get_attribute("data-stimulus")
    page.keyboard.press("3")  # the sample shown third plays ...
    page.keyboard.press(" ")
    page.keyboard.press("ArrowUp")  # ... and moves up twice: now ranked best
    page.keyboard.press("ArrowUp")
    assert rows.first.get_attribute("data-stimulus") == last
    page.keyboard.press("Enter")
    page.wait_for_selector("text=CODE-RANKING")
    ranks = dict(Rating.objects.values_list("stimulus__public_id", "value"))
    assert ranks[last] == "1" and sorted(ranks.values()) == ["1", "2", "3"]
