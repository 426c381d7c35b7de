"""Table-driven tests for the misses of the fourth blind probe of issue 13's families
(h-probe4, 2026-12-03, rows ``"probe": "blind4"`` of ``judging/data/short_answers.jsonl``):
each row is a case the judge got wrong before the fix, or a trap the fix must not break.

* a name word swapped in place where one of the two words is also a word of the
  question (``The Legend of Korra`` for ``The Legend of Zelda`` after a question
  naming Zelda; ``Hà Nam`` for ``Hà Nội`` after a question holding ``Việt Nam``);
* the title before an installment's number and subtitle (``The Terminator`` for
  ``Terminator 2: Judgment Day``);
* the Korean polite ``요`` after a particle (``서울에서요``);
* number words against digits inside a run of a script without spaces
  (``流浪地球二`` for ``流浪地球2``).
"""

from __future__ import annotations

import pytest

from judging.equivalence import judge
from judging.scripts import find_in_run, strip_korean

# (candidate, answerline, question, correct)
CASES = [
    # a swap with a question word
    pytest.param("The Legend of Korra", "The Legend of Zelda",
                 "Which Nintendo series follows Link and Princess Zelda?", False,
                 id="en-swap-of-the-question-word"),
    pytest.param("Legend of Zelda", "The Legend of Zelda",
                 "Which Nintendo series follows Link and Princess Zelda?", True,
                 id="en-question-word-kept"),
    pytest.param("Theodore Roosevelt", "Franklin Roosevelt",
                 "Which Roosevelt, Franklin or Theodore, signed the New Deal?", False,
                 id="en-other-person-names-in-question"),
    pytest.param("Hà Nam", "Hà Nội", "Thủ đô của Việt Nam là thành phố nào?", False,
                 id="vi-swap-with-a-word-of-viet-nam"),
    pytest.param("Hà Nội", "Hà Nội", "Thủ đô của Việt Nam là thành phố nào?", True,
                 id="vi-same-name"),
    pytest.param("Ha Noi", "Hà Nội", "Thủ đô của Việt Nam là thành phố nào?", True,
                 id="vi-same-name-folded"),
    pytest.param("Paris, France", "Paris", "Which city is the capital of France?", True,
                 id="en-appositive-from-the-question"),
    # an installment's number and subtitle dropped
    pytest.param("The Terminator", "Terminator 2: Judgment Day [accept Terminator 2 or T2]",
                 "Which 1991 film introduced the T-1000?", False,
                 id="en-original-for-numbered-sequel-with-subtitle"),
    pytest.param("Terminator 2", "Terminator 2: Judgment Day",
                 "Which 1991 film introduced the T-1000?", True, id="en-sequel-without-subtitle"),
    pytest.param("unlimited", "Unlimited six-year terms", "term limits of senators", True,
                 id="en-no-title-before-the-number"),
    # the polite 요 after a particle
    pytest.param("서울에서요", "서울", "1988년 올림픽이 열린 도시는?", True, id="ko-yo-after-particle"),
    pytest.param("부산까지요", "부산", "", True, id="ko-yo-after-kkaji"),
    pytest.param("서울이에요", "서울", "", True, id="ko-copula-with-yo-unchanged"),
    pytest.param("부산에서요", "서울", "", False, id="ko-yo-other-city"),
    pytest.param("서울요", "서울", "1988년 올림픽이 열린 도시는?", True, id="ko-yo-after-consonant"),
    pytest.param("부산요", "서울", "", False, id="ko-yo-after-consonant-other-city"),
    pytest.param("지하철로요", "지하철", "", True, id="ko-ro-after-rieul"),
    pytest.param("버스로요", "지하철", "", False, id="ko-ro-other-word"),
    # number words against digits in a run
    pytest.param("流浪地球二", "流浪地球2", "电影《流浪地球》的续集叫什么？", True,
                 id="zh-number-word-for-digit"),
    pytest.param("我觉得是流浪地球二吧", "流浪地球2", "", True, id="zh-number-word-in-sentence"),
    pytest.param("流浪地球三", "流浪地球2", "", False, id="zh-other-number-word"),
    pytest.param("流浪地球", "流浪地球2", "", False, id="zh-number-dropped"),
    pytest.param("不是流浪地球二", "流浪地球2", "", False, id="zh-negated"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_blind4(candidate: str, answerline: str, question: str, correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, (v.rule, v.explanation)


@pytest.mark.parametrize(("word", "stem"), [
    ("서울에서요", "서울"), ("부산까지요", "부산"), ("버스로요", "버스"), ("서울이요", "서울"),
    ("서울이에요", "서울"), ("포도요", strip_korean("포도")),
    # 요 straight after a consonant, as people say it; 로 after a final ㄹ (지하철로, not
    # 지하철으로)
    ("서울요", "서울"), ("광화문요", "광화문"), ("지하철로요", "지하철"), ("지하철로", "지하철"),
    ("지하철로는", "지하철"), ("서울로", "서울"), ("부산으로", "부산"), ("필요", "필요"),
])
def test_polite_yo_after_particle(word: str, stem: str) -> None:
    assert strip_korean(word) == stem


@pytest.mark.parametrize(("answer", "candidate", "kind"), [
    ("流浪地球2", "流浪地球二", "exact"),
    ("流浪地球二", "流浪地球2", "exact"),
    ("2号线", "二号线", "exact"),
    ("2号线", "三号线", "shares"),
    ("统一", "统1", "shares"),  # (a number word inside a word is never read)
    ("流浪地球2", "我觉得是流浪地球二吧", "found"),
    # a long answer: the number is read within a few characters of its neighbours (a
    # bounded window, so a 2,000-character answer costs no more than a short one)
    ("流浪地球2", "流浪地球" * 300 + "我觉得是流浪地球二吧", "found"),
])
def test_number_words_against_digits_in_a_run(answer: str, candidate: str, kind: str) -> None:
    assert find_in_run(answer, candidate) == kind
