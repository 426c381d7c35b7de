"""Table-driven tests for the misses of the seventh blind probe of issue 13's families
(h-probe7, 2026-12-04, rows ``"probe": "blind7"`` of ``judging/data/short_answers.jsonl``):
each row is a case the judge got wrong before the fix, or a trap the fix must not break.

* particles after the answer that the filler list cannot hold, as they are words of
  other answers: Tagalog ``po`` / ``ho`` / ``opo`` (``Pinatubo po``, ``Aguinaldo po``),
  id/ms ``dong`` and ``kan``, vi ``nha``: taken off when written in lower case and the
  answerline does not use the word (``the river Po``, ``Quảng Đông``, ``Tây Ban Nha``
  stay words: ``corrections.without_particle``);
* Tagalog numbers (``pito``, ``labing-isa``, ``dalawampu't isa``, ``dalawang daan``,
  ``isang libo siyam na raan siyamnapu't walo``, the ordinals ``ikalawa`` / ``ikaapat``) and
  the Spanish-derived ones (``siyete``, ``una``);
* a copula after a number's counter is no counter (``六十分です`` for ``60分``, ``열두 달이요``,
  ``สิบสองเดือนครับ``; ``六十秒です`` stays another unit);
* radians are an angle unit, and so is ``degrees`` where no temperature unit is said
  (``90 radians`` for ``90 degrees`` was accepted at 0.84);
* fractions in every seed language against fractions (``3분의 1`` for ``2/3`` was
  accepted at 0.58, ``3分の1`` at 0.80; ``three fourths``, ``三分之二``, ``สองในสาม``, ``hai
  phần ba``, ``dua pertiga``, ``setengah``; a decimal against a fraction: ``0.75`` for
  ``3/4``; ``numbers.read_fraction``);
* another generation of one name (``Johann Strauss I`` for ``Johann Strauss II``, was
  accepted at 0.89; ``Alexandre Dumas fils`` for ``Alexandre Dumas [accept Dumas père]``,
  at 0.89; a numeral and a young/old word are not compared: ``Johann Strauss II`` may be
  ``the Younger``);
* a given name alone is the answer when the question says the surname (``Serena`` after
  "Which Williams sister ...?"; without it, still only the given name).

Left as they were (blind7 misses): ``しなのがわ`` for ``信濃川`` (a kanji word's reading
needs a dictionary); ``ยิ่งลักษณ์`` for ``ยิ่งลักษณ์ ชินวัตร`` (Thai people are called by
the given name, but a transliterated foreign name's first part is not its surname, and the
script does not tell them apart); ``Congo-Brazzaville`` for ``... [accept Congo-Kinshasa]``,
``Return of the Jedi`` for ``... The Return of the King`` and ``Megawati Soekarnoputri`` for
``Soekarno`` (grey, 0.76-0.79: titles and names sharing words); ``photosynthisis`` (a
misspelling next to a do-not-accept sibling, grey 0.52).
"""

from __future__ import annotations

import pytest

from judging.corrections import without_particle
from judging.equivalence import judge
from judging.numbers import read_fraction, read_number

WILLIAMS_Q = "Which Williams sister has won 23 Grand Slam singles titles?"
ROOSEVELT_Q = "Which Roosevelt led the Rough Riders?"
STRAUSS = "Johann Strauss II [accept Johann Strauss the Younger or Johann Strauss Jr.]"
DUMAS = "Alexandre Dumas [accept Dumas père]"
PINATUBO = "Bulkang Pinatubo [accept Pinatubo]"

# (candidate, answerline, question, correct)
CASES = [
    # particles after the answer
    pytest.param("Pinatubo po", PINATUBO, "", True, id="tl-po"),
    pytest.param("Pinatubo po.", PINATUBO, "", True, id="tl-po-full-stop"),
    pytest.param("Aguinaldo po", "Emilio Aguinaldo", "", True, id="tl-po-surname"),
    pytest.param("Rizal ho", "José Rizal", "", True, id="tl-ho"),
    pytest.param("Mayon po", PINATUBO, "", False, id="tl-po-other-volcano"),
    pytest.param("Bonifacio po", "José Rizal", "", False, id="tl-po-other-person"),
    pytest.param("Borobudur dong", "Candi Borobudur [accept Borobudur]", "", True,
                 id="id-dong"),
    pytest.param("Candi Prambanan dong", "Candi Borobudur [accept Borobudur]", "", False,
                 id="id-dong-other-temple"),
    pytest.param("Jakarta kan", "Jakarta", "", True, id="id-kan"),
    pytest.param("Surabaya kan", "Jakarta", "", False, id="id-kan-other-city"),
    pytest.param("Hà Nội nha", "Hà Nội", "", True, id="vi-nha"),
    pytest.param("the river Po", "Po River", "", True, id="en-river-po-stays"),
    pytest.param("Quảng Đông", "Quảng Châu", "", False, id="vi-dong-is-a-syllable"),
    pytest.param("Bồ Đào Nha", "Tây Ban Nha", "", False, id="vi-nha-is-a-syllable"),
    pytest.param("Tây Ban Nha", "Tây Ban Nha", "", True, id="vi-nha-in-the-answer"),
    pytest.param("Naoto Kan", "Naoto Kan", "", True, id="ja-kan-in-the-answer"),
    # Tagalog numbers
    pytest.param("pito po", "7", "", True, id="tl-pito-po"),
    pytest.param("siyete", "7", "", True, id="tl-spanish-seven"),
    pytest.param("walo", "7", "", False, id="tl-other-number"),
    pytest.param("labing-isa", "11", "", True, id="tl-teen"),
    pytest.param("labindalawa", "12", "", True, id="tl-teen-one-word"),
    pytest.param("dalawampu't isa", "21", "", True, id="tl-tens-and-unit"),
    pytest.param("dalawang daan", "200", "", True, id="tl-hundreds-linker"),
    pytest.param("apat na raan", "400", "", True, id="tl-hundreds-na"),
    pytest.param("isang libo siyam na raan siyamnapu't walo", "1998", "", True,
                 id="tl-year"),
    pytest.param("isang libo siyam na raan siyamnapu't pito", "1998", "", False,
                 id="tl-other-year"),
    pytest.param("siyam", "8", "", False, id="tl-nine-for-eight"),
    # a copula after a counter
    pytest.param("六十分です", "60分", "1時間は何分ですか？", True, id="ja-counter-desu"),
    pytest.param("六十秒です", "60分", "", False, id="ja-other-unit-desu"),
    pytest.param("五十九分です", "60分", "", False, id="ja-other-number-desu"),
    pytest.param("열두 달이요", "12개월", "", True, id="ko-counter-iyo"),
    pytest.param("열한 달이요", "12개월", "", False, id="ko-other-number-iyo"),
    pytest.param("สิบสองเดือนครับ", "12 เดือน", "", True, id="th-counter-khrap"),
    pytest.param("สิบเอ็ดเดือนครับ", "12 เดือน", "", False, id="th-other-number-khrap"),
    pytest.param("三百六十五天吧", "365天", "", True, id="zh-counter-ba"),
    # angles
    pytest.param("90 radians", "90 degrees", "", False, id="en-radians-for-degrees"),
    pytest.param("ninety", "90 degrees", "", True, id="en-no-unit"),
    pytest.param("2 radians", "2 radians", "", True, id="en-same-angle-unit"),
    pytest.param("100 degrees Fahrenheit", "100 degrees Celsius [accept 100]", "", False,
                 id="en-temperature-degrees-unchanged"),
    pytest.param("100 degrees Celsius", "100 °C [accept 100 degrees Celsius]", "", True,
                 id="en-celsius-degrees"),
    # fractions
    pytest.param("3분의 1", "2/3", "", False, id="ko-other-fraction"),
    pytest.param("3분의 2", "2/3", "", True, id="ko-fraction"),
    pytest.param("3분의 2입니다", "2/3", "", True, id="ko-fraction-copula"),
    pytest.param("3分の1", "2/3", "", False, id="ja-other-fraction"),
    pytest.param("3分の2です", "2/3", "", True, id="ja-fraction-desu"),
    pytest.param("三分之二", "2/3", "", True, id="zh-fraction-words"),
    pytest.param("三分之一", "三分之二 [accept 2/3]", "", False, id="zh-other-fraction"),
    pytest.param("สองในสาม", "2/3", "", True, id="th-fraction-nai"),
    pytest.param("หนึ่งในสาม", "2/3", "", False, id="th-other-fraction"),
    pytest.param("hai phần ba", "2/3", "", True, id="vi-fraction"),
    pytest.param("một phần ba", "hai phần ba [accept 2/3]", "", False, id="vi-other-fraction"),
    pytest.param("dua pertiga", "2/3", "", True, id="id-fraction-glued"),
    pytest.param("dua per tiga", "2/3", "", True, id="id-fraction-spaced"),
    pytest.param("sepertiga", "2/3", "", False, id="id-other-fraction"),
    pytest.param("setengah", "1/2", "", True, id="id-half"),
    pytest.param("three fourths", "three-quarters [accept 3/4]", "", True, id="en-fourths"),
    pytest.param("one fourth", "three-quarters [accept 3/4]", "", False, id="en-one-fourth"),
    pytest.param("0.75", "3/4", "", True, id="en-decimal-for-fraction"),
    pytest.param("0.5", "3/4", "", False, id="en-other-decimal"),
    pytest.param("half", "1/2", "", True, id="en-half"),
    pytest.param("the third", "3rd", "", True, id="en-ordinal-is-no-fraction"),
    pytest.param("3분", "3분", "", True, id="ko-minutes-is-no-fraction"),
    pytest.param("1/2 inch", "1/2 inch", "", True, id="en-fraction-and-unit-exact"),
    # generations
    pytest.param("Johann Strauss I", STRAUSS, "", False, id="en-other-numeral"),
    pytest.param("Johann Strauss Jr.", STRAUSS, "", True, id="en-accepted-mark"),
    pytest.param("Alexandre Dumas fils", DUMAS, "", False, id="fr-fils-for-pere"),
    pytest.param("Alexandre Dumas père", DUMAS, "", True, id="fr-pere-accepted"),
    pytest.param("Martin Luther King Sr.", "Martin Luther King Jr.", "", False,
                 id="en-sr-for-jr"),
    pytest.param("Pliny the Younger", "Pliny the Elder", "", False, id="en-younger-for-elder"),
    pytest.param("Pope John Paul I", "John Paul II", "", False, id="en-pope-numeral"),
    pytest.param("Henry VII", "Henry VIII", "", False, id="en-regnal-unchanged"),
    pytest.param("Johann Strauss II", "Johann Strauss the Younger", "", True,
                 id="en-numeral-and-younger-not-compared"),
    # given name when the question says the surname
    pytest.param("Serena", "Serena Williams", WILLIAMS_Q, True, id="en-given-surname-asked"),
    pytest.param("Venus", "Serena Williams", WILLIAMS_Q, False, id="en-other-given-name"),
    pytest.param("Serena", "Serena Williams", "Who has won 23 Grand Slam singles titles?",
                 False, id="en-given-name-alone"),
    pytest.param("Theodore", "Theodore Roosevelt", ROOSEVELT_Q, True, id="en-given-asked"),
    pytest.param("Eleanor", "Theodore Roosevelt", ROOSEVELT_Q, False, id="en-other-roosevelt"),
    pytest.param("John", "John Quincy Adams", "Which Adams was the sixth U.S. president?",
                 False, id="en-given-of-a-three-word-name"),
    # variants written after the fixes, in other seed languages (checked, not scored)
    pytest.param("labing-anim po", "16", "", True, id="v-tl-teen-po"),
    pytest.param("tatlumpu", "30", "", True, id="v-tl-tens"),
    pytest.param("ikalawa", "2", "", True, id="v-tl-ordinal-second"),
    pytest.param("ikatlo", "2", "", False, id="v-tl-ordinal-third-for-second"),
    pytest.param("ikaapat", "4", "", True, id="v-tl-ordinal-fourth"),
    pytest.param("una", "1", "", True, id="v-tl-una"),
    pytest.param("Mount Apo po", "Mount Apo", "", True, id="v-tl-po-place"),
    pytest.param("Davao po", "Mount Apo", "", False, id="v-tl-po-other-place"),
    pytest.param("Bandung dong", "Jakarta", "", False, id="v-id-dong-other-city"),
    pytest.param("ba phần tư", "3/4", "", True, id="v-vi-quarter"),
    pytest.param("một phần tư", "3/4", "", False, id="v-vi-other-quarter"),
    pytest.param("四分の三", "3/4", "", True, id="v-ja-kanji-fraction"),
    pytest.param("四分之三", "3/4", "", True, id="v-zh-quarter"),
    pytest.param("사분의 삼", "3/4", "", True, id="v-ko-sino-fraction"),
    pytest.param("사분의 일", "3/4", "", False, id="v-ko-other-sino-fraction"),
    pytest.param("สามในสี่", "3/4", "", True, id="v-th-quarter"),
    pytest.param("seperempat", "1/4", "", True, id="v-ms-quarter"),
    pytest.param("seperempat", "3/4", "", False, id="v-ms-other-quarter"),
    pytest.param("two fifths", "2/5", "", True, id="v-en-fifths"),
    pytest.param("three fifths", "2/5", "", False, id="v-en-other-fifths"),
    pytest.param("Ken Griffey Jr.", "Ken Griffey Sr.", "", False, id="v-en-jr-for-sr"),
    pytest.param("요한 슈트라우스 1세", "요한 슈트라우스 2세", "", False, id="v-ko-regnal-se"),
    pytest.param("ナポレオン三世", "ナポレオン1世", "", False, id="v-ja-regnal-sei"),
    pytest.param("ナポレオン一世", "ナポレオン1世", "", True, id="v-ja-regnal-same"),
    pytest.param("拿破仑三世", "拿破仑一世", "", False, id="v-zh-regnal-shi"),
    pytest.param("Venus", "Venus Williams", "Which Williams sister is older?", True,
                 id="v-en-given-surname-asked"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_blind7_cases(candidate: str, answerline: str, question: str, correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, (candidate, answerline, v)


@pytest.mark.parametrize(("text", "bare"), [
    ("Pinatubo po", "Pinatubo"), ("Pinatubo po.", "Pinatubo"), ("Borobudur dong!", "Borobudur"),
    ("the river Po", None), ("Quảng Đông", None), ("po", None), ("Paris", None),
])
def test_without_particle(text: str, bare: str | None) -> None:
    assert without_particle(text) == bare


@pytest.mark.parametrize(("text", "folded", "value"), [
    ("2/3", "", (2, 3)), ("two thirds", "", (2, 3)), ("three-quarters", "", (3, 4)),
    ("one fourth", "", (1, 4)), ("half", "", (1, 2)), ("三分之二", "", (2, 3)),
    ("3分の2です", "", (2, 3)), ("3분의 1입니다", "", (1, 3)), ("สองส่วนสามครับ", "", (2, 3)),
    ("hai phần ba", "hai phan ba", (2, 3)), ("tiga perempat", "tiga perempat", (3, 4)),
    ("setengah", "setengah", (1, 2)), ("十分之七", "", (7, 10)),
    ("third", "", None), ("自分", "", None), ("3분", "", None), ("Paris", "paris", None),
    ("1 3", "1 3", None),
])
def test_read_fraction(text: str, folded: str, value: tuple[int, int] | None) -> None:
    got = read_fraction(text, folded)
    assert (None if got is None else (got.numerator, got.denominator)) == value


@pytest.mark.parametrize(("text", "value"), [
    ("pito", 7), ("siyete", 7), ("labing isa", 11), ("labinlima", 15),
    ("dalawamput isa", 21), ("tatlong daan", 300), ("isang libo", 1000), ("sandaan", 100),
    ("na", None), ("at", None),
])
def test_read_number_tagalog(text: str, value: int | None) -> None:
    assert read_number(text) == value
