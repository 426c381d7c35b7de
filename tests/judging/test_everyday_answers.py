"""Everyday answers in the seed languages and audio-trivia answers as players and audio
models give them (blind probes 18 to 21, rows ``"probe": "blind18"`` ... ``"blind21"`` of
``judging/data/short_answers.jsonl``; first scored 317/350, 187/259, 222/269 and 216/239,
with 5, 2, 0 and 12 wrong answers accepted at p >= 0.9).

Each family has its traps: a compound with one word swapped is another thing, a Thai
answer inside a longer word is still another word, a hedge whose second answer is
another installment is no answer.
"""

from __future__ import annotations

import pytest

from judging.equivalence import judge

# (candidate, answerline, question, correct)
CASES = [
    # a head-first compound with its modifier swapped or dropped (vi, id/ms), after a
    # question in that language; English compounds swap synonyms too, so not there
    pytest.param("xe đạp", "xe buýt", "Người nói đi làm bằng gì?", False, id="vi-swap"),
    pytest.param("ông nội ạ", "ông ngoại", "Bố của mẹ gọi là gì?", False, id="vi-kin-swap"),
    pytest.param("phở gà", "phở bò", "Người nói đã ăn gì?", False, id="vi-food-swap"),
    pytest.param("phở bò ạ", "phở bò", "Người nói đã ăn gì?", True, id="vi-same-polite"),
    pytest.param("rumah makan", "rumah sakit", "Ke mana pembicara pergi?", False,
                 id="id-swap"),
    pytest.param("nasi kerabu", "nasi lemak", "Apa yang dimakan oleh pembicara?", False,
                 id="ms-swap"),
    pytest.param("nasi", "nasi goreng", "Apa yang dimakan pembicara?", False, id="id-head-alone"),
    pytest.param("tiga", "tiga ekor", "Berapa ekor kucing yang dimiliki pembicara?", True,
                 id="id-number-without-counter"),
    pytest.param("pyloric valve", "pyloric sphincter", "what controls the flow from the stomach",
                 None, id="en-synonym-left-to-calibrator"),
    # a name's kind word swapped; a one-word name extended by another name
    pytest.param("United Kingdom", "United States [accept USA]",
                 "Which country's anthem is this?", False, id="kind-word-swap"),
    pytest.param("Queen Latifah", "Queen", "Which band recorded this song?", False,
                 id="name-extended"),
    pytest.param("Queen", "Queen", "Which band recorded this song?", True, id="name-itself"),
    pytest.param("March 2016", "April 2016", "", None, id="months-not-a-kind-word"),
    # two letters swapped are one spelling slip
    pytest.param("Micheal Jackson", "Michael Jackson", "Who sang this?", True, id="transposed"),
    pytest.param("Michelle Jackson", "Michael Jackson", "Who sang this?", False,
                 id="another-given-name"),
    # "X and the Y" titles of one series
    pytest.param("Harry Potter and the Chamber of Secrets",
                 "Harry Potter and the Philosopher's Stone [accept Harry Potter and the "
                 "Sorcerer's Stone]", "Which film's score is this?", False, id="series-title"),
    pytest.param("Harry Potter and the Sorcerer's Stone",
                 "Harry Potter and the Philosopher's Stone [accept Harry Potter and the "
                 "Sorcerer's Stone]", "Which film's score is this?", True, id="series-accept"),
    # negation: an answer that only says what it is not
    pytest.param("không phải màu xanh lá", "màu xanh lá cây", "Người nói thích màu gì?", False,
                 id="vi-negated-prefix"),
    pytest.param("not red", "red wine", "", False, id="en-negated-part"),
    pytest.param("hindi Maynila kundi Cebu", "Cebu", "Saan pumunta ang nagsasalita?", True,
                 id="tl-not-but"),
    pytest.param("No Doubt band", "No Doubt", "Which band is this?", True,
                 id="negator-in-the-name"),
    pytest.param("I believe this is a cockatoo rather than a kookaburra.", "kookaburra", "", False,
                 id="rather-than"),
    # hedges: both answers judged alone
    pytest.param("either Jaws or Jaws 2", "Jaws", "Which film's theme is this?", False,
                 id="hedge-installment"),
    pytest.param("Beethoven or Ludwig van Beethoven", "Ludwig van Beethoven", "", True,
                 id="hedge-same-answer"),
    # what the answerline rules out, offered in a sentence
    pytest.param("Based on the audio, this sounds like Johann Strauss II, though it could "
                 "also be Richard Strauss.", "Johann Strauss II [do not accept Richard Strauss]",
                 "Who composed this waltz?", False, id="do-not-accept-in-sentence"),
    pytest.param("This is Johann Strauss II, not Richard Strauss.",
                 "Johann Strauss II [do not accept Richard Strauss]", "Who composed this waltz?",
                 True, id="do-not-accept-negated"),
    # initials and the surname, against a prompt on the surname
    pytest.param("R. Strauss", "Richard Strauss [prompt on Strauss]", "", True,
                 id="initials-beat-prompt"),
    pytest.param("Strauss", "Richard Strauss [prompt on Strauss]", "", False, id="prompt"),
    # Vietnamese marks: French letters in a Vietnamese question still make words
    pytest.param("cà", "cá", "Người nói đã ăn gì vào bữa trưa?", False, id="vi-tone-latin1"),
    pytest.param("cá ạ", "cá", "Người nói đã ăn gì vào bữa trưa?", True, id="vi-same-polite"),
    # Thai sentences: the answer as a word (dictionary segmentation), not inside one
    pytest.param("ซื้อเสื้อครับ", "เสื้อ", "ผู้พูดซื้ออะไร", True, id="th-in-sentence"),
    pytest.param("เสื้อผ้าครับ", "เสื้อ", "ผู้พูดซื้ออะไร", False, id="th-inside-a-word"),
    pytest.param("ไม่ใช่เสื้อครับ", "เสื้อ", "ผู้พูดซื้ออะไร", False, id="th-negated"),
    pytest.param("มะม่วงหรือมะละกอครับ", "มะม่วง", "ผู้พูดชอบผลไม้อะไร", False, id="th-hedge"),
    pytest.param("ถนนเชียงใหม่", "เชียงใหม่", "ผู้พูดไปที่ไหน", False, id="th-road-named"),
    pytest.param("กินีบิสเซา", "กินี", "", False, id="th-longer-name"),
    # zh counters: a number and its counter before the noun, the noun after a count
    pytest.param("一只松鼠", "松鼠", "说话人看到了什么动物？", True, id="zh-counted"),
    pytest.param("三只猫", "三只", "说话人有几只猫？", True, id="zh-count-with-noun"),
    pytest.param("四只猫", "三只", "说话人有几只猫？", False, id="zh-another-count"),
    pytest.param("松鼠猴", "松鼠", "说话人看到了什么动物？", False, id="zh-another-animal"),
    # counts in number words on both sides
    pytest.param("hai mươi", "hai người con", "Người nói có mấy người con?", False,
                 id="vi-twenty-for-two"),
    pytest.param("ba người", "hai người con", "Người nói có mấy người con?", False,
                 id="vi-three-for-two"),
    pytest.param("tiga belas ekor", "tiga ekor", "Berapa ekor kucing yang dimiliki pembicara?",
                 False, id="id-thirteen-for-three"),
    pytest.param("셋이요", "세 마리", "고양이가 몇 마리 있어요?", True, id="ko-native-number"),
    pytest.param("네 마리", "세 마리", "고양이가 몇 마리 있어요?", False, id="ko-another-count"),
    # days of the week and colours: one name each in every seed language
    pytest.param("周二", "星期二", "说话人哪天去医院？", True, id="zh-weekday-short"),
    pytest.param("周三", "星期二", "说话人哪天去医院？", False, id="zh-another-weekday"),
    pytest.param("火曜", "火曜日", "話し手は何曜日に病院へ行きますか。", True, id="ja-weekday-short"),
    pytest.param("เสาร์นี้ค่ะ", "วันเสาร์", "ผู้พูดจะไปวันไหน", True, id="th-weekday-sentence"),
    pytest.param("thứ ba", "Tuesday", "Which day does the speaker visit?", True, id="vi-for-en"),
    pytest.param("빨강이요", "빨간색", "좋아하는 색이 뭐예요?", True, id="ko-colour"),
    pytest.param("แดงครับ", "สีแดง", "ผู้พูดชอบสีอะไร", True, id="th-colour-without-kind"),
    pytest.param("blue", "red", "What colour is the car?", False, id="en-another-colour"),
    # Indonesian/Malay particles written onto the word; a Tagalog "oh" correcting
    pytest.param("kucinglah", "kucing", "Haiwan apa yang dipelihara?", True, id="ms-lah"),
    pytest.param("kucingnya", "kucing", "Hewan apa yang dipelihara?", True, id="id-nya"),
    pytest.param("Niger", "Nigeria", "", False, id="another-word-sharing-its-start"),
    pytest.param("susi... ay, payong pala", "susi", "Ano ang nawala?", False,
                 id="tl-ay-correction"),
    pytest.param("susi... ay, payong pala", "payong", "Ano ang nawala?", True,
                 id="tl-ay-correction-final"),
    pytest.param("Ang sagot ay susi", "susi", "Ano ang nawala?", True, id="tl-ay-copula"),
    # blind21: verbose answers that mention an answer and commit to another
    pytest.param("It resembles Boléro, but this is actually Debussy's La Mer.", "Boléro", "",
                 False, id="resembles-but-actually"),
    pytest.param("It sounds like Mozart, but it is actually Beethoven.",
                 "Ludwig van Beethoven [accept Beethoven]", "", True, id="but-actually-right"),
    pytest.param("It resembles Mozart, but it's Beethoven.",
                 "Ludwig van Beethoven [accept Beethoven]", "", True, id="resembles-but-right"),
    pytest.param("I'm sorry, but it is actually Paris.", "Paris", "", True,
                 id="sorry-but-actually"),
    pytest.param("Unlike Boléro, this piece builds through changing themes; it's Dvořák's New "
                 "World Symphony.", "Boléro", "", False, id="unlike"),
    pytest.param("I'm torn between Jupiter and Saturn.", "Jupiter", "", False, id="torn-between"),
    pytest.param("Most likely Boléro, though Pictures at an Exhibition is possible.", "Boléro",
                 "", False, id="though-possible"),
    pytest.param("Paris, though it could also be Lyon", "Paris", "", False,
                 id="though-could-be"),
    pytest.param("Buzz Aldrin, who followed Neil Armstrong down the ladder.", "Neil Armstrong",
                 "Who was the first man on the Moon?", False, id="clause-about-another"),
    pytest.param("Neil Armstrong, who was followed by Buzz Aldrin.", "Neil Armstrong",
                 "Who was the first man on the Moon?", True, id="clause-about-the-answer"),
    pytest.param("French Indochina, which was a colony of France.", "France", "", None,
                 id="clause-name-sharing-a-word"),
    pytest.param("Strauss.", "Richard Strauss [do not accept Johann Strauss]", "", False,
                 id="surname-of-a-ruled-out-person"),
    pytest.param("メジロです。ウグイスとよく間違えられます。", "ウグイス", "", False,
                 id="ja-mistaken-for"),
    pytest.param("这是燕子，常被误认为麻雀。", "麻雀", "", False, id="zh-mistaken-for"),
    # blind20: dates in digits and in number words, a Korean verb negated
    pytest.param("3月5日", "三月五日", "", True, id="zh-date-digits"),
    pytest.param("三月五号", "三月五日", "", True, id="zh-day-hao"),
    pytest.param("3月6日", "三月五日", "", False, id="zh-another-date"),
    pytest.param("五月天", "5月", "", False, id="zh-a-band-is-no-month"),
    pytest.param("축구를 안 좋아해요", "축구", "그는 어떤 운동을 좋아해요?", False,
                 id="ko-verb-negated"),
    pytest.param("축구를 좋아하지 않아요", "축구", "그는 어떤 운동을 좋아해요?", False,
                 id="ko-verb-negated-after"),
    pytest.param("축구를 안 좋아해요", "축구", "그는 어떤 운동을 안 좋아해요?", True,
                 id="ko-negative-question"),
    # Japanese read by UniDic: kana for kanji (homophones written in kanji are not
    # compared), and an answer as a word of a sentence
    pytest.param("りんご", "林檎", "", True, id="ja-kana-for-kanji"),
    pytest.param("おばです", "伯母", "", True, id="ja-kana-copula"),
    pytest.param("さんびき", "三匹", "", True, id="ja-kana-voiced-in-compound"),
    pytest.param("いぬ", "猫", "", False, id="ja-another-word-in-kana"),
    pytest.param("箸", "橋", "", False, id="ja-homophone-in-kanji"),
    pytest.param("駅で会いました", "駅", "", True, id="ja-word-in-sentence"),
    pytest.param("大雨です", "雨", "", False, id="ja-inside-a-compound"),
    pytest.param("京都タワー", "京都", "", False, id="ja-name-built-on-it"),
    pytest.param("京都大学に行きました", "京都", "", False, id="ja-compound-in-sentence"),
    pytest.param("猫か犬です", "猫", "", False, id="ja-hedge"),
    # blind23: confusable entities
    pytest.param("Kennedy", "John F. Kennedy", "Who gave this speech?", False,
                 id="famous-family-surname-prompts"),
    pytest.param("Kennedy", "John F. Kennedy [accept Kennedy]", "Who gave this speech?", True,
                 id="family-surname-accepted"),
    pytest.param("Beethoven", "Ludwig van Beethoven", "", True, id="one-famous-bearer"),
    pytest.param("Star Wars Episode I", "Star Wars [accept Star Wars Episode IV – A New Hope]",
                 "", False, id="episode-one"),
    pytest.param("Star Wars Episode IV", "Star Wars [accept Star Wars Episode IV – A New Hope]",
                 "", True, id="episode-held-by-an-accept"),
    pytest.param("Malaysia", ["Bahasa Melayu", "Malay", "Bahasa Malaysia"],
                 "Bahasa apakah yang dituturkan dalam klip ini? Ia bahasa kebangsaan Malaysia.",
                 False, id="language-is-no-person"),
    pytest.param("That would be Niger, north of Nigeria.", "Nigeria", "", False,
                 id="where-it-lies"),
    pytest.param("Nigeria, south of Niger", "Nigeria", "", True, id="where-the-answer-lies"),
    pytest.param("That was Pope John Paul II.", "John Paul I", "", False, id="regnal-number"),
    pytest.param("It was built by Louis XIV in 1682.", "Louis XIV", "", True,
                 id="regnal-number-same"),
    pytest.param("It was built by Louis the Sixteenth.", "Louis XIV [accept Louis the "
                 "Fourteenth]", "", False, id="regnal-number-in-words"),
    # blind22: numbers with their units and currencies
    pytest.param("오천 원", "5,000원", "", True, id="ko-thousands-comma-before-hangul"),
    pytest.param("5천원이요", "5,000원", "", True, id="ko-digits-and-scale"),
    pytest.param("6천원이요", "5,000원", "", False, id="ko-another-amount"),
    pytest.param("十五块", "15元", "", True, id="zh-kuai-is-yuan"),
    pytest.param("十六块", "15元", "", False, id="zh-another-amount"),
    pytest.param("alas-tres ng madaling-araw", "3:00 n.h. [accept alas-tres ng hapon or 3 p.m.]",
                 "", False, id="tl-before-dawn-is-am"),
    # rule 8k: a value said as an approximation is still inside the answer's range
    pytest.param("about 11 years", "10–12 years", "", True, id="about-inside-a-range"),
    pytest.param("about 13 years", "10–12 years", "", False, id="about-outside-a-range"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_everyday_answers(candidate: str, answerline: str | list[str], question: str,
                          correct: bool | None) -> None:
    verdict = judge(candidate, answerline, question=question)
    if correct is None:
        # not decided by a rule: the calibrator scores it (a grey verdict)
        assert verdict.rule in ("token-overlap", "fuzzy", "contains", "no-match"), verdict
        return
    assert verdict.correct is correct, verdict.explanation


def test_thai_words_are_read_with_the_dictionary() -> None:
    from judging.scripts import thai_word_bounds

    # ซื้อ|เสื้อ|ครับ: เสื้อ is a word; เสื้อผ้า (clothes) is one word
    assert {0, 4, 9} <= thai_word_bounds("ซื้อเสื้อครับ")
    assert 5 not in thai_word_bounds("เสื้อผ้า")
