"""An annotator completes a small MOS campaign in a real browser (headless Chromium).

Clips play in Earshot's own player (Play button; no native seek bar) and the rating
buttons stay disabled until the player has heard the clip to the end; each rating
carries the player's listening evidence, stored with it. The clips are short
generated tones (0.5 s). The annotator arrives through a private campaign's Prolific
link (with its token) and ends on the completion page with the study's code. A
second test seeks to the end: the buttons stay locked and the server refuses the
player's report.
"""

from __future__ import annotations

import json

import pytest
from django.urls import resolve

from annotation import services
from annotation.models import Annotator, Rating

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def mos_campaign(tmp_path, wav):
    from accounts.services import project_create

    project = project_create(slug="lt", name="Listening test", is_public=False)
    campaign = services.campaign_create(
        project=project, name="TTS MOS", slug="mos", template="mos", policy_n=3,
        instructions="Rate the overall quality of each clip.", completion_code="E2E-CODE",
        completion_url="https://app.prolific.com/submissions/complete?cc={code}")
    rows = []
    for i in range(3):
        (tmp_path / f"c{i}.wav").write_bytes(wav(300 + 110 * i, 0.5))
        rows.append({"id": f"utt{i}", "audio": f"c{i}.wav", "system": f"sys{i}", "condition": "clean"})
    (tmp_path / "items.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    services.items_import(campaign=campaign, path=tmp_path / "items.jsonl")
    services.campaign_set_status(campaign=campaign, status="open")
    return campaign


_PLAYER_STATE = """() => {
    const a = document.querySelector('#player audio'), p = document.getElementById('player').earshotPlayer;
    return { error: a.error && a.error.code, networkState: a.networkState, readyState: a.readyState,
             paused: a.paused, ended: a.ended, currentTime: a.currentTime, duration: a.duration,
             played: p.played(), heard: p.heardFraction(), src: a.currentSrc };
}"""


def _wait_for_unlock(page) -> None:
    """Wait for the rating buttons to unlock after Play; on a timeout, fail with what the
    player and the audio element were doing (a locked page is otherwise a bare timeout)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function("!document.querySelector('.criterion .option').disabled", timeout=30_000)
    except PlaywrightTimeout:
        state = page.evaluate(_PLAYER_STATE)
        fetched = page.evaluate("async (src) => (await fetch(src, { headers: { Range: 'bytes=0-' } })).status",
                                state["src"])
        pytest.fail(f"the rating buttons stayed locked after Play: {state}; the clip answers {fetched}")


def test_annotator_completes_a_mos_campaign(page, live_server, mos_campaign):
    # import the whole URLconf (torch/pyro included) here, not in the server's first request
    resolve("/")
    base = f"{live_server.url}/p/lt/c/mos/"
    page.goto(base + f"?t={mos_campaign.access_token}&PROLIFIC_PID=pid-e2e&STUDY_ID=study-1&SESSION_ID=sess-1")
    assert not Annotator.objects.exists()  # the GET created nothing
    box, label = page.locator("#agree").bounding_box(), page.locator("label.check span").bounding_box()
    assert box["width"] < 40 and box["x"] < label["x"] and abs(box["y"] - label["y"]) < 20  # D26: beside it
    page.check("#agree")
    page.click("#continue")
    page.wait_for_selector("text=Rate the overall quality of each clip.")
    page.click("#continue")
    for n in range(3):
        page.wait_for_selector("#rate")
        page.wait_for_selector("#player audio", state="attached")  # player.js has mounted
        assert page.inner_text("#progress-text").startswith(f"{n} of 3")
        buttons = page.locator(".criterion .option")
        assert buttons.count() == 5
        assert all(buttons.nth(i).is_disabled() for i in range(5)), "buttons must wait for the clip"
        assert page.locator("audio[controls]").count() == 0  # Earshot's player, not the native one
        page.keyboard.press("4")  # ignored while locked
        assert Rating.objects.count() == n
        page.click("#player .player-play")
        _wait_for_unlock(page)
        assert page.evaluate("document.querySelector('#player audio').ended")
        page.keyboard.press(str(3 + n % 3))
        page.wait_for_url(lambda url, n=n: url.endswith("/done/") or Rating.objects.count() > n)
        page.wait_for_load_state()
    page.wait_for_selector("#completion-code")
    assert page.inner_text("#completion-code") == "E2E-CODE"
    assert page.get_attribute("#complete-link", "href").endswith("cc=E2E-CODE")
    annotator = Annotator.objects.get()
    assert (annotator.platform, annotator.external_id, annotator.study_id) == ("prolific", "pid-e2e", "study-1")
    assert sorted(Rating.objects.values_list("value", flat=True)) == ["3", "4", "5"]
    assert min(Rating.objects.values_list("elapsed_ms", flat=True)) >= 500
    for rating in Rating.objects.all():  # the listening evidence came with each rating
        assert rating.heard_fraction >= 0.95 and rating.played[0][0] <= 0.05


def test_seeking_to_the_end_does_not_unlock_and_is_refused(page, live_server, mos_campaign):
    resolve("/")
    base = f"{live_server.url}/p/lt/c/mos/"
    page.goto(base + f"?t={mos_campaign.access_token}")
    page.check("#agree")
    page.click("#continue")
    page.click("#continue")
    page.wait_for_selector("#rate")
    page.wait_for_selector("#player audio", state="attached")  # player.js has mounted
    # what the audit did to the native player: jump near the end. Earshot's player puts
    # the position back to the furthest point heard (here: the start)
    at = page.evaluate("""() => new Promise((done) => {
        const a = document.querySelector('#player audio');
        const go = () => { a.currentTime = a.duration - 0.05; setTimeout(() => done(a.currentTime), 300); };
        if (a.readyState >= 1) go(); else a.addEventListener('loadedmetadata', go, { once: true });
    })""")
    assert at < 0.1
    assert page.locator(".criterion .option").first.is_disabled()
    assert page.evaluate("document.getElementById('player').earshotPlayer.heardFraction()") == 0
    # a report of having heard only the end (what a seek to the end yields): the server refuses it
    page.wait_for_timeout(600)
    reply = page.evaluate("""async () => {
        const data = JSON.parse(document.getElementById('item-data').textContent);
        const d = Number(document.getElementById('player').dataset.duration);
        const res = await fetch(document.getElementById('rate').dataset.rateUrl, {
          method: 'POST', headers: { 'Content-Type': 'application/json',
            'X-CSRFToken': document.querySelector('[name=csrfmiddlewaretoken]').value },
          body: JSON.stringify({ assignment: data.assignment, values: { mos: '5' }, client_token: 'forced',
                                 played: [[d - 0.05, d]] }) });
        return { status: res.status, body: await res.json() };
    }""")
    assert reply["status"] == 400 and reply["body"]["error"]["field"] == "played"
    assert "listen to the whole clip" in reply["body"]["error"]["message"]
    assert not Rating.objects.exists()


def test_a_busy_page_still_hears_the_clip_from_its_start(page, live_server, mos_campaign):
    """The page's script is busy for 0.4 s just after Play (a slow machine, a long task):
    the "playing" event then arrives when the clip is well under way. The player counts
    the stretch from where play began, so the buttons unlock when the clip ends (they
    stayed locked before: heard from 0.4 s of a 0.5 s clip)."""
    resolve("/")
    page.goto(f"{live_server.url}/p/lt/c/mos/?t={mos_campaign.access_token}")
    page.check("#agree")
    page.click("#continue")
    page.click("#continue")
    page.wait_for_selector("#rate")
    page.wait_for_selector("#player audio", state="attached")
    page.wait_for_function("document.querySelector('#player audio').readyState >= 4")
    page.evaluate("""() => {
        document.querySelector('#player .player-play').click();
        const t = performance.now();
        while (performance.now() - t < 400) { /* a long task on the main thread */ }
    }""")
    _wait_for_unlock(page)
    state = page.evaluate(_PLAYER_STATE)
    assert state["ended"] and state["played"][0][0] <= 0.05 and state["heard"] >= 0.95
