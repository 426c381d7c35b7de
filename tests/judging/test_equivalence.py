"""Tests for judging.equivalence: the rules, the PEDANT traps, the Verdict contract."""

from __future__ import annotations

import dataclasses
import re

import pytest

from judging.equivalence import EQUIVALENCE_VERSION, Verdict, judge, judge_many

BEETHOVEN = (
    "<b><u>Ludwig van Beethoven</u></b> [accept <u>Beethoven</u>; prompt on <u>Ludwig</u>; "
    "do not accept <u>Johann</u> van Beethoven]"
)
BACH = "Johann Sebastian <u>Bach</u> [do not accept Carl Philipp Emanuel Bach or C. P. E. Bach]"
BOLIVIA = "the national anthem of <u>Bolivia</u> [accept Himno Nacional de Bolivia]"


# PEDANT accepts any answer that *contains* the reference, and knows no numbers,
# aliases, directives or diacritics. Each row is a case it gets wrong.
PEDANT_TRAPS = [
    pytest.param("15", ["5"], False, "number", id="contains-15-for-5"),
    pytest.param("180", ["18"], False, "number", id="contains-180-for-18"),
    pytest.param("Not Canberra.", ["Canberra"], False, "negation", id="not-canberra"),
    pytest.param("not Bolivia", ["Bolivia"], False, "negation", id="not-bolivia"),
    pytest.param("it isn't Canberra", ["Canberra"], False, "negation", id="isnt-canberra"),
    pytest.param("Sydney or Canberra", ["Canberra"], False, "hedge", id="hedge-sydney-canberra"),
    pytest.param("either Canberra or Sydney", ["Canberra"], False, "hedge", id="hedge-either"),
    pytest.param("Canberra, maybe Sydney", ["Canberra"], False, "hedge", id="hedge-maybe"),
    pytest.param("I think it's Canberra but perhaps Sydney", ["Canberra"], False, "hedge",
                 id="hedge-but-perhaps"),
    pytest.param("Canberra atau mungkin Sydney", ["Canberra"], False, "hedge",
                 id="hedge-id-atau-mungkin"),
    pytest.param("This sounds like Let It Be, not Hey Jude", ["Hey Jude"], False, "negation",
                 id="sentence-ending-in-a-negated-answer"),
    pytest.param("I am quite sure the answer is Sydney and not Canberra", ["Canberra"], False,
                 "negation", id="sentence-and-not"),
    pytest.param("This sounds like Let It Be, not Hey Jude", ["Let It Be"], True, "contains",
                 id="sentence-negating-another-answer"),
    pytest.param("It is definitely not Sydney but Canberra", ["Canberra"], True, "contains",
                 id="not-x-but-answer"),
    pytest.param("It is definitely not Canberra but Sydney", ["Canberra"], False, "negation",
                 id="not-answer-but-y"),
    pytest.param("Sydney, no sorry, Canberra", ["Canberra"], True, "exact",
                 id="correction-no-sorry"),
    pytest.param("Canberra, no sorry, Sydney", ["Canberra"], False, "no-match",
                 id="correction-no-sorry-away"),
    pytest.param("Canberra, my mistake, Sydney", ["Canberra"], False, "no-match",
                 id="correction-my-mistake"),
    pytest.param("maybe Canberra", ["Canberra"], True, "exact", id="one-answer-maybe-first"),
    pytest.param("Canberra, perhaps", ["Canberra"], True, "exact", id="one-answer-perhaps-last"),
    pytest.param("Jaws 2", ["Jaws"], False, "installment", id="jaws-2"),
    pytest.param("Final Fantasy VIII", ["Final Fantasy VII"], False, "installment",
                 id="ff8-for-ff7"),
    pytest.param("Rocky 2", ["Rocky II"], True, "exact", id="roman-numeral-equal"),
    pytest.param("fifteen", ["15"], True, "exact", id="number-word"),
    pytest.param("the fifth", ["5th"], True, "exact", id="ordinal"),
    pytest.param("Dvorak", ["Antonín Dvořák"], True, "surname", id="diacritics-surname"),
    pytest.param("Pathetique", ["Pathétique"], True, "exact", id="diacritics"),
    pytest.param("Calcutta", "Kolkata [accept Calcutta]", True, "alias:accept", id="alias"),
    pytest.param("Delhi", "Kolkata [do not accept Delhi]", False, "reject:do-not-accept",
                 id="directive-reject"),
]


@pytest.mark.parametrize(("candidate", "answerline", "correct", "rule"), PEDANT_TRAPS)
def test_judge_beats_pedant_traps(candidate, answerline, correct, rule) -> None:
    verdict = judge(candidate, answerline)
    assert (verdict.correct, verdict.rule) == (correct, rule), verdict.explanation


@pytest.mark.parametrize(
    ("candidate", "answerline", "correct", "prompt", "rule"),
    [
        pytest.param("Ludwig van Beethoven", BEETHOVEN, True, False, "exact", id="exact"),
        pytest.param("beethoven", BEETHOVEN, True, False, "alias:accept", id="accept-alias"),
        pytest.param("Ludwig", BEETHOVEN, False, True, "prompt", id="prompt-on"),
        pytest.param("Johann van Beethoven", BEETHOVEN, False, False, "reject:do-not-accept",
                     id="reject-exact"),
        pytest.param("Johann Beethoven", BEETHOVEN, False, False, "reject:do-not-accept",
                     id="reject-beats-fuzzy"),
        pytest.param("Bach", BACH, True, False, "required", id="required-part"),
        pytest.param("C.P.E. Bach", BACH, False, False, "reject:do-not-accept",
                     id="same-surname-other-person"),
        pytest.param("Carl Philipp Emanuel Bach", BACH, False, False, "reject:do-not-accept",
                     id="other-bach-full-name"),
        pytest.param("Beethoven", ["Ludwig van Beethoven"], True, False, "surname",
                     id="surname-plain-list"),
        pytest.param("Ludwig", ["Ludwig van Beethoven"], False, False, "given-name",
                     id="given-name-only"),
        pytest.param("I think it's the national anthem of Bolivia", BOLIVIA, True, False, "exact",
                     id="verbose-extraction"),
        pytest.param("Bolivia", BOLIVIA, True, False, "required", id="underlined-part"),
        pytest.param("   ", ["Canberra"], False, False, "empty", id="whitespace"),
        pytest.param("", ["Canberra"], False, False, "empty", id="empty"),
        pytest.param("1901", ["March 3, 1901"], None, False, None, id="partial-date-is-grey"),
        pytest.param("March 3, 1901", ["1901"], True, False, "contains", id="date-contains-year"),
        pytest.param("I think it's the anthem of Bolivia", BOLIVIA, True, False, "required",
                     id="verbose-required-part"),
        pytest.param("Kolkata or Calcutta", "Kolkata [accept Calcutta]", True, False, None,
                     id="hedge-between-two-right-answers"),
    ],
)
def test_judge_rules(candidate, answerline, correct, prompt, rule) -> None:
    verdict = judge(candidate, answerline)
    if correct is not None:
        assert verdict.correct is correct, verdict.explanation
    assert verdict.prompt is prompt
    if rule is not None:
        assert verdict.rule == rule, verdict.explanation


@pytest.mark.parametrize(
    ("candidate", "references", "question"),
    [
        pytest.param("The first Nobel Prize in Physics was awarded to Wilhelm Röntgen in 1901.",
                     ["Wilhelm Conrad Röntgen"], "who got the first nobel prize in physics",
                     id="llm-sentence-partial-name"),
        pytest.param("Wilhelm Rontgen", ["Wilhelm Conrad Röntgen"], "", id="middle-name-dropped"),
        pytest.param("Tchaikovsky", ["Pyotr Ilyich Tchaikovsky"], "", id="surname-translit"),
        pytest.param("Tchaikovski", ["Pyotr Ilyich Tchaikovsky"], "", id="misspelt-surname"),
        pytest.param("Eyjafjallajokull", ["Eyjafjallajökull"], "", id="long-word-diacritics"),
        pytest.param("Mississipi", ["Mississippi"], "", id="misspelling-long"),
        pytest.param("The Ranch girlfriend is played by Megyn Price.",
                     ["Maggie Lawson", "Megyn Price"], "", id="one-of-several-references"),
    ],
)
def test_judge_accepts_variants(candidate, references, question) -> None:
    verdict = judge(candidate, references, question=question)
    assert verdict.correct, verdict.explanation
    assert verdict.score >= 0.5


@pytest.mark.parametrize(
    ("candidate", "references"),
    [
        pytest.param("Paris", ["Parys"], id="short-strings-stricter"),
        pytest.param("Cat", ["Car"], id="three-letters"),
        pytest.param("Austria", ["Australia"], id="different-country"),
        pytest.param("Emmitt Smith", ["Timmy Smith"], id="same-surname-other-person"),
        pytest.param("United States", ["Britain"], id="unrelated"),
        pytest.param("I don't know", ["Canberra"], id="refusal"),
    ],
)
def test_judge_rejects_near_misses(candidate, references) -> None:
    verdict = judge(candidate, references)
    assert not verdict.correct, verdict.explanation


def test_question_words_are_weak_evidence() -> None:
    q = "which river flows through the grand canyon"
    with_q = judge("the grand canyon river", ["Colorado River"], question=q)
    assert not with_q.correct


def test_verdict_contract() -> None:
    verdict = judge("Canberra", ["Canberra"])
    assert isinstance(verdict, Verdict)
    assert dataclasses.is_dataclass(verdict)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.correct = False  # type: ignore[misc]
    assert 0.0 <= verdict.score <= 1.0
    assert verdict.matched == "Canberra"
    assert verdict.explanation.endswith(".")
    assert verdict.version == EQUIVALENCE_VERSION
    assert re.fullmatch(r"\d{4}\.\d{1,2}\.\d+", EQUIVALENCE_VERSION)


@pytest.mark.parametrize(
    ("candidate", "answerline"),
    [
        pytest.param("Canberra", ["Canberra"], id="exact"),
        pytest.param("Not Canberra.", ["Canberra"], id="negation"),
        pytest.param("Ludwig", BEETHOVEN, id="prompt"),
        pytest.param("It was awarded to Röntgen in 1901", ["Wilhelm Conrad Röntgen"], id="grey"),
        pytest.param("Sydney", ["Canberra"], id="no-match"),
    ],
)
def test_score_agrees_with_decision(candidate, answerline) -> None:
    verdict = judge(candidate, answerline)
    if verdict.prompt:
        assert not verdict.correct
    else:
        assert verdict.correct == (verdict.score >= 0.5)


def test_judge_many_matches_judge() -> None:
    cands = ["Canberra", "Sydney or Canberra", "Beethoven", "15"]
    lines = [["Canberra"], ["Canberra"], BEETHOVEN, ["5"]]
    qs = ["capital of australia", "", "", "how many"]
    batch = judge_many(cands, lines, qs)
    assert batch == [judge(c, a, question=q) for c, a, q in zip(cands, lines, qs, strict=True)]
    assert [v.correct for v in judge_many(cands, lines)] == [True, False, True, False]


def test_judge_many_checks_lengths() -> None:
    with pytest.raises(ValueError, match="same length"):
        judge_many(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="questions"):
        judge_many(["a"], [["a"]], ["q1", "q2"])


def test_judge_many_batch_path_matches_judge() -> None:
    # >= 64 grey cases take the vectorized calibrator path
    cands = [f"I believe the answer is Wilhelm Rontgen, born {1840 + i}" for i in range(40)]
    cands += [f"It was probably Sydney in year {i}" for i in range(40)]
    lines = [["Wilhelm Conrad Röntgen"]] * 40 + [["Canberra"]] * 40
    batch = judge_many(cands, lines)
    assert batch == [judge(c, a) for c, a in zip(cands, lines, strict=True)]
    assert sum(v.correct for v in batch) == 40
    # the question's kind moves the scores (grey and hard) the same way in a batch
    kinds = ["who discovered x-rays", "where is the capital", "when was it", ""]
    qs = [kinds[i % 4] for i in range(len(cands))] + ["who is it", "what city"]
    cands += ["Paris", "Paris"]
    lines += [["Canberra"]] * 2
    batch = judge_many(cands, lines, qs)
    assert batch == [judge(c, a, question=q) for c, a, q in zip(cands, lines, qs, strict=True)]
