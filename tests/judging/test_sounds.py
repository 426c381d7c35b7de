"""Rule 12o (:mod:`judging.sounds`): a foreign name written by its sound in Hangul, kana,
Chinese characters or Thai, or respelled in Vietnamese, against the name in Latin
letters, and back.

From blind probe 16 (h-probe16, rows ``"probe": "blind16"`` of
``judging/data/short_answers.jsonl``), whose person-transliteration family scored 8/51
before the rules of 2026.12.10 and 46/51 after; the traps are Korean and Chinese names
of their own, which share consonants often (``Gwangju`` is no ``경주``).
"""

from __future__ import annotations

import pytest

from judging.equivalence import judge
from judging.normalize import normalize
from judging.sounds import skeleton, sounds_alike, vietnamese_skeleton

WHO = "Which physicist developed the general theory of relativity?"

# (candidate, answerline, question, correct)
CASES = [
    pytest.param("아인슈타인", "Albert Einstein", WHO, True, id="ko-surname"),
    pytest.param("アインシュタイン", "Albert Einstein", WHO, True, id="ja-surname"),
    pytest.param("爱因斯坦", "Albert Einstein", WHO, True, id="zh-surname"),
    pytest.param("ไอน์สไตน์", "Albert Einstein", WHO, True, id="th-spelling-kept"),
    pytest.param("Einstein", "아인슈타인", "상대성 이론을 만든 물리학자는?", True, id="en-for-ko"),
    pytest.param("Albert Einstein", "アインシュタイン", "相対性理論を作った物理学者は？", True,
                 id="en-full-name-for-ja-surname"),
    pytest.param("Đó là Anhxtanh", "Albert Einstein", WHO, True, id="vi-respelling"),
    pytest.param("Albert Einstein", "Anhxtanh", "Ai là người đề xuất thuyết tương đối?", True,
                 id="en-for-vi-respelling"),
    pytest.param("Ê-đi-xơn", "Thomas Edison", "Who invented the phonograph?", True,
                 id="vi-respelling-marks"),
    pytest.param("베토벤", "Ludwig van Beethoven", "Who composed the Ninth Symphony?", True,
                 id="ko-beethoven"),
    pytest.param("贝多芬", "Ludwig van Beethoven", "Who composed the Ninth Symphony?", True,
                 id="zh-beethoven"),
    pytest.param("ベートーヴェン", "Ludwig van Beethoven", "Who composed the Ninth Symphony?",
                 True, id="ja-vu"),
    pytest.param("모차르트입니다", "Wolfgang Amadeus Mozart", "Who composed The Magic Flute?",
                 True, id="ko-copula"),
    pytest.param("牛顿", "Isaac Newton", "Who formulated the laws of motion?", True,
                 id="zh-three-consonants-loan-character"),
    pytest.param("뉴턴", "Isaac Newton", "Who formulated the laws of motion?", True,
                 id="ko-three-consonants-loan-vowel"),
    # traps: another person, and names of Korea's and China's own
    pytest.param("베토벤", "Wolfgang Amadeus Mozart", "Who composed The Magic Flute?", False,
                 id="ko-other-composer"),
    pytest.param("爱迪生", "Albert Einstein", WHO, False, id="zh-other-person"),
    pytest.param("Gwangju", "경주", "신라의 수도는 어디인가요?", False, id="ko-city-same-consonants"),
    pytest.param("Jeonju", "진주", "", False, id="ko-city-jeonju-jinju"),
    pytest.param("red panda", "판다 [accept 대왕판다]", "대나무를 주식으로 하는 중국의 곰은?", False,
                 id="lower-case-words-are-no-name"),
    # blind17's traps (h-probe17): another name one consonant longer
    pytest.param("ディキンソン", "Charles Dickens [accept Dickens]",
                 "Who wrote Oliver Twist?", False, id="ja-dickinson-for-dickens"),
    pytest.param("워싱턴주", "Washington, D.C. [accept Washington]",
                 "What is the capital of the United States?", False, id="ko-state-suffix"),
    pytest.param("ヘンデルです", "George Frideric Handel [accept Händel or Haendel]",
                 "Who composed Messiah?", True, id="ja-copula-after-katakana"),
    pytest.param("Đó là Ê-đi-xơn", "Thomas Edison [accept Edison]",
                 "Who invented the phonograph?", True, id="vi-frame-and-respelling"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_names_by_sound(candidate: str, answerline: str, question: str, correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, v
    if correct:
        assert v.score >= 0.5


def test_the_verdict_says_what_it_heard() -> None:
    v = judge("아인슈타인", "Albert Einstein", question=WHO)
    assert v.rule == "alias:sound" and v.matched == "Albert Einstein"
    assert "sounds like 'Albert Einstein' written in another script" in v.explanation


@pytest.mark.parametrize(("text", "expected"), [
    ("einstein", "_nstn"), ("아인슈타인", "_nstn"), ("アインシュタイン", "_nstn"), ("爱因斯坦", "_nstn"),
    ("beethoven", "ptpn"), ("베토벤", "ptpn"), ("picasso", "pks"),  # (ss is one s)
    ("ไอน์สไตน์", "_nstn"),
    # three consonants of a Korean or Chinese name of its own: too little to go on
    ("경주", None), ("甘地", None), ("hi", None),
])
def test_skeletons(text: str, expected: str | None) -> None:
    assert skeleton(normalize(text)) == expected


def test_only_an_r_may_be_dropped() -> None:
    assert sounds_alike("skspl", "sksp")  # Shakespeare, 셰익스피어 (no final r)
    assert not sounds_alike("tknsn", "tkns")  # ディキンソン (Dickinson) is not Dickens
    assert not sounds_alike("sntns", "sntn")  # 워싱턴주 (Washington State)
    assert not sounds_alike("ntln", "ntl")  # (three consonants: too short to drop one)
    assert not sounds_alike("_nstn", "nstn")  # (a first vowel is part of the name)


def test_vietnamese_respelling_needs_its_marks() -> None:
    assert vietnamese_skeleton("Anhxtanh") == "_nstn"
    assert vietnamese_skeleton("Niu-tơn") == "ntn"
    assert vietnamese_skeleton("Newton") is None  # (plain English: not read as Vietnamese)
