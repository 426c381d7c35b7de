"""Rule 8p: amounts of money, said in any seed language, compared by value and currency.

A price is a number with a currency and often a subunit or a scale word around it:
"seven dollars and fifty cents" for "$7.50", "30 ribu rupiah" or "Rp30.000" for "Rp
30.000", "200k" for "200.000 đồng", "二十八块五毛" for "28.5元", "10 บาท 50 สตางค์" for
"10.50 บาท". The number rules read one number (and a currency glued to digits as one
word); :func:`amount_value` reads a whole short text as one amount: its value (exact, a
:class:`~fractions.Fraction`) and its currency when it says one.

The rule decides only when the answer and an acceptable answer both read whole as
amounts and at least one of them names a currency: the same value is right unless both
name different currencies; another value is wrong. Pure Python, no Django.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Final, NamedTuple

from judging.normalize import latin_runs
from judging.numbers import UNITS, read_number

# currency words (judging.numbers.UNITS's currencies, in every seed language) and the
# signs and abbreviations written beside digits -> ISO code; "¥" is yen or yuan
_CURRENCY: Final = {
    **{w: unit.upper() for w, kinds in UNITS.items() for kind, unit in kinds
       if kind == "money" and unit != "cent"},
    "$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "", "えん": "JPY",
    "圆": "CNY", "₩": "KRW", "฿": "THB", "₫": "VND", "đ": "VND", "vnd": "VND", "vnđ": "VND",
    "rp": "IDR", "idr": "IDR", "rm": "MYR", "myr": "MYR", "₱": "PHP", "php": "PHP",
    "s$": "SGD", "sgd": "SGD", "pound": "GBP", "pounds": "GBP", "gbp": "GBP", "jpy": "JPY",
    "cny": "CNY", "krw": "KRW", "thb": "THB", "eur": "EUR",
}
# subunits: the word -> (its currency, or "" for any, its part of the unit)
_SUBUNIT: Final = {
    "cent": ("", Fraction(1, 100)), "cents": ("", Fraction(1, 100)), "¢": ("", Fraction(1, 100)),
    "sen": ("", Fraction(1, 100)), "สตางค์": ("THB", Fraction(1, 100)),
    "satang": ("THB", Fraction(1, 100)), "centavo": ("PHP", Fraction(1, 100)),
    "centavos": ("PHP", Fraction(1, 100)), "sentimo": ("PHP", Fraction(1, 100)),
    "sentimos": ("PHP", Fraction(1, 100)), "毛": ("CNY", Fraction(1, 10)),
    "角": ("CNY", Fraction(1, 10)), "xu": ("VND", Fraction(1, 100)),
    "pence": ("GBP", Fraction(1, 100)), "penny": ("GBP", Fraction(1, 100)),
    "p": ("GBP", Fraction(1, 100)), "分": ("CNY", Fraction(1, 100)),
}
_SCALE: Final = {
    "k": 1000, "thousand": 1000, "ribu": 1000, "rb": 1000, "nghin": 1000, "ngan": 1000,
    "libo": 1000, "พัน": 1000, "千": 1000, "천": 1000, "ribuan": 1000,
    "million": 10**6, "millions": 10**6, "juta": 10**6, "jt": 10**6, "trieu": 10**6,
    "milyon": 10**6, "ล้าน": 10**6, "百万": 10**6,
    "万": 10**4, "萬": 10**4, "만": 10**4, "หมื่น": 10**4, "แสน": 10**5,
    "billion": 10**9, "miliar": 10**9, "milyar": 10**9, "ty": 10**9, "bilyon": 10**9,
    "億": 10**8, "亿": 10**8, "억": 10**8,
}
# words around an amount that do not change it
_AROUND: Final = frozenset({"and", "a", "an", "the", "it", "is", "costs", "cost", "about", "around",
                     "only", "just", "dan", "va", "at", "y", "harga", "gia", "ราคา", "ครับ",
                     "ค่ะ", "po", "lang", "ho", "nhe", "ya", "です", "요", "예요", "이에요",
                     "입니다", "ang", "mga", "sekitar", "khoang", "大约", "约", "钱", "of",
                     "exactly", "total", "tong", "semua", "lah", "dollar's", "each", "per",
                     "一共", "共", "이요", "정도", "쯤", "약", "ประมาณ", "เป็น", "เงิน", "là",
                     "la", "be"})

_GLUED: Final = re.compile(r"(us\$|s\$|[$€£¥₩฿₫₱¢])|(?<=[\d.])(?=k\b|rb\b|jt\b)"
                    r"|(元|块|塊|圆|円|원|บาท|毛|角|分|千|万|萬|億|亿|만|천|억|สตางค์|ล้าน|พัน|หมื่น|แสน)")
_PREFIX: Final = re.compile(r"\b(rp|rm)(?=\d)")
# a number with grouping or a decimal mark: "30.000", "1,500,000", "7.50", "7,50"
_GROUPED_POINT: Final = re.compile(r"\d{1,3}\.\d{3}")
_NUMBER: Final = re.compile(r"\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*(?![\d])|\d+(?:[.,]\d+)?")


class Amount(NamedTuple):
    """An amount of money: its value in the currency's unit, the currency ("" when the
    text names none), and how far it is rounded: half a unit of its last digit before a
    scale word ("$2.19 billion" is within 5 million of its value; 0 when no scale word
    rounds it: "$7" is no "$7.40")."""

    value: Fraction
    currency: str
    rounding: Fraction = Fraction(0)


# scales English writes after a decimal point ("2.187 billion": no thousands group)
_POINT_SCALES: Final = frozenset({"thousand", "million", "millions", "billion", "trillion", "k"})


def _value(word: str) -> Fraction | None:
    """A number written with digits (thousands grouped by "." or ",", a decimal point or
    comma), or in words of a seed language."""
    m = _NUMBER.fullmatch(word)
    if m is not None:
        if m.group(1):  # grouped thousands
            return Fraction(int(word.replace(m.group(1), "")))
        return Fraction(word.replace(",", "."))
    n = read_number(word) if len(word) <= 24 else None
    return Fraction(n) if n is not None else None


def _words(text: str) -> list[str]:
    s = unicodedata.normalize("NFKC", text).lower()
    s = _PREFIX.sub(r"\1 ", s)
    s = _GLUED.sub(lambda m: f" {m.group(0)} ", s)
    words = []
    for w in s.split():
        w = w.strip(",;:!?()\"'’")
        if w.endswith(".") and not w[:-1].isdigit():
            w = w[:-1]
        if w:
            words.append(w)
    return latin_runs(words, _whole)


def _whole(word: str) -> bool:
    """A word read as it is, not tokenized: a number with its marks, a currency."""
    return bool(_NUMBER.fullmatch(word)) or word in _CURRENCY or word in _SUBUNIT


def _number_at(words: list[str], i: int) -> tuple[Fraction | None, int]:
    """The number said from ``words[i]`` on (digits, or number words over several words:
    "lima puluh", "hai trăm"), and the position after it."""
    v = _value(words[i])
    if v is not None and _NUMBER.fullmatch(words[i]):
        return v, i + 1
    best: tuple[Fraction | None, int] = (v, i + 1)
    for j in range(i + 2, min(len(words), i + 6) + 1):
        span = words[i:j]
        if any(w in _CURRENCY or w in _SUBUNIT or w in _SCALE for w in span):
            break
        n = read_number(" ".join(span))
        if n is not None:
            best = (Fraction(n), j)
    return best


@lru_cache(maxsize=16384)
def amount_value(text: str) -> Amount | None:
    """The amount of money ``text`` says as a whole, else ``None``."""
    words = _words(text)
    if not words or len(words) > 12:
        return None
    currency = ""
    named = False  # a currency or subunit said
    total = Fraction(0)
    pending: Fraction | None = None  # a number waiting for its scale or unit
    last_unit: Fraction | None = None
    rounding = Fraction(0)
    had_number = False
    i = 0
    while i < len(words):
        w = words[i]
        i += 1
        if w in _SCALE:
            if pending is None:
                return None
            prev = words[i - 2]
            if w in _POINT_SCALES and _GROUPED_POINT.fullmatch(prev):
                pending = Fraction(prev)  # "2.187 billion"
            if "." in prev and prev[0].isdigit():
                # (a decimal before the scale word is rounded at its last digit: "$2.19
                # billion" for "$2.187 billion"; a whole number is not: "$2 billion")
                digits = prev.rpartition(".")[2]
                rounding = max(rounding, Fraction(_SCALE[w], 2 * 10 ** len(digits)))
            pending *= _SCALE[w]
            continue
        if w not in _CURRENCY and w not in _SUBUNIT and w not in _AROUND:
            v, i = _number_at(words, i - 1)
            if v is None:
                return None
            if pending is not None:
                return None  # two numbers in a row ("7 50"): no amount the rule reads
            pending = v
            had_number = True
            continue
        if w in _CURRENCY:
            code = _CURRENCY[w]
            if currency and code and code != currency:
                return None
            currency = currency or code
            named = True
            if pending is not None:
                total += pending
                pending = None
                last_unit = Fraction(1)
            else:
                last_unit = None  # a symbol before its number ("$7.50", "Rp 30.000")
            continue
        if w in _SUBUNIT:
            code, part = _SUBUNIT[w]
            if pending is None or (code and currency and code != currency):
                return None
            currency = currency or code
            named = True
            total += pending * part
            pending = None
            last_unit = part
            continue
        if w in _AROUND:
            continue
        return None
    if pending is not None:
        if last_unit == 1 and currency == "CNY" and pending < 10 and pending == int(pending):
            total += pending / 10  # "二十八块五": the 毛 left unsaid
        elif last_unit is None or (last_unit == 1 and not total):
            total += pending  # "$7.50", "Rp 30.000", "30000" (a currency before or none)
        else:
            return None
    if not named or (not total and not had_number):
        return None  # (a currency's name alone, "円", is no amount)
    return Amount(total, currency, rounding)


def same_amount(candidate: str, answers: Sequence[str]) -> tuple[bool, str] | None:
    """(right, the answer compared) when the candidate and an acceptable answer read as
    amounts of money and one of them names a currency; right when the values are equal
    and the currencies (where both name one) the same. ``None`` when no rule applies."""
    mine = amount_value(candidate)
    if mine is None:
        mine_plain = _plain(candidate)
        if mine_plain is None:
            return None
        mine = Amount(mine_plain, "")
    compared = None
    for a in answers:
        theirs = amount_value(a)
        if theirs is None:
            continue
        if abs(mine.value - theirs.value) < max(mine.rounding, theirs.rounding, Fraction(
                1, 10**9)) and not (
                mine.currency and theirs.currency and mine.currency != theirs.currency):
            return True, a
        compared = compared or a
    if compared is None:
        return None
    return False, compared


def _plain(text: str) -> Fraction | None:
    """A number alone, with a scale word ("5 juta", "200k", "三万"), as a candidate's
    amount without its currency."""
    words = _words(text)
    if not words or len(words) > 4:
        return None
    value: Fraction | None = None
    for w in words:
        if w in _SCALE and value is not None:
            value *= _SCALE[w]
        elif (v := _value(w)) is not None:
            if value is not None:
                return None
            value = v
        elif w not in _AROUND:
            return None
    return value


def answer_amounts(alt_texts: str, low: str = "", words: frozenset[str] | None = None
                   ) -> tuple[str, ...]:
    """The acceptable answers (one per line) that read as an amount of money (``low``
    and ``words`` as :func:`judging.time_rules.answer_times` takes them): most name no
    currency (set tests tell)."""
    low = low or alt_texts.lower()
    if _MONEY_CHARS.isdisjoint(low) and _MONEY_WORDS.isdisjoint(
            low.split() if words is None else words) and not (
            "บาท" in low or "สตางค์" in low) and not (
            ("rp" in low or "rm" in low) and _PREFIX.search(low)) and not (
            ("k" in low or "rb" in low or "jt" in low) and _SCALE_AFTER.search(low)):
        return ()
    return tuple(t for t in alt_texts.split("\n") if amount_value(t) is not None)


# what every answer that reads as an amount has: a currency's sign or word, or a subunit
_MONEY_CHARS: Final = frozenset("$€£¥₩฿₫₱¢元块塊圆円원毛角")
_MONEY_WORDS: Final = frozenset(_CURRENCY) | frozenset(_SUBUNIT) | {"đồng"}
_SCALE_AFTER: Final = re.compile(r"\d\s?(?:k|rb|jt)\b")
