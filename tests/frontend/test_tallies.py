"""The fast dashboard path against the reference (one ORM GROUP BY per table) and
the trigger-kept tallies against a recount of the responses.

Random projects (seeded) with humans and models answering the fixture's
questions, human judgements and LLM verdicts overriding some stored verdicts;
every table must equal the reference's under every filter and every counting
method the database offers.
"""

from __future__ import annotations

import math
import random

import pandas as pd
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Count, F, Q
from django.utils import timezone

from frontend import selectors, tallies
from frontend.dashboard import Filters
from frontend.models import ItemTally, ResponderTally

from . import reference
from .conftest import _response

pytestmark = pytest.mark.django_db

FILTERS = [
    Filters(),
    Filters(mode="mcq"),
    Filters(mode="free"),
    Filters(category="cultural-geography-in-sound"),
    Filters(source="test-src"),
    Filters(condition="text-only"),
    Filters(mode="mcq", condition="audio+text", category="name-the-music-songs-artists-composers"),
]


def _methods() -> list[str]:
    return ["tallies", "grouping_sets", "statements"] if connection.vendor == "postgresql" else ["statements"]


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the tallies are kept by PostgreSQL triggers")


def _add_random_responses(dash, seed: int, humans: int = 9) -> None:
    """More players and model responders answering the fixture's items at random."""
    from accounts.services import user_create
    from quiz.models import Question
    from quiz.services import responder_for_model, responder_for_user

    rng = random.Random(seed)
    questions = {q.external_id: q for q in Question.objects.filter(project=dash.project)}
    items = [("q1", "free"), ("q2", "free"), ("q3", "free"), ("q1", "mcq"), ("q3", "mcq")]
    people = []
    for i in range(humans):
        user = user_create(username=f"rand-{seed}-{i}", password="pw-123456!", handle=f"rand-{seed}-{i}")
        people.append(responder_for_user(project=dash.project, user=user))
    for system, condition in (("gamma", "audio+text"), ("gamma", "text-only"), ("delta", "text-only")):
        people.append(responder_for_model(project=dash.project, system_name=system, condition=condition))
    for responder in people:
        for k, (qid, mode) in enumerate(rng.sample(items, rng.randint(1, len(items)))):
            question = questions[qid]
            choice = rng.randrange(4) if mode == "mcq" else None
            right = choice == question.correct_choice if mode == "mcq" else rng.random() < 0.5
            clue = rng.randrange(3) if mode == "free" and question.pyramidal else None
            _response(dash.project, question, responder, mode, right, clue=clue,
                      pos=rng.randrange(4) if mode == "mcq" else None, choice=choice, token=f"r{seed}-{k}")


def _add_overrides(dash, seed: int) -> None:
    """Human judgements (some flipping, some confirming) and LLM verdicts on random responses."""
    from judging.models import VerdictRecord
    from judging.services import override_set
    from quiz.models import Response

    rng = random.Random(seed)
    responses = list(Response.objects.filter(project=dash.project).order_by("id"))
    for response in rng.sample(responses, 8):
        override_set(response=response, correct=(not response.correct) if rng.random() < 0.7 else response.correct,
                     by=dash.researcher, note="random")
    for response in rng.sample(responses, 6):
        VerdictRecord.objects.create(response=response, judge="llm:test", event="added",
                                     answer_text=response.answer_text, correct=not response.correct)


def _records(table: pd.DataFrame) -> list[dict]:
    """A table's rows as dicts (NaN → None), in a canonical order."""
    rows = table.reset_index(drop=True).to_dict(orient="records")
    clean = [{k: None if isinstance(v, float) and math.isnan(v) else v for k, v in row.items()} for row in rows]
    return sorted(clean, key=repr)


def _assert_same(fast: selectors.DashboardData, ref: selectors.DashboardData) -> None:
    assert fast.head == ref.head
    assert set(fast.tables) == set(ref.tables)
    for name in ref.tables:
        got, want = _records(fast.tables[name]), _records(ref.tables[name])
        assert len(got) == len(want), name
        for g, w in zip(got, want, strict=True):
            assert set(g) == set(w), name
            for key in w:
                if isinstance(w[key], float):
                    assert g[key] == pytest.approx(w[key], abs=1e-12), (name, key)
                else:
                    assert g[key] == w[key], (name, key, g, w)


@pytest.mark.parametrize("seed", [1, 2])
def test_fast_dashboard_equals_reference_under_every_filter(dash, seed):
    _add_random_responses(dash, seed)
    _add_overrides(dash, seed)
    for filters in FILTERS:
        ref = reference.dashboard_compute(dash.project, filters)
        for method in _methods():
            dash.project._earshot_overrides = None
            _assert_same(selectors._dashboard_compute(dash.project, filters, method=method), ref)


def test_overrides_read_in_batches_equal_reference(dash, monkeypatch):
    """Overridden responses are fetched a batch of ids at a time (bind-parameter limits)."""
    _add_random_responses(dash, 3)
    _add_overrides(dash, 3)
    monkeypatch.setattr(selectors, "ID_BATCH", 2)
    ref = reference.dashboard_compute(dash.project, Filters())
    for method in _methods():
        dash.project._earshot_overrides = None
        _assert_same(selectors._dashboard_compute(dash.project, Filters(), method=method), ref)


def test_fast_dashboard_equals_reference_on_the_fixture(dash):
    for filters in FILTERS:
        ref = reference.dashboard_compute(dash.project, filters)
        for method in _methods():
            _assert_same(selectors._dashboard_compute(dash.project, filters, method=method), ref)


def test_empty_project_and_filters_that_match_nothing(dash):
    """No responses, or a filter no question matches: zero counts, not an error."""
    from accounts.services import project_create

    empty = project_create(slug="empty", name="Nothing answered yet")
    for target, filters in ((empty, Filters()), (dash.project, Filters(category="no-such-category")),
                            (dash.project, Filters(source="no-such-source", condition="no-such-condition"))):
        ref = reference.dashboard_compute(target, filters)
        for method in _methods():
            data = selectors._dashboard_compute(target, filters, method=method)
            _assert_same(data, ref)
            assert data.head.counts["responses"] == 0


def test_human_judgement_wins_over_stored_verdict_in_every_method(dash):
    """A judgement that flips a stored verdict moves the response in every count."""
    from judging.services import override_set
    from quiz.models import Response

    right = Response.objects.get(responder=dash.humans["H1"], question__external_id="q1", mode="mcq")
    override_set(response=right, correct=False, by=dash.researcher, note="wrong after all")
    for method in _methods():
        dash.project._earshot_overrides = None
        data = selectors._dashboard_compute(dash.project, Filters(), method=method)
        mcq = next(m for m in data.head.modes if m.mode == "mcq")
        assert (mcq.human_n, mcq.human_correct) == (5, 2), method
        humans = data.tables["mcq_positions"].set_index("group").loc["humans"]
        assert humans["errors"] == 3, method


@pytest.mark.parametrize("seed", range(12))
def test_pure_distractors_equal_the_loop(seed):
    """``diagnostics.mcq_distractors`` (vectorized) equals its former loop on random rows."""
    from frontend import diagnostics

    rng = random.Random(seed)
    counts: dict[tuple, int] = {}
    for group in rng.choices(["humans", "m1", "m2", "m3"], k=rng.randint(1, 150)):
        key = (group, "human" if group == "humans" else "model", rng.randrange(8), rng.choice([0, 1, 2, 3, None]))
        counts[key] = counts.get(key, 0) + rng.randint(1, 9)
    rows = pd.DataFrame([(*key, n) for key, n in counts.items()],
                        columns=["group", "kind", "question_id", "choice", "n"])
    rows["choice"] = pd.Series([key[3] for key in counts], dtype=object)  # None stays one key, as from the database
    assert _records(diagnostics.mcq_distractors(rows)) == _records(reference.mcq_distractors_loop(rows))


# ----------------------------------------------------------------- the tallies


def _recount(project) -> tuple[dict, dict]:
    """What the tallies should hold: a GROUP BY over the stored responses."""
    from quiz.models import Response

    qs = Response.objects.filter(project=project)
    people = {
        (r["responder_id"], r["mode"]): (r["n"], r["c"])
        for r in qs.values("responder_id", "mode").annotate(n=Count("id"), c=Count("id", filter=Q(correct=True)))
        .order_by()
    }
    items = {}
    for r in qs.values("responder_id", "responder__kind", "question_id", "mode", "clue_index", "choice_position",
                       "choice", "correct").annotate(n=Count("id")).order_by():
        key = (0 if r["responder__kind"] == "human" else r["responder_id"], r["question_id"], r["mode"],
               -1 if r["clue_index"] is None else r["clue_index"],
               -1 if r["choice_position"] is None else r["choice_position"],
               -1 if r["choice"] is None else r["choice"], r["correct"])
        items[key] = items.get(key, 0) + r["n"]
    return people, items


def _tallied(project) -> tuple[dict, dict]:
    people = {(t.responder_id, t.mode): (t.n, t.correct)
              for t in ResponderTally.objects.filter(project_id=project.pk) if t.n or t.correct}
    items = {(t.grp, t.question_id, t.mode, t.clue_index, t.choice_position, t.choice, t.correct): t.n
             for t in ItemTally.objects.filter(project_id=project.pk) if t.n}
    return people, items


def test_tallies_follow_every_kind_of_write(dash):
    from quiz.models import Question, Responder, Response

    _needs_postgres()
    project = dash.project
    assert _tallied(project) == _recount(project)  # inserts (the fixture)
    _add_random_responses(dash, 3)
    assert _tallied(project) == _recount(project)  # more inserts, new responders
    version = selectors.data_version(project)
    # A raw re-score that does not touch judged_at, and an admin-style edit of one field.
    Response.objects.filter(project=project, mode="free").update(correct=~F("correct"))
    assert _tallied(project) == _recount(project)
    assert selectors.data_version(project) != version
    one = Response.objects.filter(project=project, mode="mcq").first()
    Response.objects.filter(pk=one.pk).update(choice_position=(one.choice_position + 1) % 4)
    assert _tallied(project) == _recount(project)
    Response.objects.bulk_create([
        Response(project=project, question=one.question, responder=dash.models[("beta", "audio+text")], mode="free",
                 answer_text="bulk", client_token="bulk-1", correct=True, score=1.0, rule="t", rule_version="t",
                 judged_at=timezone.now())
    ], ignore_conflicts=True)
    assert _tallied(project) == _recount(project)
    # Deletes: one response, a responder (cascade), a question (cascade).
    Response.objects.filter(pk=one.pk).delete()
    assert _tallied(project) == _recount(project)
    Responder.objects.filter(pk=dash.humans["H2"].pk).delete()
    assert _tallied(project) == _recount(project)
    version = selectors.data_version(project)
    Question.objects.filter(project=project, external_id="q2").delete()
    assert _tallied(project) == _recount(project)
    assert selectors.data_version(project) != version


def test_tallies_rebuild_command_repairs_them(dash):
    _needs_postgres()
    project = dash.project
    expected = _recount(project)
    version = selectors.data_version(project)
    ItemTally.objects.filter(project_id=project.pk).update(n=0)
    ResponderTally.objects.filter(project_id=project.pk).delete()
    assert _tallied(project) != expected
    call_command("frontend_tallies_rebuild", project.slug)
    assert _tallied(project) == expected
    assert selectors.data_version(project) != version
    assert tallies.rebuild() == {"responder_rows": len(expected[0]), "item_rows": len(expected[1])}
    assert _tallied(project) == expected
    with pytest.raises(CommandError, match="no project"):
        call_command("frontend_tallies_rebuild", "no-such-project")


def test_installed_trigger_function_is_the_one_in_tallies():
    """The migration's frozen trigger SQL equals :func:`frontend.tallies.trigger_function`."""
    import importlib

    latest = importlib.import_module("frontend.migrations.0002_tally_one_lock_order")
    assert latest.FUNCTION.strip() == tallies.trigger_function().strip()


def test_one_statement_moving_answers_both_ways_keeps_tallies(dash):
    """An UPDATE whose old and new rows hit the same cells nets out per cell."""
    from quiz.models import Response

    _needs_postgres()
    project = dash.project
    free = Response.objects.filter(project=project, mode="free")
    assert free.filter(correct=True).exists() and free.filter(correct=False).exists()
    free.update(correct=~F("correct"))  # every cell pair swaps in one statement
    assert _tallied(project) == _recount(project)
    free.update(answer_text=F("answer_text"))  # a change that moves nothing
    assert _tallied(project) == _recount(project)


def test_tallies_rebuild_command_refuses_without_postgres(dash):
    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL keeps tallies")
    with pytest.raises(CommandError, match="PostgreSQL only"):
        call_command("frontend_tallies_rebuild")
