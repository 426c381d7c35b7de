"""The fit service: options, a real 2PL fit stored end to end, report tables against
hand-computed values, failures recorded, runs idempotent."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from tests.irt import django_helpers as helpers

# shared fixtures (tests/irt/conftest.py belongs to the pure-core tests)
_test_settings = helpers.django_test_settings
fast_fit = helpers.fast_fit
irt_data = helpers.irt_data
succeeded_fit = helpers.succeeded_fit

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"mode": "spoken"}, "mode", id="bad-mode"),
        pytest.param({"model": "4pl"}, "model", id="bad-model"),
        pytest.param({"model": "3pl", "mode": "free"}, "model", id="3pl-needs-mcq"),
        pytest.param({"method": "magic"}, "method", id="bad-method"),
        pytest.param({"seed": "x"}, "seed", id="seed-not-int"),
        pytest.param({"seed": -1}, "seed", id="seed-negative"),
        pytest.param({"device": "tpu"}, "device", id="bad-device"),
        pytest.param({"colour": "red"}, "colour", id="unknown-option"),
    ],
)
def test_fit_options_reject(options, field):
    from irt.services import FitOptions, FitOptionsError

    with pytest.raises(FitOptionsError) as exc:
        FitOptions.parse(options)
    assert exc.value.field == field


def test_fit_options_defaults():
    from irt.services import FitOptions

    assert FitOptions.parse({}) == FitOptions(mode="free", model="2pl", method="auto", seed=0)
    assert FitOptions.parse({"mode": "mcq", "model": "3PL", "seed": "7"}).model == "3pl"


def test_irt_fit_run_real_2pl_stores_everything(irt_data):
    """A real MAP 2PL fit over the hand table: provenance, rows and report tables."""
    from irt import selectors
    from irt.models import FitAbility, FitItem
    from irt.services import irt_fit_create, irt_fit_run

    fit = irt_fit_create(
        project=irt_data.project, options={"mode": "free", "method": "map", "seed": 3},
        by=irt_data.researcher, dispatch=False,
    )
    assert fit.status == "queued" and fit.options["seed"] == 3
    seen = []
    fit = irt_fit_run(fit.pk, echo=lambda v, m: seen.append(v))
    assert fit.status == "succeeded", fit.error
    assert fit.progress == 1.0 and fit.progress_message == "done"
    assert seen == sorted(seen) and seen[-1] == 1.0
    assert fit.method == "map" and fit.created_by == irt_data.researcher
    assert (fit.n_responders, fit.n_items, fit.n_responses) == (4, 3, 11)
    assert fit.data_hash == selectors.response_matrix(irt_data.project, "free").data_hash
    assert fit.rule_versions == ["rules-test-1"]
    assert fit.started_at <= fit.finished_at and fit.duration_s > 0
    assert fit.warnings  # thin data: the core says so

    ab = {a.responder_id: a for a in FitAbility.objects.filter(fit=fit)}
    r = irt_data.responders
    assert ab[r["human-a"].pk].n_answered == 3 and ab[r["human-a"].pk].accuracy == pytest.approx(2 / 3)
    assert ab[r["model-B"].pk].accuracy == pytest.approx(1 / 3)
    assert ab[r["model-A"].pk].theta > ab[r["model-B"].pk].theta  # 3/3 beats 1/3 on the same items
    for a in ab.values():
        assert a.ci_low < a.theta < a.ci_high
    items = {i.question_id: i for i in FitItem.objects.filter(fit=fit)}
    q = irt_data.questions
    assert items[q["q3"].pk].n_answered == 3 and items[q["q3"].pk].p_correct == pytest.approx(2 / 3)
    assert all(i.a > 0 for i in items.values())

    tables = selectors.fit_report(fit)
    hvm = tables["humans_vs_models"].set_index("kind")
    # pooled accuracy: humans 2/5 (h-a 2/3, h-b 0/2), models 4/6
    assert hvm.loc["human", "accuracy"] == pytest.approx(2 / 5)
    assert hvm.loc["model", "accuracy"] == pytest.approx(4 / 6)
    assert hvm.loc["human", "n_responses"] == 5 and hvm.loc["model", "n_responders"] == 2
    human_theta = np.array([ab[r["human-a"].pk].theta, ab[r["human-b"].pk].theta])
    lo, hi = stats.t.interval(0.95, 1, loc=human_theta.mean(), scale=human_theta.std(ddof=1) / np.sqrt(2))
    assert hvm.loc["human", "mean_theta"] == pytest.approx(human_theta.mean())
    assert (hvm.loc["human", "mean_theta_lo"], hvm.loc["human", "mean_theta_hi"]) == pytest.approx((lo, hi))

    ranking = tables["ranking"]
    assert ranking["entry"].iloc[0] == "model-A (audio+text)"
    assert set(ranking["entry"]) == {"model-A (audio+text)", "model-B (audio+text)", "human population"}

    src = tables["by_source"].set_index(["source", "kind"])["accuracy"]
    assert src[("(none)", "human")] == pytest.approx(2 / 3)
    assert src[("(none)", "model")] == pytest.approx(2 / 4)
    assert src[("test-src", "human")] == 0.0 and src[("test-src", "model")] == 1.0

    cats = tables["categories"].set_index("category")
    music = q["q3"].category.name
    assert cats.loc[music, "accuracy"] == pytest.approx(2 / 3)
    assert cats.loc[music, "accuracy_human"] == 1.0 and cats.loc[music, "accuracy_model"] == 0.5
    assert cats.loc[music, "mean_b"] == pytest.approx(items[q["q3"].pk].b)

    flagged = tables["flags"].set_index("external_id")
    assert "q2" in flagged.index and bool(flagged.loc["q2", "no_human_correct"])  # both humans missed q2
    assert not bool(flagged.loc["q1", "no_human_correct"]) if "q1" in flagged.index else True

    kinds = tables["by_kind"].set_index("kind")
    assert kinds.loc["model", "accuracy"] == pytest.approx(4 / 6)
    top = tables["top_items"]
    assert list(top["a"]) == sorted(top["a"], reverse=True)
    assert {"question", "answer"} <= set(top.columns)


def test_irt_fit_run_records_failure_when_no_responses(project):
    from irt.services import irt_fit_create, irt_fit_run

    fit = irt_fit_run(irt_fit_create(project=project, options={}, dispatch=False).pk)
    assert fit.status == "failed"
    assert "no free responses match" in fit.error
    assert fit.finished_at is not None and fit.result is None


def test_irt_fit_run_records_estimator_error(irt_data, monkeypatch):
    import irt.services
    from irt.services import irt_fit_create, irt_fit_run

    def boom(*args, **kwargs):
        raise FloatingPointError("the optimiser diverged")

    monkeypatch.setattr(irt.services, "irt_fit", boom)
    fit = irt_fit_run(irt_fit_create(project=irt_data.project, options={}, dispatch=False).pk)
    assert fit.status == "failed"
    assert fit.error == "FloatingPointError: the optimiser diverged"
    assert fit.data_hash  # what was attempted is still recorded
    assert not fit.abilities.exists()


def test_irt_fit_run_is_idempotent(succeeded_fit, monkeypatch):
    import irt.services
    from irt.services import irt_fit_run

    monkeypatch.setattr(irt.services, "irt_fit", lambda *a, **k: pytest.fail("ran twice"))
    again = irt_fit_run(succeeded_fit.pk)
    assert again.status == "succeeded" and again.finished_at == succeeded_fit.finished_at


def test_killed_worker_fit_is_reaped_and_can_be_taken_over(irt_data, fast_fit, settings):
    """A fit whose worker died mid-run ("running", no progress for the stale limit) is
    marked failed when fits are listed; a redelivered task takes a stale one over;
    a live one is left alone."""
    import datetime as dt

    from django.utils import timezone

    from irt.models import Fit
    from irt.services import irt_fit_create, irt_fit_run, irt_fits_reap_stale

    settings.EARSHOT_IRT_STALE_AFTER_S = 600
    old = timezone.now() - dt.timedelta(seconds=601)
    fresh = timezone.now() - dt.timedelta(seconds=30)
    mk = lambda: irt_fit_create(  # noqa: E731
        project=irt_data.project, options={"mode": "free"}, by=irt_data.researcher, dispatch=False
    )
    dead, alive, never_beat = mk(), mk(), mk()
    Fit.objects.filter(pk=dead.pk).update(status="running", started_at=old, heartbeat_at=old)
    Fit.objects.filter(pk=alive.pk).update(status="running", started_at=old, heartbeat_at=fresh)
    Fit.objects.filter(pk=never_beat.pk).update(status="running", started_at=old, heartbeat_at=None)

    assert irt_fits_reap_stale(irt_data.project) == 2
    dead.refresh_from_db()
    assert dead.status == "failed" and dead.error.startswith("worker lost")
    assert Fit.objects.get(pk=alive.pk).status == "running"
    assert Fit.objects.get(pk=never_beat.pk).status == "failed"

    # a redelivered task (acks_late) re-claims a stale running fit and finishes it
    Fit.objects.filter(pk=dead.pk).update(status="running", heartbeat_at=old, error="")
    done = irt_fit_run(dead.pk)
    assert done.status == "succeeded" and done.heartbeat_at > fresh
    # ...but never a live one
    assert irt_fit_run(alive.pk).status == "running"


def test_fit_status_api_shows_a_lost_worker(irt_data):
    import datetime as dt

    from django.utils import timezone
    from rest_framework.test import APIClient

    from irt.models import Fit
    from irt.services import irt_fit_create

    old = timezone.now() - dt.timedelta(hours=1)
    fit = irt_fit_create(
        project=irt_data.project, options={"mode": "free"}, by=irt_data.researcher, dispatch=False
    )
    Fit.objects.filter(pk=fit.pk).update(status="running", started_at=old, heartbeat_at=old)
    api = APIClient()
    api.force_authenticate(irt_data.researcher)
    data = api.get(f"/api/v1/projects/{irt_data.project.slug}/irt/fits/{fit.pk}/").json()
    assert data["status"] == "failed" and "worker lost" in data["error"]


def test_irt_fit_create_dispatches_after_commit(irt_data, fast_fit, settings, django_capture_on_commit_callbacks):
    """Without a broker the task runs eagerly once the transaction commits."""
    from irt.models import Fit
    from irt.services import irt_fit_create

    settings.EARSHOT_IRT_INLINE_THREAD = False
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        fit = irt_fit_create(project=irt_data.project, options={"mode": "free"}, by=irt_data.researcher)
    assert Fit.objects.get(pk=fit.pk).status == "queued"  # nothing ran inside the transaction
    assert len(callbacks) == 1
    callbacks[0]()
    fit.refresh_from_db()
    assert fit.status == "succeeded" and fit.progress == 1.0


def test_fit_result_round_trips(succeeded_fit):
    from irt.selectors import fit_data

    d = fit_data(succeeded_fit)
    assert d.result.theta.shape == (4,) and d.result.theta_ci.shape == (4, 2)
    assert len(d.responses) == 11 and set(d.responses["correct"]) == {0, 1}
    assert set(d.responders["name"]) == {"human-a", "human-b", "model-A (audio+text)", "model-B (audio+text)"}
