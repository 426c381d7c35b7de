"""F-7: stored XSS crawl. Script payloads in every user-supplied field; every page of every
role loaded in headless Chromium with a dialog hook: no ``alert()`` may fire, no page may
carry a payload unescaped, and no page may trip the Content-Security-Policy.

Fields (tests/hostile.py): project name and description, question prompt, answerline,
option, category, source, owner / guest / rater handles, guest and model answers, model
system name and condition, campaign name, question, instructions, consent text, criterion
and scale labels, item system and condition, rating comments.

Roles and pages: guest player (start, question, answered feedback, history, leaderboard),
researcher (home, workspace, dashboard, questions, each question, responses, adjudication,
judge agreement, IRT list and fit report, campaign list, campaign detail and report), and
annotator (campaign start, consent, instructions, work).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.hostile import build_hostile_project

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = '"><script>alert(2)</script>'
RAW = (IMG, "<script>alert(2)", "onerror=alert(1)>")


def payload(name: str) -> str:
    """Both payloads; the ``<img>`` one first so that 32-character fields keep it whole."""
    return IMG + SCRIPT


class Crawl:
    """One browser context with the dialog, CSP and error hooks; records what it saw."""

    def __init__(self, browser, base_url: str):
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.base = base_url
        self.dialogs: list[str] = []
        self.csp: list[str] = []
        self.errors: list[str] = []
        self.visited: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(f"{self.page.url}: {exc}"))

    def _dialog(self, dialog) -> None:
        self.dialogs.append(f"{self.page.url}: {dialog.type} {dialog.message!r}")
        dialog.dismiss()

    def _console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.csp.append(f"{self.page.url}: {text}")

    def login(self, user) -> None:
        client = Client()
        client.force_login(user)
        self.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                   "url": self.base}])

    def visit(self, path: str, *, status: int = 200) -> str:
        response = self.page.goto(self.base + path)
        assert response is not None and response.status == status, (path, response and response.status)
        self.page.wait_for_load_state("networkidle")
        self.check_body(path, response.text())
        return response.text()

    def check_body(self, where: str, body: str) -> None:
        self.visited.append(where)
        for raw in RAW:
            assert raw not in body, f"{where}: payload {raw!r} unescaped in the HTML"

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def hostile(tmp_path, wav, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_hostile_project(slug="xss", text=payload, folder=tmp_path / "bank", wav=wav)


def _researcher_pages(h) -> list[str]:
    slug, camp = h.project.slug, h.campaign.slug
    pages = [reverse("frontend:home"), reverse("frontend:workspace", args=[slug]),
             reverse("frontend:dashboard", args=[slug]), reverse("frontend:questions", args=[slug]),
             reverse("frontend:responses", args=[slug]), reverse("judging:adjudicate", args=[slug]),
             reverse("judging:agreement", args=[slug]), reverse("irt:fit_list", args=[slug]),
             reverse("irt:fit_detail", args=[slug, h.fit.pk]),
             reverse("annotation:campaign_list", args=[slug]),
             reverse("annotation:campaign_detail", args=[slug, camp]),
             reverse("annotation:campaign_report", args=[slug, camp])]
    pages += [reverse("frontend:question", args=[slug, qid]) for qid in h.question_ids]
    return pages


def test_no_stored_xss_on_any_page_of_any_role(browser, live_server, hostile):
    assert hostile.fit.status == "succeeded"
    slug = hostile.project.slug

    # researcher (the project's owner)
    researcher = Crawl(browser, live_server.url)
    researcher.login(hostile.owner)
    for path in _researcher_pages(hostile):
        researcher.visit(path)
    researcher.page.goto(live_server.url + reverse("frontend:dashboard", args=[slug]))
    researcher.page.wait_for_selector("figure.chart img")

    # guest player: start with a hostile handle, answer with a hostile answer, see the feedback
    player = Crawl(browser, live_server.url)
    player.visit(reverse("frontend:home"))
    player.visit(reverse("quiz:play_start", args=[slug]))
    player.page.fill("#handle", payload("handle")[:32])
    if player.page.locator("input[name=mode][value=free]").count():  # casual play offers the mode
        player.page.check("input[name=mode][value=free]", force=True)
    player.page.click("#start")
    player.page.wait_for_selector("#question[data-ready]")
    player.check_body("play question", player.page.content())
    for round_ in range(2):
        player.page.fill("#answer", payload("answer"))
        player.page.click("#submit")
        player.page.wait_for_selector("#feedback:not([hidden])")
        player.page.wait_for_load_state("networkidle")
        shown = player.page.inner_html("#feedback")
        assert "&lt;img" in shown or "onerror" not in shown, shown  # the answerline is shown escaped
        player.check_body(f"feedback {round_}", shown)
        next_button = player.page.locator("#next")
        if round_ == 0 and next_button.count():
            next_button.first.click()
            player.page.wait_for_load_state("networkidle")
            if not player.page.locator("#question[data-ready] #answer").count():
                break
            player.check_body("play question 2", player.page.content())
    player.visit(reverse("quiz:play_history", args=[slug]))
    player.visit(reverse("quiz:leaderboard", args=[slug]))

    # annotator: the campaign link as a newcomer, through consent and instructions to work
    annotator = Crawl(browser, live_server.url)
    start = reverse("annotation:start", args=[slug, hostile.campaign.slug])
    annotator.visit(start)  # the consent form (consent text, campaign name)
    if annotator.page.locator("#begin").count():  # older flow: a separate start button
        annotator.page.click("#begin")
        annotator.page.wait_for_load_state("networkidle")
        annotator.visit(reverse("annotation:consent", args=[slug, hostile.campaign.slug]))
    annotator.page.check("#agree", force=True)
    annotator.page.click("#continue")
    annotator.page.wait_for_load_state("networkidle")
    assert "/instructions/" in annotator.page.url, annotator.page.url
    annotator.visit(reverse("annotation:instructions", args=[slug, hostile.campaign.slug]))
    annotator.page.click("#continue")
    annotator.page.wait_for_load_state("networkidle")
    assert "/work/" in annotator.page.url, annotator.page.url
    annotator.visit(reverse("annotation:work", args=[slug, hostile.campaign.slug]))

    crawls = (researcher, player, annotator)
    dialogs = [d for c in crawls for d in c.dialogs]
    csp = [v for c in crawls for v in c.csp]
    errors = [e for c in crawls for e in c.errors]
    visited = [v for c in crawls for v in c.visited]
    for crawl in crawls:
        crawl.close()
    assert dialogs == [], f"script ran: {dialogs}"
    assert csp == [], f"Content-Security-Policy blocked something on a page: {csp}"
    assert errors == [], f"JavaScript errors: {errors}"
    assert len(visited) >= 20


def test_api_reference_and_admin_pages_work_under_the_policy(browser, live_server, make_user):
    """D28 / M-13: Swagger UI and ReDoc render from local files only (no Google Fonts),
    and the admin works under the Content-Security-Policy."""
    crawl = Crawl(browser, live_server.url)
    outside: list[str] = []
    crawl.page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(live_server.url)
                  and not r.url.startswith(("data:", "blob:")) else None)
    crawl.visit("/api/v1/docs/")
    crawl.page.wait_for_selector(".swagger-ui .info .title")
    assert "Earshot API" in crawl.page.inner_text(".swagger-ui .info .title")
    crawl.visit("/api/v1/redoc/")
    crawl.page.wait_for_selector("text=Earshot API")
    crawl.visit("/admin/login/")
    crawl.login(make_user(is_staff=True, is_superuser=True))
    crawl.visit("/admin/")
    crawl.visit("/admin/accounts/user/")
    crawl.visit("/admin/accounts/user/add/")
    crawl.close()
    assert outside == [], f"third-party requests: {outside}"
    assert crawl.csp == [], crawl.csp
    assert crawl.dialogs == [] and crawl.errors == [], (crawl.dialogs, crawl.errors)
