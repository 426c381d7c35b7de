"""The pure rules of listening tests (annotation.listening_tests): roles per template,
presentation order, and the checks of one submission. No database."""

from __future__ import annotations

import numpy as np
import pytest

from annotation.listening_tests import (
    SPECS,
    Presented,
    RoleError,
    SubmissionProblem,
    check_roles,
    presentation_order,
    validate_submission,
)
from annotation.scales import template_criteria


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests need no Django settings (overrides the shared autouse fixture)."""


@pytest.mark.parametrize(("template", "roles"), [
    pytest.param("mushra", ["reference", "hidden_reference", "system"], id="mushra-minimal"),
    pytest.param("mushra", ["reference", "hidden_reference", "anchor", "anchor", "system", "system"], id="mushra-full"),
    pytest.param("ab", ["A", "B"], id="ab"),
    pytest.param("ab", ["reference", "A", "B"], id="ab-with-reference"),
    pytest.param("abx", ["A", "B", "X"], id="abx"),
    pytest.param("ccr", ["reference", "system"], id="ccr"),
    pytest.param("dcr", ["system", "reference"], id="dcr-any-order"),
    pytest.param("smos", ["reference", "system"], id="smos"),
    pytest.param("ranking", ["system", "system"], id="ranking-two"),
    pytest.param("ranking", ["reference", "hidden_reference", "anchor", "system", "system"], id="ranking-full"),
])
def test_check_roles_accepts(template, roles):
    check_roles(SPECS[template], roles, x_matches=True)


@pytest.mark.parametrize(("template", "roles", "message"), [
    pytest.param("mushra", ["reference", "system"], "needs one 'hidden_reference'", id="mushra-no-hidden"),
    pytest.param("mushra", ["hidden_reference", "system"], "needs one 'reference'", id="mushra-no-reference"),
    pytest.param("mushra", ["reference", "hidden_reference"], "needs one 'system'", id="mushra-no-system"),
    pytest.param("mushra", ["reference", "reference", "hidden_reference", "system"], "at most 1 'reference'",
                 id="mushra-two-references"),
    pytest.param("mushra", ["reference", "hidden_reference", "system", "X"], "takes no 'X'", id="mushra-x"),
    pytest.param("ab", ["A"], "needs one 'B'", id="ab-only-a"),
    pytest.param("ab", ["A", "B", "B"], "at most 1 'B'", id="ab-two-b"),
    pytest.param("abx", ["A", "B"], "needs one 'X'", id="abx-no-x"),
    pytest.param("ccr", ["system"], "needs one 'reference'", id="ccr-no-reference"),
    pytest.param("dcr", ["reference", "system", "system"], "at most 1 'system'", id="dcr-two-systems"),
    pytest.param("ranking", ["system"], "at least 2 'system'", id="ranking-one"),
    pytest.param("mushra", ["reference", "hidden_reference", "villain"], "unknown role", id="unknown-role"),
    pytest.param("mushra", ["reference", "hidden_reference"] + ["system"] * 15, "at most 16", id="too-many"),
])
def test_check_roles_refuses(template, roles, message):
    with pytest.raises(RoleError, match=message):
        check_roles(SPECS[template], roles)


def test_check_roles_abx_needs_x_to_repeat_a_or_b():
    with pytest.raises(RoleError, match="X must be the same audio"):
        check_roles(SPECS["abx"], ["A", "B", "X"], x_matches=False)


def test_presentation_order_shuffles_only_the_shuffled_roles_and_is_seeded():
    stimuli = [(10, "reference"), (11, "hidden_reference"), (12, "anchor"), (13, "system"), (14, "system")]
    orders = {tuple(presentation_order(SPECS["mushra"], stimuli, np.random.default_rng(seed))) for seed in range(40)}
    assert all(sorted(o) == [11, 12, 13, 14] for o in orders)  # the open reference is not listed
    assert len(orders) > 10  # really shuffled
    again = presentation_order(SPECS["mushra"], stimuli, np.random.default_rng(3))
    assert again == presentation_order(SPECS["mushra"], stimuli, np.random.default_rng(3))
    abx = presentation_order(SPECS["abx"], [(1, "A"), (2, "B"), (3, "X")], np.random.default_rng(0))
    assert sorted(abx) == [1, 2]
    ccr = presentation_order(SPECS["ccr"], [(1, "reference"), (2, "system")], np.random.default_rng(0))
    assert sorted(ccr) == [1, 2]  # in CCR the reference is one of the two blind samples


IDS = {1: "p-ref", 2: "p-hid", 3: "p-anc", 4: "p-sys"}
MUSHRA = [Presented(1, "reference", None), Presented(2, "hidden_reference", 2), Presented(3, "anchor", 0),
          Presented(4, "system", 1)]


def _check(template, stimuli, values, ids=IDS, criteria=None):
    return validate_submission(SPECS[template], criteria or template_criteria(template), stimuli, ids, values)


def test_mushra_one_value_per_rated_stimulus():
    rows = _check("mushra", MUSHRA, {"mushra": {"p-hid": 100, "p-anc": "20", "p-sys": 73.0}})
    assert sorted(rows) == [("mushra", 2, "100"), ("mushra", 3, "20"), ("mushra", 4, "73")]


@pytest.mark.parametrize(("values", "field", "message"), [
    pytest.param({}, "values.mushra", "an answer is required", id="missing"),
    pytest.param({"mushra": 50}, "values.mushra", "one value per sample", id="not-an-object"),
    pytest.param({"mushra": {"p-hid": 100, "p-anc": 20}}, "values.mushra.p-sys", "every sample", id="one-missing"),
    pytest.param({"mushra": {"p-hid": 100, "p-anc": 20, "p-sys": 101}}, "values.mushra.p-sys", "not on the scale",
                 id="above-100"),
    pytest.param({"mushra": {"p-hid": 100, "p-anc": -1, "p-sys": 5}}, "values.mushra.p-anc", "not on the scale",
                 id="negative"),
    pytest.param({"mushra": {"p-hid": 100, "p-anc": 20, "p-sys": 50.5}}, "values.mushra.p-sys", "not on the scale",
                 id="fraction"),
    pytest.param({"mushra": {"p-hid": 1, "p-anc": 2, "p-sys": 3, "p-ref": 4}}, "values.mushra.p-ref",
                 "not a sample", id="the-open-reference"),
    pytest.param({"mushra": {"p-hid": 1, "p-anc": 2, "p-sys": 3, "other": 4}}, "values.mushra.other",
                 "not a sample", id="unknown-id"),
    pytest.param({"mushra": {"p-hid": 1, "p-anc": 2, "p-sys": 3}, "extra": 1}, "values.extra", "unknown criterion",
                 id="unknown-criterion"),
])
def test_mushra_refusals(values, field, message):
    with pytest.raises(SubmissionProblem, match=message) as caught:
        _check("mushra", MUSHRA, values)
    assert caught.value.field == field


RANKING = [Presented(1, "system", 0), Presented(2, "system", 1), Presented(3, "anchor", 2)]
RANK_IDS = {1: "r1", 2: "r2", 3: "r3"}


def test_ranking_is_a_permutation():
    rows = _check("ranking", RANKING, {"rank": {"r1": 2, "r2": 1, "r3": "3"}}, RANK_IDS)
    assert sorted(rows) == [("rank", 1, "2"), ("rank", 2, "1"), ("rank", 3, "3")]
    for bad, message in (({"r1": 1, "r2": 1, "r3": 2}, "different rank"), ({"r1": 1, "r2": 2, "r3": 4}, "different rank"),
                         ({"r1": 0, "r2": 1, "r3": 2}, "not a rank"), ({"r1": "x", "r2": 1, "r3": 2}, "not a rank")):
        with pytest.raises(SubmissionProblem, match=message):
            _check("ranking", RANKING, {"rank": bad}, RANK_IDS)


AB = [Presented(1, "A", 1), Presented(2, "B", 0)]
AB_IDS = {1: "a-id", 2: "b-id"}


def test_ab_stores_the_role_of_the_chosen_stimulus_not_its_place():
    # the stimulus imported as A was shown second (on-screen "B"): its role is stored
    assert _check("ab", AB, {"preference": "a-id"}, AB_IDS) == [("preference", 1, "A")]
    assert _check("ab", AB, {"preference": "b-id"}, AB_IDS) == [("preference", 2, "B")]
    assert _check("ab", AB, {"preference": "none"}, AB_IDS) == [("preference", None, "none")]
    forced = [{"key": "preference", "label": "p", "scale": "forced_ab"}]
    for bad in ("none", "A", "c-id", 1):
        with pytest.raises(SubmissionProblem, match="choose one of the two samples"):
            _check("ab", AB, {"preference": bad}, AB_IDS, criteria=forced)


def test_abx_answer_names_a_or_b_never_x():
    stimuli = [*AB, Presented(3, "X", None)]
    ids = {**AB_IDS, 3: "x-id"}
    assert _check("abx", stimuli, {"abx": "b-id"}, ids) == [("abx", 2, "B")]
    with pytest.raises(SubmissionProblem, match="choose one of the two samples"):
        _check("abx", stimuli, {"abx": "x-id"}, ids)
    with pytest.raises(SubmissionProblem, match="choose one of the two samples"):
        _check("abx", stimuli, {"abx": "none"}, ids)


@pytest.mark.parametrize(("reference_place", "answer", "stored"), [
    pytest.param(0, "2", "2", id="reference-first"),
    pytest.param(1, "2", "-2", id="reference-second-turned-round"),
    pytest.param(1, "-3", "3", id="reference-second-negative"),
    pytest.param(0, "0", "0", id="same"),
])
def test_ccr_is_stored_as_the_system_against_the_reference(reference_place, answer, stored):
    stimuli = [Presented(1, "reference", reference_place), Presented(2, "system", 1 - reference_place)]
    assert _check("ccr", stimuli, {"cmos": answer}, {1: "x", 2: "y"}) == [("cmos", 2, stored)]


@pytest.mark.parametrize("template", ["dcr", "smos"])
def test_dcr_smos_rate_the_system(template):
    stimuli = [Presented(1, "reference", None), Presented(2, "system", 0)]
    key = template_criteria(template)[0]["key"]
    assert _check(template, stimuli, {key: 4}, {1: "x", 2: "y"}) == [(key, 2, "4")]
    for bad in (0, 6, "4.5", ""):
        with pytest.raises(SubmissionProblem):
            _check(template, stimuli, {key: bad}, {1: "x", 2: "y"})
