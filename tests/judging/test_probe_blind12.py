"""Table-driven tests for the misses of the twelfth blind probe of issue 13's families
(h-probe12, 2026-12-04, rows ``"probe": "blind12"`` of ``judging/data/short_answers.jsonl``):
each row is a case the judge got wrong before the fix, or a trap the fix must not break.

* a belief reported and then contradicted: ``People say Paris but it's actually Lyon`` and
  ``Everyone thinks Jupiter, but the answer is Saturn`` were accepted as ``contains`` at
  0.97; the answer after "but" is the answer given (``corrections._NOT_BUT``), and a
  belief reported after the answer (``Mozart, although many think Beethoven``, a grey
  accept at 0.65) is no part of it (``corrections._REPORTED``);
* a date with its day and month swapped: ``9월 10일`` for ``10월 9일`` (0.96) and ``9 tháng
  2`` for ``2 tháng 9`` (0.92) were ``token-overlap`` accepts; the same numbers in another
  order around the same words are now wrong (``date_rules.swapped_numbers``; not a
  score or a range, "2 to 3", which may be said either way round);
* an ordinal for a count: ``the fourth`` for ``four`` after "How many times ...?" was
  ``exact`` at 0.98 (the normalizer reads both as 4); now wrong when the question asks
  how many and no acceptable answer is an ordinal (``number_rules.ORDINAL``);
* two answers offered: ``either the Amazon or the Nile`` for ``Amazon River`` (0.88),
  ``maybe Hemingway or Fitzgerald`` for ``Ernest Hemingway`` and Tagalog ``Manila o
  Cebu`` (``o`` is "or") were accepted; a segment names an answer also by its words less
  a kind word or by a person's surname (``equivalence._hedge``);
* another word built on the answer with a four-letter ending: ``Plutonium`` for ``Pluto``
  (a grey accept at 0.80; ``entities.other_word`` now allows four letters, with the
  four-letter endings of one word's family, "-ness", "-ists", ... as the same word);
* an echo of the question: a short answer all of whose content words the question says,
  for answers the question does not say, is wrong (rule ``question-echo``; the refit of
  this round put ``Alien`` for ``Aliens`` after "... the sequel to Alien?" at 0.92, a fuzzy
  accept); not a part of a longer answer sharing a word's start (``Galatians`` for ``the
  churches of Galatia``, which EVOUNA-NQ's raters accept);
* a year in another calendar: Thai ``ค.ศ. 1939`` for ``พ.ศ. 2482`` and ``พ.ศ. 2488`` for
  ``ค.ศ. 1945`` (the Buddhist era is 543 years ahead) were ``other-word``; Japanese era
  years (``昭和20年`` for ``1945年``) likewise (``number_rules._thai_era``,
  ``date_rules.japanese_era``); the same number in the other era stays wrong.

Left as they were (blind12 misses): romanizations and kana readings only a dictionary
gives (``Gyeongju`` for ``경주``, ``Du Fu`` for ``杜甫``, ``とうきょう`` for ``東京``,
``Krung Thep`` for ``กรุงเทพมหานคร``), ``the Kyrgyz Republic`` for ``Kyrgyzstan`` (an
official name), ``Prusia`` for ``Prussia`` (a grey fuzzy the calibrator rejects),
``前221年`` for ``公元前221年``, ``the fifteen hundreds`` for ``16th century``, ``시월 구일``
for ``10월 9일`` (시월 is the irregular reading of 10월) and ``ngày 2/9`` for ``2 tháng 9``.
"""

from __future__ import annotations

import pytest

from judging.equivalence import judge

# (candidate, answerline, question, correct)
CASES = [
    # a belief reported and then contradicted
    pytest.param("People say Paris but it's actually Lyon", "Paris",
                 "What is the capital of France?", False, id="en-people-say-but"),
    pytest.param("Everyone thinks Jupiter, but the answer is Saturn", "Jupiter",
                 "What is the largest planet?", False, id="en-everyone-thinks-but"),
    pytest.param("Most people think Sydney, but it's Canberra", "Canberra",
                 "What is the capital of Australia?", True, id="en-belief-then-answer"),
    pytest.param("Mozart, although many think Beethoven", "Ludwig van Beethoven",
                 "Who composed the Moonlight Sonata?", False, id="en-although-many-think"),
    pytest.param("Beethoven, though some say Mozart", "Ludwig van Beethoven",
                 "Who composed the Moonlight Sonata?", True, id="en-though-some-say-right"),
    pytest.param("Beethoven, not Mozart", "Ludwig van Beethoven",
                 "Who composed the Moonlight Sonata?", True, id="en-not-other"),
    # a date with its day and month swapped
    pytest.param("9월 10일", "10월 9일", "한글날은 몇 월 며칠인가요?", False, id="ko-date-swapped"),
    pytest.param("10월 9일", "10월 9일", "한글날은 몇 월 며칠인가요?", True, id="ko-date"),
    pytest.param("9 tháng 2", "2 tháng 9", "Quốc khánh Việt Nam là ngày nào?", False,
                 id="vi-date-swapped"),
    pytest.param("3 Juli", "7 Maret", "", False, id="id-other-date"),
    pytest.param("June 6 1944", "6 June 1944", "", True, id="en-date-other-order"),
    pytest.param("1944년 6월 6일", "June 6, 1944", "", True, id="ko-date-for-en"),
    pytest.param("2 to 3", "3 to 2", "What was the final score?", True, id="en-score-either-way"),
    # an ordinal for a count
    pytest.param("the fourth", "four", "How many times was FDR elected president?", False,
                 id="en-ordinal-for-count"),
    pytest.param("4 times", "four", "How many times was FDR elected president?", True,
                 id="en-count"),
    pytest.param("fourth", "4th", "Which number president was he?", True, id="en-ordinal"),
    pytest.param("the 16th", "16th", "Which number president was Lincoln?", True,
                 id="en-ordinal-digits"),
    # two answers offered
    pytest.param("either the Amazon or the Nile", "Amazon River",
                 "Which river has the largest discharge?", False, id="en-either-or-kind-word"),
    pytest.param("maybe Hemingway or Fitzgerald", "Ernest Hemingway",
                 "Who wrote The Old Man and the Sea?", False, id="en-hedge-surname"),
    pytest.param("Manila o Cebu", "Maynila [accept Manila]", "Ano ang kabisera ng Pilipinas?",
                 False, id="tl-o-hedge"),
    pytest.param("the Amazon", "Amazon River", "Which river has the largest discharge?", True,
                 id="en-amazon-alone"),
    pytest.param("Hemingway", "Ernest Hemingway", "Who wrote The Old Man and the Sea?", True,
                 id="en-surname-alone"),
    # another word built on the answer
    pytest.param("Plutonium", "Pluto", "Which dwarf planet did Clyde Tombaugh discover?",
                 False, id="en-plutonium"),
    pytest.param("Nigeria", "Niger", "", False, id="en-nigeria"),
    # an echo of the question (the refit had 'Alien' for 'Aliens' over 0.9)
    pytest.param("Alien", "Aliens", "Which 1986 James Cameron film is the sequel to Alien?",
                 False, id="en-question-echo"),
    pytest.param("Persia", "Iran", "Which country was formerly called Persia?", False,
                 id="en-question-echo-other"),
    pytest.param("Aliens", "Aliens", "Which 1986 James Cameron film is the sequel to Alien?",
                 True, id="en-not-echo"),
    # a year in another calendar
    pytest.param("ค.ศ. 1939", "พ.ศ. 2482", "", True, id="th-ce-for-be"),
    pytest.param("พ.ศ. 2488", "ค.ศ. 1945", "", True, id="th-be-for-ce"),
    pytest.param("พ.ศ. 1945", "ค.ศ. 1945", "", False, id="th-same-number-other-era"),
    pytest.param("ค.ศ. 1940", "พ.ศ. 2482", "", False, id="th-other-year"),
    pytest.param("昭和20年", "1945年", "", True, id="ja-showa"),
    pytest.param("平成20年", "1945年", "", False, id="ja-heisei-other-year"),
    pytest.param("明治元年", "1868年", "", True, id="ja-meiji-first-year"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_blind12_family(candidate: str, answerline: str, question: str, correct: bool) -> None:
    verdict = judge(candidate, [answerline], question=question)
    assert verdict.correct is correct, (candidate, answerline, verdict.rule, verdict.score)
    if not correct:
        assert verdict.score < 0.9


def test_echo_not_of_a_part_of_a_longer_answer() -> None:
    """A part of a longer answer sharing a word's start is left to the calibrator."""
    verdict = judge("Galatians", ["the churches of Galatia"],
                    question="who is the book of galatians written to")
    assert verdict.rule != "question-echo"
