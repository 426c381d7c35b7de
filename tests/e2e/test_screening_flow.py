"""A listener takes the screening steps (volume check, anti-phase headphone check) in the
real page (headless Chromium), at desktop and phone size: the generated audio plays in
the browser's own player, the answers are given with the page's controls, and passing
leads to the rating page; failing the headphone check ends politely with the
screened-out code."""

from __future__ import annotations

import pytest

from annotation import services, services_crowd
from annotation.models import Annotator
from tests.annotation.conftest import write_items

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def campaign(tmp_path, wav):
    from accounts.services import project_create

    project = project_create(slug="scr", name="Screening", is_public=True)
    made = services.campaign_create(project=project, name="Screened MOS", slug="mos", template="mos", policy_n=1,
                                    screening=[{"step": "calibration"}, {"step": "headphones"}],
                                    screened_out_code="CODE-SCREENED", completion_code="CODE-DONE")
    services.items_import(campaign=made, path=write_items(tmp_path, [{"id": "a", "audio": "a.wav"}], wav))
    services.campaign_set_status(campaign=made, status="open")
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


def _truth(campaign, step: str) -> list[str]:
    annotator = Annotator.objects.select_related("campaign").get(campaign=campaign)
    config = next(s for s in services_crowd.screening_steps(campaign) if s.step == step)
    return [t.answer for t in services_crowd.screening_trials(annotator, config)]


def _enter(page, url: str) -> None:
    page.goto(url)
    page.check("#agree")
    page.click("#continue")
    page.click("#continue")  # instructions
    page.wait_for_selector("#screening[data-step=calibration]")


def _audio_plays(page) -> None:
    """The first trial's generated WAV loads and plays in the browser's own player."""
    page.evaluate("document.getElementById('trial-audio-0').muted = true")
    page.evaluate("document.getElementById('trial-audio-0').play()")
    page.wait_for_function("document.getElementById('trial-audio-0').currentTime > 0.2", timeout=15_000)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "no sideways scrolling"


def test_passing_the_checks_leads_to_rating(sized_page, live_server, campaign):
    page = sized_page
    _enter(page, f"{live_server.url}/p/scr/c/mos/")
    _audio_plays(page)
    for i, answer in enumerate(_truth(campaign, "calibration")):
        page.fill(f"#trial-{i}", answer)
    page.click("#continue")
    page.wait_for_selector("#screening[data-step=headphones]")
    _audio_plays(page)
    for i, answer in enumerate(_truth(campaign, "headphones")):
        page.locator(f"input[name=trial-{i}][value='{answer}']").check()
    page.click("#continue")
    page.wait_for_url("**/work/")
    assert Annotator.objects.get().qualification == "passed"


def test_failing_the_headphone_check_shows_the_screened_out_code(sized_page, live_server, campaign):
    page = sized_page
    _enter(page, f"{live_server.url}/p/scr/c/mos/")
    for i, answer in enumerate(_truth(campaign, "calibration")):
        page.fill(f"#trial-{i}", answer)
    page.click("#continue")
    page.wait_for_selector("#screening[data-step=headphones]")
    for i, answer in enumerate(_truth(campaign, "headphones")):
        page.locator(f"input[name=trial-{i}][value='{'1' if answer != '1' else '2'}']").check()
    page.click("#continue")
    page.wait_for_selector("#screened-out-code")
    assert page.inner_text("#screened-out-code") == "CODE-SCREENED" and "CODE-DONE" not in page.content()
    assert Annotator.objects.get().outcome == "screened_out"
