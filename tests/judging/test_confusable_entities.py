"""Table-driven tests of the confusable-entity families of judge 2026.12.2 and 2026.12.3.

Three families, each with its traps (a different entity whose name shares a word or
a word's start with the answer is wrong) and its licensed forms (an article, a
generic word, an appositive, a given name before a surname-only answer, the answer
inside a sentence), in the seed languages where the family exists:

- *extends*: a one-word name extended by a word or a hyphenated part
  ("Guinea-Bissau" for "Guinea") or a distinguishing word ("Equatorial Guinea"),
  and part of a hyphenated name dropped ("Guinea" for "Guinea-Bissau");
- *other word*: a word that is another word sharing the answer word's start
  ("Niger" for "Nigeria"), not a plural, demonym or other word of the family;
- *middle names*: a swapped middle name or initial is another person ("George W.
  Bush" for "George H. W. Bush"); a middle name added or dropped is not decided
  by the rules (the human-labelled NQ sets accept it, see docs/judging.md), so an
  answerline that needs it says so with ``[do not accept]`` or ``[prompt on]``;
- *built on* (rule 12d, judge 2026.12.3): another entity whose name is the answer
  plus a word that makes it a club, a sea or a state ("Real Madrid" for "Madrid",
  "Indian Ocean" for "India", "Dominican Republic" / "Dominica"), with the forms
  that stay the same entity ("French Republic" for "France", "Caspian Sea" for
  "Caspian", "Mount Everest" for "Everest").

None of these rows is in ``judging/data/short_answers.jsonl``.
"""

from __future__ import annotations

import pytest

from judging.entities import club_city, named_after, other_word, substitution
from judging.equivalence import judge, judge_many
from judging.normalize import tokens
from judging.short_rules import hyphen_words, proper_words

# (candidate, answerline, correct)
EXTENDS = [
    pytest.param("Guinea-Bissau", ["Guinea"], False, id="en-hyphen-part-added"),
    pytest.param("Guinea Bissau", ["Guinea"], False, id="en-word-added-after"),
    pytest.param("Equatorial Guinea", ["Guinea"], False, id="en-qualifier-before"),
    pytest.param("Papua New Guinea", ["Guinea"], False, id="en-two-words-before"),
    pytest.param("Guinea", ["Guinea-Bissau"], False, id="en-hyphen-part-dropped"),
    pytest.param("Austria-Hungary", ["Austria"], False, id="en-country-joined-by-hyphen"),
    pytest.param("American Samoa", ["Samoa"], False, id="en-demonym-before"),
    pytest.param("Samoa", ["American Samoa"], False, id="en-demonym-dropped"),
    pytest.param("Lincoln Memorial", ["Lincoln"], False, id="en-name-head-added"),
    pytest.param("Guinea Xích Đạo", ["Guinea"], False, id="vi-two-words-after"),
    pytest.param("Guinea Khatulistiwa", ["Guinea"], False, id="id-word-after"),
    pytest.param("Papua Barat", ["Papua"], False, id="id-barat-added"),
    pytest.param("적도 기니", ["기니"], False, id="ko-qualifier-before"),
    pytest.param("几内亚比绍", ["几内亚"], False, id="zh-characters-added"),
    pytest.param("赤道几内亚", ["几内亚"], False, id="zh-qualifier-before"),
    pytest.param("ギニアビサウ", ["ギニア"], False, id="ja-characters-added"),
    pytest.param("กินีบิสเซา", ["กินี"], False, id="th-characters-added"),
    # licensed
    pytest.param("Guinea-Bissau", ["Guinea [accept Guinea-Bissau]"], True, id="en-accept-licenses"),
    pytest.param("the Beatles", ["Beatles"], True, id="en-article"),
    pytest.param("Mount Everest", ["Everest"], True, id="en-generic-before"),
    pytest.param("Washington state", ["Washington"], True, id="en-generic-after"),
    pytest.param("Paris, France", ["Paris"], True, id="en-comma-appositive"),
    pytest.param("Springfield, Illinois", ["Springfield"], True, id="en-comma-state"),
    pytest.param("Paris France", ["Paris"], True, id="en-country-after"),
    pytest.param("Austin Texas", ["Austin"], True, id="en-state-after"),
    pytest.param("Abraham Lincoln", ["Lincoln"], True, id="en-given-name-before-surname"),
    pytest.param("Jean-Paul Sartre", ["Sartre"], True, id="en-hyphenated-given-name"),
    pytest.param("Tamera Mowry", ["Tamera Mowry-Housley"], True, id="en-person-hyphen-part"),
    pytest.param("I believe the answer is Guinea, a country in West Africa.", ["Guinea"], True,
                 id="en-in-a-sentence"),
    pytest.param("Đó là Guinea", ["Guinea"], True, id="vi-in-a-sentence"),
    pytest.param("Jawabannya Guinea", ["Guinea"], True, id="id-in-a-sentence"),
    pytest.param("정답은 기니입니다", ["기니"], True, id="ko-copula"),
    pytest.param("세종대왕이 만들었습니다", ["세종대왕"], True, id="ko-verb-after"),
    pytest.param("答案是几内亚", ["几内亚"], True, id="zh-in-a-sentence"),
    pytest.param("ギニアです", ["ギニア"], True, id="ja-copula"),
    pytest.param("คำตอบคือกินี", ["กินี"], True, id="th-in-a-sentence"),
]

OTHER_WORD = [
    pytest.param("Niger", ["Nigeria"], False, id="en-prefix-of-answer"),
    pytest.param("Nigeria", ["Niger"], False, id="en-answer-extended"),
    pytest.param("Roman", ["Romania"], False, id="en-ia-ending"),
    pytest.param("Niger River", ["Nigeria River"], False, id="en-in-a-phrase"),
    pytest.param("Niger", ["Nigeria"], False, id="vi-id-same-spelling"),
    pytest.param("尼日尔", ["尼日利亚"], False, id="zh-shared-start"),
    pytest.param("尼日利亚", ["尼日尔"], False, id="zh-shared-start-back"),
    pytest.param("ไนเจอร์", ["ไนจีเรีย"], False, id="th-shared-start"),
    pytest.param("ニジェール", ["ナイジェリア"], False, id="ja-other-word"),
    # licensed: a plural, a demonym, an -ism, a shortened given name
    pytest.param("Nigeria", ["Niger [or Nigeria]"], True, id="en-or-licenses"),
    pytest.param("Beatle", ["Beatles"], True, id="en-singular"),
    pytest.param("Nigerian", ["Nigeria"], True, id="en-demonym"),
    pytest.param("Darwinism", ["Darwin"], True, id="en-ism"),
    pytest.param("Alex Fleming", ["Alexander Fleming"], True, id="en-short-given-name"),
    pytest.param("the optic chiasma", ["optic chiasm"], True, id="en-latin-ending"),
]

MIDDLE = [
    pytest.param("George W. Bush", ["George H. W. Bush"], False, id="en-middle-initials-swapped"),
    pytest.param("George H. W. Bush", ["George W. Bush"], False, id="en-middle-initial-added"),
    pytest.param("Kim Jong-il", ["Kim Jong-un"], False, id="en-korean-given-name-part"),
    pytest.param("Kim Jong", ["Kim Jong-un"], False, id="en-given-name-syllable-dropped"),
    pytest.param("Jean Sartre", ["Jean-Paul Sartre"], True, id="en-hyphenated-given-name-shortened"),
    pytest.param("John Adams", ["John Quincy Adams [do not accept John Adams]"], False,
                 id="en-do-not-accept-the-father"),
    pytest.param("John Adams", ["John Quincy Adams [prompt on John Adams]"], False,
                 id="en-prompt-on-the-father"),
    pytest.param("Theodore Roosevelt", ["Franklin Roosevelt"], False, id="en-other-given-name"),
    pytest.param("George Washington Carver", ["George Washington"], False,
                 id="en-surname-added-after"),
    # licensed: the human-labelled sets accept a middle name added or dropped
    pytest.param("Franklin Roosevelt", ["Franklin Delano Roosevelt"], True, id="en-middle-dropped"),
    pytest.param("Thomas Alva Edison", ["Thomas Edison"], True, id="en-middle-added"),
    pytest.param("John F. Kennedy", ["John Fitzgerald Kennedy"], True, id="en-middle-initial"),
    pytest.param("Franklin Roosevelt", ["Franklin D. Roosevelt"], True, id="en-initial-dropped"),
]

BUILT_ON = [
    pytest.param("Real Madrid", ["Madrid"], False, id="en-club-before-city"),
    pytest.param("Inter Milan", ["Milan"], False, id="en-inter-milan"),
    pytest.param("Atlético Madrid", ["Madrid"], False, id="es-atletico-folded"),
    pytest.param("Borussia Dortmund", ["Dortmund"], False, id="de-borussia"),
    pytest.param("Leeds United", ["Leeds"], False, id="en-club-after-city"),
    pytest.param("Inter Milano", ["Milano"], False, id="it-inter-milano"),
    pytest.param("Sporting Lisboa", ["Lisboa"], False, id="pt-sporting-lisboa"),
    pytest.param("Dominican Republic", ["Dominica"], False, id="en-adjective-republic"),
    pytest.param("Dominica", ["Dominican Republic"], False, id="en-republic-dropped"),
    pytest.param("Indian Ocean", ["India"], False, id="en-ocean-of-a-country"),
    pytest.param("Arabian Sea", ["Arabia"], False, id="en-sea-of-a-region"),
    pytest.param("Persian Gulf", ["Persia"], False, id="en-gulf"),
    pytest.param("the Gulf of Mexico", ["Mexico"], False, id="en-gulf-of-country"),
    pytest.param("Sea of Japan", ["Japan"], False, id="en-sea-of-country"),
    pytest.param("Ấn Độ Dương", ["Ấn Độ"], False, id="vi-ocean-after"),
    pytest.param("Ấn Độ", ["Ấn Độ Dương"], False, id="vi-country-for-ocean"),
    pytest.param("Vịnh Mexico", ["Mexico"], False, id="vi-gulf-before"),
    pytest.param("Samudra Hindia", ["Hindia"], False, id="id-ocean-before"),
    pytest.param("Teluk Meksiko", ["Meksiko"], False, id="id-gulf-before"),
    pytest.param("Laut Jawa", ["Jawa"], False, id="id-sea-before"),
    pytest.param("인도양", ["인도"], False, id="ko-ocean-suffix"),
    pytest.param("印度洋", ["印度"], False, id="zh-ocean-suffix"),
    pytest.param("インド洋", ["インド"], False, id="ja-ocean-suffix"),
    pytest.param("Madrid", ["Real Madrid"], False, id="en-city-for-club-is-a-prompt"),
    pytest.param("Milano", ["Inter Milano"], False, id="it-city-for-club-is-a-prompt"),
    # licensed: the same entity
    pytest.param("Real Madrid", ["Madrid [accept Real Madrid]"], True, id="en-accept-licenses"),
    pytest.param("Real Madrid CF", ["Real Madrid"], True, id="en-club-abbreviation-after"),
    pytest.param("AC Milan", ["Milan"], True, id="it-ac-milan-is-milan"),
    pytest.param("FC Barcelona", ["Barcelona"], True, id="es-fc-before"),
    pytest.param("Madrid", ["Real Madrid [accept Madrid]"], True, id="en-accept-the-city"),
    pytest.param("Real Madrid", ["Real Madrid C.F."], True, id="en-club-full-name"),
    pytest.param("French Republic", ["France"], True, id="en-own-adjective-republic"),
    pytest.param("Caspian Sea", ["Caspian"], True, id="en-answer-word-itself"),
    pytest.param("Bay of Biscay", ["Biscay"], True, id="en-bay-of-non-country"),
    pytest.param("Republic of Ireland", ["Ireland"], True, id="en-republic-of"),
    pytest.param("Madrid, Spain", ["Madrid"], True, id="en-appositive"),
    pytest.param("the city of Madrid", ["Madrid"], True, id="en-generic-description"),
    pytest.param("King Solomon", ["Solomon"], True, id="en-title-before"),
    pytest.param("Lake Victoria", ["Lake Victoria"], True, id="en-exact"),
    pytest.param("Kota Madrid", ["Madrid"], True, id="id-generic-city-before"),
]


@pytest.mark.parametrize(("candidate", "answerline", "correct"),
                         EXTENDS + OTHER_WORD + MIDDLE + BUILT_ON)
def test_confusable_families(candidate, answerline, correct) -> None:
    verdict = judge(candidate, answerline)
    assert verdict.correct is correct, verdict.explanation


@pytest.mark.parametrize(("candidate", "answerline", "correct"),
                         EXTENDS + OTHER_WORD + MIDDLE + BUILT_ON)
def test_confusable_traps_stay_below_the_grey_zone(candidate, answerline, correct) -> None:
    # a wrong answer of these families is never accepted, and not even scored as
    # likely right: no wrong answer at p >= 0.9, none above the grey zone
    if not correct:
        assert judge(candidate, answerline).score < 0.5


def test_confusable_families_same_in_a_batch() -> None:
    rows = [p.values for p in EXTENDS + OTHER_WORD + MIDDLE + BUILT_ON] * 3
    verdicts = judge_many([r[0] for r in rows], [r[1] for r in rows])
    assert [v.correct for v in verdicts] == [r[2] for r in rows]
    assert verdicts[: len(rows) // 3] == [judge(r[0], r[1]) for r in rows[: len(rows) // 3]]


@pytest.mark.parametrize(("core", "answer", "expected"), [
    pytest.param("niger", "nigeria", ("niger", "nigeria"), id="prefix"),
    pytest.param("nigerian", "nigeria", None, id="demonym-ending"),
    pytest.param("beatle", "beatles", None, id="plural"),
    pytest.param("blood", "bloodstream", None, id="compound-is-left-to-the-calibrator"),
    pytest.param("alex fleming", "alexander fleming", None, id="ending-too-long"),
    pytest.param("niger delta", "nigeria state", None, id="two-words-differ"),
    pytest.param("ni", "nigeria", None, id="too-short"),
])
def test_other_word(core, answer, expected) -> None:
    assert other_word(tuple(core.split()), tuple(answer.split())) == expected


def test_substitution_kinds() -> None:
    g = tokens("Guinea")
    assert substitution(tokens("Guinea-Bissau"), g, proper=proper_words("Guinea")).kind == "extends"
    gb = "Guinea-Bissau"
    sub = substitution(g, tokens(gb), proper=proper_words(gb), hyphen=hyphen_words(gb))
    assert (sub.kind, sub[2]) == ("part", "bissau")
    # a country after a place is an appositive, unless joined by a hyphen
    a = tokens("Austria")
    cand = "Austria-Hungary"
    assert substitution(tokens("Austria Hungary"), a, proper=proper_words("Austria")).kind == \
        "licensed"
    assert substitution(tokens(cand), a, proper=proper_words("Austria"),
                        joined=hyphen_words(cand)).kind == "extends"
    assert hyphen_words("left-sided heart failure") == frozenset()
    assert proper_words("기니") == frozenset({"기니"})
    assert proper_words("1945") == frozenset()


@pytest.mark.parametrize(("core", "answer", "word"), [
    pytest.param("real madrid", "madrid", "real", id="club-before"),
    pytest.param("real madrid cf", "real madrid", None, id="club-abbreviation-after"),
    pytest.param("madrid", "real madrid", None, id="city-for-club-not-ruled"),
    pytest.param("manchester united", "manchester", "united", id="club-after"),
    pytest.param("dominican republic", "dominica", "republic", id="state-adjective"),
    pytest.param("dominica", "dominican republic", "republic", id="state-dropped"),
    pytest.param("french republic", "france", None, id="own-demonym"),
    pytest.param("indian ocean", "india", "ocean", id="ocean"),
    pytest.param("india", "indian ocean", None, id="country-for-ocean-not-ruled"),
    pytest.param("caspian sea", "caspian", None, id="same-word"),
    pytest.param("sea of japan", "japan", "sea", id="of-country"),
    pytest.param("bay of biscay", "biscay", None, id="of-non-country"),
    pytest.param("an do duong", "an do", "duong", id="vi-ocean-after"),
    pytest.param("an do", "an do duong", "duong", id="vi-ocean-dropped"),
    pytest.param("teluk meksiko", "meksiko", "teluk", id="id-gulf-before"),
    pytest.param("billy joel", "joel", None, id="given-name"),
])
def test_named_after(core: str, answer: str, word: str | None) -> None:
    assert named_after(tuple(core.split()), tuple(answer.split())) == word


@pytest.mark.parametrize(("candidate", "answerline"), [
    pytest.param("Madrid", ["Real Madrid"], id="en-real"),
    pytest.param("Milan", "Inter Milan or Internazionale", id="en-inter"),
    pytest.param("Madrid", ["Atlético Madrid"], id="es-atletico"),
])
def test_city_for_its_club_is_prompted(candidate: str, answerline: str | list[str]) -> None:
    verdict = judge(candidate, answerline)
    assert (verdict.correct, verdict.prompt, verdict.rule) == (False, True, "prompt:club")
    assert verdict.score < 0.5


def test_club_city() -> None:
    assert club_city(("madrid",), ("real", "madrid")) == "real"
    assert club_city(("leeds",), ("leeds", "united")) is None
    assert club_city(("barcelona",), ("real", "madrid")) is None

