"""A player plays the demo in a real browser: one free-form and one MCQ question."""

import re

import pytest
from django.core.management import call_command

from quiz import demo
from quiz.models import Response

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _answers_by_prompt():
    table = {}
    for spec in demo._bank():
        main = re.sub(r"</?u>", "", spec["answerline"].split("[")[0]).strip()
        table[spec["prompt"]] = (main, spec["choices"][spec["correct"]])
    return table


def _start(page, live_server, mode):
    page.goto(f"{live_server.url}/p/demo/play/")
    page.fill("#handle", f"e2e-{mode}")
    page.check(f"input[name=mode][value={mode}]", force=True)
    page.click("#start")
    page.wait_for_selector("#question[data-ready]")
    _buzz_if_pyramid(page)
    return page.inner_text(".prompt").strip()


def _buzz_if_pyramid(page):
    """A pyramid's answer box opens with a buzz (docs/playing.md)."""
    if page.locator("#buzz").count():
        page.click("#buzz")
        page.wait_for_selector("#answer-form:not([hidden])")


def test_player_answers_free_and_mcq_questions(page, live_server):
    from accounts.models import Project
    from quiz.study import study_update

    call_command("quiz_demo", players=0)
    # The casual design lets the player pick the mode (the demo's default is between-subjects:
    # tests/e2e/test_study_flow.py plays that).
    study_update(project=Project.objects.get(slug="demo"), design="choice")
    answers = _answers_by_prompt()

    # Free answer: type the answer, Enter submits, feedback names the ruling.
    prompt = _start(page, live_server, "free")
    assert "[accept" not in page.content()
    page.fill("#answer", answers[prompt][0])
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback:not([hidden])")
    assert page.inner_text("#verdict") == "Correct!"
    # A plain ruling; the judge's technical explanation is for researchers only (D12).
    assert page.locator("#technical").is_hidden()
    assert page.inner_text("#correct-answer").strip()
    assert "[accept" not in page.inner_text("#correct-answer")

    # Next question through the keyboard; answer it wrongly this time.
    page.keyboard.press("Enter")
    page.wait_for_selector("#question[data-ready]")
    _buzz_if_pyramid(page)
    page.fill("#answer", "a completely wrong answer")
    page.click("#submit")
    page.wait_for_selector("#feedback:not([hidden])")
    assert page.inner_text("#verdict").startswith("Not quite")

    # The player disputes the ruling: it lands in the adjudication queue.
    page.click("#challenge-open")
    page.fill("#challenge-text", "that is what I heard")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#challenge [role=status]').textContent.length > 0")
    from judging.models import Challenge

    assert Challenge.objects.get().text == "that is what I heard"

    # MCQ in a fresh session: keys 1-4 choose, Enter answers; the right option is marked.
    page.context.clear_cookies()
    prompt = _start(page, live_server, "mcq")
    options = page.locator(".option")
    assert options.count() == 4
    texts = [options.nth(i).inner_text().split("\n")[-1].strip() for i in range(4)]
    key = texts.index(answers[prompt][1]) + 1
    page.locator("body").press(str(key))
    assert page.get_attribute(f".option:nth-child({key})", "aria-checked") == "true"
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback:not([hidden])")
    assert page.inner_text("#verdict") == "Correct!"
    assert "right" in page.get_attribute(f".option:nth-child({key})", "class")

    stored = Response.objects.filter(responder__user__handle__startswith="e2e-").order_by("id")
    assert [(r.mode, r.correct) for r in stored] == [("free", True), ("free", False), ("mcq", True)]
    mcq = stored.last()
    assert mcq.choice_position == key - 1 and len(mcq.option_order) == 4


def test_pyramidal_clues_reveal_in_order(page, live_server):
    from accounts.models import Project
    from quiz.study import study_update

    call_command("quiz_demo", players=0)
    study_update(project=Project.objects.get(slug="demo"), design="one_mode", one_mode="free")
    page.goto(f"{live_server.url}/p/demo/play/")
    page.check("input[name=category][value=name-the-music-songs-artists-composers]", force=True)
    page.click("#start")
    # Skip until the pyramidal question comes up (the category has three questions).
    for _ in range(3):
        page.wait_for_selector("#question[data-ready]")
        if page.locator("#reveal").count():
            break
        _buzz_if_pyramid(page)
        page.fill("#answer", "pass")
        page.keyboard.press("Enter")
        page.wait_for_selector("#feedback:not([hidden])")
        page.click("#next")
    # Only the first clue is in the page; the second arrives when the server reveals it.
    assert page.locator(".clue").count() == 1
    assert page.locator("#answer-form").is_hidden()  # the answer box opens with the buzz
    page.click("#reveal")
    page.wait_for_function("document.querySelectorAll('.clue').length === 2")
    page.click("#buzz")
    page.fill("#answer", "Ode to Joy")
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback:not([hidden])")
    assert page.inner_text("#verdict") == "Correct!"
    stored = Response.objects.get(question__external_id="pyramid-ode", responder__kind="human")
    assert stored.clue_index == 1
