"""``manage.py irt_fit`` on a tiny stored dataset: the ``imported`` bank, humans from
the hand table and a model system imported with ``quiz_import_responses``."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from tests.irt import django_helpers as helpers

# shared fixtures (tests/irt/conftest.py belongs to the pure-core tests)
_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_imported_model(irt_data, tmp_path):
    """A third system's free answers, judged on import: right on q1 and q2, wrong on q3."""
    rows = [
        {"system": "imported-alm", "condition": "audio+text", "question_id": "q1", "mode": "free", "answer": "Canberra"},
        {"system": "imported-alm", "condition": "audio+text", "question_id": "q2", "mode": "free", "answer": "Bruce Wayne"},
        {"system": "imported-alm", "condition": "audio+text", "question_id": "q3", "mode": "free", "answer": "Bolero"},
    ]
    path = tmp_path / "outputs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    call_command("quiz_import_responses", str(path), project=irt_data.project.slug)
    return irt_data


def test_irt_fit_command_runs_inline_and_prints_summary(with_imported_model, capsys):
    from irt.models import Fit, FitAbility

    call_command("irt_fit", project=with_imported_model.project.slug, mode="free", model="2pl", method="map", seed=1)
    out = capsys.readouterr().out
    fit = Fit.objects.get()
    assert f"IRT fit #{fit.pk} (2pl, free)" in out
    assert "100.0%  done" in out
    assert f"fit #{fit.pk} succeeded: 5 responders x 3 items, 14 responses, method map" in out
    assert "human population" in out and "imported-alm (audio+text)" in out
    assert fit.status == "succeeded" and fit.options["seed"] == 1 and fit.n_responses == 14
    ability = FitAbility.objects.get(fit=fit, responder__label="imported-alm (audio+text)")
    assert ability.accuracy == pytest.approx(2 / 3)  # judged by the rule engine on import


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"project": "nope"}, "unknown project 'nope'", id="unknown-project"),
        pytest.param({"model": "3pl", "mode": "free"}, "3pl needs multiple-choice", id="3pl-free"),
        pytest.param({"source": "no-such-source"}, "no free responses match", id="nothing-to-fit"),
    ],
)
def test_irt_fit_command_errors(irt_data, kwargs, message):
    kwargs = {"project": irt_data.project.slug, **kwargs}
    with pytest.raises(CommandError, match=message):
        call_command("irt_fit", **kwargs)
