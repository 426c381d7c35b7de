"""An annotator completes a small MOS campaign in a real browser (headless Chromium).

The rating buttons stay disabled until the clip has played to the end; the clips are
short generated tones (0.5 s) started with ``audio.play()`` (Chromium runs with
``--autoplay-policy=no-user-gesture-required``). The annotator arrives through a
Prolific link and ends on the completion page with the study's code.
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


def test_annotator_completes_a_mos_campaign(page, live_server, mos_campaign):
    # import the whole URLconf (torch/pyro included) here, not in the server's first request
    resolve("/")
    base = f"{live_server.url}/p/lt/c/mos/"
    page.goto(base + "?PROLIFIC_PID=pid-e2e&STUDY_ID=study-1&SESSION_ID=sess-1")
    page.check("#agree")
    page.click("#continue")
    page.wait_for_selector("text=Rate the overall quality of each clip.")
    page.click("#continue")
    for n in range(3):
        page.wait_for_selector("#rate")
        assert page.inner_text("#progress-text").startswith(f"{n} of 3")
        buttons = page.locator(".criterion .option")
        assert buttons.count() == 5
        assert all(buttons.nth(i).is_disabled() for i in range(5)), "buttons must wait for the clip"
        page.keyboard.press("4")  # ignored while locked
        assert Rating.objects.count() == n
        page.evaluate("document.getElementById('clip').play()")
        page.wait_for_function("!document.querySelector('.criterion .option').disabled", timeout=10_000)
        assert page.evaluate("document.getElementById('clip').ended")
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
