"""Every dashboard number against values computed by hand from tests/frontend/conftest.py."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from django.urls import reverse

from frontend import dashboard as core
from frontend import diagnostics, selectors
from frontend.dashboard import Filters

pytestmark = pytest.mark.django_db


def approx(x):
    return pytest.approx(x, abs=1e-12)


@pytest.fixture
def data(dash):
    return selectors.dashboard_data(dash.project, Filters())


def _row(table: pd.DataFrame, group) -> dict:
    """One table row as a dict, with NaN (pandas' missing float) read as None."""
    rows = table[table["group"] == group].to_dict(orient="records")
    assert len(rows) == 1, (group, table)
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in rows[0].items()}


def test_headline_counts(dash, data):
    assert data.head.counts == {"questions": 3, "humans": 3, "model_systems": 2,
                                "model_responders": 3, "responses": 29}


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        pytest.param("free", dict(human_n=9, human_correct=3, human_accuracy=1 / 3, model_n=9, model_correct=4,
                                  model_accuracy=4 / 9, gap=1 / 3 - 4 / 9, topline_n=3, topline_correct=2,
                                  topline_accuracy=2 / 3, best_model="alpha (audio+text)",
                                  best_model_accuracy=2 / 3, topline_gap=0.0), id="free"),
        pytest.param("mcq", dict(human_n=5, human_correct=3, human_accuracy=0.6, model_n=6, model_correct=3,
                                 model_accuracy=0.5, gap=0.1, topline_n=2, topline_correct=2, topline_accuracy=1.0,
                                 best_model="beta (audio+text)", best_model_accuracy=1.0, topline_gap=0.0), id="mcq"),
    ],
)
def test_headline_per_mode(data, mode, expected):
    row = next(m for m in data.head.modes if m.mode == mode)
    for key, value in expected.items():
        got = getattr(row, key)
        assert got == (value if isinstance(value, str | int) else approx(value)), key


def test_topline_is_best_fifth_of_eligible_players(dash, data):
    # H3 has 4 answers (< 5) and is not eligible; of H1 (4/5) and H2 (2/5), ceil(0.2 × 2) = 1 → H1.
    assert data.head.topline.eligible == 2
    assert data.head.topline.responder_ids == (dash.humans["H1"].pk,)


@pytest.mark.parametrize(
    ("table", "group", "expected"),
    [
        pytest.param("category", "cultural-geography-in-sound", (6, 3, 6, 4), id="cat-geo"),
        pytest.param("category", "whos-who-name-that-persona", (3, 0, 3, 1), id="cat-whos-who"),
        pytest.param("category", "name-the-music-songs-artists-composers", (5, 3, 6, 2), id="cat-music"),
        pytest.param("source", "(none)", (11, 6, 12, 6), id="source-none"),
        pytest.param("source", "test-src", (3, 0, 3, 1), id="source-test"),
        pytest.param("qtype", "free", (6, 2, 9, 4), id="qtype-free"),
        pytest.param("qtype", "mcq", (5, 3, 6, 3), id="qtype-mcq"),
        pytest.param("qtype", "pyramidal-1", (1, 1, 0, 0), id="qtype-clue1"),
        pytest.param("qtype", "pyramidal-2", (1, 0, 0, 0), id="qtype-clue2"),
        pytest.param("qtype", "pyramidal-3", (1, 0, 0, 0), id="qtype-clue3"),
    ],
)
def test_breakdowns_humans_vs_models(data, table, group, expected):
    h_n, h_c, m_n, m_c = expected
    row = _row(data.tables[table], group)
    assert (row["human_n"], row["human_correct"], row["model_n"], row["model_correct"]) == expected
    h_acc = h_c / h_n if h_n else None
    m_acc = m_c / m_n if m_n else None
    assert row["human_accuracy"] == (approx(h_acc) if h_acc is not None else None)
    assert row["model_accuracy"] == (approx(m_acc) if m_acc is not None else None)
    if h_acc is not None and m_acc is not None:
        assert row["gap"] == approx(h_acc - m_acc)
    else:
        assert row["gap"] is None


def test_breakdown_tables_have_exactly_the_expected_groups(data):
    assert len(data.tables["category"]) == 3
    assert set(data.tables["qtype"]["group"]) == {"free", "mcq", "pyramidal-1", "pyramidal-2", "pyramidal-3"}
    assert _row(data.tables["category"], "whos-who-name-that-persona")["label"] == "Who's Who? Name That Persona"


@pytest.mark.parametrize(
    ("group", "free", "mcq"),
    [
        pytest.param("humans", (9, 3), (5, 3), id="humans"),
        pytest.param("audio+text", (6, 4), (4, 3), id="audio+text"),
        pytest.param("text-only", (3, 0), (2, 0), id="text-only"),
    ],
)
def test_condition_table(data, group, free, mcq):
    row = _row(data.tables["condition"], group)
    assert (row["free_n"], row["free_correct"]) == free
    assert (row["mcq_n"], row["mcq_correct"]) == mcq
    assert row["overall_accuracy"] == approx((free[1] + mcq[1]) / (free[0] + mcq[0]))
    assert data.tables["condition"]["group"].iloc[0] == "humans"


def test_model_ranking(dash, data):
    table = data.tables["models"]
    assert list(table["label"]) == ["beta (audio+text)", "alpha (audio+text)", "alpha (text-only)"]
    assert list(table["rank"]) == [1, 2, 3]
    assert list(table["overall_accuracy"]) == [approx(0.8), approx(0.6), approx(0.0)]
    assert list(table["free_correct"]) == [2, 2, 0]
    assert list(table["mcq_correct"]) == [2, 1, 0]
    for column in ("free_theta", "mcq_theta", "free_theta_fit_id", "mcq_theta_fit_id"):  # no IRT fit
        assert all(v is None for v in table[column]), column


@pytest.mark.parametrize(
    ("group", "n", "acc", "chose", "errors", "error_shares"),
    [
        pytest.param("humans", 5, 3 / 5, (3 / 5, 1 / 5, 1 / 5, 0), 2, (1 / 2, 0, 1 / 2, 0), id="humans"),
        pytest.param("alpha (audio+text)", 2, 0.5, (0, 1, 0, 0), 1, (0, 1, 0, 0), id="M1"),
        pytest.param("alpha (text-only)", 2, 0.0, (1 / 2, 0, 1 / 2, 0), 2, (1 / 2, 0, 1 / 2, 0), id="M2"),
        pytest.param("beta (audio+text)", 2, 1.0, (1 / 2, 1 / 2, 0, 0), 0, (None,) * 4, id="M3"),
        pytest.param("all models", 6, 0.5, (2 / 6, 3 / 6, 1 / 6, 0), 3, (1 / 3, 1 / 3, 1 / 3, 0), id="all-models"),
        pytest.param("overall", 11, 6 / 11, (5 / 11, 4 / 11, 2 / 11, 0), 5, (2 / 5, 1 / 5, 2 / 5, 0), id="overall"),
    ],
)
def test_mcq_positions(data, group, n, acc, chose, errors, error_shares):
    row = _row(data.tables["mcq_positions"], group)
    assert row["n"] == n and row["errors"] == errors
    assert row["accuracy"] == approx(acc)
    assert [row[f"chose_{p}"] for p in "ABCD"] == [approx(v) for v in chose]
    got = [row[f"error_{p}"] for p in "ABCD"]
    assert got == [None if v is None else approx(v) for v in error_shares]


@pytest.mark.parametrize(
    ("group", "errors", "questions", "shares"),
    [
        pytest.param("humans", 2, 1, (1 / 2, 1 / 2, 0), id="humans"),
        pytest.param("alpha (audio+text)", 1, 1, (1, 0, 0), id="M1"),
        pytest.param("alpha (text-only)", 2, 2, (1, 0, 0), id="M2"),
        pytest.param("all models", 3, 2, (2 / 3, 1 / 3, 0), id="all-models"),
        pytest.param("overall", 5, 2, (3 / 5, 2 / 5, 0), id="overall"),
    ],
)
def test_mcq_distractors(data, group, errors, questions, shares):
    row = _row(data.tables["mcq_distractors"], group)
    assert (row["errors"], row["questions"]) == (errors, questions)
    assert [row["top_share"], row["second_share"], row["third_share"]] == [approx(v) for v in shares]
    assert "beta (audio+text)" not in set(data.tables["mcq_distractors"]["group"])  # M3 made no MCQ error


def test_inter_human_agreement(data):
    table = data.tables["agreement"]
    everyone = _row(table, "all participants")
    # Items (question × mode) with n humans and k right: q1 free (3,2), q2 free (3,0), q3 free (3,1),
    # q1 mcq (3,1), q3 mcq (2,2) → agreeing pairs 1+3+1+1+1 = 7 of 3+3+3+3+1 = 13.
    assert (everyone["items"], everyone["pairs"], everyone["agreeing_pairs"]) == (5, 13, 7)
    assert everyone["agreement"] == approx(7 / 13)
    # p = 6/14 = 3/7 → expected 25/49 → kappa = (7/13 − 25/49) / (24/49) = 3/52.
    assert everyone["kappa"] == approx(3 / 52)
    top = _row(table, "top participants")  # only H1: no pairs
    assert (top["items"], top["pairs"]) == (0, 0)
    assert top["agreement"] is None or math.isnan(top["agreement"])


def test_questions_no_human_answered_correctly(data):
    table = data.tables["unsolved"]
    assert list(table["external_id"]) == ["q2"]
    assert list(table["human_n"]) == [3]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        pytest.param({"mode": "mcq"}, {"responses": 11, "questions": 2}, id="mode"),
        pytest.param({"category": "whos-who-name-that-persona"}, {"responses": 6, "questions": 1}, id="category"),
        pytest.param({"source": "test-src"}, {"responses": 6, "questions": 1}, id="source"),
        pytest.param({"condition": "text-only"}, {"responses": 14 + 5, "model_responders": 1}, id="condition"),
    ],
)
def test_filters_narrow_every_number(dash, params, expected):
    data = selectors.dashboard_data(dash.project, Filters.from_query(params))
    for key, value in expected.items():
        assert data.head.counts[key] == value


def test_condition_filter_keeps_humans_and_one_condition(dash):
    data = selectors.dashboard_data(dash.project, Filters(condition="text-only"))
    free = next(m for m in data.head.modes if m.mode == "free")
    assert (free.human_n, free.model_n, free.model_correct) == (9, 3, 0)
    assert set(data.tables["condition"]["group"]) == {"humans", "text-only"}


# ------------------------------------------------------------------ pure helpers


@pytest.mark.parametrize(
    ("mode", "pyramidal", "clue", "label"),
    [
        pytest.param("mcq", True, 2, "mcq", id="mcq"),
        pytest.param("free", False, None, "free", id="free"),
        pytest.param("free", True, None, "free", id="pyramidal-unknown-clue"),
        pytest.param("free", True, 0, "pyramidal-1", id="pyramidal-first"),
    ],
)
def test_qtype_label(mode, pyramidal, clue, label):
    assert core.qtype_label(mode, pyramidal, clue) == label


def test_pairwise_agreement_matches_brute_force():
    """The closed form equals counting every pair of verdict vectors."""
    import itertools
    import random

    rng = random.Random(3)
    items = [[rng.random() < 0.6 for _ in range(rng.randint(1, 6))] for _ in range(40)]
    pairs = agree = 0
    for verdicts in items:
        for a, b in itertools.combinations(verdicts, 2):
            pairs += 1
            agree += a == b
    rows = [{"n": len(v), "correct": sum(v)} for v in items]
    got = diagnostics.pairwise_agreement(rows)
    assert (got["pairs"], got["agreeing_pairs"]) == (pairs, agree)
    assert got["agreement"] == approx(agree / pairs)


@pytest.mark.parametrize(
    ("kappa", "label"),
    [pytest.param(-0.1, "poor", id="poor"), pytest.param(0.2, "slight", id="slight"),
     pytest.param(0.5, "moderate", id="moderate"), pytest.param(0.9, "almost perfect", id="almost-perfect"),
     pytest.param(None, "", id="none")],
)
def test_landis_koch_labels(kappa, label):
    assert diagnostics.landis_koch(kappa) == label


def test_filters_from_query_ignores_unknown_mode():
    assert Filters.from_query({"mode": "bogus", "category": "x"}) == Filters(category="x")


# ------------------------------------------------------------------ the page


def test_dashboard_page_shows_numbers_and_links(client, dash):
    client.force_login(dash.researcher)
    page = client.get(reverse("frontend:dashboard", args=[dash.project.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="human-acc-mcq">60.0%' in html
    assert 'id="model-acc-mcq">50.0%' in html
    assert 'id="gap-mcq">+10.0' in html
    assert 'id="count-responses">29' in html
    for name in ("category", "source", "qtype", "condition", "mcq_positions", "agreement"):
        assert f'id="download-chart-{name}-svg"' in html
        assert f'id="download-csv-{name}"' in html
    # A number links to the responses behind it, and that list has exactly that many rows.
    responses = client.get(reverse("frontend:responses", args=[dash.project.slug]),
                           {"category": "whos-who-name-that-persona", "kind": "model", "correct": "1"})
    assert responses.status_code == 200
    assert 'id="responses-count">1<' in responses.content.decode()
    assert "/responses/?category=whos-who-name-that-persona&amp;kind=model&amp;correct=1" in html or \
        "category=whos-who-name-that-persona" in html


@pytest.mark.parametrize(
    ("params", "count"),
    [
        pytest.param({"qtype": "pyramidal-1"}, 1, id="qtype"),
        pytest.param({"mode": "mcq", "group": "humans", "position": "0"}, 3, id="mcq-position"),
        pytest.param({"kind": "human", "correct": "0"}, 8, id="human-wrong"),
        pytest.param({"condition": "audio+text", "kind": "model"}, 10, id="condition"),
    ],
)
def test_responses_list_matches_the_numbers(client, dash, params, count):
    client.force_login(dash.researcher)
    page = client.get(reverse("frontend:responses", args=[dash.project.slug]), params)
    assert f'id="responses-count">{count}<' in page.content.decode()


def test_chart_and_table_downloads(client, dash):
    client.force_login(dash.researcher)
    svg = client.get(reverse("frontend:dashboard_chart", args=[dash.project.slug, "category", "svg"]), {"download": 1})
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert svg.content.lstrip().startswith(b"<?xml") and b"<svg" in svg.content
    assert "attachment" in svg["Content-Disposition"]
    png = client.get(reverse("frontend:dashboard_chart", args=[dash.project.slug, "mcq_positions", "png"]))
    assert png.content.startswith(b"\x89PNG")
    csv = client.get(reverse("frontend:dashboard_table", args=[dash.project.slug, "category", "csv"]))
    frame = pd.read_csv(pd.io.common.BytesIO(csv.content))
    row = frame[frame["group"] == "whos-who-name-that-persona"].iloc[0]
    assert (row["human_n"], row["human_correct"], row["model_n"], row["model_correct"]) == (3, 0, 3, 1)
    as_json = client.get(reverse("frontend:dashboard", args=[dash.project.slug]), {"format": "json"}).json()
    assert as_json["counts"]["responses"] == 29
    assert [r["external_id"] for r in as_json["tables"]["unsolved"]] == ["q2"]


def test_question_page_lists_every_response_pseudonymously(client, dash):
    client.force_login(dash.researcher)
    page = client.get(reverse("frontend:question", args=[dash.project.slug, "q1"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Canberra" in html  # the answerline
    assert html.count("set by the fixture") == 6 + 6  # every response with its explanation
    assert "swift-otter-1" in html and "alice.secret-username" not in html
    assert "No IRT fit includes this question yet." in html


def test_workspace_page_and_token(client, dash):
    client.force_login(dash.researcher)
    url = reverse("frontend:workspace", args=[dash.project.slug])
    page = client.get(url)
    assert page.status_code == 200 and 'id="link-dashboard"' in page.content.decode()
    created = client.post(reverse("frontend:api_token", args=[dash.project.slug]))
    assert created.status_code == 302
    from rest_framework.authtoken.models import Token

    key = Token.objects.get(user=dash.researcher).key
    assert key in client.get(url).content.decode()  # shown once
    assert key not in client.get(url).content.decode()


def test_human_override_changes_the_numbers_and_shows_in_the_trail(client, dash):
    """A human judgement (judging's override) wins over the stored rule verdict everywhere."""
    from judging.services import override_set
    from quiz.models import Response

    wrong = Response.objects.get(responder=dash.humans["H3"], question__external_id="q2", mode="free")
    override_set(response=wrong, correct=True, by=dash.researcher, note="accept the nickname")
    data = selectors.dashboard_data(dash.project, Filters())
    free = next(m for m in data.head.modes if m.mode == "free")
    assert (free.human_n, free.human_correct) == (9, 4)
    assert list(data.tables["unsolved"]["external_id"]) == []  # q2 now has a correct human answer
    client.force_login(dash.researcher)
    html = client.get(reverse("frontend:question", args=[dash.project.slug, "q2"])).content.decode()
    assert "accept the nickname" in html and "overridden" in html


def test_dashboard_cache_is_invalidated_by_new_and_rejudged_responses(dash, settings):
    """Cached numbers are reused only while the data is unchanged."""
    from django.utils import timezone

    from quiz.models import Response

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "dash-cache-test"}}
    first = selectors.dashboard_data(dash.project, Filters())
    again = selectors.dashboard_data(dash.project, Filters())
    assert again.head == first.head
    response = Response.objects.get(responder=dash.humans["H3"], question__external_id="q1", mode="free")
    Response.objects.filter(pk=response.pk).update(correct=True, judged_at=timezone.now())  # a re-score
    rescored = selectors.dashboard_data(dash.project, Filters())
    free = next(m for m in rescored.head.modes if m.mode == "free")
    assert free.human_correct == 4
    assert rescored.head == selectors.dashboard_data(dash.project, Filters(), use_cache=False).head
