"""θ beside accuracies comes from the fit matching the view's mode and filters, and says which (D18).

The audit ran a free 2PL fit, then an MCQ 3PL fit, and the dashboard's single θ
column showed the MCQ fit's numbers beside free-answer accuracies, unlabelled. Here
the same two fits are stored (the estimator replaced by the stand-in of
tests/irt/django_helpers.py: θ = logit of smoothed accuracy, so the two fits give
different numbers for every model) over the hand-built project of conftest.py.
"""

from __future__ import annotations

import io
import json
import re
import zipfile

import pandas as pd
import pytest
from django.urls import reverse

from frontend import selectors
from frontend.dashboard import Filters
from tests.irt.django_helpers import fast_result

pytestmark = pytest.mark.django_db

GEO = "cultural-geography-in-sound"
WHO = "whos-who-name-that-persona"


@pytest.fixture
def run_fit(monkeypatch, dash):
    """Store a succeeded fit of the dash project with the stand-in estimator."""
    import irt.services
    from irt.services import irt_fit_create, irt_fit_run

    monkeypatch.setattr(irt.services, "irt_fit", fast_result)

    def run(**options):
        fit = irt_fit_create(project=dash.project, options=options, by=dash.researcher, dispatch=False)
        fit = irt_fit_run(fit.pk)
        assert fit.status == "succeeded", fit.error
        return fit

    return run


@pytest.fixture
def two_fits(run_fit):
    """A free 2PL fit, then (newer) an MCQ 3PL fit: the audit's sequence."""
    free = run_fit(mode="free", model="2pl")
    mcq = run_fit(mode="mcq", model="3pl")
    return free, mcq


def _thetas(fit) -> dict[int, float]:
    return dict(fit.abilities.values_list("responder_id", "theta"))


def _by_responder(table: pd.DataFrame, column: str) -> dict[int, object]:
    return {int(g): v for g, v in zip(table["group"], table[column], strict=True)}


def test_ranking_theta_per_mode_comes_from_that_modes_fit(dash, two_fits):
    free, mcq = two_fits
    table = selectors.dashboard_data(dash.project, Filters()).tables["models"]
    models = [r.pk for r in dash.models.values()]
    assert _by_responder(table, "free_theta") == {pk: pytest.approx(_thetas(free)[pk]) for pk in models}
    assert _by_responder(table, "mcq_theta") == {pk: pytest.approx(_thetas(mcq)[pk]) for pk in models}
    # the stand-in gives different θ per mode, so a mix-up could not pass unnoticed
    assert all(_thetas(free)[pk] != pytest.approx(_thetas(mcq)[pk]) for pk in models)
    row = table.iloc[0]
    assert (row["free_theta_fit_id"], row["free_theta_fit_mode"], row["free_theta_fit_model"],
            row["free_theta_fit_filters"]) == (free.pk, "free", "2pl", "category=all; source=all")
    assert (row["mcq_theta_fit_id"], row["mcq_theta_fit_mode"], row["mcq_theta_fit_model"],
            row["mcq_theta_fit_filters"]) == (mcq.pk, "mcq", "3pl", "category=all; source=all")


def test_dashboard_page_labels_each_theta_with_its_fit(client, dash, two_fits):
    free, mcq = two_fits
    client.force_login(dash.researcher)
    html = client.get(reverse("frontend:dashboard", args=[dash.project.slug])).content.decode()
    free_note = re.search(r'<li id="theta-fit-free" data-fit-id="(\d*)">(.*?)</li>', html, re.S)
    mcq_note = re.search(r'<li id="theta-fit-mcq" data-fit-id="(\d*)">(.*?)</li>', html, re.S)
    assert free_note and free_note.group(1) == str(free.pk)
    assert f"IRT fit #{free.pk}" in free_note.group(2) and "2PL" in free_note.group(2)
    assert "category=all; source=all" in free_note.group(2)
    assert mcq_note and mcq_note.group(1) == str(mcq.pk) and "3PL" in mcq_note.group(2)
    assert f"θ free answer · fit #{free.pk}" in html
    assert f"θ multiple choice · fit #{mcq.pk}" in html
    # the best model's row shows the free fit's θ in the free column (3 decimals)
    best = dash.models[("beta", "audio+text")].pk
    table = re.search(r'<table class="table" id="table-models">(.*?)</table>', html, re.S).group(1)
    assert f"{_thetas(free)[best]:.3f}" in table
    assert f"{_thetas(mcq)[best]:.3f}" in table


def test_dashboard_without_a_matching_fit_says_so(client, dash, two_fits):
    client.force_login(dash.researcher)
    page = client.get(reverse("frontend:dashboard", args=[dash.project.slug]), {"category": WHO})
    html = page.content.decode()
    for mode in ("free", "mcq"):
        note = re.search(rf'<li id="theta-fit-{mode}" data-fit-id="">(.*?)</li>', html, re.S)
        assert note, mode
        assert "no fit for this view" in note.group(1)
        assert f"category={WHO}; source=all" in note.group(1)
        assert f'id="start-fit-{mode}"' in note.group(1)
        assert f'name="category" value="{WHO}"' in note.group(1)
    assert "θ free answer · no fit" in html
    data = selectors.dashboard_data(dash.project, Filters(category=WHO))
    table = data.tables["models"]
    assert table["free_theta"].isna().all() and table["mcq_theta"].isna().all()
    assert table["free_theta_fit_id"].isna().all()


def test_mode_filter_shows_only_that_modes_fit(client, dash, two_fits):
    _free, mcq = two_fits
    client.force_login(dash.researcher)
    html = client.get(reverse("frontend:dashboard", args=[dash.project.slug]), {"mode": "mcq"}).content.decode()
    assert f'id="theta-fit-mcq" data-fit-id="{mcq.pk}"' in html
    assert 'id="theta-fit-free"' not in html
    table = selectors.dashboard_data(dash.project, Filters(mode="mcq")).tables["models"]
    assert table["free_theta"].isna().all()
    assert set(table["mcq_theta_fit_id"]) == {mcq.pk}


def test_category_fit_serves_only_its_category(dash, run_fit):
    everything = run_fit(mode="free")
    geo = run_fit(mode="free", category=GEO)  # newer, but over one category only
    unfiltered = selectors.dashboard_data(dash.project, Filters()).tables["models"]
    assert set(unfiltered["free_theta_fit_id"]) == {everything.pk}
    filtered = selectors.dashboard_data(dash.project, Filters(category=GEO))
    assert set(filtered.tables["models"]["free_theta_fit_id"]) == {geo.pk}
    assert filtered.theta["free"].filters == f"category={GEO}; source=all"
    assert not filtered.theta["mcq"].found


def test_condition_filter_keeps_the_fit_and_says_it_covers_every_condition(client, dash, two_fits):
    free, _ = two_fits
    data = selectors.dashboard_data(dash.project, Filters(condition="text-only"))
    assert data.theta["free"].fit_id == free.pk
    assert "covers every model condition" in data.theta["free"].label
    (pk,) = data.tables["models"]["group"]
    assert data.tables["models"]["free_theta"].iloc[0] == pytest.approx(_thetas(free)[pk])


def test_a_fit_finishing_later_replaces_the_cached_theta(dash, monkeypatch):
    import irt.services
    from irt.services import irt_fit_create, irt_fit_run

    monkeypatch.setattr(irt.services, "irt_fit", fast_result)
    first = irt_fit_create(project=dash.project, options={"mode": "free"}, dispatch=False)
    second = irt_fit_create(project=dash.project, options={"mode": "free", "seed": 1}, dispatch=False)
    irt_fit_run(second.pk)
    assert selectors.dashboard_data(dash.project, Filters()).theta["free"].fit_id == second.pk
    irt_fit_run(first.pk)  # queued first, finished last: it is the newest result
    assert selectors.dashboard_data(dash.project, Filters()).theta["free"].fit_id == first.pk


def test_dashboard_json_names_the_fits(client, dash, two_fits):
    free, _mcq = two_fits
    client.force_login(dash.researcher)
    body = client.get(reverse("frontend:dashboard", args=[dash.project.slug]), {"format": "json"}).json()
    assert body["theta_fits"]["free"]["fit_id"] == free.pk
    assert body["theta_fits"]["mcq"]["model"] == "3pl"
    assert {r["free_theta_fit_id"] for r in body["tables"]["models"]} == {free.pk}


def _bundle(client, dash) -> tuple[dict, pd.DataFrame, str, pd.DataFrame]:
    client.force_login(dash.researcher)
    response = client.get(reverse("frontend:export_bundle", args=[dash.project.slug]))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    prefix = f"{dash.project.slug}-report/"
    manifest = json.loads(archive.read(prefix + "manifest.json"))
    models = pd.read_csv(io.BytesIO(archive.read(prefix + "tables/models.csv")))
    difficulty = pd.read_csv(io.BytesIO(archive.read(prefix + "tables/category_difficulty.csv")))
    return manifest, models, archive.read(prefix + "report.html").decode(), difficulty


def test_bundle_names_the_fit_of_each_theta(client, dash, two_fits):
    free, mcq = two_fits
    manifest, models, html, difficulty = _bundle(client, dash)
    assert manifest["fit_ids"] == sorted([free.pk, mcq.pk])
    assert manifest["theta_fits"]["free"]["fit_id"] == free.pk
    assert manifest["theta_fits"]["mcq"]["fit_id"] == mcq.pk
    assert set(models["free_theta_fit_id"]) == {free.pk} and set(models["mcq_theta_fit_id"]) == {mcq.pk}
    assert set(models["free_theta_fit_mode"]) == {"free"} and set(models["mcq_theta_fit_model"]) == {"3pl"}
    assert set(models["free_theta_fit_filters"]) == {"category=all; source=all"}
    got = dict(zip(models["group"], models["free_theta"], strict=True))
    assert got == {pk: pytest.approx(theta) for pk, theta in _thetas(free).items() if pk in got}
    assert f"IRT fit #{free.pk} (free, 2PL" in html and f"IRT fit #{mcq.pk} (mcq, 3PL" in html
    assert set(difficulty["free_b_fit_id"].dropna()) == {free.pk}
    assert set(difficulty["mcq_b_fit_id"].dropna()) == {mcq.pk}
    # readable headers in the HTML report; machine keys in the CSV
    assert "<th>θ free answer</th>" in html and "<th>Humans: answers</th>" in html
    assert "free_theta_fit_id" in models.columns


def test_bundle_without_an_mcq_fit_says_so(client, dash, run_fit):
    free = run_fit(mode="free")
    manifest, models, html, _ = _bundle(client, dash)
    assert manifest["fit_ids"] == [free.pk]
    assert manifest["theta_fits"]["mcq"]["fit_id"] is None
    assert models["mcq_theta"].isna().all() and models["mcq_theta_fit_id"].isna().all()
    assert "θ multiple choice: no fit for this view" in html
    assert {"section": "irt", "reason": "no succeeded mcq IRT fit with category=all; source=all"} in manifest["omitted"]


def test_start_button_queues_a_fit_with_the_views_mode_and_filters(client, dash, two_fits, settings,
                                                                   django_capture_on_commit_callbacks):
    from irt.models import Fit

    settings.EARSHOT_IRT_INLINE_THREAD = False  # eager Celery: the fit runs on commit, in this process
    client.force_login(dash.researcher)
    html = client.get(reverse("frontend:dashboard", args=[dash.project.slug]), {"category": WHO}).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="inline-form">(.*?)</form>',
                     html[html.index('id="theta-fit-free"'):], re.S)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form.group(2)))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(form.group(1), fields)
    fit = Fit.objects.order_by("-id").first()
    assert (fit.mode, fit.options["category"], fit.options["source"]) == ("free", WHO, "")
    assert fit.status == "succeeded", fit.error
    after = selectors.dashboard_data(dash.project, Filters(category=WHO))
    assert after.theta["free"].fit_id == fit.pk
