"""Scripts without spaces, Korean particles, self-corrections, confusable entities
and Unicode folding: the pure helpers of judging/."""

from __future__ import annotations

import pytest

from judging.corrections import final_answer
from judging.entities import LICENSED, substitution
from judging.normalize import fold, tokens
from judging.scripts import find_in_run, strip_korean


@pytest.mark.parametrize(
    ("answer", "candidate", "kind"),
    [
        pytest.param("东京", "东京", "exact", id="exact"),
        pytest.param("东京", "东京都", "exact", id="admin-suffix"),
        pytest.param("东京都", "东京", "exact", id="answer-has-suffix"),
        pytest.param("东京", "答案是东京", "exact", id="in-sentence-affixes-stripped"),
        pytest.param("东京", "我觉得是东京吧", "found", id="in-sentence"),
        pytest.param("东京", "东京です", "exact", id="copula"),
        pytest.param("成都", "成都是省会", "found", id="particle-then-more"),
        pytest.param("北京", "北京大学", "embedded", id="inside-another-name"),
        pytest.param("京都", "东京都", "embedded", id="kyoto-inside-tokyo-to"),
        pytest.param("东京", "京都", "shares", id="shares-a-character"),
        pytest.param("东京", "不是东京", "negated", id="negated-before"),
        pytest.param("東京", "東京じゃない", "negated", id="negated-after"),
        pytest.param("กรุงเทพ", "ฉันคิดว่าคือกรุงเทพนะ", "found", id="th-after-khue"),
        pytest.param("กรุงเทพ", "กรุงเทพฯ", "exact", id="th-paiyannoi"),
        pytest.param("東京", "大阪", "none", id="nothing-shared"),
    ],
)
def test_find_in_run(answer: str, candidate: str, kind: str) -> None:
    assert find_in_run(" ".join(tokens(answer)), " ".join(tokens(candidate))) == kind


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("서울입니다", "서울"), ("서울이에요", "서울"), ("파리예요", "파리"), ("정답은", "정답"),
        ("부산에서는", "부산"), ("서울특별시", "서울"), ("강남구", "강남"), ("도시", "도시"),
        ("친구", "친구"), ("서울", "서울"), ("구백구십구", "구백구십구"), ("삼백이", "삼백이"),
        ("파리가", "파리"), ("서울이", "서울"), ("서울가", "서울가"),
    ],
)
def test_strip_korean(word: str, stem: str) -> None:
    assert strip_korean(word) == stem


@pytest.mark.parametrize(
    ("text", "final"),
    [
        ("Sydney? No, actually Canberra", "Canberra"),
        ("Sydney, no wait, Canberra", "Canberra"),
        ("Sydney, no, Canberra", "Canberra"),
        ("Sydney, I mean Canberra", "Canberra"),
        ("not Sydney but Canberra", "Canberra"),
        ("부산, 아니 서울", "서울"),
        ("부산이 아니라 서울", "서울"),
        ("北京，不对，上海", "上海"),
        ("不是北京，是上海", "上海"),
        ("大阪じゃなくて東京", "東京"),
        ("東京、いや、大阪", "大阪"),
        ("Hà Nội, không, Sài Gòn", "Sài Gòn"),
        ("không phải Sài Gòn mà là Hà Nội", "Hà Nội"),
        ("bukan Bandung, tapi Jakarta", "Jakarta"),
        ("Jakarta, eh, Bandung", "Bandung"),
        ("ไม่ใช่เชียงใหม่ แต่เป็นกรุงเทพ", "กรุงเทพ"),
        ("Cebu, hindi, Manila", "Manila"),
    ],
)
def test_final_answer(text: str, final: str) -> None:
    assert final_answer(text) == final


@pytest.mark.parametrize(
    "text",
    [
        "Canberra", "No, it is Canberra", "I am sorry, but I do not know", "Canberra, no doubt",
        "Jakarta, bukan Bandung", "The answer is actually Paris", "không phải Hà Nội",
        "Paris. Actually, it was built in 1889 by Gustave Eiffel for the world fair there",
    ],
)
def test_final_answer_leaves_other_answers(text: str) -> None:
    assert final_answer(text) is None


@pytest.mark.parametrize(
    ("candidate", "answer", "kind"),
    [
        ("North Korea", "South Korea", "substitution"),
        ("Star Trek", "Star Wars", "substitution"),
        ("Toy Story", "Toy Story 2", "installment"),
        ("Korea", "North Korea", "qualifier"),
        ("North Korea", "Korea", "qualifier"),
        ("Abraham Lincoln Jr.", "Abraham Lincoln", "qualifier"),
        ("Manchester United", "Manchester City", "substitution"),
        ("Lake Huron", "Lake Superior", "substitution"),
        ("Franklin Roosevelt", "Franklin Delano Roosevelt", "licensed"),
        ("John F Kennedy", "John Fitzgerald Kennedy", "licensed"),
        ("Mt Everest", "Mount Everest", "licensed"),
        ("Wilhelm Rontgen born 1840", "Wilhelm Conrad Rontgen", "licensed"),
        ("Dave Madden", "David Madden", "licensed"),
        ("Aaron and Andrew", "Aaron Harrison", None),
        ("Paris", "London", None),
    ],
)
def test_substitution(candidate: str, answer: str, kind: str | None) -> None:
    proper = frozenset(t for w in answer.split() if w[:1].isupper() for t in tokens(w))
    sub = substitution(tokens(candidate), tokens(answer), proper=proper)
    assert (None if sub is None else "licensed" if sub is LICENSED else sub.kind) == kind


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        pytest.param("ใกล้", "ใกล้", id="thai-tone-mark-kept"),
        pytest.param("हिन्दी", "हिन्दी", id="devanagari-virama-kept"),
        pytest.param("မြန်မာ", "မြန်မာ", id="myanmar-signs-kept"),
        pytest.param("がっこう", "がっこう", id="japanese-voicing-kept"),
        pytest.param("й", "й", id="cyrillic-breve-kept"),
        pytest.param("Dvořák", "Dvorak", id="latin-folded"),
        pytest.param("Việt Nam", "Viet Nam", id="vietnamese-folded"),
        pytest.param("ĐÂU", "DAU", id="vietnamese-a-circumflex-survives"),
        pytest.param("PathÃ©tique", "Pathetique", id="mojibake-ftfy"),
        pytest.param("2.45Â billion", "2.45 billion", id="stray-nbsp-byte"),
        pytest.param("ＴＯＫＹＯ１２", "TOKYO12", id="full-width"),
        pytest.param("臺灣", "台湾", id="traditional-to-simplified"),
    ],
)
def test_fold(text: str, folded: str) -> None:
    assert fold(text) == folded


def test_tokens_split_digits_from_other_scripts_and_read_their_digits() -> None:
    assert tokens("3번") == ("3", "번")
    assert tokens("1984年") == ("1984", "年")
    assert tokens("๑๒") == ("12",)
    assert tokens("ใกล้") != tokens("ไกล")
