"""response_matrix and the data hash, checked against the hand-written table in
tests/irt/django_helpers.py."""

from __future__ import annotations

import hashlib
import struct

import numpy as np
import pytest

from tests.irt import django_helpers as helpers
from tests.irt.django_helpers import FREE

# shared fixtures (tests/irt/conftest.py belongs to the pure-core tests)
_test_settings = helpers.django_test_settings
irt_data = helpers.irt_data

pytestmark = pytest.mark.django_db


def _triples(data, pairs):
    """(responder pk, question pk, correct) for named (responder, qid) pairs, sorted."""
    return sorted(
        (data.responders[n].pk, data.questions[q].pk, FREE[(n, q)]) for n, q in pairs
    )


def test_response_matrix_matches_hand_table(irt_data, django_assert_num_queries):
    from irt.selectors import response_matrix

    with django_assert_num_queries(1):
        m = response_matrix(irt_data.project, "free")
    assert m.n_obs == len(FREE)
    got = sorted(zip(m.responder_ids.tolist(), m.question_ids.tolist(), m.correct.tolist(), strict=True))
    assert got == _triples(irt_data, FREE)
    # indices are 0..n-1 in ascending primary-key order
    assert list(m.subject_map.ids) == sorted(r.pk for r in irt_data.responders.values())
    assert list(m.item_map.ids) == sorted(q.pk for q in irt_data.questions.values())
    kinds = dict(zip(m.subject_map.ids, m.kinds, strict=True))
    assert kinds[irt_data.responders["human-a"].pk] == "human"
    assert kinds[irt_data.responders["model-B"].pk] == "model"
    assert m.groups().tolist() == [0, 0, 1, 1]  # humans anchor the scale
    assert m.rule_versions == ("rules-test-1",)
    assert m.verdict_sources == {"rules": len(FREE)}


@pytest.mark.parametrize(
    ("kwargs", "expected_pairs"),
    [
        pytest.param({"source": "test-src"}, [p for p in FREE if p[1] == "q2"], id="source"),
        pytest.param(
            {"category": "name-the-music-songs-artists-composers"}, [p for p in FREE if p[1] == "q3"],
            id="category",
        ),
    ],
)
def test_response_matrix_filters(irt_data, kwargs, expected_pairs):
    from irt.selectors import response_matrix

    cat = irt_data.questions["q3"].category.slug
    if "category" in kwargs:
        kwargs = {"category": cat}
    m = response_matrix(irt_data.project, "free", **kwargs)
    got = sorted(zip(m.responder_ids.tolist(), m.question_ids.tolist(), m.correct.tolist(), strict=True))
    assert got == _triples(irt_data, expected_pairs)


def test_response_matrix_mcq_is_separate(irt_data):
    from irt.selectors import response_matrix

    m = response_matrix(irt_data.project, "mcq")
    assert m.n_obs == 1 and m.groups() is None  # one human only: one population
    assert m.responder_ids.tolist() == [irt_data.responders["human-a"].pk]


def test_response_matrix_empty(project):
    from irt.selectors import response_matrix

    m = response_matrix(project, "free")
    assert m.n_obs == 0 and len(m.subject_map) == 0


def test_data_hash_is_sha256_of_sorted_triples(irt_data):
    from irt.selectors import response_matrix

    expected = hashlib.sha256(
        b"".join(struct.pack("<qqq", *t) for t in _triples(irt_data, FREE))
    ).hexdigest()
    m1 = response_matrix(irt_data.project, "free")
    m2 = response_matrix(irt_data.project, "free")
    assert m1.data_hash == m2.data_hash == expected


def test_data_hash_changes_when_a_human_override_flips_a_verdict(irt_data):
    from irt.selectors import response_matrix
    from judging.services import override_set

    before = response_matrix(irt_data.project, "free")
    target = irt_data.responses[("human-b", "q2")]
    override_set(response=target, correct=True, by=irt_data.researcher, note="accept")
    after = response_matrix(irt_data.project, "free")
    assert after.data_hash != before.data_hash
    k = np.flatnonzero((after.responder_ids == target.responder_id) & (after.question_ids == target.question_id))
    assert after.correct[k].tolist() == [1]  # the human override wins over the rule verdict
    assert after.verdict_sources == {"human": 1, "rules": len(FREE) - 1}
    # and undoing it restores the original hash
    override_set(response=target, correct=False, by=irt_data.researcher)
    assert response_matrix(irt_data.project, "free").data_hash == before.data_hash
