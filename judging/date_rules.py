"""The judge's rules for years, decades, centuries and dates said or written otherwise
than the answerline writes them (pure Python, no Django): rule 3c (the same numbers in
another order: a date with day and month swapped), 9a (decades without their century),
9c (centuries by their hundreds), years after an era (the Common era, the Thai Buddhist
era, Japanese eras, before the Common era: 前221年) and Vietnamese dates written
day/month, as numbered in docs/judging.md.

Split from :mod:`judging.number_rules` (2026.12.9), whose other rules read numbers in
words, units, fractions and counts; like them these return a
:data:`~judging.short_rules.Decision` or ``None``, and :mod:`judging.equivalence` calls
them in its rule order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from judging.normalize import STOPWORDS
from judging.number_rules import read_number_cached
from judging.numbers import ERA_BC
from judging.scripts import whole_number
from judging.short_rules import Decision, decide

if TYPE_CHECKING:
    from judging.preparation import Alt

__all__ = [
    "AD_MARKS",
    "BC_MARKS",
    "BC_WORDS",
    "CENTURY_WORDS",
    "DAYPART",
    "DAYPART_WORDS",
    "DECADE_MARKS",
    "ERA_MARKS",
    "JAPANESE_ERAS",
    "THAI_CENTURY",
    "century",
    "cjk_date",
    "decade",
    "decade_words",
    "era_year",
    "japanese_era",
    "slash_date",
    "swapped_numbers",
]


# a decade: "60s", or with its century "1960s" (normalize.decades writes "the sixties"
# and "nineteen sixties" so)
_DECADE: Final = re.compile(r"(?:1\d|20)?\d0s")


def decade(core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
    """Rule 9a: correct when the short answer is an acceptable answer with its decade
    written without the century ("the sixties", "'60s" for "1960s", "60s music" for
    "1960s music") or with it for one without: the same decade, the century being the
    question's. Another decade shares no word, and the other rules reject it."""
    if not any(_DECADE.fullmatch(t) for t in core):
        return None
    for a in accept:
        if len(a.toks) != len(core):
            continue
        century = False
        for c, w in zip(core, a.toks, strict=True):
            if c == w:
                continue
            if (c[-3:] == w[-3:] and len(c) != len(w) and _DECADE.fullmatch(c)
                    and _DECADE.fullmatch(w)):
                century = True
                continue
            break
        else:
            if century:
                return decide("decade", True, a.alt.text,
                               f"'{' '.join(core)}' is the decade of '{a.alt.text}' written "
                               f"without or with its century")
    return None


# A century's words after its number (en; vi "thế kỷ" folds to "the ky"; id/ms "abad";
# tl "siglo"; zh/ja 世纪/世紀; ko 세기; de, fr, es, it), and "hundreds" written as digits
# ("the 1500s") or in words ("the fifteen hundreds": normalize reads "15 hundreds")
CENTURY_WORDS: Final = frozenset({"century", "centuries", "ky", "abad", "siglo", "dantaon",
                           "世纪", "世紀", "세기", "jahrhundert", "siecle", "secolo"})


THAI_CENTURY: Final = "ศตวรรษ"


_HUNDREDS: Final = re.compile(r"([1-9]\d?)00s")


# a year before the Common era on either side leaves the centuries to the other rules
# (the 400s BC are the fifth century BC)
BC_WORDS: Final = frozenset(ERA_BC) | {
    "sm", "sebelum",  # id/ms "SM", "sebelum Masehi"
    "truoc",  # vi "trước Công nguyên" (trước, "before", is no unit: not in numbers.ERA_BC)
}


def _hundreds(toks: tuple[str, ...]) -> int | None:
    """The hundreds a phrase names as a span of years ("1500s", "15 hundreds": 15)."""
    for i, t in enumerate(toks):
        m = _HUNDREDS.fullmatch(t)
        if m is not None:
            return int(m.group(1))
        if t == "hundreds" and i and toks[i - 1].isdigit() and 1 <= int(toks[i - 1]) <= 20:
            return int(toks[i - 1])
    return None


def _century(toks: tuple[str, ...], nums: frozenset[str]) -> int | None:
    """The century a phrase names with a century word and one number ("16th century",
    "thế kỷ 16", "16世纪", "ศตวรรษที่ 16": 16)."""
    if len(nums) != 1 or (CENTURY_WORDS.isdisjoint(toks)
                          and not any(t.startswith(THAI_CENTURY) for t in toks)):
        return None
    n = next(iter(nums))
    return int(n) if n.isdigit() and 1 <= int(n) <= 21 else None


def century(core: tuple[str, ...], nums: frozenset[str], accept: tuple[Alt, ...]
            ) -> Decision | None:
    """Rule 9c: a century named by its hundreds for one named by its number, or back:
    "the 1500s" and "the fifteen hundreds" are the 16th century, not the 15th (the
    hundreds are the century less one, a classic slip). Right when they agree, wrong
    when every acceptable answer so written is another century; ``None`` when neither
    side is so written or either is before the Common era."""
    if not BC_WORDS.isdisjoint(core):
        return None
    hundreds = _hundreds(core)
    mine = _century(core, nums) if hundreds is None else None
    if hundreds is None and mine is None:
        return None
    other = None
    for a in accept:
        if not BC_WORDS.isdisjoint(a.toks):
            continue
        if hundreds is not None:
            n = _century(a.toks, a.nums)
            if n is None:
                continue
            same = hundreds + 1 == n
        else:
            h = _hundreds(a.toks)
            if h is None:
                continue
            same = h + 1 == mine
        if same:
            return decide("century", True, a.alt.text,
                          f"'{' '.join(core)}' is the century of '{a.alt.text}' (the "
                          f"hundreds are the century less one: the 1500s are the 16th)")
        other = other or a
    if other is None:
        return None
    return decide("century", False, other.alt.text,
                  f"'{' '.join(core)}' is another century than '{other.alt.text}' (the "
                  f"hundreds are the century less one: the 1500s are the 16th)")


# a day and month written with a slash ("2/9"), perhaps a year after them ("30/4/1975")
_SLASH_DATE: Final = re.compile(r"(?<![\d/.,])(\d{1,2})/(\d{1,2})(?:/(\d{4}))?(?![\d/])")


def slash_date(text: str, numeric: Sequence[Alt]) -> Decision | None:
    """A Vietnamese date written day/month ("ngày 2/9", "2/9" for "2 tháng 9": Vietnamese
    writes the day first), perhaps with its year ("30/4/1975" for "30 tháng 4 năm 1975"):
    right when an acceptable answer says that day of that month with "tháng" (and that
    year, if it says one), wrong when every such answer says another (``9/2`` for ``2
    tháng 9``); ``None`` when no answer is so written (a fraction, another convention)."""
    found = _SLASH_DATE.findall(text)
    if len(found) != 1:
        return None
    day, month, year = int(found[0][0]), int(found[0][1]), found[0][2]
    other = None
    for a in numeric:
        t = a.toks
        for i in range(len(t) - 2):
            if t[i + 1] == "thang" and t[i].isdigit() and t[i + 2].isdigit():
                # (a year said must be the answer's: "... tháng 4 năm 1975")
                theirs = t[i + 4] if t[i + 3:i + 4] == ("nam",) and i + 4 < len(t) else year
                if (int(t[i]), int(t[i + 2])) == (day, month) and year in ("", theirs):
                    return decide("number-words", True, a.alt.text,
                                  f"'{text}' is the day and month of '{a.alt.text}' "
                                  f"(day/month)")
                other = other or a
    if other is None:
        return None
    return decide("number", False, other.alt.text,
                  f"'{text}' is another date than '{other.alt.text}' (day/month)")


# words that make a number a decade in the seed languages (folded, as tokenized): vi
# "thập niên 60", "những năm 60", id/ms "tahun 60-an", ko "60년대", zh/ja "60年代"
DECADE_MARKS: Final = frozenset({"nien", "an", "년대", "年代"})


# words a decade may add or drop around its number ("tahun 60-an" for "1960-an")
_DECADE_FRAME: Final = frozenset({"thap", "nien", "nhung", "nam", "tahun", "an", "the"})


def decade_words(core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
    """Rule 9a in the other seed languages: correct when the short answer names an
    acceptable answer's decade without its century (``thập niên 60`` for ``thập niên
    1960``, ``tahun 60-an`` for ``1960-an``, ``60년대`` for ``1960년대``, ``60年代`` for
    ``1960年代``): both say a decade word, the answer's four-digit decade ends in the
    candidate's two digits, and the other words are the answer's or a decade's frame.
    ``None`` otherwise (``70년대`` is left to the number rules)."""
    nums = [t for t in core if t.isdecimal()]
    if len(nums) != 1 or len(nums[0]) != 2 or nums[0][1] != "0":
        return None
    rest = {t for t in core if t != nums[0]}
    for a in accept:
        years = [t for t in a.toks if len(t) == 4 and t.isdecimal() and t.endswith(nums[0])]
        if len(years) == 1 and not DECADE_MARKS.isdisjoint(a.toks) and not (
                DECADE_MARKS.isdisjoint(core)) and rest <= (set(a.toks) | _DECADE_FRAME):
            return decide("decade", True, a.alt.text,
                           f"'{' '.join(core)}' is the decade of '{a.alt.text}' without its "
                           f"century")
    return None


# The era written before a year (th ค.ศ. "A.D." / พ.ศ. "Buddhist Era", zh/ja 公元 / 西暦 / 西元,
# ko 서기): a year said without it is the same year ("1945 ค่ะ" for "ค.ศ. 1945"); a year
# said with another era is not (พ.ศ. 1945 is no ค.ศ. 1945), so only a candidate with no
# era of its own counts.
ERA_MARKS: Final = tuple(unicodedata.normalize("NFKC", m) for m in (
    "ค.ศ.", "พ.ศ.", "ค.ศ", "พ.ศ", "公元", "西暦", "西元", "서기"))


def era_year(text: str, accept: tuple[Alt, ...]) -> Decision | None:
    """Right when the short answer ``text`` (as written) is the year of an acceptable
    answer written after an era, without the era (its counter and copulas aside:
    ``1945 ค่ะ``, ``1945年`` for ``公元1945年``); ``None`` otherwise."""
    text = unicodedata.normalize("NFKC", text).strip()
    if text.startswith(BC_MARKS) or (text[:1] == "前" and text[1:2].isdigit()):
        return _bc_year(text, accept)
    if any(m in text for m in ERA_MARKS):
        return _thai_era(text, accept)
    mine = whole_number(text)
    if mine is None:
        return None
    for a in accept:
        raw = unicodedata.normalize("NFKC", a.alt.text).strip()
        era = next((m for m in ERA_MARKS if raw.startswith(m)), None)
        if era is None:
            continue
        theirs = whole_number(raw[len(era):].strip())
        if theirs is not None and theirs[0] == mine[0] and (
                theirs[1].replace(" ", "") == mine[1].replace(" ", "")):
            return decide("number-words", True, a.alt.text,
                          f"'{text}' is the year of '{a.alt.text}' without its era")
    return None


# A year before the Common era, written before it (zh 公元前, 西元前, ja 紀元前; zh also
# shortens it to 前: 前221年)
BC_MARKS: Final = tuple(unicodedata.normalize("NFKC", m) for m in ("公元前", "西元前", "紀元前", "纪元前"))


def _bc_year(text: str, accept: tuple[Alt, ...]) -> Decision | None:
    """A year before the Common era (``text`` starts with a mark of :data:`BC_MARKS` or
    with 前 and a digit): right for an acceptable answer that is the same year before
    the Common era (``前221年`` for ``公元前221年``), wrong for the same number in the
    Common era (``前221年`` for ``公元221年``); ``None`` otherwise."""
    mark = next((m for m in BC_MARKS if text.startswith(m)), "前")
    mine = whole_number(text[len(mark):].strip())
    if mine is None:
        return None
    for a in accept:
        raw = unicodedata.normalize("NFKC", a.alt.text).strip()
        theirs_bc = next((m for m in BC_MARKS if raw.startswith(m)), None)
        era = theirs_bc or next((m for m in ERA_MARKS if raw.startswith(m)), None)
        if era is None:
            continue
        theirs = whole_number(raw[len(era):].strip())
        if theirs is None or theirs[0] != mine[0] or (
                theirs[1].replace(" ", "") != mine[1].replace(" ", "")):
            continue
        if theirs_bc is not None:
            return decide("number-words", True, a.alt.text,
                          f"'{text}' is the year of '{a.alt.text}' ({mark} for {theirs_bc}: "
                          f"before the Common era)")
        return decide("number", False, a.alt.text,
                      f"'{text}' is the year {mine[0]} before the Common era, "
                      f"'{a.alt.text}' after it")
    return None


# Thai years: the Buddhist era (พ.ศ.) counts 543 years more than the Common era (ค.ศ.)
_THAI_ERAS: Final = (("พ.ศ.", 543), ("พ.ศ", 543), ("ค.ศ.", 0), ("ค.ศ", 0))


def _thai_era(text: str, accept: tuple[Alt, ...]) -> Decision | None:
    """A year after one Thai era for an answer's year after the other: right when the
    two are one year (``ค.ศ. 1939`` for ``พ.ศ. 2482``), wrong when the number is the
    same and the era another (``พ.ศ. 1945`` for ``ค.ศ. 1945``); ``None`` otherwise."""
    mine_era = next((e for e in _THAI_ERAS if text.startswith(e[0])), None)
    if mine_era is None:
        return None
    mine = whole_number(text[len(mine_era[0]):].strip())
    if mine is None:
        return None
    for a in accept:
        raw = unicodedata.normalize("NFKC", a.alt.text).strip()
        era = next((e for e in _THAI_ERAS if raw.startswith(e[0])), None)
        if era is None or era[1] == mine_era[1]:
            continue
        theirs = whole_number(raw[len(era[0]):].strip())
        if theirs is None or theirs[1].replace(" ", "") != mine[1].replace(" ", ""):
            continue
        if theirs[0] - era[1] == mine[0] - mine_era[1]:
            return decide("number-words", True, a.alt.text,
                          f"'{text}' is the year of '{a.alt.text}' in the other era")
        if theirs[0] == mine[0]:
            return decide("number", False, a.alt.text,
                          f"'{text}' is the number of '{a.alt.text}' in another era")
    return None


# Japanese era names and the Common-era year before each one's first year
JAPANESE_ERAS: Final = {"明治": 1867, "大正": 1911, "昭和": 1925, "平成": 1988, "令和": 2018}


def japanese_era(text: str, accept: tuple[Alt, ...]) -> Decision | None:
    """A year of a Japanese era for an answer's Common-era year: right when they are
    one year (``昭和20年`` for ``1945年``), wrong when they are not; ``None`` when no
    acceptable answer is a plain year or the text is no era year."""
    text = unicodedata.normalize("NFKC", text).strip()
    base = JAPANESE_ERAS.get(text[:2])
    if base is None:
        return None
    rest = text[2:].strip()
    mine = (1, "\x00年") if rest == "元年" else whole_number(rest)
    if mine is None or mine[1] != "\x00年":
        return None
    plain = None
    for a in accept:
        theirs = whole_number(unicodedata.normalize("NFKC", a.alt.text).strip())
        if theirs is None or theirs[0] < 1000 or theirs[1] not in ("\x00", "\x00年"):
            continue
        if theirs[0] == base + mine[0]:
            return decide("number-words", True, a.alt.text,
                          f"'{text}' is the year '{a.alt.text}'")
        plain = plain or a
    if plain is not None:
        return decide("number", False, plain.alt.text,
                      f"'{text}' is the year {base + mine[0]}, not '{plain.alt.text}'")
    return None


_SCORE_WORDS: Final = frozenset({"to", "by", "x", "vs", "versus", "and", "or"})


def swapped_numbers(core: tuple[str, ...], nums: frozenset[str],
                     numeric: tuple[Alt, ...]) -> Alt | None:
    """The numeric answer whose numbers ``core`` gives in another order, every other
    word the same and in the same order ("9 tháng 2" for "2 tháng 9", "9월 10일" for
    "10월 9일"); ``None`` when some answer has them in the answer's order."""
    c_nums = [t for t in core if t in nums]
    c_words = [t for t in core if t not in nums]
    if all(t in STOPWORDS or t in _SCORE_WORDS for t in c_words):
        return None  # a score or a range ("2 to 3" for "3 to 2") may be said either way
    found = None
    for a in numeric:
        if a.nums != nums:
            continue
        a_nums = [t for t in a.toks if t in nums]
        if [t for t in a.toks if t not in nums] != c_words or len(a_nums) != len(c_nums):
            continue
        if a_nums == c_nums:
            return None
        found = found or a
    return found


# 8d: the Common era before a year (zh)
AD_MARKS: Final = ("公元", "西元")
# 8d: number words before a date's counters (a year's, month's, day's)
_CJK_DATE_NUMBER: Final = re.compile("([〇零一二三四五六七八九十百千两]+)(?=[年月日号號])")
_MONTH_DAY: Final = re.compile(r"\d{1,2}月(?:\d{1,2}[日号號])?")


def cjk_date(text: str, numeric: Sequence[Alt]) -> str | bool | None:
    """For a zh/ja answer with a year, month or day: ``True`` when it is a numeric
    answer that is a year, followed by a month and a day (1949年10月1日 for 1949年); else
    the answer with its number words before 年, 月, 日, 号 in digits when that changes it
    (十月一日 -> 10月1日); else ``None``."""
    digits = _CJK_DATE_NUMBER.sub(lambda m: str(read_number_cached(m.group(1)) or m.group(1)),
                                  text)
    for a in numeric:
        year = unicodedata.normalize("NFKC", a.alt.text).strip()
        if len(year) >= 3 and year.endswith("年") and year[:-1].isdigit() and digits.startswith(
                year) and _MONTH_DAY.fullmatch(digits[len(year):].strip()):
            return True
    return digits if digits != text else None


# 8b: the half of the day a word of a time says (a.m.: midnight to noon)
DAYPART: Final = {**dict.fromkeys(("am", "midnight", "hatinggabi", "오전", "morning", "umaga",
                             "madaling"), "am"),  # (tl madaling-araw, before dawn; blind22)
            **dict.fromkeys(("pm", "noon", "tanghali", "오후", "afternoon", "evening", "hapon",
                             "tanghaling"), "pm")}
DAYPART_WORDS: Final = frozenset(DAYPART)


# a Sino-Korean number written in Hangul before a unit of a date, a time or a count
# ("오월 십일" is 5월 10일, "삼십 분" 30분; blind20)
_KO_UNITS: Final = ("월", "일", "년", "시", "분", "초", "번", "개", "명", "살", "층", "원")
_KO_NUMBER_UNIT: Final = re.compile("^([일이삼사오육칠팔구십백천]+)(" + "|".join(_KO_UNITS) + ")$")


def korean_digits(toks: tuple[str, ...]) -> tuple[str, ...]:
    """``toks`` (normalized) with each Hangul number glued to a unit written in digits
    and the unit split off, as the tokenizer splits ``5월``: ``("오월", "십일")`` ->
    ``("5", "월", "10", "일")``."""
    out: list[str] = []
    for t in toks:
        m = _KO_NUMBER_UNIT.match(t)
        if m is not None and (n := read_number_cached(m.group(1))) is not None:
            out += (str(n), m.group(2))
        else:
            out.append(t)
    return tuple(out)
