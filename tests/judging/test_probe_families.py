"""Table-driven tests for the failures a fresh probe of issue 13's families found
(h-jprobe, 2026-12-03): each row is a case the judge got wrong before the fix, or a
trap the fix must not break. The families: a place word that makes another entity
("Real Madrid" / "Madrid", "Mexico City" / "Mexico", "Dominican Republic" /
"Dominica", "Manchester City" / "Manchester United"), subtitles of a series,
ordinals of Indonesian and Vietnamese, Vietnamese names folded to English stop
words, acronyms, English numbers in hundreds of thousands and quarters, number
words followed by the question's unit, Korean honorific and guessing endings,
Thai particles, kind suffixes of scripts without spaces, "X, not Y" in Chinese and
Thai, hedges and negations of Vietnamese and Indonesian, and Vietnamese mojibake.
"""

from __future__ import annotations

import pytest

from judging.equivalence import judge
from judging.normalize import normalize, tokens
from judging.numbers import merge_number_tokens, read_number

# (candidate, answerline, question, correct)
ENTITIES = [
    pytest.param("Real Madrid", "Madrid", "What is the capital of Spain?", False,
                 id="en-club-of-a-city"),
    pytest.param("Madrid", "Real Madrid", "Which club won the 2022 Champions League?", False,
                 id="en-city-for-its-club"),
    pytest.param("Atletico Madrid", "Real Madrid", "", False, id="en-other-club-same-city"),
    pytest.param("Inter Milan", "Milan", "Which Italian city hosts La Scala?", False,
                 id="en-inter-for-city"),
    pytest.param("Real Madrid CF", "Real Madrid", "", True, id="en-club-suffix"),
    pytest.param("Manchester City", "Manchester United", "", False, id="en-city-for-united"),
    pytest.param("Mexico City", "Mexico", "Which country has Guadalajara?", False,
                 id="en-capital-for-country"),
    pytest.param("Guatemala City", "Guatemala", "Which country's capital is Guatemala City?",
                 False, id="en-candidate-repeats-question"),
    pytest.param("Oklahoma", "Oklahoma City", "What is the capital of Oklahoma?", False,
                 id="en-state-for-capital"),
    pytest.param("New York City", "New York", "Which US city is called the Big Apple?", True,
                 id="en-city-asked-for"),
    pytest.param("Dominican Republic", "Dominica", "Which island nation's capital is Roseau?",
                 False, id="en-adjective-republic"),
    pytest.param("Dominica", "the Dominican Republic", "", False, id="en-republic-dropped"),
    pytest.param("French Republic", "France", "", True, id="en-demonym-republic-same-state"),
    pytest.param("S. Dakota", "South Dakota", "", True, id="en-initial-of-qualifier"),
    pytest.param("N. Dakota", "South Dakota", "", False, id="en-initial-of-other-qualifier"),
    pytest.param("Carl Philipp Emanuel Bach", "Johann Sebastian Bach", "", False,
                 id="en-other-person-four-words"),
    pytest.param("Star Wars: The Force Awakens", "Star Wars", "", False,
                 id="en-subtitle-added"),
    pytest.param("Star Wars: The Force Awakens", "Star Wars: The Force Awakens", "", True,
                 id="en-subtitle-is-the-answer"),
    pytest.param("Perang Dunia Kedua", "Perang Dunia I", "", False, id="id-ordinal-swapped"),
    pytest.param("Perang Dunia Pertama", "Perang Dunia I", "", True, id="id-ordinal-same"),
    pytest.param("Chiến tranh thế giới thứ hai", "Chiến tranh thế giới thứ nhất", "", False,
                 id="vi-ordinal-swapped"),
    pytest.param("Châu Mỹ", "Châu Phi", "", False, id="vi-name-folding-to-stop-word"),
    pytest.param("Nam Mỹ", "Nam Phi", "", False, id="vi-south-america-for-south-africa"),
    pytest.param("Lý Thái Tông", "Lý Thái Tổ", "", False, id="vi-syllable-not-abbreviation"),
    pytest.param("Úc", "Tây Úc", "", False, id="vi-qualifier-dropped"),
    pytest.param("ドミニカ国", "ドミニカ共和国", "", False, id="ja-two-kind-suffixes"),
    pytest.param("大阪市", "大阪府", "", False, id="ja-city-for-prefecture"),
    pytest.param("東京都", "東京", "", True, id="ja-one-suffix-still-the-same"),
    pytest.param("กรุงเทพฯ", "กรุงเทพมหานคร", "", True, id="th-abbreviation-mark-not-a-kind"),
    pytest.param("제1차 세계대전", "제1차 세계 대전", "", True, id="ko-spacing-of-a-compound"),
    pytest.param("김정일", "김정은", "", False, id="ko-father-for-son"),
    pytest.param("세종", "세종대왕", "", True, id="ko-king-title-dropped"),
    pytest.param("The Dark Knight", "The Dark Knight Rises", "", False, id="en-title-cut"),
    pytest.param("Golden Gate", "Golden Gate Bridge", "", True, id="en-kind-word-dropped"),
    pytest.param("United States", "United States of America", "", True,
                 id="en-phrase-after-of-dropped"),
    pytest.param("Romeo and Ophelia", "Romeo and Juliet", "", False,
                 id="en-title-with-and-swaps-a-word"),
    pytest.param("The Godfather Part II", "The Godfather", "", False, id="en-part-two"),
    pytest.param("Kill Bill Volume 2", "Kill Bill", "", False, id="en-volume-two"),
    pytest.param("Henry IV Part 1", "Henry IV, Part 1", "", True, id="en-part-is-the-answer"),
    pytest.param("Republic of the Congo", "Democratic Republic of the Congo", "", False,
                 id="en-democratic-dropped"),
    pytest.param("DR Congo", "Democratic Republic of the Congo", "", True,
                 id="en-abbreviated-qualifier"),
    pytest.param("레알 마드리드", "마드리드", "", False, id="ko-club-of-a-city"),
    pytest.param("스타트렉", "스타 트렉", "", True, id="ko-compound-spacing"),
    pytest.param("스타 워즈", "스타트렉", "", False, id="ko-compound-spacing-other"),
    pytest.param("รัชกาลที่หนึ่ง", "รัชกาลที่ 1", "", True, id="th-ordinal-words-digits"),
    pytest.param("รัชกาลที่ห้า", "รัชกาลที่ 1", "", False, id="th-ordinal-other-number"),
    pytest.param("第一次世界大战", "第1次世界大战", "", True, id="zh-ordinal-words-digits"),
    pytest.param("第二次世界大战", "第1次世界大战", "", False, id="zh-ordinal-other-number"),
    pytest.param("Guinea", "Papua New Guinea", "", False, id="en-new-inside-is-a-place"),
    pytest.param("Liverpool", "Liverpool F.C.", "", True, id="en-club-suffix-is-no-surname"),
    pytest.param("The Matrix", "The Matrix Reloaded", "", False, id="en-title-cut-two-words"),
    pytest.param("Harvard", "Harvard University", "", True, id="en-generic-head-dropped"),
    pytest.param("Gen. MacArthur", "Douglas MacArthur", "", True, id="en-rank-is-no-given-name"),
    pytest.param("จ.เชียงใหม่", "เชียงใหม่", "", True, id="th-province-abbreviation"),
    pytest.param("กรุงโตเกียว", "โตเกียว", "", True, id="th-krung-before-a-capital"),
    pytest.param("ไม่ใช่กรุงเทพ", "กรุงเทพ", "", False, id="th-krungthep-keeps-krung"),
    pytest.param("phô", "phở", "", False, id="vi-conflicting-marks"),
    pytest.param("Pho", "phở", "", True, id="vi-no-marks"),
    pytest.param("Huê", "Huế", "", True, id="vi-tone-dropped"),
    pytest.param("Đà Lát", "Đà Lạt", "", False, id="vi-other-tone"),
    pytest.param("Beyoncè", "Beyoncé", "", True, id="fr-accent-typed-wrong"),
]

ACRONYMS = [
    pytest.param("WWI", "World War I", True, id="roman-numeral"),
    pytest.param("WW2", "World War II", True, id="digit-for-roman"),
    pytest.param("WWI", "World War II", False, id="other-war"),
    pytest.param("USA", "United States of America", True, id="small-word-skipped"),
    pytest.param("N.A.T.O.", "North Atlantic Treaty Organization", True, id="dotted"),
    pytest.param("US", "United Kingdom", False, id="other-country"),
    pytest.param("usa", "United States of America", None, id="lower-case-is-no-acronym"),
]

NUMBERS = [
    pytest.param("four hundred fifty-six thousand", "456000", "", True, id="en-hundreds-thousands"),
    pytest.param("four hundred sixty-five thousand", "456000", "", False,
                 id="en-hundreds-thousands-other"),
    pytest.param("three quarters", "0.75", "", True, id="en-quarters"),
    pytest.param("tiga sisi", "3", "Berapa sisi segitiga?", True, id="id-question-unit"),
    pytest.param("tiga belas sisi", "3", "Berapa sisi segitiga?", False,
                 id="id-question-unit-other-number"),
    pytest.param("năm ngón", "5", "Bàn tay có mấy ngón?", True, id="vi-question-unit"),
    pytest.param("ห้านิ้ว", "5", "มือหนึ่งข้างมีกี่นิ้ว", True, id="th-question-unit"),
    pytest.param("สิบห้านิ้ว", "5", "มือหนึ่งข้างมีกี่นิ้ว", False, id="th-question-unit-other"),
    pytest.param("lima jari", "5", "", False, id="id-unit-not-in-question"),
    pytest.param("五つ", "5", "", True, id="ja-native-counter-tsu"),
    pytest.param("일곱 가지", "7", "", True, id="ko-counter-gaji"),
    pytest.param("십일", "11", "", True, id="ko-sino-eleven"),
    pytest.param("십일", "10", "", False, id="ko-sino-eleven-not-ten"),
    pytest.param("one half", "0.5", "", True, id="en-one-half"),
    pytest.param("一百八", "180", "", True, id="zh-shortened-hundreds"),
    pytest.param("一百八", "108", "", False, id="zh-shortened-is-not-108"),
    pytest.param("百八", "108", "", True, id="ja-hyakuhachi"),
    pytest.param("百分之五十", "50%", "", True, id="zh-percent"),
    pytest.param("lima puluh persen", "50%", "", True, id="id-percent"),
    pytest.param("스물네 시간", "24", "", True, id="ko-hours"),
    pytest.param("ยี่สิบสี่ชั่วโมง", "24", "", True, id="th-hours"),
    pytest.param("mười hai tháng", "12", "", True, id="vi-months"),
    pytest.param("스물하나", "21", "", True, id="ko-native-twenty-one"),
    pytest.param("열두 달", "12", "", True, id="ko-months-dal"),
    pytest.param("point five", "0.5", "", True, id="en-point-five"),
    pytest.param("point seven", "0.5", "", False, id="en-point-seven"),
    pytest.param("three hundred thirty million", "330 million", "", True,
                 id="en-hundreds-of-millions"),
    pytest.param("three hundred million", "330 million", "", False,
                 id="en-hundreds-of-millions-other"),
]

LANGUAGES = [
    # Korean endings
    pytest.param("세종대왕이십니다", "세종대왕", True, id="ko-honorific-copula"),
    pytest.param("세종대왕님", "세종대왕", True, id="ko-honorific-nim"),
    pytest.param("서울이겠죠", "서울", True, id="ko-guess-gessjyo"),
    pytest.param("한강일걸요", "한강", True, id="ko-guess-ilgeolyo"),
    pytest.param("아마 대구일 거예요", "대구", True, id="ko-will-be"),
    pytest.param("아마 부산일 거예요", "대구", False, id="ko-will-be-other-city"),
    pytest.param("정답은 대구입니다", "대구", True, id="ko-the-answer-is"),
    # Thai particles
    pytest.param("ภูเก็ตมั้ง", "ภูเก็ต", True, id="th-maybe-particle"),
    pytest.param("ไม่ใช่กรุงเทพ", "กรุงเทพ", False, id="th-negated"),
    # X, not Y
    pytest.param("上海，不是北京", "上海", True, id="zh-x-not-y"),
    pytest.param("北京，不是上海", "上海", False, id="zh-not-the-answer"),
    pytest.param("上海不是吧", "上海", False, id="zh-negating-tag"),
    pytest.param("ภูเก็ต ไม่ใช่กระบี่", "ภูเก็ต", True, id="th-x-not-y"),
    # hedges and negations of vi / id
    pytest.param("Huế hoặc Hà Nội", "Hà Nội", False, id="vi-hedge-hoac"),
    pytest.param("Bogor atau Jakarta", "Jakarta", False, id="id-hedge-atau"),
    pytest.param("chắc chắn không phải Huế", "Huế", False, id="vi-certainly-not"),
    pytest.param("pasti bukan Bandung", "Bandung", False, id="id-surely-not"),
    pytest.param("Menurut saya Surabaya", "Surabaya", True, id="id-in-my-opinion"),
    pytest.param("Tôi nghĩ là Quảng Ninh", "Hải Phòng", False, id="vi-i-think-other-city"),
    pytest.param("Yogyakarta kayaknya", "Yogyakarta", True, id="id-hedge-after"),
    pytest.param("Huế thì phải", "Huế", True, id="vi-hedge-after"),
    # Japanese guesses and adverbs
    pytest.param("たしか神戸", "神戸", True, id="ja-tashika"),
    pytest.param("おそらく札幌です", "札幌", True, id="ja-osoraku"),
    pytest.param("神戸じゃないかな", "神戸", True, id="ja-isnt-it-a-guess"),
    pytest.param("神戸じゃない", "神戸", False, id="ja-not"),
    # self-corrections
    pytest.param("南京，不，苏州", "苏州", True, id="zh-bu-between-commas"),
    pytest.param("苏州，不，南京", "苏州", False, id="zh-bu-between-commas-wrong"),
    pytest.param("仙台、いや違う、札幌", "札幌", True, id="ja-iya-chigau"),
    pytest.param("札幌、いや違う、仙台", "札幌", False, id="ja-iya-chigau-wrong"),
    # X, not Y
    pytest.param("It's the Atlantic, not the Pacific", "Pacific Ocean", False, id="en-x-not-y"),
    pytest.param("Lisbon, not Porto", "Lisbon", True, id="en-answer-not-other"),
    pytest.param("Paris is not in Italy", "Paris", True, id="en-not-in-a-sentence"),
    pytest.param("Huế, không phải Hà Nội", "Hà Nội", False, id="vi-x-not-y"),
    pytest.param("Malang, bukan Surabaya", "Surabaya", False, id="id-x-not-y"),
    # Korean hedges and negations
    pytest.param("부산 아니면 서울", "서울", False, id="ko-hedge-animyeon"),
    pytest.param("부산 아님", "부산", False, id="ko-negation-anim"),
    pytest.param("한라산인 것 같아요", "한라산", True, id="ko-seems-to-be"),
    pytest.param("지리산인 것 같아요", "한라산", False, id="ko-seems-to-be-other"),
    pytest.param("세종대왕일 거예요", "세종대왕", True, id="ko-will-be-with-title"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), ENTITIES)
def test_entities(candidate: str, answerline: str, question: str, correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, v
    if not correct:
        assert v.score < 0.5, v


@pytest.mark.parametrize(("candidate", "answerline", "correct"), ACRONYMS)
def test_acronyms(candidate: str, answerline: str, correct: bool | None) -> None:
    v = judge(candidate, answerline)
    if correct is None:
        assert v.rule != "acronym", v
    else:
        assert v.correct is correct, v


def test_acronym_beats_no_do_not_accept() -> None:
    v = judge("USA", "United States of America [do not accept USA]")
    assert not v.correct and v.rule == "reject:do-not-accept"


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), NUMBERS)
def test_numbers(candidate: str, answerline: str, question: str, correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, v


@pytest.mark.parametrize(("candidate", "answerline", "correct"), LANGUAGES)
def test_languages(candidate: str, answerline: str, correct: bool) -> None:
    v = judge(candidate, answerline)
    assert v.correct is correct, v


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("五つ", 5, id="ja-kanji-tsu"),
        pytest.param("みっつ", 3, id="ja-kana-tsu"),
        pytest.param("이십일", 21, id="ko-twenty-one"),
        pytest.param("삼 일", 3, id="ko-three-days"),
    ],
)
def test_read_number(text: str, value: int) -> None:
    assert read_number(text) == value


def test_fifty_six_thousand_is_read_once() -> None:
    assert merge_number_tokens(tokens("four hundred fifty-six thousand")) == ("456000",)
    assert merge_number_tokens(tokens("two and three quarters")) == ("2.75",)


@pytest.mark.parametrize(
    ("text", "merged"),
    [
        pytest.param("point five", ("0.5",), id="leading-point"),
        pytest.param("3 point 5", ("3.5",), id="digit-point"),
        pytest.param("match point", ("match", "point"), id="no-digit-after"),
        pytest.param("he made a point 2 times", ("he", "made", "a", "point", "2", "times"),
                     id="a-point-is-a-word"),
    ],
)
def test_point(text: str, merged: tuple[str, ...]) -> None:
    assert merge_number_tokens(tokens(text)) == merged


@pytest.mark.parametrize(
    ("mojibake", "text"),
    [
        pytest.param("Huế", "Huế", id="e-circumflex-acute"),
        pytest.param("Hải Phòng", "Hải Phòng", id="a-hook-o-grave"),
        pytest.param("Phở", "Phở", id="o-horn"),
    ],
)
def test_vietnamese_mojibake_is_repaired(mojibake: str, text: str) -> None:
    broken = mojibake.encode("utf-8").decode("cp1252")
    assert broken != text
    assert normalize(broken) == normalize(text)


@pytest.mark.parametrize(("text", "folded"), [("Ångström", "angstrom"), ("Åland", "aland"),
                                              ("Æsir", "aesir")])
def test_real_letters_that_look_like_mojibake_stay(text: str, folded: str) -> None:
    assert normalize(text) == folded


def test_a_name_ending_in_a_country_is_no_person() -> None:
    # "Arabia" is no surname of "Saudi Arabia": not a hard accept (the calibrator decides)
    v = judge("Arabia", "Saudi Arabia")
    assert v.rule != "surname" and v.score < 0.9


def test_acronym_needs_several_words() -> None:
    assert judge("PARIS", "Paris").rule != "acronym"
