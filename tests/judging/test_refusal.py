"""Refusal detection across the seed languages, with the traps (hedges and answers)."""

from __future__ import annotations

import pytest

from judging.refusal import detect_refusal, is_refusal

REFUSALS = [
    pytest.param("I'm sorry, but I cannot identify the audio.", id="en-sorry-cannot"),
    pytest.param("I cannot answer this question.", id="en-cannot"),
    pytest.param("I can't help with that.", id="en-cant-help"),
    pytest.param("As an AI language model, I do not have access to the audio.", id="en-as-an-ai"),
    pytest.param("I am unable to process audio files.", id="en-unable"),
    pytest.param("I'm sorry.", id="en-apology-alone"),
    pytest.param("抱歉，我无法识别这段音频。", id="zh-baoqian-wufa"),
    pytest.param("对不起，我不能回答这个问题", id="zh-duibuqi"),
    pytest.param("抱歉", id="zh-apology-alone"),
    pytest.param("申し訳ありませんが、お答えできません。", id="ja"),
    pytest.param("죄송합니다. 오디오를 확인할 수 없습니다.", id="ko-cannot"),
    pytest.param("죄송합니다", id="ko-apology-alone"),
    pytest.param("ขออภัย ฉันไม่สามารถระบุเสียงนี้ได้", id="th"),
    pytest.param("ขออภัยค่ะ", id="th-apology-alone"),
    pytest.param("Xin lỗi, tôi không thể trả lời câu hỏi này.", id="vi"),
    pytest.param("xin lỗi", id="vi-apology-alone"),
    pytest.param("Maaf, saya tidak dapat menjawab pertanyaan ini.", id="id"),
    pytest.param("Maaf.", id="id-apology-alone"),
    pytest.param("Paumanhin, hindi ko masagot iyan.", id="fil"),
]

ANSWERS = [
    pytest.param("The answer is Canberra.", id="en-answer"),
    pytest.param("Sorry, Paris", id="en-sorry-then-answer"),
    pytest.param("I'm sorry, I think it is the United Kingdom", id="en-sorry-hedge-answer"),
    pytest.param("I cannot be certain, but it is the UK", id="en-cannot-be-certain"),
    pytest.param("I'm not sure, maybe three", id="en-hedge"),
    pytest.param("无法无天", id="zh-idiom-with-wufa"),
    pytest.param("堪培拉", id="zh-answer"),
    pytest.param("서울입니다", id="ko-answer"),
    pytest.param("สาม", id="th-answer"),
    pytest.param("Maaf saya, jawabannya tiga", id="id-maaf-then-answer"),
    pytest.param("xin lỗi, đáp án là ba", id="vi-sorry-then-answer"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals_are_detected(text):
    assert is_refusal(text), text


@pytest.mark.parametrize("text", ANSWERS)
def test_answers_are_not_refusals(text):
    assert detect_refusal(text) is None, detect_refusal(text)


def test_refusal_names_its_evidence():
    found = detect_refusal("抱歉，我无法识别这段音频")
    assert found is not None and (found.kind, found.phrase) == ("inability", "无法识别")
    assert detect_refusal("죄송합니다").kind == "apology"
