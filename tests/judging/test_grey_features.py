"""The fast grey-case features equal the plain ones (``reference_grey.py``).

``grey_analysis`` decides most judged pairs, so it is written for speed; every shortcut in
it must leave the features, rule, match and detail exactly as the plain version
computes them. Each case runs the judge, catches the arguments of every ``grey_analysis``
call and recomputes them with the reference on a fresh copy of the candidate (no
memo shared between the two).
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from judging import equivalence as eq
from judging import features, preparation
from judging.equivalence import clear_caches, judge_many
from judging.features import find_first, find_runs, stem_preimage
from judging.normalize import STOPWORDS, stem, tokens
from judging.preparation import mentions_refusal
from tests.judging.reference_data import DATA, needs_data, needs_pure
from tests.judging.reference_grey import reference_grey, reference_regime

pytestmark = needs_pure  # (it catches grey_analysis's calls by replacing it)

# Constructed pairs for the branches the datasets rarely reach.
CASES: list[tuple[str, list[str], str]] = [
    ("I think it was Ludwig van Beethoven", ["Ludwig van Beethoven"], "Who wrote Fidelio?"),
    ("Johann Beethoven, his father", ["Ludwig van Beethoven"], ""),
    ("Ludwig", ["Ludwig van Beethoven", "Beethoven"], ""),
    ("Franz Schubert or maybe Beethoven", ["Ludwig van Beethoven"], "Which composer?"),
    ("not Canberra, it is Sydney", ["Canberra"], "Capital of Australia?"),
    ("It is not in Canberra and never was Canberra", ["Canberra"], ""),
    ("Madison", ["Madison, Wisconsin"], "Capital of Wisconsin?"),
    ("The French Revolution started it", ["France"], ""),
    ("cells and mitochondria", ["Cell", "Mitochondrion"], "What is the powerhouse?"),
    ("Zoroastrians", ["Zoroastrianism"], "Which religion?"),
    ("sharecropper", ["sharecropping"], ""),
    ("Tchaikovski wrote it", ["Pyotr Ilyich Tchaikovsky"], ""),
    ("On July 5, 1776 in Philadelphia", ["July 4, 1776"], "When?"),
    ("In March 1776", ["July 4, 1776"], ""),
    ("about 2.45 million people", ["2.4 million"], ""),
    ("1,500 or so", ["1,480"], ""),
    ("between 10 and 12", ["10–12"], ""),
    ("15", ["5"], ""),
    ("I'm sorry, I don't know", ["Bolivia"], ""),
    ("As an AI language model, I do not have access to real-time information about it",
     ["Bolivia"], ""),
    ("The anthem of Bolivia, Cancion Patriotica", ["Bolivia", "Bolivian national anthem"],
     "Which country's anthem is this?"),
    ("Bolivia", ["the national anthem of Bolivia"], "Which country's anthem?"),
    ("Austria", ["Australia"], ""),
    ("Jaws 2", ["Jaws"], ""),
    ("the beatles", ["The Beatles", "Beatles, The"], "Which band?"),
    ("Rocky", ["Rocky II"], ""),
    ("The Great Gatsby by F. Scott Fitzgerald", ["F. Scott Fitzgerald"], "Who wrote it?"),
    ("Gatsby", ["The Great Gatsby"], "Name the novel by Fitzgerald"),
    ("St. Petersburg, Russia", ["Saint Petersburg"], ""),
    ("ASAP Rocky", ["A$AP Rocky"], ""),
    ("Mount Everest in Nepal", ["Everest", "Mount Everest", "Sagarmatha"], "Highest peak?"),
    ("Everest Everest Everest", ["Mount Everest"], ""),
    ("Richard Wagner", ["Richard Strauss"], ""),
    ("a b c d e f g h i j k l", ["k l"], ""),
]


def _catch_grey_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    calls: list[tuple] = []
    fast = eq.grey_analysis

    def spy(*args):
        out = fast(*args)
        calls.append((args, out))
        return out

    monkeypatch.setattr(eq, "grey_analysis", spy)
    return calls


def _fresh(info):
    other = copy.copy(info)
    other.memo = {}
    return other


def _check(calls: list[tuple]) -> None:
    assert calls
    for (info, accept, qtok, alt_tokens, answer_short, script), fast in calls:
        plain = reference_grey(_fresh(info), accept, qtok, alt_tokens)
        assert reference_regime(plain, info, answer_short, script) == fast, info.toks


def test_constructed_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_caches()
    calls = _catch_grey_calls(monkeypatch)
    cands, lines, qs = zip(*CASES, strict=True)
    judge_many(list(cands), list(lines), list(qs))
    _check(calls)


@needs_data
@pytest.mark.parametrize("name", ["evouna_nq.jsonl", "openqa_eval_nq301.jsonl"])
def test_dataset_rows(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with (DATA / name).open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    clear_caches()
    calls = _catch_grey_calls(monkeypatch)
    judge_many([r["candidate"] for r in rows], [r["references"] for r in rows],
               [r["question"] for r in rows])
    _check(calls)


def test_stem_preimage_holds_every_word_with_that_stem() -> None:
    # grey_analysis counts the answer's stems that the candidate gives by looking up each
    # stem's preimage, so the preimage must hold every word with that stem.
    words = ["cells", "cell", "cities", "city", "glasses", "french", "france", "dutch",
             "netherlands", "bus", "buses", "status", "crisis", "boxes", "dishes", "rays",
             "physics", "beethoven", "s", "as", "ies", "yies", "1990s", "scots", "arab"]
    for name in ("evouna_nq.jsonl", "openqa_eval_nq301.jsonl"):
        if (DATA / name).exists():
            with (DATA / name).open(encoding="utf-8") as fh:
                for line in fh:
                    row = json.loads(line)
                    words += tokens(row["candidate"]) + tokens(" ".join(row["references"]))
    for w in set(words):
        st = stem(w)
        assert w in stem_preimage(st), (w, st)
        assert all(stem(v) == st for v in stem_preimage(st))
    assert set(stem_preimage("cell")) == {"cell", "cells"}
    assert set(stem_preimage("box")) == {"box", "boxs", "boxes"}
    assert set(stem_preimage("city")) == {"city", "citys", "cities"}
    assert set(stem_preimage("france")) == {"france", "frances", "french"}


def test_find_first_is_the_first_of_find() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        seq = tuple(rng.choice("abc") for _ in range(rng.randint(0, 8)))
        sub = tuple(rng.choice("abc") for _ in range(rng.randint(0, 3)))
        found = find_runs(seq, sub)
        assert find_first(seq, sub) == (found[0] if found else -1)


def test_refusal_gate_covers_every_phrase() -> None:
    # mentions_refusal() only searches for the phrases in texts with "no", "sorry" or "unable"
    for phrase in preparation.REFUSAL:
        assert "no" in phrase or "sorry" in phrase or "unable" in phrase
        assert mentions_refusal(f"well {phrase} here")
    assert not mentions_refusal("the capital is canberra")


def test_negation_prefilter_covers_negated() -> None:
    # grey_analysis calls is_negated() only when the word before a mention is a negator or a
    # word is_negated() skips over
    for word in ["not", "never", "the", "in", "is", "called", "blue", "rather"]:
        seq = ("it", word, "canberra")
        assert features.is_negated(seq, 2) <= (seq[1] in features.NEG_NEAR)
    assert "not" in features.NEG_NEAR and "the" in features.NEG_NEAR and "the" in STOPWORDS
