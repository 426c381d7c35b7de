"""Two players in one live room, in two headless Chromium pages (issue 17).

pytest-django's live server speaks WSGI only, so the room pages and their websocket
are served by Daphne (the ASGI server deploy/ runs) in a forked process against the
test database, as Channels' ChannelsLiveServerTestCase does. Both players are guests
who name themselves on the play page; the host creates the room, the other joins by
its code, the host starts; both pages get the same clue, one buzzes, the other is
locked out and told who buzzed, the buzzer answers and the ruling reaches both.
"""

from __future__ import annotations

from functools import partial

import pytest
from django.db import connections
from django.urls import reverse

from quiz.models import QuestionClip, Response
from rooms.models import RoomBuzz, RoomQuestion

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def asgi_server(settings):
    """Daphne serving config.asgi (HTTP, static files and the rooms' websocket) on a free port."""
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    # the forked server inherits these: a slow machine must not end a question mid-test
    settings.EARSHOT_ROOM_FINAL_WINDOW_S = 120.0
    for connection in connections.all():
        connection.close()
    # nor the broker connections Celery cached: multiprocessing's after-fork hooks make kombu
    # close them in the child, which then reads replies (BRPOP) meant for this process, and
    # a later test here waits on that socket forever
    from config.celery import app as celery_app
    from tests.celery_worker import _drop_cached_connections

    _drop_cached_connections(celery_app)
    process = DaphneProcess("127.0.0.1", partial(make_application, static_wrapper=ASGIStaticFilesHandler))  # forked: it inherits the test database's name
    process.daemon = True
    process.start()
    if not process.ready.wait(timeout=60):
        process.terminate()
        pytest.fail("Daphne did not start")
    yield f"http://127.0.0.1:{process.port.value}"
    process.terminate()
    process.join(10)


def _guest(browser, viewport, base: str, name: str, room: str):
    context = browser.new_context(viewport=viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{base}/p/t/play/?room={room}")
    page.fill("#handle", name)
    page.click("#start")
    return context, page


def _fits(page, where: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] + 1, f"{where}: page is {width[0]} px wide on a {width[1]} px screen"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_two_players_one_buzzes_the_other_is_locked_out_both_see_the_ruling(browser, imported, asgi_server,
                                                                          viewport):
    from quiz.study import study_update

    study_update(project=imported, feedback="full")
    # a guest who asked to host a new room lands in it once named (no second click on Host)
    host_ctx, host = _guest(browser, viewport, asgi_server, "Ada", "new")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code").strip()
    guest_ctx, guest = _guest(browser, viewport, asgi_server, "Bo", code)
    try:
        guest.wait_for_selector("#room-code")
        assert guest.inner_text("#room-code").strip() == code
        # both see both players on the scoreboard once their sockets are up
        for page in (host, guest):
            page.wait_for_function("document.querySelectorAll('#room-scores tbody tr').length === 2")
        assert guest.locator("#room-start").is_hidden()  # only the host starts
        host.click("#room-start")
        for page in (host, guest):
            page.wait_for_selector("#room-buzz:not([hidden]):not([disabled])")
            page.wait_for_function("document.getElementById('room-audio').getAttribute('src')")
        src_host = host.get_attribute("#room-audio", "src")
        src_guest = guest.get_attribute("#room-audio", "src")
        rq = RoomQuestion.objects.get(room__code=code, index=0)
        first = QuestionClip.objects.filter(question=rq.question).order_by("position").first()
        assert src_host == src_guest == reverse("quiz:clip_audio", args=[first.clip.public_id])
        _fits(host, "room, question open")
        # the guest buzzes with the key; the host's buzzer locks and it names the buzzer
        guest.locator("body").press(" ")
        guest.wait_for_selector("#room-answer-form:not([hidden])")
        host.wait_for_selector("#room-buzz[disabled]")
        host.wait_for_function("document.getElementById('room-status').textContent.includes('Bo')")
        assert host.locator("#room-answer-form").is_hidden()
        guest.fill("#room-answer", "surely not this")
        guest.keyboard.press("Enter")
        for page in (host, guest):
            page.wait_for_selector("#room-ruling:not([hidden])")
        ruling_host, ruling_guest = host.inner_text("#room-ruling"), guest.inner_text("#room-ruling")
        assert ruling_host == ruling_guest and ruling_host.startswith("Bo:")
        _fits(guest, "room, after the ruling")
        # the question goes on for the host, who may still buzz; the wrong buzzer may not
        host.wait_for_selector("#room-buzz:not([disabled])")
        assert guest.locator("#room-buzz").is_disabled()
        buzz = RoomBuzz.objects.get(player__name="Bo")
        assert buzz.correct is False and buzz.response is not None
        stored = Response.objects.get(pk=buzz.response_id)
        assert stored.answer_text == "surely not this" and stored.clue_index == buzz.clue_index
    finally:
        guest_ctx.close()
        host_ctx.close()
