"""The researcher's Responses page on a phone (390 × 844) and on a desktop (1280 × 900).

On a phone each response reads as one card: every value labelled with its column's
header (earshot.css ``.table.phone-cards``), nothing scrolls sideways, and a card is a
few lines tall rather than a narrow column of wrapped words. The table stays a table in
the browser's accessibility tree. On a desktop it is the plain table with its header row.
"""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# What the user sees of each card: the header texts, each cell's box and the label its
# ::before prints (Chromium resolves attr() in the computed content, with the alt text).
CARDS = """() => {
  const table = document.getElementById('responses-table');
  const headers = [...table.tHead.rows[0].cells].map((th) => th.textContent.trim());
  const rows = [...table.tBodies[0].rows].map((tr) => ({
    box: tr.getBoundingClientRect().toJSON(),
    cells: [...tr.cells].map((td) => ({
      label: td.dataset.label,
      before: getComputedStyle(td, '::before').content,
      box: td.getBoundingClientRect().toJSON(),
      text: td.textContent.trim(),
    })),
  }));
  const head = table.tHead.getBoundingClientRect().toJSON();
  return {headers, rows, head, display: getComputedStyle(table).display,
          scrollWidth: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight};
}"""


def _logged_in(browser, live_server, dash, viewport, *, mobile):
    """A browser context and page logged in as the fixture's researcher (force_login:
    the axes backend)."""
    client = Client()
    client.force_login(dash.researcher)
    context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    return context, page


def _open(browser, live_server, dash, viewport, *, mobile):
    """The Responses page, logged in as the fixture's researcher."""
    context, page = _logged_in(browser, live_server, dash, viewport, mobile=mobile)
    response = page.goto(f"{live_server.url}/p/{dash.project.slug}/responses/")
    assert response is not None and response.status == 200
    return context, page


def test_responses_on_a_phone_are_labelled_cards(browser, live_server, dash):
    from quiz.models import Response

    n = Response.objects.filter(project=dash.project).count()
    assert 1 < n <= 50  # one page
    context, page = _open(browser, live_server, dash, PHONE, mobile=True)
    try:
        seen = page.evaluate(CARDS)
        ax = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    finally:
        context.close()

    assert seen["scrollWidth"] <= PHONE["width"] + 1, f"page is {seen['scrollWidth']} px wide on a 390 px phone"
    headers = seen["headers"]
    assert headers[1:] == ["Question", "Responder", "Mode", "Answer", "Verdict", "Rule", "Explanation"]
    assert seen["head"]["height"] <= 1, "the header row is only for screen readers on a phone"
    assert len(seen["rows"]) == n
    for i, row in enumerate(seen["rows"]):
        box, cells = row["box"], row["cells"]
        assert box["left"] >= 0 and box["right"] <= PHONE["width"], f"card {i} leaves the screen: {box}"
        assert [c["label"] for c in cells] == headers, f"card {i}: labels differ from the column headers"
        for header, cell in zip(headers, cells, strict=True):
            assert f'"{header}"' in cell["before"], f"card {i}: {header!r} not shown, ::before is {cell['before']!r}"
        # One value per line, each as wide as the card: a card, not a row of narrow columns.
        tops = [c["box"]["top"] for c in cells]
        assert tops == sorted(tops) and len(set(tops)) == len(tops), f"card {i}: cells side by side"
        assert min(c["box"]["width"] for c in cells) >= 0.8 * box["width"]
        assert box["height"] <= PHONE["height"] / 2, f"card {i} is {box['height']:.0f} px tall"
    assert seen["height"] <= 900 + 320 * n, f"{seen['height']} px for {n} responses"

    roles = {}
    for node in ax:
        role = node.get("role", {}).get("value")
        roles[role] = roles.get(role, 0) + 1
    assert roles.get("table") == 1, roles
    assert roles.get("columnheader") == len(headers), roles
    assert roles.get("cell") == n * len(headers), roles


def test_responses_on_a_desktop_are_a_table(browser, live_server, dash):
    context, page = _open(browser, live_server, dash, DESKTOP, mobile=False)
    try:
        seen = page.evaluate(CARDS)
        header_visible = page.locator("#responses-table thead th").first.is_visible()
    finally:
        context.close()
    assert seen["display"] == "table" and header_visible
    assert seen["head"]["height"] > 10
    assert seen["scrollWidth"] <= DESKTOP["width"]
    first = seen["rows"][0]["cells"]
    assert len({round(c["box"]["top"]) for c in first}) == 1, "a response is one table row"
    assert all(c["before"] in ("none", "normal") for c in first), "no card labels on a desktop"


# Every researcher page of the workspace nav (and the pages its tables link to) at 390 px:
# nothing scrolls sideways, each record table marked phone-cards labels its cells with
# its own headers, and comparison tables scroll inside their panel with readable names.
PAGES = ["/", "/dashboard/", "/questions/", "/questions/q3/", "/responses/", "/seeds/", "/study/",
         "/adjudicate/", "/adjudicate/{response}/", "/judging/agreement/", "/irt/", "/campaigns/"]

PHONE_CARD_TABLES = """() => [...document.querySelectorAll('table.phone-cards')].map((table) => ({
  id: table.id,
  headHeight: table.tHead.getBoundingClientRect().height,
  headers: [...table.tHead.rows[0].cells].map((th) => th.textContent.trim()),
  rows: [...table.tBodies[0].rows].filter((tr) => !tr.querySelector('[colspan]'))
    .map((tr) => [...tr.cells].map((td) => td.dataset.label)),
}))"""


# Comparison tables scroll inside their panel; a name cell in them keeps >= 8 rem (128 px).
NARROW_NAMES = """() => [...document.querySelectorAll('.table-wrap > table.table:not(.phone-cards):not(.fit) td')]
  .filter((td) => !td.classList.contains('num') && !td.hasAttribute('colspan'))
  .filter((td) => td.getBoundingClientRect().width < 128)
  .map((td) => td.textContent.trim().slice(0, 40)).slice(0, 5)"""


def test_researcher_pages_fit_a_phone(browser, live_server, dash):
    from quiz.models import Response

    response = Response.objects.filter(project=dash.project).order_by("pk").first()
    context, page = _logged_in(browser, live_server, dash, PHONE, mobile=True)
    wide, tables, narrow = {}, {}, {}
    try:
        for path in PAGES:
            url = f"{live_server.url}/p/{dash.project.slug}{path.format(response=response.pk)}"
            answer = page.goto(url)
            assert answer is not None and answer.status == 200, (path, answer and answer.status)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"] + 1:
                wide[path] = width
            tables[path] = page.evaluate(PHONE_CARD_TABLES)
            narrow[path] = page.evaluate(NARROW_NAMES)
    finally:
        context.close()
    assert not wide, f"pages wider than a {PHONE['width']} px phone: {wide}"
    narrow = {path: cells for path, cells in narrow.items() if cells}
    assert not narrow, f"names squeezed into narrow columns: {narrow}"
    carded = {path: [t["id"] for t in found] for path, found in tables.items() if found}
    assert set(carded) >= {"/questions/", "/questions/q3/", "/responses/", "/adjudicate/",
                           "/adjudicate/{response}/", "/irt/"}, carded
    for path, found in tables.items():
        for table in found:
            assert table["headHeight"] <= 1, (path, table["id"], "header row shown on a phone")
            for labels in table["rows"]:
                assert labels == table["headers"], (path, table["id"], labels, table["headers"])
