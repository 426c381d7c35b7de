"""Rule 12k: a short answer in Latin letters that reads as an acceptable answer written
in Hangul or Chinese characters is that answer (audio models often answer a Korean or
Chinese question in romanization). Hangul is read by the Revised Romanization, with the
older McCune-Reischauer spellings folded (``Kyongju``, ``Pusan``); Chinese by pypinyin,
with Wade-Giles stops folded (``Tu Fu``). Another name's reading is no match (left to the
other rules, never accepted)."""

from __future__ import annotations

import pytest

from judging.equivalence import judge
from judging.scripts import hangul_romanized, romanized_reading

# (candidate, answerline, question, correct)
CASES = [
    pytest.param("Gyeongju", "경주", "신라의 수도는 어디인가요?", True, id="ko-rr"),
    pytest.param("Kyongju", "경주", "", True, id="ko-mccune-reischauer"),
    # (Seoul, Pusan and Tokyo are in rule 12m's names table since 2026.12.10, which
    # decides first: tests/judging/test_names.py)
    pytest.param("Incheon", "인천", "", True, id="ko-incheon"),
    pytest.param("Kwangju", "광주", "", True, id="ko-old-spelling"),
    pytest.param("Silla", "신라", "", True, id="ko-liquid"),
    pytest.param("Busan", "서울", "", False, id="ko-other-city"),
    pytest.param("Sejong", "세종대왕 [accept 세종]", "", True, id="ko-accept"),
    pytest.param("Du Fu", "杜甫", "唐代诗圣是谁？", True, id="zh-pinyin"),
    pytest.param("Tu Fu", "杜甫", "", True, id="zh-wade-giles"),
    pytest.param("Mao Zedong", "毛泽东", "", True, id="zh-three-syllables"),
    pytest.param("Li Bai", "杜甫", "唐代诗圣是谁？", False, id="zh-other-poet"),
    pytest.param("Mao", "毛泽东", "", False, id="zh-surname-only"),
    pytest.param("Nagoya", "名古屋", "", False, id="ja-kanji-not-read"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_romanized_reading(candidate: str, answerline: str, question: str, correct: bool) -> None:
    verdict = judge(candidate, answerline, question=question)
    assert verdict.correct is correct, (candidate, verdict.rule, verdict.explanation)
    if correct:
        assert verdict.rule == "alias:reading"
    else:
        assert verdict.rule != "alias:reading" and verdict.score < 0.9


@pytest.mark.parametrize(("hangul", "latin"), [
    ("경주", "gyeongju"), ("서울", "seoul"), ("부산", "busan"), ("인천", "incheon"),
    ("한국어", "hangugeo"), ("광주", "gwangju"), ("독도", "dokdo"), ("제주", "jeju"),
])
def test_revised_romanization(hangul: str, latin: str) -> None:
    # the official romanizations (Ministry of Culture, 2000) of these names
    assert hangul_romanized(hangul) == latin


def test_only_answers_in_those_scripts_are_read() -> None:
    from judging.preparation import prepared

    accept = prepared("Gyeongju")[1]
    assert romanized_reading("gyeongju", accept) is None  # (a Latin answer: the other rules)
