"""Rule 8t: clock times and durations, said in any seed language, compared by value.

A listening test asks "What time does the train leave?" or "How long is the film?", and
people answer "half past seven", "setengah delapan pagi", "7 giờ rưỡi", "七時三十分",
"일곱 시 반", "alas siyete y medya" or "19.30" for "7:30 p.m.", and "an hour and a half",
"90 phút" or "一个半小时" for "90 minutes". The number rules read one number; a time is
two (hours and minutes), with a half, a quarter, a part of the day or a 24-hour clock
around them, and ``setengah delapan`` (Indonesian, "half eight") is 7:30 where British
"half eight" is 8:30.

:func:`time_value` reads a whole short text as a clock time (the minutes of the day it
may mean: "7:30" without a part of the day may be morning or evening) or a duration (in
minutes), or returns ``None``: the rule decides only when both the answer and an
acceptable answer read whole as the same kind. Pure Python, no Django.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from judging.normalize import latin_runs
from judging.numbers import UNITS, read_number

# markers written glued to numbers in scripts without spaces, split off first (longest
# first: 小时 before 时, 시간 before 시)
_GLUED: Final = ("午後", "午前", "下午", "上午", "晚上", "早上", "傍晚", "오후", "오전", "บ่าย", "เช้า", "เย็น",
          "小時", "小时", "時間", "钟头", "鐘頭", "分钟", "分鐘", "시간", "นาฬิกา", "ชั่วโมง", "刻",
          "นาที", "ครึ่ง", "ทุ่ม", "โมง", "時", "时", "点", "點", "分", "半", "个", "個", "시",
          "분", "반", "น.")
_GLUED_RE: Final = re.compile("|".join(map(re.escape, _GLUED)))
# "7:30", "07.30", "19.00 น.", "8h30": hours, then minutes (two digits)
_HHMM: Final = re.compile(r"(?<![\d.,:])(\d{1,2})\s*[:.h]\s*(\d{2})(?![\d.,:])")

_CLOCK_HOUR: Final = frozenset({"時", "时", "点", "點", "시", "gio", "นาฬิกา", "โมง", "oclock"})
# hours and minutes as judging.numbers.UNITS has them in every seed language (less vi
# "giờ", a clock's hour: "7 giờ" is seven o'clock), and the forms it leaves out
_DURATION_HOUR: Final = frozenset(w for w, kinds in UNITS.items() if ("time", "h") in kinds) - (
    _CLOCK_HOUR) | {"小時", "钟头", "鐘頭", "tieng", "hr", "hrs"}
_MINUTE: Final = frozenset(w for w, kinds in UNITS.items() if ("time", "min") in kinds) | {
    "分", "分鐘", "minit", "min", "mins", "minutos"}
_HALF: Final = frozenset({"半", "반", "ruoi", "ครึ่ง", "half", "medya", "y"})
_PM: Final = frozenset({"pm", "오후", "午後", "下午", "傍晚", "sore", "petang", "chieu", "toi", "hapon",
                 "บ่าย", "เย็น", "ค่ำ", "evening", "afternoon", "저녁"})
# the night: after the evening, or before the morning ("twelve o'clock at night" is
# midnight, "2 giờ đêm" is 2 a.m.)
_NIGHT: Final = frozenset({"night", "tonight", "malam", "gabi", "晚上", "夜", "dem", "밤"})
_AM: Final = frozenset({"am", "오전", "午前", "上午", "早上", "朝", "pagi", "sang", "umaga", "เช้า",
                 "morning"})
# words around a time that do not change it: "at", "pukul", "jam", "alas", "lúc", "about",
# polite endings, "of the", articles
_AROUND: Final = frozenset({"at", "around", "about", "approximately", "roughly", "exactly", "pukul",
                     "alas", "luc", "vao", "khoang", "sekitar", "kira", "lebih", "kurang",
                     "mga", "ng", "sa", "bandang", "nang", "ala", "a", "an", "the", "in", "of",
                     "it", "is", "its", "was", "和", "大约", "大概", "左右", "约", "約", "ごろ", "頃",
                     "です", "だ", "약", "쯤", "정도", "예요", "이에요", "입니다", "요", "ประมาณ",
                     "เวลา", "ครับ", "ค่ะ", "คะ", "po", "ho", "nhe", "ya", "lah", "and", "o",
                     "ang", "daw", "exact", "sharp", "just", "only", "for", "lasts", "long",
                     "takes", "va", "dan", "个", "個", "น", "de", "la", "las"})
_APPROX: Final = frozenset({"around", "about", "approximately", "roughly", "khoang", "sekitar", "kira",
                     "mga", "bandang", "大约", "大概", "左右", "约", "約", "ごろ", "頃", "약", "쯤",
                     "정도", "ประมาณ"})


class TimeValue(NamedTuple):
    """What a text says: ``kind`` "clock" (``minutes``: the minutes of the day it may
    mean) or "duration" (``minutes``: one value)."""

    kind: str
    minutes: frozenset[int]


_ALL_MARKS: Final = _CLOCK_HOUR | _DURATION_HOUR | _MINUTE | _HALF | _PM | _AM | _AROUND | frozenset({
    "setengah", "stengah", "quarter", "past", "after", "to", "before", "h24", "ทุ่ม", "midnight",
    "noon", "midday", "night", "tonight", "malam", "gabi", "晚上", "夜", "dem", "밤", "刻"})


def _number(word: str) -> float | None:
    if word.isdecimal():
        return int(word)
    if _DECIMAL.fullmatch(word):
        return float(word.replace(",", "."))  # ("1.5 hours", "1,5 jam")
    return read_number(word) if len(word) <= 24 else None


_DECIMAL: Final = re.compile(r"\d+(?:\.\d+|,(?!\d{3}$)\d+)")


def _hhmm(m: re.Match[str]) -> str:
    hour = m.group(1)
    # a leading zero or an hour past noon: a 24-hour clock ("07.30", "19:00")
    mark = " h24" if (hour[:1] == "0" and len(hour) == 2) or int(hour) >= 13 else ""
    return f" {int(hour)} 時 {m.group(2)} 分{mark} "


def _words(text: str) -> list[str]:
    """The text's words: lower case, "7:30" written as "7 時 30 分", markers glued to
    numbers split off, Latin-script runs tokenized as the judge does (English number
    words as digits, Vietnamese letters folded)."""
    s = unicodedata.normalize("NFKC", text).lower()
    for old, new in _SPELLINGS:
        s = s.replace(old, new)
    s = _HHMM.sub(_hhmm, s)
    s = _GLUED_RE.sub(lambda m: f" {m.group(0)} ", s)
    return latin_runs(w for w in (w.strip(_STRIP) for w in s.split()) if w)


_SPELLINGS: Final = (("p.m.", " pm "), ("a.m.", " am "), ("o'clock", " oclock "),
              ("o\u2019clock", " oclock "))
_STRIP: Final = ",;:!?()\"\u201c\u201d.'\u2019-"


@lru_cache(maxsize=16384)
def time_value(text: str) -> TimeValue | None:
    """The clock time or duration ``text`` says as a whole, else ``None``."""
    words = _words(text)
    if not words or len(words) > 12:
        return None
    nums: list[float] = []
    hour_mark = dur_hour = minute = half = quarter = past = to = False
    setengah = pm = am = tu = h24 = False
    noon = ""
    night = False
    order: list[str] = []  # numbers and duration marks in order
    i = 0
    while i < len(words):
        w = words[i]
        i += 1
        n = _number(w) if w not in _ALL_MARKS else None
        if n is not None or (w not in _ALL_MARKS and i < len(words)):
            # (a number over several words: "tiga puluh", "hai mươi"; under 60, so that
            # "tujuh tiga puluh" is 7 and 30, not 730)
            for j in range(min(len(words), i + 3), i, -1):
                span = words[i - 1:j]
                if _ALL_MARKS.isdisjoint(span) and (
                        m := read_number(" ".join(span))) is not None and m < 60:
                    n, i = m, j
                    break
        if n is not None:
            nums.append(n)
            order.append("N")
        elif w in _CLOCK_HOUR:
            hour_mark = True
            h24 = h24 or w == "นาฬิกา"  # (the Thai 24-hour clock's word)
        elif w == "刻" and nums:
            nums[-1] *= 15  # zh "三点一刻": a quarter of an hour
            minute = True
        elif w == "jam" and not nums:
            hour_mark = True  # id/ms "jam 7", "jam setengah tujuh": a clock ("7 jam": hours)
        elif w in _DURATION_HOUR:
            dur_hour = True
            order.append("D")
        elif w in _MINUTE:
            minute = True
        elif w in ("setengah", "stengah"):
            setengah = True
        elif w in _HALF:
            half = half or w != "y"
        elif w == "quarter":
            quarter = True
        elif w in ("past", "after"):
            past = True
        elif w in ("to", "before"):
            to = True
        elif w == "h24":
            h24 = True
        elif w in _PM or w == "ทุ่ม":
            pm = True
            tu = tu or w == "ทุ่ม"
        elif w in _AM:
            am = True
        elif w in _NIGHT:
            night = True
        elif w in ("midnight", "noon", "midday"):
            noon = w
            hour_mark = True
        elif w not in _AROUND:
            return None  # a word no time says: left to the other rules
    if night and not (am or pm) and len(nums) >= 1:
        # (12 and the small hours are after midnight; the evening's hours before it)
        am, pm = nums[0] == 12 or nums[0] <= 4, not (nums[0] == 12 or nums[0] <= 4)
    if noon:
        if nums not in ([], [12]) or am or pm:
            return None
        nums, am, pm = [12], noon == "midnight", noon != "midnight"
    if dur_hour and not nums and ("an" in words or "a" in words or "one" in words):
        nums, order = [1], ["N", *order]  # "an hour and a half"
    if not nums or len(nums) > 2 or (am and pm):
        return None
    if dur_hour and len(nums) == 1 and 100 <= nums[0] <= 2400 and nums[0] % 100 < 60 and (
            nums[0] == int(nums[0])) and (
            words[words.index("hours") - 1:words.index("hours")] == [str(int(nums[0]))]
            if "hours" in words else False):
        # "fifteen hundred hours", "1500 hours": the military clock
        clock = int(nums[0])
        return TimeValue("clock", frozenset({(clock // 100 % 24) * 60 + clock % 100}))
    if dur_hour or (minute and not hour_mark and not (pm or am)):
        return _duration(nums, order, dur_hour, minute, half or setengah)
    if not (hour_mark or pm or am or night or past or to or setengah or half or quarter or tu
            or words[0] in ("pukul", "alas", "luc", "jam")):
        return None  # a number alone: the number rules read it
    return _clock(nums, half, quarter, past, to, setengah, pm, am, tu, h24, minute)


def _duration(nums: list[float], order: list[str], hours: bool, minutes: bool,
              half: bool) -> TimeValue | None:
    if hours:
        if len(nums) == 2 and not minutes:
            return None
        if (len(nums) == 2 and order.index("D") < order.index("N")) or (
                len(nums) == 1 and minutes and "D" in order and order.index("D") < order.index("N")):
            return None  # (hours, then their number: no duration the rule reads)
        total = round(nums[0] * 60) + (nums[1] if len(nums) == 2 else 0) + (30 if half else 0)
    else:
        if len(nums) != 1 or half:
            return None
        total = nums[0]
    if total != int(total):
        return None
    return TimeValue("duration", frozenset({int(total)}))


_PAST_MINUTES: Final = frozenset({5, 10, 20, 25})


def _clock(nums: list[float], half: bool, quarter: bool, past: bool, to: bool, setengah: bool,
           pm: bool, am: bool, tu: bool, h24: bool, minutes: bool = False) -> TimeValue | None:
    if any(n != int(n) for n in nums):
        return None
    h = int(nums[0])
    m = int(nums[1]) if len(nums) == 2 else 0
    if len(nums) == 2 and (half or quarter or setengah):
        return None
    if (past or to) and not (quarter or half):
        # "ten past eight", "twenty to nine" (a score is no time: "3 to 2")
        if len(nums) != 2 or (h not in _PAST_MINUTES and not minutes) or m > 12:
            return None
        h, m = (m, h) if past else (m - 1, 60 - h)
    elif quarter:
        if past == to:
            return None
        h, m = (h, 15) if past else (h - 1, 45)
    elif setengah:
        h, m = h - 1, 30  # Indonesian/Malay: "setengah delapan" is half an hour before 8
    elif half:
        if to:
            return None
        m = 30  # "half past seven", British "half seven", "7時半", "bảy giờ rưỡi"
    if tu:
        h += 18  # Thai "หนึ่งทุ่ม" is 7 p.m.
    if not (0 <= h <= 24 and 0 <= m < 60):
        return None
    h %= 24
    if pm and h < 12:
        h += 12
    elif am and h == 12:
        h = 0
    values = {h * 60 + m}
    if not (pm or am or tu or h24) and h <= 12:
        values.add(((h + 12) % 24) * 60 + m)  # morning or evening, unless said
    return TimeValue("clock", frozenset(values))


def same_time(candidate: str, answers: Sequence[str]) -> tuple[bool, str] | None:
    """(right, the answer compared) when the candidate and an acceptable answer read as
    the same kind of time; right when they can mean the same minutes. A candidate that
    says its part of the day is compared with the answers that say theirs, when there
    are any ("12 p.m." for "midnight [accept 12 a.m. or twelve o'clock]" is wrong).
    ``None`` when the candidate or every answer is no time."""
    mine = time_value(candidate)
    if mine is None:
        return None
    same_kind = [(a, t) for a in answers if (t := time_value(a)) is not None
                 and t.kind == mine.kind]
    if len(mine.minutes) == 1 and any(len(t.minutes) == 1 for _a, t in same_kind):
        same_kind = [(a, t) for a, t in same_kind if len(t.minutes) == 1]
    compared = None
    for a, theirs in same_kind:
        if mine.minutes & theirs.minutes:
            return True, a
        compared = compared or a
    if compared is None:
        return None
    return False, compared


def answer_times(alt_texts: str, low: str = "", words: frozenset[str] | None = None
                 ) -> tuple[str, ...]:
    """The acceptable answers (one per line, as :func:`judging.preparation.prepared`
    joins them) that read as a time (``low`` and ``words``: the text in lower case and
    its words, when the caller has them): most say no time (set tests tell, not a
    regular expression per answerline, which cost a hundredth of a cold batch), and the
    rule is then not asked."""
    low = low or alt_texts.lower()
    if _TIME_CHARS.isdisjoint(low) and _TIME_WORDS.isdisjoint(
            low.split() if words is None else words) and not (
            "." in low and _HHMM.search(low)) and not ("m" in low and _AMPM.search(low)):
        return ()
    return tuple(t for t in alt_texts.split("\n") if time_value(t) is not None)


# what every answer that reads as a time has: a clock's colon, a time word or mark
_TIME_CHARS: Final = frozenset(":時时点點分半시분반ทุ่มโมงนาฬิกาชั่วครึ่ง")
_TIME_WORDS: Final = frozenset({"half", "quarter", "hour", "hours", "minute", "minutes", "min", "mins",
                         "hr", "hrs", "setengah", "jam", "pukul", "menit", "minit", "giờ",
                         "tiếng", "phút", "rưỡi", "oras", "minuto", "minutos", "alas", "medya",
                         "o'clock", "oclock", "noon", "midnight", "midday", "am", "pm",
                         "a.m.", "p.m.", "a.m", "p.m"})
_AMPM: Final = re.compile(r"\d\s*[ap]\.?m\b")
