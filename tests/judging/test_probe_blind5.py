"""Table-driven tests for the misses of the fifth blind probe of issue 13's families
(h-probe5, 2026-12-03, rows ``"probe": "blind5"`` of ``judging/data/short_answers.jsonl``):
each row is a case the judge got wrong before the fix, or a trap the fix must not break.

* a negated answer named without its kind word (``không phải Hạ Long`` for ``Vịnh Hạ
  Long``: accepted at p = 0.93 before);
* "not X, Y" without "but" is a self-correction (``not the Atlantic, the Indian Ocean``);
* the kind word of a name dropped when the question names that kind (``Sunda`` for
  ``Selat Sunda`` after "Selat apa ...?", ``Hạ Long`` after "... vịnh nào?");
* a title after a name in Chinese and Japanese (``宮崎駿監督``, ``孙中山先生``), ``ท่าน``
  before a Thai name, and the Chinese frame ``是X写的``;
* the Vietnamese ``năm`` ("year") before a year read in full, and the Indonesian/Malay
  ``tahun``;
* Indonesian/Malay particles after the answer (``Kuala Lumpur lah``);
* a formula said letter by letter (``C O two`` for ``CO2``);
* the colours that tell a river's branches apart (``the Blue Nile`` for ``Nile``).

Number words and a counter against digits and the same counter (``三百六十五天`` for
``365天``, ``一九四九年`` for ``1949年``, ``千六百年`` for ``1600年``) were missed too; main
fixed them meanwhile (numbers with counters), and the cases below keep them tested.

Left as they were: a form of address before a surname (``Madame Curie``, ``Bung
Hatta``, judged "another person"): read as a surname, both went to the calibrator,
and retraining it with them cost one OpenQA-NQ301 row (1,221 of 1,490, under the
floor); the traps below keep the other people wrong.
"""

from __future__ import annotations

import pytest

from judging.corrections import final_answer
from judging.equivalence import judge
from judging.numbers import read_number
from judging.scripts import find_in_run

HALONG_Q = "Vịnh nổi tiếng ở Quảng Ninh là vịnh nào?"
SUNDA_Q = "Selat apa yang memisahkan Sumatra dan Jawa?"
CURIE = "Marie Curie [accept Maria Skłodowska-Curie]"

# (candidate, answerline, question, correct)
CASES = [
    # a negated answer without its kind word
    pytest.param("không phải Hạ Long", "Vịnh Hạ Long", HALONG_Q, False,
                 id="vi-negated-without-kind-word"),
    pytest.param("bukan Sunda", "Selat Sunda", SUNDA_Q, False, id="id-negated-without-kind-word"),
    pytest.param("not Pacific", "Pacific Ocean", "", False, id="en-negated-without-ocean"),
    # "not X, Y"
    pytest.param("not the Atlantic, the Indian Ocean", "Indian Ocean", "", True,
                 id="en-not-x-comma-y"),
    pytest.param("not the Atlantic, not the Indian Ocean", "Indian Ocean", "", False,
                 id="en-not-x-comma-not-y"),
    pytest.param("the Pacific, not the Indian Ocean", "Indian Ocean", "", False,
                 id="en-y-comma-not-answer"),
    pytest.param("không phải Hà Nội, Huế", "Huế", "", True, id="vi-khong-phai-x-comma-y"),
    pytest.param("bukan Bandung, Jakarta", "Bandung", "", False, id="id-bukan-answer-comma-y"),
    pytest.param("Not Vienna but Salzburg", "Salzburg", "", True, id="en-not-but-unchanged"),
    # the kind word named by the question
    pytest.param("Sunda", "Selat Sunda", SUNDA_Q, True, id="id-strait-named-in-question"),
    pytest.param("Hạ Long", "Vịnh Hạ Long", HALONG_Q, True, id="vi-bay-named-in-question"),
    pytest.param("Nha Trang, à không, Hạ Long", "Vịnh Hạ Long", HALONG_Q, True,
                 id="vi-correction-to-bay-name"),
    pytest.param("Hạ Long", "Vịnh Hạ Long", "Vịnh nổi tiếng ở Quảng Ninh?", True,
                 id="vi-bay-in-question-without-nao"),
    pytest.param("Meksiko", "Teluk Meksiko", "Apa nama perairan di selatan Amerika Serikat?",
                 False, id="id-gulf-not-in-question-stays-other-entity"),
    pytest.param("Selat Malaka", "Selat Sunda", SUNDA_Q, False, id="id-other-strait"),
    pytest.param("Madrid", "Real Madrid", "Which real club won in 2017?", False,
                 id="en-club-city-unchanged"),
    # number words and a counter in a run
    pytest.param("三百六十五天", "365天", "平年一年有多少天？", True, id="zh-number-with-counter"),
    pytest.param("三百五十六天", "365天", "平年一年有多少天？", False, id="zh-swapped-with-counter"),
    pytest.param("一九四九年", "1949年", "", True, id="zh-year-digit-by-digit"),
    pytest.param("一九四八年", "1949年", "", False, id="zh-neighbouring-year"),
    pytest.param("千六百年", "1600年", "関ヶ原の戦いは西暦何年？", True, id="ja-sen-roppyaku-nen"),
    pytest.param("四十八人", "47人", "", False, id="ja-neighbouring-count"),
    # titles and frames around a name
    pytest.param("宮崎駿監督です", "宮崎駿", "", True, id="ja-title-and-copula"),
    pytest.param("宮崎吾朗監督", "宮崎駿", "", False, id="ja-other-person-with-title"),
    pytest.param("孙中山先生", "孙中山", "", True, id="zh-xiansheng"),
    pytest.param("是曹雪芹写的", "曹雪芹", "《红楼梦》的作者是谁？", True, id="zh-shi-x-xie-de"),
    pytest.param("是高鹗写的", "曹雪芹", "", False, id="zh-frame-other-author"),
    pytest.param("ท่านสุนทรภู่ครับ", "สุนทรภู่", "", True, id="th-than-before-name"),
    pytest.param("明治天皇", "明治", "", False, id="ja-emperor-is-no-title-suffix"),
    # years in Vietnamese and Indonesian
    pytest.param("năm một nghìn chín trăm năm mươi tư", "1954", "", True, id="vi-nam-year"),
    pytest.param("năm một nghìn chín trăm năm mươi lăm", "1954", "", False,
                 id="vi-nam-other-year"),
    pytest.param("năm mươi", "50", "", True, id="vi-nam-muoi-is-fifty"),
    pytest.param("tahun seribu sembilan ratus empat puluh lima", "1945", "", True,
                 id="id-tahun-year"),
    pytest.param("tahun seribu sembilan ratus empat puluh sembilan", "1945", "", False,
                 id="id-tahun-other-year"),
    # id/ms particles
    pytest.param("Kuala Lumpur lah", "Kuala Lumpur", "", True, id="ms-lah"),
    pytest.param("Kuala Terengganu lah", "Kuala Lumpur", "", False, id="ms-lah-other-city"),
    pytest.param("Medan kot", "Medan", "", True, id="ms-kot"),
    # other people sharing a surname or a form of address stay wrong
    pytest.param("Pierre Curie", CURIE, "", False, id="en-other-curie"),
    pytest.param("Bung Karno", "Mohammad Hatta", "", False, id="id-bung-other-person"),
    # formulas letter by letter
    pytest.param("C O two", "carbon dioxide [accept CO2]", "", True, id="en-co-two"),
    pytest.param("H two O", "H2O", "", True, id="en-h-two-o"),
    pytest.param("C O three", "CO2", "", False, id="en-other-formula"),
    pytest.param("B 52", "B-52 Stratofortress [accept B-52]", "", True, id="en-b-52"),
    # colour qualifiers
    pytest.param("the Blue Nile", "Nile", "Which river flows through Cairo?", False,
                 id="en-blue-nile-for-nile"),
    pytest.param("Nile", "Blue Nile", "", False, id="en-nile-for-blue-nile"),
    pytest.param("the river Nile", "Nile", "", True, id="en-river-nile"),
    pytest.param("Barry White", "Barry White", "", True, id="en-white-as-surname"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_blind5(candidate: str, answerline: str, question: str, correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, (v.rule, v.explanation)


@pytest.mark.parametrize(("text", "tail"), [
    ("not the Atlantic, the Indian Ocean", "the Indian Ocean"),
    ("it's not Sydney; Canberra", "Canberra"),
    ("không phải Hà Nội, Huế", "Huế"),
    ("not Vienna but Salzburg", "Salzburg"),
    ("Canberra, not Sydney", None),
    ("not Sydney", None),
])
def test_not_x_comma_y(text: str, tail: str | None) -> None:
    assert final_answer(text) == tail


@pytest.mark.parametrize(("text", "value"), [
    ("nam mot nghin chin tram nam muoi tu", 1954),
    ("nam hai nghin", 2000),
    ("nam muoi", 50),
    ("nam tram", 500),
    ("nam mot", 51),  # (colloquial năm mốt: 51, not a year)
    ("tahun seribu sembilan ratus empat puluh lima", 1945),
])
def test_year_words(text: str, value: int) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize(("answer", "candidate", "kind"), [
    ("宮崎駿", "宮崎駿監督", "exact"),
    ("孙中山", "孙中山先生", "exact"),
    ("曹雪芹", "是曹雪芹写的", "exact"),
    ("สุนทรภู่", "ท่านสุนทรภู่ครับ", "exact"),
    ("宮崎駿", "宮崎駿監督の作品", "found"),
    ("大阪府", "大阪市", "shares"),  # (titles are no kind of place)
])
def test_titles_in_a_run(answer: str, candidate: str, kind: str) -> None:
    assert find_in_run(answer, candidate) == kind
