"""Researcher pages and REST API for fits: a role x endpoint permission matrix, the
start button (queues, never fits in the request), exports and plots."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse

from tests.irt import django_helpers as helpers

# shared fixtures (tests/irt/conftest.py belongs to the pure-core tests)
_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data
fast_fit = helpers.fast_fit
succeeded_fit = helpers.succeeded_fit

pytestmark = pytest.mark.django_db

PAGES = [
    pytest.param("irt:fit_list", False, id="list"),
    pytest.param("irt:fit_status", False, id="status-json"),
    pytest.param("irt:table2", False, id="table2"),
    pytest.param("irt:fit_detail", True, id="report"),
    pytest.param("irt:fit_table", True, id="table-export"),
    pytest.param("irt:fit_plot", True, id="plot"),
    pytest.param("api:fits", False, id="api-list"),
    pytest.param("api:fit", True, id="api-status"),
    pytest.param("api:report", True, id="api-report"),
    pytest.param("api:cat-eval", True, id="api-cat-eval"),
]


def _url(name: str, slug: str, fit_id: int | None) -> str:
    api = {"api:fits": "/api/v1/projects/{s}/irt/fits/", "api:fit": "/api/v1/projects/{s}/irt/fits/{f}/",
           "api:report": "/api/v1/projects/{s}/irt/fits/{f}/report/",
           "api:cat-eval": "/api/v1/projects/{s}/irt/fits/{f}/cat-eval/"}
    if name in api:
        return api[name].format(s=slug, f=fit_id)
    kwargs: dict = {"slug": slug}
    if name in ("irt:fit_detail", "irt:fit_table", "irt:fit_plot"):
        kwargs["fit_id"] = fit_id
    if name == "irt:fit_table":
        kwargs["key"] = "ranking"
    if name == "irt:fit_plot":
        kwargs.update(name="abilities", fmt="svg")
    return reverse(name, kwargs=kwargs)


@pytest.fixture
def other_researcher(make_user):
    """A researcher of another project only."""
    from accounts.models import Role
    from accounts.services import membership_set, project_create

    other = project_create(slug="elsewhere", name="Elsewhere")
    user = make_user(handle="res-elsewhere")
    membership_set(project=other, user=user, role=Role.RESEARCHER)
    return user


@pytest.mark.parametrize(("name", "needs_fit"), PAGES)
@pytest.mark.parametrize(
    ("who", "expected"),
    [
        pytest.param("researcher", 200, id="researcher"),
        pytest.param("participant", 403, id="participant"),
        pytest.param("other", 404, id="other-project-researcher"),
        pytest.param("anonymous", "login", id="anonymous"),
    ],
)
def test_permissions(client, irt_data, succeeded_fit, other_researcher, name, needs_fit, who, expected):
    user = {
        "researcher": irt_data.researcher, "participant": irt_data.participant, "other": other_researcher,
        "anonymous": None,
    }[who]
    if user is not None:
        client.force_login(user)
    resp = client.get(_url(name, irt_data.project.slug, succeeded_fit.pk))
    if expected == "login":
        assert resp.status_code in (302, 401, 403)
        if resp.status_code == 302:
            assert "/accounts/login" in resp["Location"]
    else:
        assert resp.status_code == expected


def test_staff_sees_every_project(client, irt_data, succeeded_fit, make_user):
    client.force_login(make_user(handle="staff-1", is_staff=True))
    assert client.get(_url("irt:fit_list", irt_data.project.slug, None)).status_code == 200
    assert client.get(_url("api:report", irt_data.project.slug, succeeded_fit.pk)).status_code == 200


def test_other_projects_fit_is_404_for_its_own_researcher(client, irt_data, succeeded_fit, other_researcher):
    """A fit id from project A under project B's URL is not found, even for B's researcher."""
    client.force_login(other_researcher)
    assert client.get(f"/p/elsewhere/irt/{succeeded_fit.pk}/").status_code == 404
    assert client.get(f"/api/v1/projects/elsewhere/irt/fits/{succeeded_fit.pk}/").status_code == 404


def test_start_button_queues_without_fitting(client, irt_data, monkeypatch, django_capture_on_commit_callbacks):
    import irt.services
    from irt.models import Fit

    monkeypatch.setattr(irt.services, "irt_fit", lambda *a, **k: pytest.fail("fitted inside the request"))
    client.force_login(irt_data.researcher)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        resp = client.post(reverse("irt:fit_start", kwargs={"slug": irt_data.project.slug}),
                           {"mode": "mcq", "model": "2pl", "method": "map", "seed": "5"})
    assert resp.status_code == 302
    fit = Fit.objects.get()
    assert (fit.status, fit.mode, fit.options["seed"], fit.created_by) == ("queued", "mcq", 5, irt_data.researcher)
    assert len(callbacks) == 1  # handed to the background after commit


def test_start_button_rejects_bad_options(client, irt_data):
    from irt.models import Fit

    client.force_login(irt_data.researcher)
    resp = client.post(reverse("irt:fit_start", kwargs={"slug": irt_data.project.slug}),
                       {"mode": "free", "model": "3pl"}, follow=True)
    assert not Fit.objects.exists()
    assert "3pl needs multiple-choice" in resp.content.decode()


def test_participant_cannot_start_a_fit(client, irt_data):
    from irt.models import Fit

    client.force_login(irt_data.participant)
    resp = client.post(reverse("irt:fit_start", kwargs={"slug": irt_data.project.slug}), {"mode": "free"})
    assert resp.status_code == 403 and not Fit.objects.exists()


def test_status_json_reports_progress(client, irt_data, succeeded_fit):
    client.force_login(irt_data.researcher)
    data = client.get(reverse("irt:fit_status", kwargs={"slug": irt_data.project.slug})).json()
    assert data["fits"][0] | {"id": succeeded_fit.pk} == data["fits"][0]
    assert data["fits"][0]["status"] == "succeeded" and data["fits"][0]["progress"] == 1.0


def test_report_page_shows_tables_and_inline_svg(client, irt_data, succeeded_fit):
    client.force_login(irt_data.researcher)
    html = client.get(reverse("irt:fit_detail", kwargs={"slug": irt_data.project.slug, "fit_id": succeeded_fit.pk})).content.decode()
    for title in ("Humans vs models", "Audita Table 3", "Audita Table 10", "Most discriminating items",
                  "Uninformative items", "Audita Figure 2", "Audita Figure 3", "Test information"):
        assert title in html, title
    assert html.count("<svg") >= 4
    assert "Batman" in html  # Table 14 shows the questions' answers to researchers
    assert "@secret.example" not in html and "user" not in _handles_in(html)


def _handles_in(html: str) -> str:
    return " ".join(w for w in html.split() if w.startswith("user") and w[4:5].isdigit())


@pytest.mark.parametrize("key", ["humans_vs_models", "ranking", "by_source", "by_kind", "top_items", "bottom_items",
                                 "flags", "categories", "responders", "items", "test_information"])
def test_table_exports_csv_and_json(client, irt_data, succeeded_fit, key):
    client.force_login(irt_data.researcher)
    url = reverse("irt:fit_table", kwargs={"slug": irt_data.project.slug, "fit_id": succeeded_fit.pk, "key": key})
    as_csv = client.get(url + "?format=csv")
    assert as_csv["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    as_json = json.loads(client.get(url + "?format=json").content)
    assert len(rows) == len(as_json)
    body = as_csv.content.decode() + json.dumps(as_json)
    for secret in ("@secret.example", "@example.org", "user1", "user2", "user3"):
        assert secret not in body  # pseudonymous labels only


def test_responders_export_uses_labels(client, irt_data, succeeded_fit):
    client.force_login(irt_data.researcher)
    url = reverse("irt:fit_table", kwargs={"slug": irt_data.project.slug, "fit_id": succeeded_fit.pk, "key": "responders"})
    data = json.loads(client.get(url + "?format=json").content)
    assert {r["name"] for r in data} == {"human-a", "human-b", "model-A (audio+text)", "model-B (audio+text)"}
    assert {r["n_answered"] for r in data if r["name"] == "human-b"} == {2}


@pytest.mark.parametrize("plot", ["abilities", "categories", "icc", "information"])
@pytest.mark.parametrize(("fmt", "magic"), [("png", b"\x89PNG"), ("svg", b"<?xml")])
def test_plot_downloads(client, irt_data, succeeded_fit, plot, fmt, magic):
    client.force_login(irt_data.researcher)
    url = reverse("irt:fit_plot", kwargs={"slug": irt_data.project.slug, "fit_id": succeeded_fit.pk, "name": plot, "fmt": fmt})
    resp = client.get(url)
    assert resp.status_code == 200 and resp.content.startswith(magic)


def test_api_create_status_report(client, irt_data, fast_fit, settings, django_capture_on_commit_callbacks):
    settings.EARSHOT_IRT_INLINE_THREAD = False
    client.force_login(irt_data.researcher)
    base = f"/api/v1/projects/{irt_data.project.slug}/irt/fits/"
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(base, {"mode": "free", "model": "2pl", "method": "map"}, content_type="application/json")
    assert resp.status_code == 202, resp.content
    fit_id = resp.json()["id"]
    status = client.get(f"{base}{fit_id}/").json()
    assert status["status"] == "succeeded" and status["progress"] == 1.0
    assert status["n_responses"] == 11 and len(status["data_hash"]) == 64
    report = client.get(f"{base}{fit_id}/report/").json()
    hvm = {r["kind"]: r for r in report["tables"]["humans_vs_models"]}
    assert hvm["human"]["accuracy"] == pytest.approx(0.4)
    assert [f["id"] for f in client.get(base).json()] == [fit_id]


def test_api_rejects_bad_options_and_unfinished_reports(client, irt_data):
    from irt.services import irt_fit_create

    client.force_login(irt_data.researcher)
    base = f"/api/v1/projects/{irt_data.project.slug}/irt/fits/"
    bad = client.post(base, {"mode": "free", "model": "3pl"}, content_type="application/json")
    assert bad.status_code == 400 and "model" in bad.json()
    queued = irt_fit_create(project=irt_data.project, options={}, dispatch=False)
    assert client.get(f"{base}{queued.pk}/report/").status_code == 409


def test_api_participant_cannot_create(client, irt_data):
    client.force_login(irt_data.participant)
    resp = client.post(f"/api/v1/projects/{irt_data.project.slug}/irt/fits/", {}, content_type="application/json")
    assert resp.status_code == 403
