"""Table-driven tests for the misses of the ninth blind probe of issue 13's families
(h-probe9, 2026-12-04, rows ``"probe": "blind9"`` of ``judging/data/short_answers.jsonl``):
each row is a case the judge got wrong before the fix, or a trap the fix must not break.

* a percentage among fractions: ``one-fourth [accept 1/4 or 25%]`` made the fraction rule
  give up (``25%`` read as no fraction), and ``one third`` was a grey accept at 0.74 on the
  shared ``one``; a percentage is now a fraction of a hundred
  (``number_rules._alt_fraction``);
* counters and hedges around number words: Thai ``จังหวัด`` / ``ประเทศ`` / ``แห่ง``
  (``เจ็ดสิบเจ็ดจังหวัดครับ`` for 77), zh ``大约`` / ``大概`` before a number (``大约三点一四``
  for 3.14), vi ``độ`` for ``độ C`` (``một trăm độ`` for ``100 độ C``; ``độ F`` stays
  another unit), Tagalog ``isanlibo``, ``libo't`` (``isanlibo't walong daan siyamnapu't
  walo`` for 1898);
* a date said word by word in a script without spaces (``팔월 십오일이요`` for ``8월 15일``):
  each word one number and its counter, all of them compared (it was a hard no-match; the
  trap ``삼월 이일`` for ``3월 1일`` stays wrong, now as ``number``);
* hedges: id/ms ``kalau tidak salah`` after the answer, tl ``siguro (si)``, ``sa tingin ko
  (si)``, ``baka si`` before it and ``yata`` after it (``siguro si Aguinaldo`` was read as
  another person whose given name is "si"); ``baka`` alone (also "cow") is no hedge;
* an Indonesian patronym (``Megawati Soekarnoputri`` for ``Soekarno``, a grey accept at
  0.71): the parent's name and ``putri`` / ``putra`` in one word names the child.

Left as they were (blind9 misses): ``pitong araw po ang isang linggo`` for ``7`` (the answer
restates the question with its own number, ``isang linggo``).
"""

from __future__ import annotations

import pytest

from judging.equivalence import judge

SOEKARNO = "Soekarno [accept Sukarno; accept Bung Karno]"

# (candidate, answerline, question, correct)
CASES = [
    # a percentage among fractions
    pytest.param("one third", "one-fourth [accept 1/4 or 25%]", "", False, id="frac-percent-other"),
    pytest.param("0.25", "one-fourth [accept 1/4 or 25%]", "", True, id="frac-percent-decimal"),
    pytest.param("one quarter", "1/4 [accept 25 percent]", "", True, id="frac-percent-words"),
    pytest.param("two thirds", "1/2 [accept 50%]", "", False, id="frac-half-percent-other"),
    pytest.param("half", "1/2 [accept 50%]", "", True, id="frac-half-percent"),
    pytest.param("dua pertiga", "3/4 [accept 75%]", "", False, id="id-frac-percent-other"),
    pytest.param("tiga perempat", "3/4 [accept 75%]", "", True, id="id-frac-percent"),
    # counters and hedges around number words
    pytest.param("เจ็ดสิบเจ็ดจังหวัดครับ", "77", "", True, id="th-provinces"),
    pytest.param("เจ็ดสิบหกจังหวัด", "77", "", False, id="th-provinces-other"),
    pytest.param("สิบประเทศ", "10", "", True, id="th-countries"),
    pytest.param("เก้าประเทศ", "10", "", False, id="th-countries-other"),
    pytest.param("大约三点一四", "3.14", "", True, id="zh-about-decimal"),
    pytest.param("大约三点一五", "3.14", "", False, id="zh-about-other-decimal"),
    pytest.param("大概一百", "100", "", True, id="zh-about-hundred"),
    pytest.param("大概九十", "100", "", False, id="zh-about-other"),
    pytest.param("một trăm độ", "100 độ C", "", True, id="vi-degrees-no-scale"),
    pytest.param("chín mươi độ", "100 độ C", "", False, id="vi-degrees-other"),
    pytest.param("một trăm độ F", "100 độ C", "", False, id="vi-fahrenheit"),
    pytest.param("ba mươi độ", "30 độ", "", True, id="vi-degrees"),
    pytest.param("isanlibo't walong daan siyamnapu't walo", "1898", "", True, id="tl-year"),
    pytest.param("isanlibo't walong daan siyamnapu't pito", "1898", "", False,
                 id="tl-year-other"),
    pytest.param("dalawang libo't dalawampu", "2020", "", True, id="tl-libot"),
    pytest.param("isandaan", "100", "", True, id="tl-isandaan"),
    # a date word by word
    pytest.param("팔월 십오일이요", "8월 15일", "", True, id="ko-date-words"),
    pytest.param("팔월 십사일이요", "8월 15일", "", False, id="ko-date-other-day"),
    pytest.param("삼월 이일", "3월 1일", "", False, id="ko-date-month-only"),
    pytest.param("삼월 일일", "3월 1일", "", True, id="ko-date-same"),
    pytest.param("팔월 십오일", "8월 15일 [accept 광복절]", "", True, id="ko-date-with-name"),
    pytest.param("八月 十五日", "8月 15日", "", True, id="zh-date-words"),
    pytest.param("八月 十四日", "8月 15日", "", False, id="zh-date-other-day"),
    # hedges
    pytest.param("seribu sembilan ratus empat puluh lima, kalau tidak salah", "1945", "", True,
                 id="id-kalau-tidak-salah-year"),
    pytest.param("seribu sembilan ratus empat puluh enam, kalau tidak salah", "1945", "",
                 False, id="id-kalau-tidak-salah-other"),
    pytest.param("Jakarta kalau tidak salah", "Jakarta", "", True, id="id-kalau-tidak-salah"),
    pytest.param("Bandung kalau tidak salah", "Jakarta", "", False, id="id-kalau-other"),
    pytest.param("siguro si Aguinaldo", "Emilio Aguinaldo", "", True, id="tl-siguro-si"),
    pytest.param("siguro si Bonifacio", "Emilio Aguinaldo", "", False, id="tl-siguro-other"),
    pytest.param("siguro si Paciano Rizal", "José Rizal", "", False, id="tl-siguro-sibling"),
    pytest.param("sa tingin ko si Rizal", "José Rizal", "", True, id="tl-sa-tingin-ko"),
    pytest.param("Rizal yata", "José Rizal", "", True, id="tl-yata"),
    pytest.param("baka si Mabini", "José Rizal", "", False, id="tl-baka-other"),
    pytest.param("siguro Maynila", "Maynila", "", True, id="tl-siguro-place"),
    # a patronym
    pytest.param("Megawati Soekarnoputri", SOEKARNO, "", False, id="id-patronym-daughter"),
    pytest.param("Guruh Soekarnoputra", "Soekarno", "", False, id="id-patronym-son"),
    pytest.param("Megawati Soekarnoputri", "Megawati Soekarnoputri", "", True,
                 id="id-patronym-is-the-answer"),
    pytest.param("Soekarnoputri", "Megawati Soekarnoputri [accept Megawati]", "", True,
                 id="id-patronym-surname"),
    pytest.param("Bung Karno", SOEKARNO, "", True, id="id-nickname"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_blind9_family(candidate: str, answerline: str, question: str, correct: bool) -> None:
    verdict = judge(candidate, [answerline], question=question)
    assert verdict.correct is correct, (candidate, answerline, verdict.rule, verdict.score)
    if not correct:
        assert verdict.score < 0.9
