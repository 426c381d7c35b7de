"""The judge's fast paths give exactly what the plain paths give.

``tokens()`` normalizes whitespace chunks once and assembles them; it must agree with
``_tokens_reference()`` (the step-by-step pipeline over the whole text) on every
string. ``judge_many()`` builds verdicts without the frozen dataclass's ``__init__``
and memoizes per candidate; its verdicts must equal ``judge()``'s, cold or warm.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from judging import normalize as norm
from judging.equivalence import (
    CALIBRATOR,
    Verdict,
    _max_edits,
    _new_verdict,
    analyze,
    clear_caches,
    judge,
    judge_many,
)
from judging.normalize import _tokens_reference, tokens
from tests.judging.reference_data import DATA, needs_data


def _rows(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# Each row exercises one decision of the chunked fast path.
CHUNK_CASES = [
    pytest.param("The first Nobel Prize went to Wilhelm Röntgen in 1901.", id="plain-sentence"),
    pytest.param("The author is J. K. Rowling", id="initialism-across-chunks"),
    pytest.param("George H. W. Bush", id="initialism-three-chunks"),
    pytest.param("the U.S. Army", id="initialism-in-one-chunk"),
    pytest.param("in the U.S. a law", id="initialism-then-one-letter-word"),
    pytest.param("Washington, D.C.", id="initialism-at-end"),
    pytest.param("about 13. 5 million", id="spaced-decimal"),
    pytest.param("in 1901. 5 people", id="year-then-digit"),
    pytest.param("it was 12. He left", id="two-digits-then-word"),
    pytest.param("3.5 or 36.0 or 3.50", id="decimals"),
    pytest.param("150,782 SEK", id="thousands"),
    pytest.param("in2013after and 199612", id="glued-year"),
    pytest.param("it's O'Brien's", id="apostrophes"),
    pytest.param("X-rays (1895),", id="hyphen-and-brackets"),
    pytest.param("twenty one", id="number-words-across-chunks"),
    pytest.param("5 hundred", id="digit-then-scale"),
    pytest.param("the 21st and fifth", id="ordinals"),
    pytest.param("Henry V and Final Fantasy X", id="lone-roman-after-capital"),
    pytest.param("Rocky II", id="roman-upper"),
    pytest.param("I saw Iv", id="gate-opened-by-I-converts-Iv"),
    pytest.param("saw Iv", id="gate-closed-keeps-Iv"),
    pytest.param("I saw iV", id="gate-opened-converts-iV"),
    pytest.param("in it is located", id="lower-case-words-like-numerals"),
    pytest.param("CCCCCCCCC", id="long-numeral-like-word"),
    pytest.param("A$AP Rocky and P!nk and AC/DC", id="stylized-reference-path"),
    pytest.param("snake_case", id="underscore-reference-path"),
    pytest.param("Москва 1901", id="non-ascii-reference-path"),
    pytest.param("Rock & Roll 20%", id="ampersand-percent"),
    pytest.param("  \n\t ", id="whitespace-only"),
    pytest.param("- — …", id="punctuation-only"),
]


@pytest.mark.parametrize("text", CHUNK_CASES)
def test_tokens_fast_path_matches_reference(text: str) -> None:
    clear_caches()
    cold = tokens(text)
    assert cold == _tokens_reference(text)
    tokens.cache_clear()  # chunks memoized, text not: the assembly path
    assert tokens(text) == cold


def test_tokens_fast_path_matches_reference_on_random_texts() -> None:
    pieces = [
        "J.", "K.", "U.S.", "U.", "a", "A", "I", "V", "X", "II", "iv", "Iv", "iV", "vI", "XIV", "LI",
        "13.", "5", "50", "500", "1,000", "3.5", "3. 5", "twenty", "one", "first", "hundred",
        "5th", "it's", "X-rays", "(1901).", "1901.", "in2013after", "&", "20%", "D.C.",
        "e.g.", "B.", "Henry", "the", "VII", ",", ".", "-", "é", "xi", "Mix", "ninety-nine",
        "2.5.", "7. 25", "z.", "b.c.d",
    ]
    rng = random.Random(20261129)
    clear_caches()
    for _ in range(5000):
        text = "".join(rng.choice(pieces) + rng.choice([" ", " ", "  ", "", "\n"])
                       for _ in range(rng.randint(1, 8)))
        assert tokens(text) == _tokens_reference(text), text


@needs_data
def test_tokens_fast_path_matches_reference_on_dataset() -> None:
    clear_caches()
    for name in ("evouna_nq.jsonl", "openqa_eval_nq301.jsonl"):
        for row in _rows(name):
            for text in (row["candidate"], row["question"], *row["references"]):
                assert tokens(text) == _tokens_reference(text), text


def test_clear_caches_empties_the_chunk_memo() -> None:
    tokens("a fresh sentence about Beethoven")
    assert norm._MEMO[0]
    clear_caches()
    assert not any(norm._MEMO)
    assert tokens.cache_info().currsize == 0


def test_new_verdict_is_an_ordinary_frozen_verdict() -> None:
    fast = _new_verdict(True, False, 0.9, "exact", "Canberra", "Correct (exact): x.")
    slow = Verdict(True, False, 0.9, "exact", "Canberra", "Correct (exact): x.")
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.correct = False  # type: ignore[misc]


def test_spelling_variants_of_short_words_must_be_exact() -> None:
    # _grey looks up close spellings only for words of 6+ letters: shorter ones may
    # not differ at all.
    assert [_max_edits(n) for n in range(1, 7)] == [0, 0, 0, 0, 0, 1]


@needs_data
@pytest.mark.parametrize("name", ["evouna_nq.jsonl", "openqa_eval_nq301.jsonl"])
def test_judge_many_cold_and_warm_equal_judge_on_dataset(name: str) -> None:
    rows = _rows(name)[:1500]
    cands = [r["candidate"] for r in rows]
    refs = [r["references"] for r in rows]
    qs = [r["question"] for r in rows]
    clear_caches()
    cold = judge_many(cands, refs, qs)
    warm = judge_many(cands, refs, qs)
    assert cold == warm
    clear_caches()
    single = [judge(c, a, question=q) for c, a, q in zip(cands, refs, qs, strict=True)]
    for batch, one in zip(cold, single, strict=True):
        # judge() sums the calibrator in Python, judge_many() with numpy: the score may
        # differ in the last bit, nothing else
        assert dataclasses.replace(batch, score=one.score) == one
        assert batch.score == pytest.approx(one.score, abs=1e-4)


@needs_data
def test_analysis_does_not_depend_on_cache_state() -> None:
    rows = _rows("openqa_eval_nq301.jsonl")[:400]
    clear_caches()
    cold = [analyze(r["candidate"], r["references"], r["question"]) for r in rows]
    clear_caches()
    shuffled = list(reversed(rows))
    warm = [analyze(r["candidate"], r["references"], r["question"]) for r in shuffled]
    assert cold == list(reversed(warm))
    assert CALIBRATOR is not None


@pytest.mark.parametrize("enabled", [True, False])
def test_judge_many_restores_the_garbage_collector(enabled: bool) -> None:
    import gc

    from judging.equivalence import GC_PAUSE_MIN_BATCH

    n = GC_PAUSE_MIN_BATCH
    was = gc.isenabled()
    try:
        if not enabled:
            gc.disable()
        verdicts = judge_many(["Canberra"] * n, [["Canberra"]] * n)
        assert gc.isenabled() is enabled
        assert all(v.correct for v in verdicts)
        with pytest.raises(AttributeError):
            judge_many([5] * n, [["Canberra"]] * n)  # type: ignore[list-item]
        assert gc.isenabled() is enabled
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


def test_full_chunk_memo_falls_back_to_the_reference_pipeline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clear_caches()
    monkeypatch.setattr(norm, "_CHUNK_CACHE_MAX", 3)
    text = "Wilhelm Conrad Röntgen won the first Nobel Prize in 1901"
    assert tokens(text) == _tokens_reference(text)
    assert len(norm._MEMO[0]) <= 3
    clear_caches()
