"""The judge's rules for numbers said or written otherwise than the answerline writes
them (pure Python, no Django): rule 3a (fractions, in words or digits), 7b (number
words of other languages, in and around an answer, and in a short sentence that restates
the question), 1a's ordinals, the same number in another unit or currency, decimals in
words, numbers read in groups and years after an apostrophe, as numbered in
docs/judging.md. Years, decades, centuries and dates are in :mod:`judging.date_rules`.

Like :mod:`judging.short_rules`, whose :data:`~judging.short_rules.Decision` they
return, they read the answerline's prepared alternatives (``preparation.Alt``) and
return ``None`` when they do not decide; :mod:`judging.equivalence` calls them in its
rule order. The number words themselves are read by :mod:`judging.numbers`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from judging.normalize import STOPWORDS, tokens
from judging.numbers import (
    DECIMAL_MARKS,
    ERA_AD,
    FIRST_CHARS,
    FIRST_WORDS,
    JA_DAY_READINGS,
    KO_MONTH_SOUNDS,
    SCALES,
    SEED_SCALES,
    UNIT_WORDS,
    UNITS,
    read_decimal,
    read_fraction,
    read_number,
    strip_copulas,
)
from judging.scripts import whole_number
from judging.short_rules import Decision, decide

if TYPE_CHECKING:
    from judging.preparation import Alt

__all__ = [
    "AD_WORDS",
    "ASKS_ORDINAL",
    "COUNT_COUNTERS",
    "HALF_TAIL",
    "HALF_WORDS",
    "MONEY_AFTER",
    "MONEY_BEFORE",
    "ORDINAL",
    "REPEATS",
    "ZERO_WORDS",
    "apostrophe_year",
    "asks_count",
    "currency_word",
    "fraction",
    "grouped_number",
    "may_be_number",
    "number_words",
    "other_unit",
    "read_number_cached",
    "said_digits",
]

_NONE: frozenset[str] = frozenset()



def _number_and_unit(core_norm: str, qtok: frozenset[str]) -> int | None:
    """The value of a short answer that is number words followed by the question's
    own unit or counter ("lima jari" for "Berapa jari ...?", "năm ngón", "ห้านิ้ว"
    for "... มีกี่นิ้ว"): the unit is a word of the question (spaced languages) or the
    end of one (scripts without spaces); ``None`` otherwise."""
    head, _sep, last = core_norm.rpartition(" ")
    if head and last in qtok:
        return read_number_cached(head)
    if head or core_norm.isascii() or core_norm[:1] not in FIRST_CHARS:
        return None
    for k in range(len(core_norm) - 1, 0, -1):
        unit = core_norm[k:]
        # (a unit of two characters or more may stand anywhere in a question word:
        # 都道府県 in 日本の都道府県はいくつありますか)
        if any(q.endswith(unit) or (len(unit) >= 2 and unit in q) for q in qtok):
            value = read_number_cached(core_norm[:k])
            if value is not None:
                return value
    return None


def _leading_number(toks: tuple[str, ...]) -> tuple[int, int] | None:
    """(value, words) of the longest run of number words that starts ``toks``, else
    ``None``."""
    if not toks or not may_be_number(toks[0]):
        return None
    for k in range(min(len(toks), 6), 0, -1):
        value = read_number_cached(" ".join(toks[:k]))
        if value is not None:
            return value, k
    return None


def worded_count(core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
    """Rule 8l: a count in number words against answers written in number words with
    their counter or noun (vi "hai người con", id "tiga ekor", ko "세 마리"; blind19):
    wrong when the answer's leading number reads another value than every such answer's
    ("hai mươi", 20, or "ba người" for "hai người con"; "tiga belas ekor", 13, for "tiga
    ekor"), right when it is the same number alone or with the same words after it
    ("셋이요" for "세 마리"). ``None`` when an answer has no leading number words."""
    if any(a.nums or not a.toks or not may_be_number(a.toks[0]) for a in accept):
        return None  # (the cheap test first: every answer must start with number words)
    mine = _leading_number(core)
    if mine is None:
        return None
    value, k = mine
    rest = core[k:]
    wrong = None
    for a in accept:
        theirs = _leading_number(a.toks)
        if theirs is None or a.alt.text[:1].isupper():
            return None  # (not a name: "Hai Bà Trưng" is no count)
        if theirs[0] == value:
            if not rest or rest == a.toks[theirs[1]:]:
                return decide("number-words", True, a.alt.text,
                              f"'{' '.join(core)}' says the number of '{a.alt.text}'")
            return None
        wrong = wrong or a
    if wrong is None:
        return None
    return decide("number", False, wrong.alt.text,
                  f"'{' '.join(core)}' reads {value}, another number than '{wrong.alt.text}'")


# scale words a question may count in ("how many million ...?", "berapa juta?")
_QUESTION_SCALES: Final = {"thousand": 10**3, "million": 10**6, "billion": 10**9, **SEED_SCALES}


def number_words(core_norm: str, cand_nums: frozenset[str], accept: tuple[Alt, ...],
                 numeric: Sequence[Alt], qtok: frozenset[str] = _NONE) -> Decision | None:
    """Rule 7b: a short answer in number words of another language against a numeric
    answer ("三百二十五", "세 번", "ba trăm", "dua belas" for 325, 3, 300, 12), or
    digits against an answer in such words. Wrong when the values differ and every
    acceptable answer is a number. ``qtok``: the question's words, whose unit may
    follow the number ("tiga sisi" for "Berapa sisi segitiga?")."""
    if not cand_nums:
        if not numeric and core_norm.split(" ", 1)[0] not in FIRST_WORDS:
            return None
        value = read_number_cached(core_norm)
        if value is None and qtok:
            value = _number_and_unit(core_norm, qtok)
        if value is not None and " " in core_norm:
            said = _unit_clash(core_norm, numeric)
            if said is not None:
                return said
        if " " in core_norm and numeric:
            # the answer's own unit word after the number words, read as the unit even
            # where it is also a number word: vi "một trăm năm" for "100 năm" (năm is
            # "year" and "five"; read whole it is 105)
            head, _sep, last = core_norm.rpartition(" ")
            for a in numeric:
                if len(a.toks) == 2 and a.toks[1] == last and a.toks[0] in a.nums and (
                        str(read_number_cached(head)) == a.toks[0]
                        and str(value) != a.toks[0]):
                    return decide("number-words", True, a.alt.text,
                                   f"'{core_norm}' says the number of '{a.alt.text}' in "
                                   f"words, then its unit")
        if value is not None and " " in core_norm and (pairs := _pair_values(core_norm)):
            # a year said in two pairs, not their sum: "sembilan belas lima puluh tujuh"
            # is 1957, never 76 (19 + 57)
            value = pairs[0]
        if value is None:
            if numeric and any(m in core_norm for m in DECIMAL_MARKS):
                decimal = _decimal_words(core_norm, numeric)
                if decimal is not None:
                    return decimal
            if not numeric:
                return None
            return _phrase_number(core_norm, accept, numeric) or _sentence_number(
                core_norm, accept, numeric, qtok)
        day = core_norm[:1] in _DAY_FIRST and strip_copulas(core_norm) in JA_DAY_READINGS
        for a in numeric:
            # (one number of an answer that says several is only part of it: "두 시간"
            # for "2시간 30분"; blind26; unless each is said in its place: "이 대 일")
            if ((str(value) in a.nums and (sum(t in a.nums for t in a.toks) <= 1 or tuple(
                    str(n) if (n := read_number_cached(w)) is not None else w
                    for w in core_norm.split()) == a.toks))
                    or _scaled(a.toks) == value) and not _other_counter(
                    core_norm, a.norm) and not (day and not _DAY_COUNTERS.issuperset(
                        t for t in a.toks if t not in a.nums)):
                return decide("number-words", True, a.alt.text,
                               f"'{core_norm}' reads as {value}, as in '{a.alt.text}'")
        # acceptable answers in number words ("13 [accept tiga belas]", "tiga belas"):
        # numbers too, so another number contradicts them
        # (only next to numeric answers that are numbers alone: "1.000 juta" reads as
        # "1 juta", so its [accept seribu juta] is no evidence against "seribu")
        worded = [] if len(numeric) == len(accept) or any(
            len(a.nums) != len(a.toks) for a in numeric) else [
            (a, read_number_cached(a.norm)) for a in accept if not a.nums]
        for a, v in worded:
            if v == value and not _other_counter(core_norm, a.norm):
                return decide("number-words", True, a.alt.text,
                               f"'{core_norm}' reads as {value}, as '{a.alt.text}' does")
        paired = _paired(core_norm, numeric) if " " in core_norm else None
        if paired is not None:
            return decide("number-words", True, paired.alt.text,
                          f"'{core_norm}' read in two pairs is '{paired.alt.text}'")
        for scale in _QUESTION_SCALES.keys() & qtok:
            # the question's own unit: "seribu" for "1.000 juta" after "... berapa juta?"
            for a in numeric:
                if scale in a.alt.text.lower() and str(value * _QUESTION_SCALES[scale]) in a.nums:
                    return decide("number-words", True, a.alt.text,
                                  f"'{core_norm}' reads as {value} {scale}, as in "
                                  f"'{a.alt.text}'")
        if len(numeric) == len(accept) or (worded and all(v is not None for _a, v in worded)) or (
                numeric and _all_other_numbers(accept, numeric, value)):
            first = (numeric or accept)[0].alt.text
            return decide("number", False, first, f"'{core_norm}' reads as {value}, not '{first}'")
        return None
    if cand_nums and len(numeric) < len(accept) and len(cand_nums) == 1:
        words = core_norm.split()
        num = next(iter(cand_nums))
        at = words.index(num) if num in words else -1
        for a in accept:
            if not a.nums:
                value = read_number_cached(a.norm)
                if value is None and at >= 0:
                    # the same words around the number ("3 ekor" for "tiga ekor"; blind19)
                    value = _value_between(a.toks, words[:at], words[at + 1:])
                if value is not None and str(value) in cand_nums:
                    return decide("number-words", True, a.alt.text,
                                   f"'{a.alt.text}' reads as {value}")
        if (m := _DIGITS_SCALE.fullmatch(core_norm)) is not None:
            return _digits_scale(int(m.group(1)) * _CJK_SCALES[m.group(2)], accept)
    return None


# 8i (h-probe14): digits and a ko/zh/ja scale word, and perhaps a counter ("7천 원")
_CJK_SCALES: Final = {"천": 1000, "만": 10 ** 4, "억": 10 ** 8, "千": 1000, "万": 10 ** 4,
               "萬": 10 ** 4, "億": 10 ** 8, "亿": 10 ** 8}
_DIGITS_SCALE: Final = re.compile(r"(\d+) ?([천만억千万萬億亿])(?: ?[^\d\s]{1,3})?")


def digits_with_scale(core_norm: str, accept: tuple[Alt, ...]) -> Decision | None:
    """Rule 8i for a short answer of digits and a scale word against numeric answers
    ("5천원이요" for "5,000원": its digits alone are another number; blind22)."""
    m = _DIGITS_SCALE.fullmatch(core_norm)
    return None if m is None else _digits_scale(int(m.group(1)) * _CJK_SCALES[m.group(2)],
                                                accept)


def _digits_scale(value: int, accept: tuple[Alt, ...]) -> Decision | None:
    """Digits and a scale word ("7천 원" is 7000) against answers that are all one number
    (written with digits or in words): right when one is ``value``, else wrong; ``None``
    when an answer is no number."""
    values = [whole_number(unicodedata.normalize("NFKC", a.alt.text).replace(",", ""))
              for a in accept]
    if not all(values):
        return None
    for a, v in zip(accept, values, strict=True):
        if v is not None and v[0] == value:
            return decide("number-words", True, a.alt.text, f"reads as {value}, as "
                          f"'{a.alt.text}' does")
    return decide("number", False, accept[0].alt.text,
                  f"reads as {value}, not '{accept[0].alt.text}'")


read_number_cached: Final = lru_cache(maxsize=16384)(read_number)


def _pair_values(core_norm: str) -> list[int]:
    """The numbers that number words of a spaced language say when read as two pairs of
    digits, as a year is said ("sembilan belas lima puluh tujuh", nineteen fifty-seven,
    1957): two runs of words, each read as 10 to 99, make ``100 * first + second``.
    No single number is said so (a run of 10 to 99 never follows another), so where
    there is one the words are not their sum (76)."""
    words = core_norm.split()
    if not 2 <= len(words) <= 8:
        return []
    out = []
    for i in range(1, len(words)):
        first = read_number_cached(" ".join(words[:i]))
        if first is None or not 10 <= first <= 99:
            continue
        second = read_number_cached(" ".join(words[i:]))
        if second is not None and 10 <= second <= 99:
            out.append(100 * first + second)
    return out


def _paired(core_norm: str, numeric: Sequence[Alt]) -> Alt | None:
    """The numeric answer that the words say read in two pairs (:func:`_pair_values`);
    ``None`` unless an answer has that number."""
    for value in _pair_values(core_norm):
        found = next((a for a in numeric if str(value) in a.nums), None)
        if found is not None:
            return found
    return None


_DEGREE: Final = ("angle", "deg")


def _unit_clash(core_norm: str, numeric: Sequence[Alt]) -> Decision | None:
    """Number words and a unit against numeric answers that all say another unit of the
    same kind ("bảy tuần" for "7 ngày", "seratus ringgit" for "100 sen", "sampung
    buwan" for "10 taon"): wrong, whatever the number; ``None`` when the answer says no
    unit of :data:`judging.numbers.UNITS` or an answer says its unit or none."""
    words = tuple(core_norm.split())
    if UNIT_WORDS.isdisjoint(words):
        return None
    said = _said_units(words)
    kinds = {k for k, _u in said}
    other = None
    for a in numeric:
        units = _said_units(a.toks)
        if not units or units & said:
            return None
        if {k for k, _u in units} & kinds:
            other = other or a
        else:
            return None
    return _another_unit(other, words)


def _another_unit(other: Alt | None, words: Sequence[str]) -> Decision | None:
    """Wrong: ``words`` say another unit than the answer ``other`` (``None``: none)."""
    if other is None:
        return None
    theirs = " ".join(t for t in other.toks if t in UNITS)
    mine = " ".join(t for t in words if t in UNITS)
    return decide("number", False, other.alt.text,
                   f"says '{mine}' where '{other.alt.text}' has '{theirs}': another unit")


def _said_units(toks: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """The units ``toks`` say (``degrees`` is an angle unless a temperature unit is said
    with it: "100 degrees Celsius")."""
    said = frozenset().union(*(UNITS[t] for t in toks if t in UNITS))
    if _DEGREE in said and any(k == "temperature" for k, _u in said):
        said = said - {_DEGREE}
    return said


def other_unit(core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
    """Wrong when the short answer gives an acceptable answer's number in another unit
    of the same kind ("100 miles" for "100 kilometers", "132 kaki" for "132 meter",
    "42.195마일" for "42.195킬로미터"; :data:`judging.numbers.UNITS`): every acceptable
    answer with a unit whose numbers the answer gives says another unit, and none says
    the answer's. An answer without a unit (``[accept 100]``) says nothing of the unit."""
    said = _said_units(core)
    kinds = {k for k, _u in said}
    # (the numbers said, less "per second", which the normalizer reads "per 2")
    nums = frozenset(t for i, t in enumerate(core) if t[:1].isdigit() and core[i - 1:i] != ("per",))
    other = mine = None
    for a in accept:
        units = _said_units(a.toks)
        if not units or not a.nums:
            continue
        if units & said:
            return None
        if {k for k, _u in units} & kinds:
            other = other or a
            # (an answer whose numbers the answer gives first: "300,000 kilometers per
            # second" is no "186,000 miles per second" when "300,000 km/s" is acceptable;
            # h-probe14)
            if mine is None and a.nums & nums:
                mine = a
    if other is not None and "time" in kinds:
        same = _same_duration(core, said, other)
        if same is not None:
            return same
    if mine is None and any(a.nums & nums for a in accept):
        return None
    return _another_unit(mine or other, core)


# seconds in a unit of time (h-probe14: the same duration in hours and minutes)
_SECONDS: Final = {"s": 1, "min": 60, "h": 3600, "d": 86400, "wk": 604800}


def _duration(toks: tuple[str, ...], units: frozenset[tuple[str, str]]) -> float | None:
    """Seconds in an answer of one number (``and a half`` after it adds 0.5) and one
    unit of time from weeks down, else ``None``."""
    time = [u for k, u in units if k == "time"]
    nums = [t for t in toks if t.replace(".", "", 1).isdigit()]
    if len(time) != 1 or time[0] not in _SECONDS or len(nums) != 1:
        return None
    value = float(nums[0])
    rest = [t for t in toks if t != nums[0] and t not in UNITS]
    if rest == ["and", "a", "half"]:
        value += 0.5
    elif rest:
        return None
    return value * _SECONDS[time[0]]


def _same_duration(core: tuple[str, ...], said: frozenset[tuple[str, str]],
                   other: Alt) -> Decision | None:
    """Correct when ``core`` says the duration of ``other`` in another unit of time ("1.5
    hours", "one and a half hours" for "90 minutes", "120 seconds" for "2 minutes")."""
    mine = _duration(core, said)
    if mine is not None and mine == _duration(other.toks, _said_units(other.toks)):
        return decide("number-words", True, other.alt.text,
                      f"'{' '.join(core)}' is the duration of '{other.alt.text}' in "
                      f"another unit")
    return None


# generic words said with a currency's name: Thai เงิน ("money") before it (เงินบาท,
# เงินเยน), Korean 화 (貨) after it (원화, 엔화, 달러화)
MONEY_BEFORE: Final = unicodedata.normalize("NFKC", "เงิน")
MONEY_AFTER: Final = "화"


def currency_word(core_norm: str, accept: tuple[Alt, ...]) -> Decision | None:
    """Correct when the short answer is a currency an acceptable answer names
    (:data:`judging.numbers.UNITS`) with the generic word for money before or after it
    (``เงินบาท`` for ``บาท``, ``원화`` for ``원``, ``엔화`` for ``yen``); ``None`` otherwise
    (``เงินเดือน``, "salary", is no currency)."""
    text = core_norm.replace(" ", "")
    if text.startswith(MONEY_BEFORE):
        name = text[len(MONEY_BEFORE):]
    elif text.endswith(MONEY_AFTER):
        name = text[:-len(MONEY_AFTER)]
    else:
        return None
    unit = UNITS.get(name)
    if unit is None or not any(kind == "money" for kind, _u in unit):
        return None
    for a in accept:
        if unit & UNITS.get(a.norm.replace(" ", ""), _NONE):
            return decide("affix", True, a.alt.text,
                           f"'{core_norm}' is the currency '{a.alt.text}' with the word for money")
    return None


# the question words that ask for a person (the question as normalized: zh/ja 谁 after
# zhconv, th ใคร, ko 누구, vi ai, id/ms siapa)
def _decimal_words(core_norm: str, numeric: Sequence[Alt]) -> Decision | None:
    """Correct when the short answer is a decimal in number words (``ba phẩy mười bốn``,
    ``三点一四``: :func:`judging.numbers.read_decimal`) and an acceptable answer is that
    decimal, written with a point (``3.14``) or a decimal comma (``3,14``, which the
    tokenizer splits into ``3 14``). ``None`` otherwise (another decimal is left to the
    other rules)."""
    decimal = read_decimal(core_norm)
    if decimal is None:
        return None
    parts = tuple(decimal.split("."))
    for a in numeric:
        if decimal in a.nums or a.toks == parts:
            return decide("number-words", True, a.alt.text,
                           f"'{core_norm}' reads as {decimal}, as in '{a.alt.text}'")
    return None


def _phrase_number(core_norm: str, accept: tuple[Alt, ...], numeric: Sequence[Alt]
                   ) -> Decision | None:
    """Number words inside a phrase of a spaced language against the same phrase with
    digits ("thế kỷ mười chín" for "thế kỷ 19", "sila keempat" for "sila ke 3"):
    correct when the words around the number are the answer's and the number words
    read as its number; wrong when they read as another number and every acceptable
    answer is such a phrase. ``None`` otherwise."""
    words = core_norm.split()
    if len(words) < 2 or (FIRST_WORDS.isdisjoint(words) and not any(
            w[:2] == "ke" or w[:1] in FIRST_CHARS for w in words)):
        return None
    if "ke" in core_norm:
        # an ordinal prefix on the first number word: "abad kedelapan belas" is "abad ke
        # delapan belas", as "abad ke-18" is "abad ke 18"
        words = [x for w in words for x in (
            ("ke", w[2:]) if w[:2] == "ke" and w[2:] in FIRST_WORDS else (w,))]
    other = None
    said_value = None
    for a in numeric:
        digits = [i for i, t in enumerate(a.toks) if t in a.nums]
        if len(digits) > 1 and len(a.toks) > len(digits):
            said = _numbers_between_words(words, a.toks, a.nums)
            if said is True:
                return decide("number-words", True, a.alt.text,
                               f"'{core_norm}' says the numbers of '{a.alt.text}' in words")
            if said is False:
                other = other or a
            continue
        if len(digits) != 1 or len(a.toks) < 2:
            return None
        i = digits[0]
        before, after = a.toks[:i], a.toks[i + 1:]
        n = len(words) - len(before) - len(after)
        if n < 1 or tuple(words[:len(before)]) != before or (
                after and tuple(words[-len(after):]) != after):
            continue
        value = read_number_cached(" ".join(words[len(before):len(before) + n]))
        if value is None:
            continue
        if str(value) == a.toks[i]:
            return decide("number-words", True, a.alt.text,
                           f"'{core_norm}' says the number of '{a.alt.text}' in words")
        if other is None:
            other, said_value = a, value
    # (an answer in number words around the same words is such a phrase too: "mười hai
    # tháng" beside "12 tháng", when it reads another number than the answer; blind25)
    if other is not None and (len(numeric) == len(accept) or (
            said_value is not None and _all_other_numbers(accept, numeric, said_value))):
        return decide("number", False, other.alt.text,
                       f"'{core_norm}' says another number than '{other.alt.text}'")
    return None


def _worded_value(b: Alt, numeric: Sequence[Alt]) -> int | None:
    """The number an acceptable answer in number words says: read whole, or between the
    words around the number of a numeric answer ("mười hai tháng" beside "12 tháng":
    12); ``None`` when it says none."""
    value = read_number_cached(b.norm)
    if value is not None:
        return value
    for a in numeric:
        digits = [i for i, t in enumerate(a.toks) if t in a.nums]
        if len(digits) == 1 and (value := _value_between(
                b.toks, a.toks[:digits[0]], a.toks[digits[0] + 1:])) is not None:
            return value
    return None


def _value_between(toks: Sequence[str], before: Sequence[str], after: Sequence[str]
                   ) -> int | None:
    """The number the words of ``toks`` between ``before`` and ``after`` read, or
    ``None``."""
    n = len(toks) - len(before) - len(after)
    if n < 1 or tuple(toks[:len(before)]) != tuple(before) or (
            after and tuple(toks[-len(after):]) != tuple(after)):
        return None
    return read_number_cached(" ".join(toks[len(before):len(before) + n]))


def _all_other_numbers(accept: tuple[Alt, ...], numeric: Sequence[Alt], value: int) -> bool:
    """Is every acceptable answer a number, those in words (:func:`_worded_value`) the
    number of an answer in digits and none of them ``value``? (Then an answer reading
    ``value`` is wrong when no answer in digits has it either; blind25: "Mười một
    tháng" for "12 tháng [accept mười hai tháng]". Answers in words that say another
    number than those in digits leave it open.)"""
    digits = {n for a in numeric for n in a.nums}
    for b in accept:
        if not b.nums and ((said := _worded_value(b, numeric)) is None or said == value
                           or str(said) not in digits):
            return False
    return True


# Function words of the seed languages around a number and its noun (tl linkers and
# markers, "anim na araw", "pitong araw po ang ..."; id/ms "ada", "yang"; vi "có", "là"):
# grammar, no content
_LINKERS: Final = frozenset({"na", "ng", "po", "ay", "ang", "sa", "mga",
                      "ada", "yang", "di", "dalam", "adalah", "ialah", "co", "la"})


def _sentence_number(core_norm: str, accept: tuple[Alt, ...], numeric: Sequence[Alt],
                     qtok: frozenset[str]) -> Decision | None:
    """Number words inside a short sentence of a spaced language against an answer that
    is one number ("pitong araw sa isang linggo", "ada tujuh hari dalam satu minggu",
    "một tuần có bảy ngày" for 7): each run of number words is read, and a run that
    restates the question (its words and the word after it are the question's: "isang
    linggo", "satu minggu", "một tuần" after "... in one week?") is left out. Right when
    the one run left reads as the answer's number, wrong when it reads as another and
    every acceptable answer is one number; ``None`` otherwise (no run, or several)."""
    words = core_norm.split()
    if len(words) > 12 or any(len(a.nums) != 1 or len(a.toks) != 1 for a in numeric):
        return None
    if not qtok:
        return None
    runs: list[int] = []
    taken: set[str] = set()
    i = 0
    while i < len(words):
        if not may_be_number(words[i]):
            i += 1
            continue
        # the longest run of words from here that reads as one number
        end, value = i, None
        for j in range(min(len(words), i + 8), i, -1):
            value = read_number_cached(" ".join(words[i:j]))
            if value is not None:
                end = j
                break
        if value is None:
            i += 1
            continue
        after = words[end] if end < len(words) else ""
        if not (after in qtok and all(w in qtok for w in words[i:end])):
            runs.append(value)
        for w in words[i:end]:
            taken.add(w)
        i = end
    # (the other words are the question's or its grammar: a unit the question does not
    # name is no evidence, "lima jari" for 5 after no question)
    if len(runs) != 1 or not all(
            w in taken or w in qtok or w in STOPWORDS or w in _LINKERS for w in words):
        return None
    value = runs[0]
    for a in numeric:
        if str(value) in a.nums:
            return decide("number-words", True, a.alt.text,
                          f"'{core_norm}' says {value} in words, as '{a.alt.text}' (the "
                          f"number words the question says aside)")
    if len(numeric) != len(accept):
        return None
    first = numeric[0].alt.text
    return decide("number", False, first,
                  f"'{core_norm}' says {value} in words, not '{first}'")


# a Japanese native count of days (なのか) is no count of hours (7時間): the counters
# it may stand for, as the judge folds them
_DAY_FIRST: Final = frozenset(w[0] for w in JA_DAY_READINGS)
_DAY_COUNTERS: Final = frozenset(unicodedata.normalize("NFKC", w) for w in ("日", "日間", "日间", "天"))


def _numbers_between_words(words: Sequence[str], toks: tuple[str, ...],
                           nums: frozenset[str]) -> bool | None:
    """Number words around the other words of an answer with several numbers: a date
    said aloud ("tujuh belas Agustus sembilan belas empat puluh lima" for "17 Agustus
    1945", "tiga puluh satu Ogos ..." for "31 Ogos 1957"). True when every word of the
    answer that is no number stands in the answer's order and each run of words between
    them reads as the answer's number there (a year also as two pairs, as it is said);
    False when the words stand so but a run reads as another number; ``None`` when
    the answer's words are not there or a run is no number."""
    out: list[tuple[int, int]] = []  # (start, end) of each number's run
    pos = 0
    for t in toks:
        if t in nums:
            continue
        try:
            j = words.index(t, pos)
        except ValueError:
            return None
        out.append((pos, j))
        pos = j + 1
    out.append((pos, len(words)))
    runs = [words[a:b] for a, b in out]
    want = [t for t in toks if t in nums]
    # the runs between the words: each non-empty where the answer has a number there
    slots = []
    k = 0
    for i, t in enumerate(toks):
        if t in nums:
            if i == 0 or toks[i - 1] not in nums:
                slots.append(k)
        else:
            k += 1
    if len(slots) != len(want) or any(
            not runs[r] for r in slots) or any(runs[r] for r in set(range(len(runs))) - set(slots)):
        return None
    for r, n in zip(slots, want, strict=True):
        text = " ".join(runs[r])
        value = read_number_cached(text)
        if value is None:
            return None
        if str(value) != n and not (len(n) == 4 and int(n) in _pair_values(text)):
            return False
    return True


def _other_counter(text: str, answer: str) -> bool:
    """Do two numbers carry different counters (``三月`` "March" and ``3日`` "the 3rd",
    ``삼 년`` and ``3개월``, ``tiga hari`` and ``3 bulan``)? Only when both are one
    number with a counter; spaces between the number and its counter do not count."""
    a, c = whole_number(answer), whole_number(text)
    if a is None and c is not None and (m := _DIGITS_COUNTER.fullmatch(answer)):
        # (an answer's counter the number reader does not know: 角 in 10角, against 十分;
        # h-probe14)
        a = int(m.group(1)), "\x00" + m.group(2)
    if a is None or c is None:
        return False
    ca, cc = a[1].replace(" ", ""), c[1].replace(" ", "")
    ca, cc = _SAME_COUNTER.get(ca, ca), _SAME_COUNTER.get(cc, cc)
    if ca == "\x00" or cc == "\x00" or ca == cc:
        return False
    # one unit written two ways ("75 kg" / "tujuh puluh lima kilogram")
    return not (ca[:1] == cc[:1] == "\x00" and UNITS.get(ca[1:], _NONE) & UNITS.get(cc[1:], _NONE))


def _scaled(toks: tuple[str, ...]) -> int | None:
    """The value of an answer that is digits and a scale word of a spaced language
    ("2 tỷ" is 2 * 10**9, "270 juta" 270 * 10**6), else ``None``."""
    if len(toks) >= 2 and toks[0].isdecimal() and toks[1] in SCALES:
        return int(toks[0]) * SCALES[toks[1]]
    return None


# digits and a short counter in a script without spaces ("10角")
_DIGITS_COUNTER: Final = re.compile(r"(\d+) ?([^\x00-\u024f\d\s]{1,2})")
# counters that count the same thing (months: Korean 달 and 개월, Japanese か月 and ヶ月)
_SAME_COUNTER: Final = {unicodedata.normalize("NFKC", "\x00" + k): "\x00" + v for k, v in {
    "달": "개월", "ヶ月": "か月", "カ月": "か月", "ケ月": "か月", "箇月": "か月", "个月": "か月",
    "個月": "か月",
    # a duration and a count of days are one counter in ja (七日間 for 7日)
    "日間": "日", "か月間": "か月", "ヶ月間": "か月", "カ月間": "か月", "日间": "日",
    "か月间": "か月", "ヶ月间": "か月", "カ月间": "か月",
    # vi degrees said without the scale (một trăm độ for 100 độ C; not độ F)
    "doc": "do",
    # people (zh 十一个人 for 11名; h-probe14)
    "个人": "人", "個人": "人", "名": "人", "位": "人"}.items()}


def may_be_number(word: str) -> bool:
    """Could a number word of another language start with ``word`` (see
    :func:`judging.numbers.read_number`)?"""
    return word[:1] in FIRST_CHARS or word in FIRST_WORDS or word[:2] in (
        "ke", "th") or word == "tahun" or (  # (id/ms "tahun seribu ...": "the year 1...")
        word[:3] == "ika") or word[:2] in KO_MONTH_SOUNDS  # (tl ordinals: "ikalawa"; ko 시월)


_DECIMAL: Final = re.compile(r"\d+\.\d+")


# a percentage is a fraction of a hundred: "25%" or "25 percent" in "one-fourth [accept 1/4
# or 25%]" is 1/4 (it made fraction() give up on the whole answerline: "one third" was then
# a grey accept on the shared "one")
_PERCENT: Final = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)")


def _alt_fraction(a: Alt) -> Fraction | None:
    text = a.alt.text
    if "%" in text or "per" in text:
        pct = _PERCENT.fullmatch(text.strip().lower())
        if pct is not None:
            return Fraction(pct.group(1)) / 100
    return read_fraction(text, " ".join(tokens(text)))


def fraction(text: str, core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
    """A short answer that is a fraction (:func:`judging.numbers.read_fraction`: ``3분의
    1``, ``三分之二``, ``two thirds``, ``dua pertiga``) against answers that are fractions
    (or decimals): correct when one has its value, wrong when every acceptable answer is
    a fraction of another value ("3분의 1" for "2/3" shared the digits 2 and 3); ``None``
    when an acceptable answer is no fraction."""
    mine = read_fraction(text, " ".join(core))
    if mine is None and len(core) == 1 and _DECIMAL.fullmatch(core[0]):
        mine = Fraction(core[0])  # a decimal against fractions: "0.75" for "3/4"
    if mine is None and ("%" in text or "per" in text):
        # a percentage against fractions: "50%" for "one half [accept 1/2 or 0.5]"
        pct = _PERCENT.fullmatch(text.strip().lower()) or _PERCENT.fullmatch(" ".join(core))
        if pct is not None:
            mine = Fraction(pct.group(1)) / 100
    if mine is None:
        return None
    other = None
    for a in accept:
        theirs = _alt_fraction(a)
        if theirs is None and len(a.nums) == 1 and "." in next(iter(a.nums)):
            theirs = Fraction(next(iter(a.nums)))  # a decimal: 0.75 is 3/4
        if theirs is None:
            return None
        if abs(theirs - mine) < Fraction(1, 1000):
            return decide("number-words", True, a.alt.text,
                           f"'{text}' is the fraction {mine}, as '{a.alt.text}'")
        if abs(theirs - mine) < Fraction(1, 100):
            return None  # (a rounded decimal: "0.33" for "1/3" is left to the other rules)
        other = other or a
    if other is None:
        return None
    return decide("number", False, other.alt.text,
                   f"'{text}' is the fraction {mine}, not '{other.alt.text}'")


def numbers_by_word(text: str, accept: tuple[Alt, ...]) -> Decision | None:
    """A short answer of two or three spaced words, each one number with its counter in
    words of a script without spaces ("팔월 십오일이요" for "8월 15일", "八月 十五日"): right
    when an acceptable answer has as many words with the same values and counters, wrong
    when every acceptable answer has that shape and counters but another value
    somewhere ("삼월 일일" for "8월 15일"); ``None`` otherwise."""
    words = text.split()
    read = [whole_number(w) for w in words]
    mine = [m for m in read if m is not None]
    if len(mine) < len(read):
        return None
    other = None
    mixed = False  # (an acceptable answer of another shape: no evidence either way)
    for a in accept:
        said = [whole_number(w) for w in a.alt.text.split()]
        theirs = [t for t in said if t is not None]
        if len(said) != len(mine) or len(theirs) < len(said) or any(
                t[1] != m[1] for t, m in zip(theirs, mine, strict=True)):
            mixed = True
            continue
        if all(t[0] == m[0] for t, m in zip(theirs, mine, strict=True)):
            return decide("number-words", True, a.alt.text,
                          f"'{text}' says the numbers of '{a.alt.text}' in words")
        other = other or a
    if other is None or mixed:
        return None
    return decide("number", False, other.alt.text,
                  f"'{text}' says other numbers than '{other.alt.text}'")


# an ordinal number: "fourth", "twenty-first", "4th", ko "네 번째", zh/ja "第四",
# ja "四番目", vi "thứ tư", tl "ika-apat", id/ms "keempat"/"ke-4" (searched in the
# answer as written, case-blind)
ORDINAL: Final = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
    r"twelfth|\w+teenth|\w+tieth|\d+(?:st|nd|rd|th))\b|번째|第|番目|\bthứ\b|\bika-|"
    r"\bke-?(?:\d|dua|tiga|empat|lima|enam|tujuh|delapan|lapan|sembilan|sepuluh)",
    re.IGNORECASE)
# a question asking how many times (or how many of something)
_ASKS_COUNT: Final = re.compile(
    r"\bhow many\b|몇\s*(?:번|회|차례|개|명)|几次|多少次|何回|何度|bao nhiêu|\bberapa kali\b|"
    r"\bilang\b|กี่ครั้ง|กี่",
    re.IGNORECASE)


@lru_cache(maxsize=16384)
def asks_count(question: str) -> bool:
    """Does ``question`` ask how many (times)? (Cached: a question is asked of each of
    its answers, and the rule asks before it searches the answer for an ordinal.)"""
    return _ASKS_COUNT.search(question) is not None


# eras of the Common era said after a year (rule 8a, h-probe14; numbers.ERA_AD)
AD_WORDS: Final = frozenset(ERA_AD)


def grouped_number(core: tuple[str, ...], numeric: tuple[Alt, ...]) -> Alt | None:
    """The numeric answer a short answer gives when its numbers are read in groups, as
    three- and four-digit numbers are said ("seven forty-seven" for 747, "Fahrenheit
    four fifty-one" for 451, "twelve thirty" for 1230): a number of one or two digits
    followed by one of two (10-99) is ``100 * first + second``. Only an answer equal
    to the re-read answer word for word counts; ``None`` otherwise."""
    out: list[str] = []
    changed = False
    for t in core:
        if (out and len(t) == 2 and t.isdigit() and t[0] != "0" and len(out[-1]) <= 2
                and out[-1].isdigit() and out[-1][0] != "0"):
            out[-1] = str(int(out[-1]) * 100 + int(t))
            changed = True
        else:
            out.append(t)
    if not changed:
        return None
    grouped = tuple(t for t in out if t not in AD_WORDS)
    # (an era of the Common era on either side is no difference: "four seventy-six" for
    # "476 AD")
    return next((a for a in numeric if a.toks == grouped or (
        a.toks[-1] in AD_WORDS and a.toks[:-1] == grouped)), None)


_APOSTROPHES: Final = ("'", "\u2019", "\u2018")


def apostrophe_year(core: tuple[str, ...], text: str, numeric: tuple[Alt, ...]) -> Alt | None:
    """The numeric answer that is a four-digit year whose last two digits the short
    answer says after an apostrophe, its century left out ("'89" for 1989, as people
    say years aloud), or ``None``. (Digits said one by one, "two oh six", are rule 8c.)"""
    if not (len(core) == 1 and core[0].isdigit() and len(core[0]) == 2
            and text.lstrip().startswith(_APOSTROPHES)):
        return None
    return next((a for a in numeric if len(a.toks) == 1 and len(a.toks[0]) == 4
                 and a.toks[0].isdigit() and a.toks[0][2:] == core[0]), None)


# 8g: the fraction that may end a quantity ("and a half", vi "rưỡi")
HALF_WORDS: Final = frozenset({"half", "quarter", "ruoi"})
HALF_TAIL: Final = HALF_WORDS | {"and", "a", "an", "one"}
# 8c: words that repeat the digit after them ("double seven", "triple nine"), and zero
# said as a letter ("two oh six")
REPEATS: Final = {"double": 2, "triple": 3}
ZERO_WORDS: Final = frozenset({"oh", "o"})


def said_digits(core: tuple[str, ...]) -> str:
    """The digits of an answer said one digit at a time ("9 9 9", "triple 9", "2 oh 6":
    zero said "oh" after a digit), joined; "" when a word is not one digit."""
    out = []
    i = 0
    while i < len(core):
        t = core[i]
        if t in REPEATS and i + 1 < len(core) and len(core[i + 1]) == 1 and core[i + 1].isdigit():
            out.append(core[i + 1] * REPEATS[t])
            i += 2
        elif (len(t) == 1 and t.isdigit()) or (out and t in ZERO_WORDS):
            out.append("0" if t in ZERO_WORDS else t)
            i += 1
        else:
            return ""
    return "".join(out)


# 8e: counters of people and things (a count, never a place in order)
COUNT_COUNTERS: Final = frozenset({"명", "개", "사람", "人", "个", "個", "名", "คน", "orang",
                             "katao", "people", "persons"})
# 8e: a question asking which one in order
ASKS_ORDINAL: Final = re.compile(
    r"몇\s*번째|第几|第幾|何番目|何代目|thứ mấy|\bke\s*berapa\b|\bika-?ilan\b|"
    r"\bwhich number\b|ที่เท่าไ", re.IGNORECASE)


# two numbers with a range's mark between them, as written ("10–12", "10 - 12 years",
# "10 to 12", vi "10 đến 12", id/ms "10 sampai 12", tl "10 hanggang 12", ja "10から12",
# zh "10至12"), mojibake repaired first ("10â€“12")
_RANGE: Final = re.compile(r"(\d+(?:\.\d+)?)\s*(?:[-–—~〜]|to|đến|tới|sampai|hingga|hanggang|から|至|到)"
                    r"\s*(\d+(?:\.\d+)?)")


def inside_range(core: tuple[str, ...], cand_nums: frozenset[str],
                 numeric: Sequence[Alt]) -> Alt | None:
    """The acceptable answer written as a range that the short answer's one number
    falls inside, its other words all the answer's (``11.3 years`` for ``10–12
    years``, ``11`` for ``10-12``); ``None`` otherwise. Not a year range (``1939–1945``:
    one year is no answer for a war's span) and not a score (``7-1``: the candidate's
    words would have to be the same, and ``7`` alone is below the range's use)."""
    (value,) = cand_nums
    try:
        v = float(value)
    except ValueError:
        return None
    # (a value said as an approximation is still inside: "about 10. 3 years", NQ301)
    words = [t for t in core if t not in cand_nums and t not in _APPROXIMATELY]
    for a in numeric:
        span = range_of(a.alt.text)
        if span is not None and span[0] < v < span[1] and all(w in a.toks for w in words):
            return a
    return None


# "about" before a value (en, and as the seed languages' words fold: vi khoảng, id/ms
# sekitar, kira, tl mga, ko 약)
_APPROXIMATELY: Final = frozenset({"about", "around", "approximately", "roughly", "circa", "ca",
                            "some", "khoang", "sekitar", "kira", "mga", "약"})


@lru_cache(maxsize=16384)
def range_of(text: str) -> tuple[float, float] | None:
    """The range an answer writes (``(10.0, 12.0)`` for ``10–12 years``), or ``None``
    (none, a year range, or not low to high)."""
    if "â" in text:
        from judging.normalize import _fix_mojibake

        text = _fix_mojibake(text)
    m = _RANGE.search(text)
    if m is None:
        return None
    lo, hi = float(m.group(1)), float(m.group(2))
    if not lo < hi or any(len(x) == 4 and 1000 <= float(x) <= 2100 for x in m.groups()):
        return None
    return lo, hi
