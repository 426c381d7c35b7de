"""Numbers said in words, for the judge (pure Python, no Django).

Two jobs, both small and table-driven:

* Years read in pairs ("nineteen eighty-four", "eighteen twelve", "nineteen oh five")
  are read by the tokenizer itself, where the words are still words (``10-12`` is a
  range, not 1012).
* :func:`merge_number_tokens` finishes English numbers after the tokenizer has turned
  each number word into digits (``normalize.tokens``: ``"three hundred twenty five"``
  -> ``300 25``). It joins what belongs together: scales and their remainders
  (``300 25`` -> ``325``, ``100 and 20`` -> ``120``, ``1800 12`` -> ``1812``),
  ``million``/``billion``/``trillion`` (``2 million`` -> ``2000000``),
  ``X and a half``/``X point Y`` (``1.5``, ``2.5``) and letters spelled one by one
  (``s o s`` -> ``sos``, as ``S.O.S.`` already is).
* :func:`read_number` reads a short answer written in the number words of another
  language -- Chinese and Japanese numerals (with 万 / 億), Sino-Korean (삼백) and
  native Korean (하나, 둘, 열두, 스물) with counters (번, 개, 명, ...), Thai (สามร้อย),
  Vietnamese (ba trăm hai mươi lăm, after folding) and Indonesian/Malay (tiga ratus
  dua puluh lima) -- and returns its value, or ``None``. The judge only asks it when
  one side of a pair is a number and the other has no digits, so that a word such as
  ``lima`` (Indonesian 5, and Peru's capital) is read as a number only against a
  numeric answer.

English cardinals are checked in the tests against PyPI ``text2num``'s
``alpha2digit`` (which reads English but none of the Asian languages above, nor
years in pairs or "and a half"; so it is the tests' reference, not a dependency).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from functools import lru_cache
from typing import Final

__all__ = [
    "COPULAS",
    "DECIMAL_MARKS",
    "ERA_AD",
    "ERA_BC",
    "FIRST_CHARS",
    "FIRST_WORDS",
    "FRACTION_MARKS",
    "FRACTION_WORDS",
    "KO_MONTH_SOUNDS",
    "SCALES",
    "SEED_SCALES",
    "UNITS",
    "UNIT_WORDS",
    "decimal_point",
    "digit_comma",
    "digit_comma_line",
    "merge_number_tokens",
    "needs_merge",
    "read_decimal",
    "read_fraction",
    "read_number",
    "strip_copulas",
]

# scales that multiply the number before them ("2.5 million", "a dozen", "two dozen",
# "half a dozen"; not "dozens", which counts nothing exactly)
# after digits in the seed languages, folded ("33 juta", "40 nghìn", "5 libo"; blind26)
SEED_SCALES: Final = {"juta": 10**6, "ribu": 10**3, "trieu": 10**6, "nghin": 10**3, "libo": 10**3,
               "milyon": 10**6, "miliar": 10**9, "bilyon": 10**9}
_LARGE: Final = {"million": 10**6, "billion": 10**9, "trillion": 10**12, "dozen": 12, **SEED_SCALES}
_FRACTIONS: Final = {"half": 0.5, "quarter": 0.25, "quarters": 0.25, "third": 1 / 3}
# words whose presence (or two digit tokens in a row) may need a merge
_GATE: Final = frozenset({"and", "point", "half", "quarter", "quarters", "a", *_LARGE})


def _int(t: str) -> int | None:
    return int(t) if t.isdecimal() and t.isascii() else None


def _num(t: str) -> float | None:
    """A digit token's value, decimals included ("2.5")."""
    if t.isdecimal() and t.isascii():
        return int(t)
    if t[:1].isdigit() and _DECIMAL_TOKEN.match(t):
        return float(t)
    return None


_DECIMAL_TOKEN: Final = re.compile(r"^\d+\.\d+$")
_SMALL_SCALES: Final = {"hundred": 100, "thousand": 1000}
# the words other than digits that can start a number below ("a hundred", "point five")
_STARTS: Final = frozenset({"a", "point", "half", *_SMALL_SCALES})


def _fmt(v: float) -> str:
    if float(v).is_integer():
        return str(int(v))
    return f"{v:.6f}".rstrip("0").rstrip(".")


def needs_merge(toks: tuple[str, ...]) -> bool:
    """Could :func:`merge_number_tokens` change ``toks``? (A cheap gate: two tokens
    in a row that are digits or single letters, or a digit next to a gate word.)"""
    prev_digit = prev_letter = False
    for t in toks:
        d = t.isdecimal()
        letter = len(t) == 1 and t.isalpha()
        if (d and prev_digit) or (letter and prev_letter):
            return True
        if (prev_digit and t in _GATE) or t in _LARGE or (
                t in ("hundred", "thousand", "point") and not prev_digit):
            return True
        prev_digit, prev_letter = d, letter
    return False


_LETTER_RUN: Final = re.compile(r"(?:^| )[A-Za-z] [A-Za-z](?= |$)")


def _spelled_letters(toks: list[str]) -> list[str]:
    """Join runs of two or more single letters (``s o s`` -> ``sos``); "i a" and
    "a i" pairs stay words."""
    if _LETTER_RUN.search(" ".join(toks)) is None:
        return list(toks)  # (no two single letters in a row: most texts)
    out: list[str] = []
    run: list[str] = []
    for t in [*toks, ""]:
        if len(t) == 1 and t.isalpha() and t.isascii():
            run.append(t)
            continue
        if len(run) >= 2 and run not in (["i", "a"], ["a", "i"]):
            out.append("".join(run))
        else:
            out += run
        run = []
        if t:
            out.append(t)
    return out


def merge_number_tokens(toks: tuple[str, ...]) -> tuple[str, ...]:
    """Join the digit tokens of one spoken English number (see the module docstring).

    ``toks`` are :func:`judging.normalize.tokens` output; tokens that are not part of
    a number are left alone, so ``merge_number_tokens(("in", "300", "25"))`` is
    ``("in", "325")`` and ``("pages", "5", "6")`` stays as it is.
    """
    if not needs_merge(toks):
        return toks
    words = _spelled_letters(list(toks))
    out: list[str] = []
    i, n = 0, len(words)
    while i < n:
        t = words[i]
        if t not in _STARTS and not t[:1].isdigit():
            out.append(t)  # (no number starts here: the tests below would all fail)
            i += 1
            continue
        v: float | None = _num(t)
        # "a hundred", "a thousand", "a million"; "hundred" alone
        if t == "a" and i + 1 < n and words[i + 1] in _SMALL_SCALES:
            v = _SMALL_SCALES[words[i + 1]]
            i += 1
        elif t == "a" and i + 1 < n and words[i + 1] in _LARGE:
            v = 1
        elif t == "a" and i + 1 < n and words[i + 1] in ("half", "quarter"):
            v = _FRACTIONS[words[i + 1]]  # "a quarter", "a half"
            i += 1
        elif t == "half" and i + 2 < n and words[i + 1] == "a" and words[i + 2] in _LARGE:
            v = 0.5  # "half a million": the scale is read below
            i += 1
        elif t in _SMALL_SCALES and (i == 0 or _num(words[i - 1]) is None):
            v = _SMALL_SCALES[t]
        elif t == "point" and i + 1 < n and _int(words[i + 1]) is not None and (
                i == 0 or (_num(words[i - 1]) is None and words[i - 1] not in ("a", "the"))):
            v = 0  # "point five": the digits after the point are read below
            i -= 1
        if v is None:
            out.append(t)
            i += 1
            continue
        value: float = v
        j = i + 1
        while j < n:
            nxt = words[j]
            if nxt in _LARGE:
                value *= _LARGE[nxt]
                j += 1
                continue
            if nxt in ("quarter", "quarters") and value < 4:
                value *= 0.25  # "three quarters"
                j += 1
                continue
            if nxt == "half" and value == 1:
                value = 0.5  # "one half"
                j += 1
                continue
            # "X and a half", "X and three quarters"
            if nxt == "and" and j + 2 < n and words[j + 1] in ("a", "1") \
                    and words[j + 2] in _FRACTIONS:
                value += _FRACTIONS[words[j + 2]]
                j += 3
                continue
            if nxt == "and" and j + 2 < n and words[j + 1] in ("2", "3") \
                    and words[j + 2] == "quarters":
                value += int(words[j + 1]) * 0.25  # "two and three quarters"
                j += 3
                continue
            # "2 point 5", "3 point 1 4"
            if nxt == "point" and j + 1 < n and _int(words[j + 1]) is not None:
                k = j + 1
                digits = ""
                while k < n and (d := _int(words[k])) is not None and d < 10:
                    digits += words[k]
                    k += 1
                if not digits:
                    break
                value = float(f"{_fmt(value)}.{digits}")
                j = k
                continue
            # "300 25", "1000 300", "100 and 20", "1800 12": a round number and a
            # smaller remainder
            k = j + 1 if nxt == "and" else j
            if k < n and (d := _int(words[k])) is not None and float(value).is_integer():
                iv = int(value)
                if k == j and 100 <= iv < 1000 and iv % 100 == 0 and d % 1000 == 0 \
                        and 1000 <= d < 100_000:
                    # "four hundred fifty-six thousand": the tokenizer read "fifty-six
                    # thousand" as 56000, so 400 and 56000 make (400 + 56) * 1000
                    value = float(iv * 1000 + d)
                    j = k + 1
                    continue
                scale = 1
                while iv and iv % (scale * 10) == 0:
                    scale *= 10
                if k + 1 < n and words[k + 1] in _LARGE:
                    if 100 <= iv < 1000 and scale >= 100 and d < scale:
                        # "three hundred thirty million": (300 + 30) million
                        value = float((iv + d) * _LARGE[words[k + 1]])
                        j = k + 2
                        continue
                    d *= _LARGE[words[k + 1]]  # "1 billion 200 million"
                    k += 1
                if iv >= 100 and scale >= 100 and d < scale:
                    value = float(iv + d)
                    j = k + 1
                    continue
            break
        out.append(_fmt(value))
        i = j
    return tuple(out)


# ------------------------------------------------------------ other languages' words

# kinds: "d" a digit, "m" a multiplier inside a section (10, 100, 1000), "M" a
# section multiplier (10**4 in zh/ja/ko/th, 1000 in vi/id, 10**6 ...), "a" a value
# added as it stands (native Korean, "sebelas"), "z" a filler ("linh", "零")
_Lex = dict[str, tuple[str, int]]


def _lex(kind: str, words: dict[str, int]) -> _Lex:
    # as the judge's text is folded (NFKC)
    return {unicodedata.normalize("NFKC", w): (kind, v) for w, v in words.items()}


_ZH: _Lex = {
    **_lex("d", {"〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                 "七": 7, "八": 8, "九": 9, "壱": 1, "弐": 2, "参": 3}),
    **_lex("m", {"十": 10, "百": 100, "千": 1000}),
    **_lex("M", {"万": 10**4, "亿": 10**8, "億": 10**8}),
    **_lex("d", {"零": 0}),  # a digit: 二零二零 is 2020, 两千零五 still 2005
    **_lex("a", {"ひとつ": 1, "ふたつ": 2, "みっつ": 3, "よっつ": 4, "いつつ": 5, "むっつ": 6,
                 "ななつ": 7, "やっつ": 8, "ここのつ": 9, "とお": 10,
                 # the same native numbers written with a kanji: 五つ, 三つ
                 **{k + "つ": v for k, v in zip("一二三四五六七八九", range(1, 10), strict=True)}}),
}
_KO_SINO: _Lex = {
    **_lex("d", {"영": 0, "공": 0, "일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6,
                 "륙": 6, "칠": 7, "팔": 8, "구": 9}),
    **_lex("m", {"십": 10, "백": 100, "천": 1000}),
    **_lex("M", {"만": 10**4, "억": 10**8}),
}
_KO_NATIVE: _Lex = _lex("a", {
    "하나": 1, "한": 1, "둘": 2, "두": 2, "셋": 3, "세": 3, "석": 3, "넷": 4, "네": 4,
    "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "스물": 20, "스무": 20,
    "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70, "여든": 80, "아흔": 90,
})
_TH: _Lex = {
    **_lex("d", {"ศูนย์": 0, "หนึ่ง": 1, "เอ็ด": 1, "สอง": 2, "ยี่": 2, "สาม": 3, "สี่": 4,
                 "ห้า": 5, "หก": 6, "เจ็ด": 7, "แปด": 8, "เก้า": 9}),
    **_lex("m", {"สิบ": 10, "ร้อย": 100, "พัน": 1000, "หมื่น": 10**4, "แสน": 10**5}),
    **_lex("M", {"ล้าน": 10**6}),
}
# Vietnamese after fold(): tone marks gone, so mươi (tens) and mười (ten) are both
# "muoi"; as a multiplier with no digit before it, "muoi" is 10 either way.
_VI: _Lex = {
    **_lex("d", {"khong": 0, "mot": 1, "hai": 2, "ba": 3, "bon": 4, "tu": 4, "nam": 5,
                 "lam": 5, "nham": 5, "sau": 6, "bay": 7, "tam": 8, "chin": 9}),
    **_lex("m", {"muoi": 10, "chuc": 10, "tram": 100}),
    **_lex("M", {"nghin": 1000, "ngan": 1000, "trieu": 10**6, "ty": 10**9}),
    **_lex("z", {"linh": 0, "le": 0}),
}
# the words a year read in full starts with (một nghìn ..., hai nghìn ..., folded)
_VI_YEAR_STARTS: Final = frozenset({"mot ", "hai "})
_ID: _Lex = {
    **_lex("d", {"nol": 0, "kosong": 0, "satu": 1, "dua": 2, "tiga": 3, "empat": 4,
                 "lima": 5, "enam": 6, "tujuh": 7, "delapan": 8, "lapan": 8, "sembilan": 9}),
    **_lex("m", {"puluh": 10, "ratus": 100}),
    **_lex("M", {"ribu": 1000, "juta": 10**6, "miliar": 10**9, "bilion": 10**9}),
    # (seribu in the section: "seribu juta" is 10**9, "seribu sembilan ratus" 1900)
    **_lex("a", {"sepuluh": 10, "sebelas": 11, "seratus": 100, "seribu": 1000}),
    # "dua belas" = 12: "belas" adds ten to the digit before it
    "belas": ("b", 10),
    "sejuta": ("A", 10**6),
}
# Japanese numbers read aloud in hiragana (さんびゃく, にじゅうご, ろっぴゃく): the readings
# of the kanji numerals, with their sound changes; し and く (4 and 9) are left out, as
# they are syllables of too many words, and a reading must hold a multiplier unless it is
# one word (see read_number: くに "country" is no 92)
# Japanese native readings of a count of days (2 to 10 and 20 days; 1 is いちにち):
# read as the number and its counter 日 (scripts.whole_number)
JA_DAY_READINGS: Final = {"ふつか": 2, "みっか": 3, "よっか": 4, "いつか": 5, "むいか": 6, "なのか": 7,
                   "ようか": 8, "ここのか": 9, "とおか": 10, "はつか": 20}
_JA_KANA: _Lex = {
    **_lex("d", {"れい": 0, "ぜろ": 0, "いち": 1, "いっ": 1, "に": 2, "さん": 3, "よん": 4,
                 "ご": 5, "ろく": 6, "ろっ": 6, "なな": 7, "しち": 7, "はち": 8, "はっ": 8,
                 "きゅう": 9}),
    **_lex("m", {"じゅう": 10, "ひゃく": 100, "びゃく": 100, "ぴゃく": 100, "せん": 1000,
                 "ぜん": 1000}),
    **_lex("M", {"まん": 10**4, "おく": 10**8}),
    # the native readings: a count of days (ふつか, なのか: 2日, 7日; the counter is
    # 日, see JA_DAY_READINGS) and of things (みっつ: 三つ)
    **_lex("a", {**JA_DAY_READINGS, "ひとつ": 1, "ふたつ": 2, "みっつ": 3, "よっつ": 4,
                 "いつつ": 5, "むっつ": 6, "ななつ": 7, "やっつ": 8, "ここのつ": 9}),
}
# Tagalog: the native numbers, with the linker -ng / na before daan and libo ("dalawang
# daan", "apat na raan"), the teens (labing-isa is read "labing" + "isa"), the tens as
# one word (dalawampu, and dalawampu't before the units: "dalawampu't isa" is 21), and the
# Spanish-derived numbers Filipinos say as often (siyete, otso)
_TL_FILLERS: Final = frozenset({"na", "at", "t", "y"})
_TL: _Lex = {
    **_lex("d", {"isa": 1, "isang": 1, "dalawa": 2, "dalawang": 2, "tatlo": 3, "tatlong": 3,
                 "apat": 4, "lima": 5, "limang": 5, "anim": 6, "pito": 7, "pitong": 7,
                 "walo": 8, "walong": 8, "siyam": 9,
                 # the ordinals less their "ika" (ikalawa, ikatlo: second, third)
                 "lawa": 2, "tlo": 3}),
    **_lex("m", {"daan": 100, "raan": 100}),
    # (libo't before what follows, as dalawampu't: "isanlibo't walong daan" is 1800)
    **_lex("M", {"libo": 1000, "libong": 1000, "libot": 1000}),
    **_lex("a", {"sampu": 10, "sampung": 10, "labing": 10, "labin": 10, "labim": 10,
                 "labindalawa": 12, "labintatlo": 13, "labinlima": 15, "labimpito": 17,
                 "labingwalo": 18, "labinwalo": 18, "labinsiyam": 19, "labingsiyam": 19,
                 "sandaan": 100, "sanlibo": 1000, "una": 1, "isandaan": 100,
                 "isanlibo": 1000, "isanlibot": 1000, "sanlibot": 1000,
                 **{w + e: v for w, v in {"dalawampu": 20, "tatlumpu": 30, "apatnapu": 40,
                                          "limampu": 50, "animnapu": 60, "pitumpu": 70,
                                          "walumpu": 80, "siyamnapu": 90}.items()
                    for e in ("", "t", "ng")},
                 "uno": 1, "dos": 2, "tres": 3, "kuwatro": 4, "kwatro": 4, "singko": 5,
                 "sais": 6, "siyete": 7, "syete": 7, "otso": 8, "nuwebe": 9, "diyes": 10,
                 # ... their teens, tens and hundred (blind26, blind29: "trese pesos",
                 # "bente singko" is 25, "trenta'y singko" 35; prices and ages are said so)
                 "onse": 11, "dose": 12, "trese": 13, "katorse": 14, "kinse": 15,
                 "disisais": 16, "disisiyete": 17, "disisyete": 17, "disiotso": 18,
                 "disinuwebe": 19, "bente": 20, "beinte": 20, "siyento": 100, "syento": 100,
                 **{w + e: v for w, v in {"trenta": 30, "kuwarenta": 40, "kwarenta": 40,
                                          "singkuwenta": 50, "singkwenta": 50, "sesenta": 60,
                                          "setenta": 70, "otsenta": 80, "nobenta": 90}.items()
                    for e in ("", "y")}}),
    **_lex("z", dict.fromkeys(_TL_FILLERS, 0)),
}
# every native number word with its linker too: -ng after a vowel, -g after n
# ("isandaang piso", "labindalawang beses", "daang taon"; blind22, blind25)
_TL.update({w + ("g" if w[-1] == "n" else "ng"): kv for w, kv in list(_TL.items())
            if kv[0] != "z" and w[-1] in "aeioun" and w not in ("uno", "dos", "tres")
            and (w + ("g" if w[-1] == "n" else "ng")) not in _TL})
_LEXICONS: tuple[tuple[str, _Lex, bool], ...] = (
    # (name, lexicon, glued: read character runs by longest match, not by words)
    ("zh", _ZH, True),
    ("ko", _KO_SINO, True),
    ("ko-native", _KO_NATIVE, True),
    ("ja-kana", _JA_KANA, True),
    ("th", _TH, True),
    ("vi", _VI, False),
    ("id", _ID, False),
    ("tl", _TL, False),
)

# Counters, ordinal markers and copulas around a number: stripped before reading.
_PREFIXES: Final = ("第", "제", "ที่", "thu ", "ke", "ika", "百分之", "tahun ",
             # zh "about" before a number (大约三点一四 for 3.14)
             "大约", "大概", "大約")
_SUFFIXES = tuple(sorted({
    # zh / ja
    "个", "個", "年", "岁", "歳", "次", "名", "本", "号", "號", "人", "回", "枚", "匹",
    "头", "頭", "位", "度", "条", "張", "张", "只", "台", "月", "日", "点", "分", "番", "です",
    "天", "か月", "ヶ月", "カ月", "个月", "個月", "周", "歲",
    # ja durations: 七日間 (seven days), 二週間, 三か月間 (and as the judge folds them:
    # 七日间, 二周间)
    "日間", "週間", "か月間", "ヶ月間", "カ月間", "日间", "周间", "か月间", "ヶ月间", "カ月间",
    "だ", "是", "吧", "。",
    # hours, currencies, percent (zh, ja)
    "小时", "个小时", "時間", "元", "块", "円", "パーセント", "%",
    # ko
    "번", "개", "명", "살", "권", "장", "마리", "대", "층", "회", "년", "월", "일", "시", "분",
    "등", "위", "호", "배", "째", "번째", "입니다", "이에요", "예요", "이요", "요", "이다", "가지",
    "시간", "개월", "원", "퍼센트", "프로", "달",
    # th
    "คน", "ครั้ง", "ปี", "ตัว", "อัน", "วัน", "เดือน", "ค่ะ", "ครับ", "คะ", "นะ",
    "ชั่วโมง", "บาท", "เปอร์เซ็นต์",
    # th classifiers: สิบสองชิ้น (twelve pieces), สามเล่ม (books), สองคัน (vehicles), ห้าลูก,
    # สี่ใบ, สามข้อ, หกด้าน (sides), สองสัปดาห์ (weeks)
    "ชิ้น", "เล่ม", "คัน", "ลูก", "ใบ", "ข้อ", "ด้าน", "สัปดาห์",
    # and places: เจ็ดสิบเจ็ดจังหวัด (77 provinces), ประเทศ (countries), แห่ง (sites)
    "จังหวัด", "ประเทศ", "แห่ง",
    # units of measure (zh, ja, ko, th): 8848米 is 八千八百四十八米, not 8848英尺
    "米", "公里", "千米", "厘米", "公分", "英里", "英尺", "英寸", "公斤", "千克", "克", "吨", "磅",
    "秒", "分钟", "メートル", "キロメートル", "センチ", "センチメートル", "マイル", "フィート",
    "インチ", "キログラム", "グラム", "トン", "ポンド", "미터", "킬로미터", "센티미터", "마일", "피트",
    "인치", "킬로그램", "그램", "톤", "파운드", "초", "เมตร", "กิโลเมตร", "เซนติเมตร", "ไมล์", "ฟุต",
    "กิโลกรัม", "กรัม", "ตัน", "ปอนด์", "วินาที", "นาที",
    # vi / id (folded, spaced)
    " lan", " nguoi", " cai", " kali", " orang", " buah", " tahun",
    " gio", " thang", " ngay", " tuoi", " phan tram", " dong", " jam", " bulan", " hari",
    " persen", " rupiah",
    # units of measure (id/ms, vi, folded): tujuh puluh lima kilogram is 75 kg
    " meter", " kilometer", " km", " kilogram", " kg", " gram", " kaki", " inci", " mil",
    " derajat", " met", " kilomet", " kilogam", " gam", " cm", " sentimeter",
    # vi degrees (độ, độ C: một trăm độ is 100 độ C)
    " do", " do c",
}, key=len, reverse=True))
_SUFFIXES = tuple(sorted({unicodedata.normalize("NFKC", w) for w in _SUFFIXES}, key=len,
                         reverse=True))


def _segment(text: str, lex: _Lex) -> list[tuple[str, int]] | None:
    """Split a glued run into the lexicon's words, longest match first."""
    out = []
    i = 0
    longest = max(map(len, lex))
    while i < len(text):
        if "0" <= text[i] <= "9":
            # digits before a scale (1億2000万, 3만): their value as it stands
            j = i + 1
            while j < len(text) and "0" <= text[j] <= "9":
                j += 1
            out.append(("n", int(text[i:j])))
            i = j
            continue
        for k in range(min(longest, len(text) - i), 0, -1):
            w = text[i:i + k]
            if w in lex:
                out.append(lex[w])
                i += k
                break
        else:
            return None
    return out


def _value(parts: list[tuple[str, int]]) -> int | None:
    """Add up segmented number words (see the kinds above _ZH)."""
    total = section = 0
    digit: int | None = None
    seen = False
    for kind, v in parts:
        if kind == "d":
            # "一九八四", "일구팔사": digits in a row read one by one
            digit = v if digit is None else digit * 10 + v
            seen = True
        elif kind == "n":
            digit = v  # (written in digits: 1億2000万)
        elif kind == "m":
            section += (1 if digit is None else digit) * v
            digit = None
            seen = True
        elif kind == "M":
            total += (section + (digit or 0) or 1) * v
            section, digit = 0, None
            seen = True
        elif kind == "b":
            section += (1 if digit is None else digit) + v
            digit = None
        elif kind == "a":
            section += v
            seen = True
        elif kind == "A":
            total += v
            seen = True
    if not seen:
        return None
    return total + section + (digit or 0)


def _strip(text: str) -> str:
    changed = True
    while changed and text:
        changed = False
        if not text.endswith(_SUFFIXES) and not text.startswith(_PREFIXES):
            break
        for s in _SUFFIXES:
            if text.endswith(s) and len(text) > len(s):
                text = text[: -len(s)].rstrip()
                changed = True
                break
        for p in _PREFIXES:
            if text.startswith(p) and len(text) > len(p):
                text = text[len(p):].lstrip()
                changed = True
                break
    return text


# copulas and polite endings that may follow a number's counter ("六十分です", "열두 달이요",
# "สิบสองเดือนครับ"): they say nothing of the counter
COPULAS: Final = tuple(sorted({unicodedata.normalize("NFKC", w) for w in (
    "です", "だ", "是", "吧", "。", "입니다", "이에요", "예요", "이요", "요", "이다", "ค่ะ", "ครับ",
    "คะ", "นะ")}, key=len, reverse=True))


def strip_copulas(counter: str) -> str:
    """``counter`` without the copulas and polite endings after it (``分です`` -> ``分``)."""
    while counter.endswith(COPULAS):
        counter = counter[:-len(next(c for c in COPULAS if counter.endswith(c)))]
    return counter


def strip_counters(text: str) -> str:
    """``text`` without the counters, ordinal markers and copulas that
    :func:`read_number` takes off around a number (``一次`` -> ``一``)."""
    return _strip(text)


_SPACES: Final = re.compile(r"\s+")
# the scales written after digits in Chinese, Japanese and Korean (1億2000万, 3만)
_GLUED_SCALES: Final = ("万", "億", "亿", "만", "억")
# a digit, 百/千/万 and a digit (一百八): written with the first digit, so Chinese (a
# Japanese 百八 is 108)
_ZH_SHORTENED: Final = re.compile("^[一二两三四五六七八九][百千万][一二三四五六七八九]$")
# what a number can start with: a glued lexicon's first character, a spaced
# lexicon's word
FIRST_CHARS: Final = frozenset(w[0] for _n, lex, glued in _LEXICONS if glued for w in lex) | frozenset(
    p[0] for p in _PREFIXES if not p.isascii())
FIRST_WORDS: Final = frozenset(w for _n, lex, glued in _LEXICONS if not glued for w in lex) - _TL_FILLERS


# Korean month names whose Sino-Korean number changes its sound before 월: 유월 (June,
# not 육월) and 시월 (October, not 십월); read as the number they are
KO_MONTH_SOUNDS: Final = {"유월": "육월", "시월": "십월"}


def read_number(text: str) -> int | None:
    """The value of a short answer written in number words of zh/ja/ko/th/vi/id, or
    ``None``. ``text`` is normalized (folded, lower case, tokens joined by spaces):
    ``read_number("三百二十五") == 325``, ``read_number("세 번") == 3``,
    ``read_number("ba tram hai muoi lam") == 325``, ``read_number("dua belas") == 12``.
    A word of another language, or a mix, is ``None``.
    """
    text = text.strip()
    if text[:2] in KO_MONTH_SOUNDS:
        text = KO_MONTH_SOUNDS[text[:2]] + text[2:]
    # 십일, 이십일 are 11 and 21, not 10 and 20 "days" (a counter after a number)
    text = text if text.endswith("십일") else _strip(text)
    if not text or len(text) > 80:
        return None
    if len(text) == 3 and _ZH_SHORTENED.match(text):
        # Chinese drops the last unit: 一百八 is 180, 两千五 2500, 三万二 32000
        d, m, r = (_ZH[ch][1] for ch in text)
        return d * m + r * m // 10
    if "0" <= text[0] <= "9":
        if not any(map(text.__contains__, _GLUED_SCALES)):
            return None  # (digits are read here only before a scale: 1億2000万, 3만)
    elif text[0] not in FIRST_CHARS and text.split(None, 1)[0] not in FIRST_WORDS:
        return None  # (most answers: no number word starts them)
    if text.startswith("nam ") and text[4:8] in _VI_YEAR_STARTS:
        # vi "năm một nghìn chín trăm năm mươi tư": "the year 1954" (năm is also
        # five, but 5 and then a digit is no number; "năm mươi" is 50)
        year = read_number(text[4:])
        if year is not None and 1000 <= year <= 2100:
            return year
    glued = _SPACES.sub("", text)
    for _name, lex, is_glued in _LEXICONS:
        if is_glued:
            parts = _segment(glued, lex)
        else:
            words = text.split()
            if not all(w in lex for w in words):
                continue
            parts = [lex[w] for w in words]
        if parts and _name == "ja-kana" and len(parts) > 1 and all(
                k == "d" for k, _v in parts):
            continue  # (kana digits in a row are a word: くに, にご)
        if parts:
            value = _value(parts)
            if value is not None:
                return value
    return None


# The word for the decimal point (folded): vi phẩy / chấm, id/ms koma / titik, ko 점 (as a
# word), zh/ja 点 / 點, th จุด (glued).
DECIMAL_MARKS: Final = (" phay ", " cham ", " koma ", " titik ", " 점 ", "点", "點", "จุด")


def read_decimal(text: str) -> str | None:
    """A decimal said in number words of zh/ja/ko/th/vi/id, written with a point
    (``"3.14"``), or ``None``: ``ba phẩy mười bốn`` (the digits after the point read as
    a number, as Vietnamese says them) and ``ba phẩy một bốn``, ``tiga koma satu empat``,
    ``三点一四``, ``삼 점 일사``, ``สามจุดหนึ่งสี่``. ``text`` is normalized (folded, lower
    case); the part after the point is read digit by digit when every word (or, in a
    script without spaces, every character) is one digit, as a whole number otherwise
    (not when a counter or unit follows it: that is left to the other rules)."""
    for mark in DECIMAL_MARKS:
        if mark not in text:
            continue
        whole, _sep, frac = text.partition(mark)
        whole, frac = whole.strip(), frac.strip()
        if not whole or not frac:
            return None
        value = int(whole) if whole.isdecimal() and whole.isascii() else read_number(whole)
        if value is None:
            return None
        units = frac.split() if mark.startswith(" ") else list(frac.replace(" ", ""))
        digits = [read_number(u) for u in units]
        if all(d is not None and 0 <= d <= 9 for d in digits):
            return f"{value}." + "".join(map(str, digits))
        # (a counter or unit after the decimal is not read: "三点一四米" is no "3.14")
        rest = read_number(frac) if _strip(frac) == frac else None
        return None if rest is None else f"{value}.{rest}"
    return None

# ------------------------------------------------------------------------- units

# the words of an era after a year or century: "5th century BC" is not "5th century AD"
# (also read by judging.date_rules and judging.number_rules)
ERA_BC: Final = ("bc", "bce", "tcn", "기원전", "公元前", "紀元前", "纪元前", "ก่อนคริสตกาล")
ERA_AD: Final = ("ad", "ce", "scn", "masehi", "기원후", "公元", "紀元後", "纪元后")


def _units(kind: str, groups: dict[str, tuple[str, ...]]) -> dict[str, frozenset[tuple[str, str]]]:
    return {unicodedata.normalize("NFKC", w): frozenset({(kind, unit)})
            for unit, words in groups.items() for w in words}


# Units of measure and currencies, as normalized tokens (lower case, marks folded),
# by kind: the judge reads "100 miles" for "100 kilometers" as another answer (the
# same number in another unit of the same kind). Words that are also ordinary words
# or several units of one kind (kilo, 度, 일, nam, 동) are left out; a word that is a
# unit of two kinds has both (pound: a mass and a currency, so "10 pounds" is neither
# "10 kilograms" nor "10 dollars").
UNITS: dict[str, frozenset[tuple[str, str]]] = {
    **_units("length", {
        "m": ("meter", "meters", "metre", "metres", "미터", "米", "メートル", "เมตร", "met"),
        "km": ("kilometer", "kilometers", "kilometre", "kilometres", "km", "킬로미터", "公里",
               "千米", "キロメートル", "กิโลเมตร", "kilomet"),
        "cm": ("centimeter", "centimeters", "centimetre", "centimetres", "cm", "센티미터",
               "厘米", "公分", "センチメートル", "センチ", "เซนติเมตร", "sentimeter", "xentimet"),
        "mi": ("mile", "miles", "마일", "英里", "マイル", "ไมล์", "mil"),
        "ft": ("foot", "feet", "ft", "피트", "英尺", "フィート", "ฟุต", "kaki"),
        "in": ("inch", "inches", "인치", "英寸", "インチ", "inci"),
        "yd": ("yard", "yards", "야드", "码", "ヤード", "หลา"),
    }),
    **_units("mass", {
        "kg": ("kilogram", "kilograms", "kilogramme", "kilogrammes", "kg", "킬로그램", "公斤",
               "千克", "キログラム", "กิโลกรัม", "kilogam"),
        "g": ("gram", "grams", "gramme", "grammes", "그램", "克", "グラム", "กรัม", "gam"),
        "lb": ("lb", "lbs", "磅", "pon"),
        "t": ("ton", "tons", "tonne", "tonnes", "톤", "吨", "噸", "トン", "ตัน"),
        "oz": ("ounce", "ounces", "온스", "盎司", "オンス", "ออนซ์"),
    }),
    # (degree is an angle only where no temperature unit is said: other_unit)
    **_units("angle", {
        "deg": ("degree", "degrees"),
        "rad": ("radian", "radians", "라디안", "弧度", "ラジアン", "เรเดียน"),
    }),
    **_units("temperature", {
        "c": ("celsius", "centigrade", "섭씨", "摄氏", "セ氏", "摂氏", "เซลเซียส"),
        "f": ("fahrenheit", "화씨", "华氏", "カ氏", "華氏", "ฟาเรนไฮต์"),
        "k": ("kelvin", "kelvins", "켈빈", "开尔文", "ケルビン", "เคลวิน"),
    }),
    **_units("time", {
        "s": ("second", "seconds", "초", "秒", "วินาที", "giay", "detik", "segundo"),
        "min": ("minute", "minutes", "분", "分钟", "分間", "นาที", "phut", "menit", "minuto"),
        "h": ("hour", "hours", "시간", "小时", "時間", "ชั่วโมง", "gio", "jam", "oras"),
        "d": ("day", "days", "วัน", "ngay", "hari", "araw"),
        "wk": ("week", "weeks", "주일", "星期", "週間", "สัปดาห์", "tuan", "minggu", "linggo"),
        "mo": ("month", "months", "개월", "个月", "か月", "ヶ月", "เดือน", "thang", "bulan", "buwan"),
        "yr": ("year", "years", "ปี", "tahun", "taon"),
    }),
    **_units("money", {
        "usd": ("dollar", "dollars", "usd", "달러", "美元", "ドル", "ดอลลาร์", "dolar"),
        "eur": ("euro", "euros", "유로", "欧元", "ユーロ", "ยูโร"),
        "jpy": ("yen", "엔", "日元", "円", "เยน"),
        "cny": ("yuan", "renminbi", "rmb", "위안", "人民币", "人民元", "หยวน", "元", "块", "塊"),
        "krw": ("won", "원", "韩元", "ウォン", "วอน"),
        "thb": ("baht", "바트", "泰铢", "バーツ", "บาท"),
        "idr": ("rupiah", "루피아", "印尼盾", "ルピア", "รูเปียห์"),
        "myr": ("ringgit", "링깃", "令吉", "リンギット", "ริงกิต"),
        "vnd": ("dong", "越南盾", "ドン", "ดอง"),
        "inr": ("rupee", "rupees", "루피", "卢比", "ルピー", "รูปี"),
        "php": ("peso", "pesos", "piso", "페소", "比索", "ペソ", "เปโซ"),
        "gbp": ("sterling", "英镑", "英鎊"),
        # a hundredth of a currency: cent, id/ms sen (100 sen is one ringgit)
        "cent": ("cent", "cents", "sen", "센트", "美分", "セント", "เซนต์"),
    }),
    # speeds written as one token ("km/h" normalizes to "kmh"; h-probe14: "300,000 km/h"
    # for "300,000 km/s" was a fuzzy accept at 0.89)
    **_units("speed", {
        "kms": ("kms",),
        "kmh": ("kmh", "kph"),
        "mph": ("mph",),
    }),
    # the era of a year or century: "5th century BC" is not "5th century AD"
    **_units("era", {"bc": ERA_BC, "ad": ERA_AD}),
    "pound": frozenset({("mass", "lb"), ("money", "gbp")}),
    "pounds": frozenset({("mass", "lb"), ("money", "gbp")}),
}
for _w in ("파운드", "ポンド", "ปอนด์"):  # (pound, of mass or money)
    UNITS[unicodedata.normalize("NFKC", _w)] = UNITS["pound"]
UNIT_WORDS: Final = frozenset(UNITS)
# scale words of the spaced languages (vi, id/ms) after digits: "2 tỷ", "270 juta"
SCALES: Final = {w: v for lex in (_VI, _ID) for w, (kind, v) in lex.items() if kind == "M"}


# ---------------------------------------------------------------------- fractions

_EN_DENOMINATORS: Final = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
                    "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
                    "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9,
                    "ninths": 9, "tenth": 10, "tenths": 10}
_EN_NUMERATORS: Final = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                  "seven": 7, "eight": 8, "nine": 9}
_EN_FRACTION: Final = re.compile(r"(?:(\d+|[a-z]+) )?(" + "|".join(_EN_DENOMINATORS) + ")")
_SLASH: Final = re.compile(r"(\d+) ?/ ?(\d+)")
# den first: zh 三分之二, ja 3分の2, ko 3분의 2 (all 2/3); num first: th สองในสาม, สองส่วนสาม
_DEN_FIRST: Final = re.compile("(.+?)(?:分之|分の|분의)(.+)")
_NUM_FIRST: Final = re.compile("(.+?)(?:" + unicodedata.normalize("NFKC", "ใน|ส่วน") + ")(.+)")
_ID_PER: Final = {"setengah": Fraction(1, 2), "seperdua": Fraction(1, 2)}
# the words a fraction may be said with (tokens of the candidate: the judge asks
# read_fraction only when one is there, or "/", or two numbers alone)
FRACTION_WORDS: Final = frozenset({*_EN_DENOMINATORS, "phan", "per", *_ID_PER}) | frozenset(
    p + w for p in ("per", "seper") for w in ("dua", "tiga", "empat", "lima", "enam", "tujuh",
                                             "delapan", "lapan", "sembilan", "sepuluh"))
_FRACTION_END: Final = ".!?。 "
# the marks of a fraction in scripts without spaces (as normalized: NFKC)
FRACTION_MARKS: Final = tuple(unicodedata.normalize("NFKC", m) for m in ("分之", "分の", "분", "ใน", "ส่วน"))


def _whole(text: str) -> int | None:
    text = text.strip()
    if text.isdecimal() and text.isascii():
        return int(text)
    return read_number(text) if text else None


def _ratio(num: int | None, den: int | None) -> Fraction | None:
    return Fraction(num, den) if num is not None and den else None


@lru_cache(maxsize=4096)
def read_fraction(text: str, folded: str = "") -> Fraction | None:
    """The value of a short answer that is a fraction, or ``None``: ``2/3``, ``two
    thirds``, ``three-quarters``, ``one fourth``; zh ``三分之二``, ja ``3分の2``, ko ``3분의
    2`` (the denominator first); th ``สองในสาม`` / ``สองส่วนสาม``; vi ``hai phần ba``; id/ms
    ``dua per tiga``, ``dua pertiga``, ``tiga perempat``, ``setengah``. ``text`` is the
    answer as written, ``folded`` its normalized tokens joined by spaces (vi and id/ms
    are read from them). A lone ordinal ("third") is no fraction; "half" is."""
    t = unicodedata.normalize("NFKC", text).lower().replace("-", " ").strip(_FRACTION_END)
    t = strip_copulas(t.replace(" ", "") if not t.isascii() else t).strip(_FRACTION_END)
    if t.isascii():
        if (m := _SLASH.fullmatch(t)) is not None:
            return _ratio(int(m.group(1)), int(m.group(2)))
        t = t.removeprefix("the ").removeprefix("a ") if t not in ("a half",) else "half"
        if (m := _EN_FRACTION.fullmatch(t)) is not None:
            num_word, den_word = m.groups()
            if num_word is None:
                return Fraction(1, 2) if den_word == "half" else None
            num = int(num_word) if num_word.isdecimal() else _EN_NUMERATORS.get(num_word)
            return _ratio(num, _EN_DENOMINATORS[den_word])
    else:
        if (m := _DEN_FIRST.fullmatch(t)) is not None:
            return _ratio(_whole(m.group(2)), _whole(m.group(1)))
        if (m := _NUM_FIRST.fullmatch(t)) is not None:
            return _ratio(_whole(m.group(1)), _whole(m.group(2)))
    words = folded.split()
    if not words:
        return None
    if len(words) == 1 and words[0] in _ID_PER:
        return _ID_PER[words[0]]
    for mark in ("phan", "per"):
        if mark in words[1:-1]:
            i = words.index(mark)
            return _ratio(_whole(" ".join(words[:i])), _whole(" ".join(words[i + 1:])))
    last = words[-1]
    if last.startswith("seper") and len(words) == 1:
        return _ratio(1, _whole(last[5:]))
    if last.startswith("per") and len(words) >= 2:
        return _ratio(_whole(" ".join(words[:-1])), _whole(last[3:]))
    return None



# A decimal comma (id/ms, vi and most of Europe write 0,75 and 2,5 kg): digits, a comma and
# one, two or four and more digits, not inside a longer run of digits, commas, points or
# hyphens (1,000 is a thousand; 1,00,000 an Indian grouping; 1,2-dichloroethane a locant)
_DECIMAL_COMMA: Final = re.compile(r"(?<![\d.,-])(\d+),(\d{1,2}|\d{4,})(?![\d.,-])")


def digit_comma(text: str) -> bool:
    """Does ``text`` have a comma between two digits? (Cheaper than the regex: most
    commas are followed by a space.)"""
    i = text.find(",")
    while i >= 0:
        if text[i - 1:i].isdigit() and text[i + 1:i + 2].isdigit():
            return True
        i = text.find(",", i + 1)
    return False


def decimal_point(candidate: str, answerline: str | tuple[str, ...]
                  ) -> tuple[str, str | tuple[str, ...]] | None:
    """The candidate and the answerline with their decimal commas written as points
    (``"0,75"`` -> ``"0.75"``), both sides the same way so that a comma and a point
    compare as one number; ``None`` when neither has one."""
    lines = (answerline,) if isinstance(answerline, str) else answerline
    if not digit_comma(candidate) and not any(map(digit_comma, lines)):
        return None
    cand = _DECIMAL_COMMA.sub(r"\1.\2", candidate)
    moved = tuple(_DECIMAL_COMMA.sub(r"\1.\2", a) for a in lines)
    if cand == candidate and moved == lines:
        return None
    return cand, (moved[0] if isinstance(answerline, str) else moved)


@lru_cache(maxsize=16384)
def digit_comma_line(answerline: str | tuple[str, ...]) -> bool:
    """Has an answerline (or list of answers) a comma between two digits? (Once per
    answerline: the judge asks it for every short numeric answer.)"""
    return any(map(digit_comma, (answerline,) if isinstance(answerline, str) else answerline))
