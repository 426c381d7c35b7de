"""The rules of the judge (since version 2026.12.4) for short answers and other scripts (pure
Python, no Django): rule 3b (scripts without spaces), 7b (number words of other
languages), 12b (confusable entities), 12c (another word sharing a word's start)
and 12d (another entity built on the answer), as numbered in docs/judging.md.

:mod:`judging.equivalence` calls them in its rule order and turns their
:data:`Decision` into its ``Analysis``. They read the answerline's prepared
alternatives (``equivalence._Alt``: ``norm``, ``toks``, ``nums``, ``months``,
``person``, ``head`` and ``alt.text``) and return ``None`` when they do not decide.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from judging.entities import (
    BUILT_WORDS,
    LICENSED,
    PLACES,
    club_city,
    named_after,
    other_word,
    substitution,
)
from judging.normalize import _DEMONYMS, STOPWORDS, strip_articles, tokens
from judging.numbers import (
    DECIMAL_MARKS,
    FIRST_CHARS,
    FIRST_WORDS,
    SCALES,
    UNITS,
    read_decimal,
    read_fraction,
    read_number,
)
from judging.scripts import HANGUL, NOSPACE, find_in_run, whole_number

if TYPE_CHECKING:
    from judging.equivalence import _Alt

__all__ = [
    "DECADE_MARKS",
    "GENERATION_WORDS",
    "MONEY_AFTER",
    "MONEY_BEFORE",
    "Decision",
    "asks_who",
    "built_on",
    "comma_head",
    "confusable",
    "currency_word",
    "decade",
    "decade_words",
    "fraction",
    "generation",
    "hyphen_words",
    "may_be_number",
    "number_words",
    "other_person_hangul",
    "other_unit",
    "prefix_word",
    "proper_words",
    "read_number_cached",
    "script_rules",
    "surname_in_run",
]

# (rule, correct, matched answerline text, detail, prompt)
Decision = tuple[str, bool, "str | None", str, bool]


def _decide(rule: str, correct: bool, matched: str | None, detail: str, *,
            prompt: bool = False) -> Decision:
    return (rule, correct, matched, detail, prompt)


def confusable(core: tuple[str, ...], accept: tuple[_Alt, ...],
                qtok: frozenset[str], text: str = "") -> Decision | None:
    """Rule 12b (:mod:`judging.entities`): wrong when every acceptable answer that
    shares a word with the short answer is contradicted by it ("North Korea" for
    "South Korea", "Star Trek" for "Star Wars", "Toy Story" for "Toy Story 2",
    "John Adams" for "John Quincy Adams", "Guinea-Bissau" for "Guinea").
    ``text``: the candidate as written (a part after its comma is an appositive:
    "Paris, Texas" for "Paris")."""
    if ":" in text:
        subtitled = subtitle(core, text, accept, qtok)
        if subtitled is not None:
            return subtitled
    found = None
    head: tuple[str, ...] | None = None
    for a in accept:
        proper = proper_words(a.alt.text)
        # letters with marks on either side (Vietnamese): a capitalized word that
        # folds to an English stop word is still a name ("Mỹ", "Tổ")
        keep = proper | proper_words(text) if not (text.isascii() and a.alt.text.isascii()) \
            else _NONE
        sub = substitution(core, a.toks, qtok, months=bool(a.months), proper=proper,
                           person=a.person, hyphen=hyphen_words(a.alt.text),
                           joined=hyphen_words(text) if "-" in text else _NONE, keep=keep)
        if sub is None:
            continue
        if sub is LICENSED or (a.head and substitution(
                core, a.head, qtok, proper=proper) is LICENSED):
            return None  # (or licensed by the part before a comma: "Surrey, England")
        if head is None:
            head = comma_head(text) if "," in text else ()
        if head and head != core and (head == a.toks or substitution(
                head, a.toks, qtok, proper=proper, person=a.person,
                hyphen=hyphen_words(a.alt.text)) is LICENSED):
            return None  # the candidate's own appositive: "Paris, France" for "Paris"
        if found is None:
            found = (sub, a)
    if found is None:
        return None
    sub, a = found
    if sub.kind == "installment":
        detail = f"drops the number {sub[2]} of '{a.alt.text}' (another installment)"
        return _decide("installment", False, a.alt.text, detail)
    if sub.kind == "title":
        detail = f"drops '{sub[2]}' of '{a.alt.text}': another work or the whole series"
        return _decide("other-entity", False, a.alt.text, detail)
    if sub.kind == "extends":
        detail = f"extends '{a.alt.text}' by '{sub[1]}': the name of another entity"
        return _decide("other-entity", False, a.alt.text, detail)
    if sub.kind == "part":
        detail = f"drops '{sub[2]}' of the hyphenated name '{a.alt.text}': another entity"
        return _decide("other-entity", False, a.alt.text, detail)
    if sub.kind == "qualifier":
        word = sub[1] or sub[2]
        verb = "adds" if sub[1] else "drops"
        detail = f"{verb} the qualifier '{word}', so it names another entity than '{a.alt.text}'"
    else:
        detail = (f"says '{sub[1]}' where '{a.alt.text}' has '{sub[2]}': another entity "
                  f"sharing a word")
    return _decide("other-entity", False, a.alt.text, detail)


def subtitle(core: tuple[str, ...], text: str, accept: tuple[_Alt, ...],
             qtok: frozenset[str]) -> Decision | None:
    """Wrong when the short answer is an acceptable title followed by a subtitle after
    a colon ("Mad Max: Fury Road" for "Mad Max"): a subtitle names one installment of
    a series, another work than the title alone (an ``[accept]`` that lists the
    subtitled form matched earlier)."""
    title = strip_articles(tokens(text.split(":", 1)[0]))
    if not title or len(title) >= len(core):
        return None
    rest = [t for t in tokens(text.split(":", 1)[1]) if t not in qtok]
    if not rest:
        return None
    for a in accept:
        if a.toks == title or (title[:-1] == a.toks and title[-1].isdecimal() and int(
                title[-1]) <= 30 and title[-1] not in a.nums):
            # (or with its number: "Laskar Pelangi 2: Edensor" for "Laskar Pelangi")
            return _decide("other-entity", False, a.alt.text,
                           f"adds the subtitle '{' '.join(rest)}' to '{a.alt.text}': "
                           f"another installment")
    return None


def other_subtitle(text: str, accept: tuple[_Alt, ...]) -> Decision | None:
    """Wrong when the answer (of any length) is an acceptable answer's series title with
    another subtitle after the colon ("The Lord of the Rings: The Two Towers" for "The
    Lord of the Rings: The Fellowship of the Ring", "Star Wars: The Empire Strikes Back"
    for "Star Wars: A New Hope"; the title may follow a frame, "I think it is ..."): the
    subtitles share no word. ``None`` otherwise."""
    head, _sep, tail = text.partition(":")
    title = strip_articles(tokens(head))
    if not title or len(title) > 12:
        return None
    mine = {t for t in tokens(tail) if t not in STOPWORDS}
    if not mine:
        return None
    found = None
    for a in accept:
        if ":" not in a.alt.text:
            return None  # (an answer without a subtitle: left to the other rules)
        a_head, _sep, a_tail = a.alt.text.partition(":")
        a_title = strip_articles(tokens(a_head))
        # (the candidate's title may follow a frame: "I think it is The Lord of the Rings")
        if not a_title or title[-len(a_title):] != a_title:
            return None
        theirs = {t for t in tokens(a_tail) if t not in STOPWORDS}
        if not theirs or mine & theirs:
            return None
        found = found or a
    if found is None:
        return None
    return _decide("other-entity", False, found.alt.text,
                   f"gives another subtitle than '{found.alt.text}': another installment")


# words an acronym may skip ("United States of America" -> USA)
_ACRONYM_SKIP = frozenset({"of", "the", "and", "for", "on", "in", "de", "du", "des", "a", "an"})
_ROMAN_TAIL = {"I": "1", "II": "2", "III": "3", "IV": "4", "V": "5"}


def _initials(text: str) -> tuple[str, str] | None:
    """The initials of a name of several words (a Roman numeral or a number kept
    whole): ``("WWII", "WW2")`` for "World War II", ``("USA", "USA")`` for "United
    States of America"; ``None`` for one word."""
    words = [w for w in text.replace("-", " ").split() if w.strip(".,;:!?\"'()")]
    if len(words) < 2:
        return None
    letters, digits = [], []
    for w in words:
        w = w.strip(".,;:!?\"'()")
        if w.isdigit() or w in _ROMAN_TAIL:
            letters.append(w)
            digits.append(_ROMAN_TAIL.get(w, w))
        elif w.lower() not in _ACRONYM_SKIP and w[:1].isalpha():
            letters.append(w[0].upper())
            digits.append(w[0].upper())
    return "".join(letters), "".join(digits)


def acronym(text: str, accept: tuple[_Alt, ...]) -> Decision | None:
    """Correct when the short answer, written in capitals, is the acronym of an
    acceptable answer of several words ("WWII" or "WW2" for "World War II", "USA" for
    "United States of America", "N.A.T.O." for "North Atlantic Treaty
    Organization"): the initials of its words, small words skipped, a number kept."""
    written = "".join(ch for ch in text if ch.isalnum())
    if not 2 <= len(written) <= 7 or not written.isupper() or not written.isascii():
        return None
    for a in accept:
        found = _initials(a.alt.text)
        if found is not None and written in found and len(a.toks) >= 2:
            return _decide("acronym", True, a.alt.text,
                           f"'{written}' is the acronym of '{a.alt.text}'")
    return None


def prefix_word(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
    """Rule 12c: wrong when the short answer is an acceptable answer with one word
    replaced by another word sharing its start ("Niger" for "Nigeria", see
    :func:`judging.entities.other_word`). Every acceptable answer of the same length
    must be so contradicted (one that is not may be a spelling the calibrator
    accepts); answers of other lengths are left to the other rules."""
    found = None
    for a in accept:
        if len(a.toks) != len(core):
            continue
        pair = other_word(core, a.toks, person=a.person)
        if pair is None:
            return None
        if found is None:
            found = _decide("other-word", False, a.alt.text,
                            f"says '{pair[0]}' where '{a.alt.text}' has '{pair[1]}': another "
                            f"word sharing its start")
    return found


# a decade: "60s", or with its century "1960s" (normalize.decades writes "the sixties"
# and "nineteen sixties" so)
_DECADE = re.compile(r"(?:1\d|20)?\d0s")


def decade(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
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
                return _decide("decade", True, a.alt.text,
                               f"'{' '.join(core)}' is the decade of '{a.alt.text}' written "
                               f"without or with its century")
    return None


def built_on(core: tuple[str, ...], accept: tuple[_Alt, ...],
             question: frozenset[str] = frozenset()) -> Decision | None:
    """Rule 12d: wrong when the short answer is another entity built on an acceptable
    one-word answer, or the answer one built on it ("Real Madrid" for "Madrid",
    "Indian Ocean" for "India", "Dominican Republic" / "Dominica", see
    :func:`judging.entities.named_after`). Every acceptable answer that shares a word
    with the candidate must be so contradicted (an ``[accept]`` of the longer name
    licenses it); ``None`` otherwise. Only the city of a club named with a word
    before it ("Madrid" for "Real Madrid") is a prompt (rule ``prompt:club``), not
    wrong: the club's own fans may say it. When the question itself names the kind
    of thing the answer's extra word says ("Selat apa ...?" for "Selat Sunda", "...
    vịnh nào?" for "Vịnh Hạ Long"), the answer without that word is its name, not
    another entity (``question``: the question's content words)."""
    if len(core) > 3 or (BUILT_WORDS.isdisjoint(core)
                         and all(BUILT_WORDS.isdisjoint(a.toks) for a in accept)):
        return None
    found = None
    for a in accept:
        word = named_after(core, a.toks)
        if word is None and (club := club_city(core, a.toks)):
            found = found or _decide("prompt:club", False, a.alt.text,
                                     f"names only the city of '{a.alt.text}' (without "
                                     f"'{club}'): prompt for the club", prompt=True)
            continue
        if word is not None and word in question and len(a.toks) > len(core) and not (
                len(core) == 1 and core[0] in PLACES):
            return None  # "Sunda" for "Selat Sunda" asked as "Selat apa ...?"
        if word is None:
            if not set(core).isdisjoint(a.toks) or any(
                    _prefix_pair(c, t) for c in core for t in a.toks):
                return None  # an acceptable answer it may stand for
            continue
        if found is None:
            found = _decide("other-entity", False, a.alt.text,
                            f"'{word}' makes it another entity than '{a.alt.text}' (a name "
                            f"built on the other)")
    return found


def _prefix_pair(c: str, t: str) -> bool:
    """One word the other plus an ending ("dominican"/"dominica")."""
    short, long = (c, t) if len(c) <= len(t) else (t, c)
    return len(short) >= 4 and long.startswith(short[:-1])


_NONE: frozenset[str] = frozenset()

# A state named by an adjective: "Dominican Republic" is not "Dominica" (but "French
# Republic" is France: the demonym table says so).
_STATE_WORDS = frozenset({"republic"})


def _kind_changed(core: tuple[str, ...], answer: tuple[str, ...], qtok: frozenset[str]) -> str | None:
    """The word that makes the short answer ``core`` name another kind of entity than
    the one-word ``answer`` (or the other way round), else ``None``:

    - ``city`` added to or dropped from a name ("Mexico City" for "Mexico", "Kansas"
      for "Kansas City") when the question does not ask for a city, or when the
      candidate only repeats the question's words ("Which country's capital is
      Panama City?" -- "Panama City");
    - a state named by a word of the answer's family ("Dominican Republic" for
      "Dominica", "Dominica" for "Dominican Republic"), unless the demonym table
      makes the word the answer's own ("French Republic" for "France")."""
    short, long = (core, answer) if len(core) < len(answer) else (answer, core)
    if len(short) != 1 or len(long) != 2:
        return None
    word, head = long
    if head == "city" and word == short[0]:
        if not qtok or ("city" in qtok and not qtok.issuperset(core)):
            return None
        return head
    if head in _STATE_WORDS and word != short[0] and word[:4] == short[0][:4] and (
            _DEMONYMS.get(word) != short[0]):
        return head
    return None


def kind_change(core: tuple[str, ...], accept: tuple[_Alt, ...], qtok: frozenset[str]
                ) -> Decision | None:
    """Wrong when the short answer adds or drops a word that makes it another kind of
    entity than an acceptable answer (:func:`_kind_changed`: "Mexico City" for
    "Mexico", "Dominican Republic" for "Dominica") and matches no other one."""
    if len(core) > 2 or (core[-1] not in _STATE_WORDS and core[-1] != "city" and not any(
            a.toks[-1] == "city" or a.toks[-1] in _STATE_WORDS for a in accept)):
        return None
    for a in accept:
        word = _kind_changed(core, a.toks, qtok)
        if word is not None:
            verb = "adds" if len(core) > len(a.toks) else "drops"
            return _decide("other-entity", False, a.alt.text,
                           f"{verb} '{word}', so it names another entity than '{a.alt.text}'")
    return None


@lru_cache(maxsize=4096)
def hyphen_words(text: str) -> frozenset[str]:
    """The normalized words of ``text`` that are parts of a hyphenated name
    ("Guinea-Bissau", "Austria-Hungary"; not "left-sided": a capital first)."""
    if "-" not in text:
        return _NONE
    return frozenset(t for w in text.split() if "-" in w.strip("-") and w[:1].isupper()
                     for t in tokens(w))


@lru_cache(maxsize=4096)
def comma_head(text: str) -> tuple[str, ...]:
    """The tokens of ``text`` before its first comma, articles dropped."""
    return strip_articles(tokens(text.split(",", 1)[0]))


@lru_cache(maxsize=16384)
def proper_words(text: str) -> frozenset[str]:
    """The normalized words of ``text`` written with a capital (a name's words); in
    a script without case (Korean, ...) every word."""
    if text.lower() == text.upper() and not text.isascii() and any(map(str.isalpha, text)):
        return frozenset(tokens(text))
    return frozenset(t for w in text.split() if w[:1].isupper() for t in tokens(w))


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


def number_words(core_norm: str, cand_nums: frozenset[str], accept: tuple[_Alt, ...],
                 numeric: Sequence[_Alt], qtok: frozenset[str] = _NONE) -> Decision | None:
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
        if value is None:
            if numeric and any(m in core_norm for m in DECIMAL_MARKS):
                decimal = _decimal_words(core_norm, numeric)
                if decimal is not None:
                    return decimal
            return _phrase_number(core_norm, accept, numeric) if numeric else None
        for a in numeric:
            if (str(value) in a.nums or _scaled(a.toks) == value) and not _other_counter(
                    core_norm, a.norm):
                return _decide("number-words", True, a.alt.text,
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
                return _decide("number-words", True, a.alt.text,
                               f"'{core_norm}' reads as {value}, as '{a.alt.text}' does")
        if len(numeric) == len(accept) or (worded and all(v is not None for _a, v in worded)):
            first = (numeric or accept)[0].alt.text
            return _decide("number", False, first, f"'{core_norm}' reads as {value}, not '{first}'")
        return None
    if cand_nums and len(numeric) < len(accept) and len(cand_nums) == 1:
        for a in accept:
            if not a.nums:
                value = read_number_cached(a.norm)
                if value is not None and str(value) in cand_nums:
                    return _decide("number-words", True, a.alt.text,
                                   f"'{a.alt.text}' reads as {value}")
    return None


read_number_cached = lru_cache(maxsize=16384)(read_number)


_DEGREE = ("angle", "deg")


def _said_units(toks: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """The units ``toks`` say (``degrees`` is an angle unless a temperature unit is said
    with it: "100 degrees Celsius")."""
    said = frozenset().union(*(UNITS[t] for t in toks if t in UNITS))
    if _DEGREE in said and any(k == "temperature" for k, _u in said):
        said = said - {_DEGREE}
    return said


def other_unit(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
    """Wrong when the short answer gives an acceptable answer's number in another unit
    of the same kind ("100 miles" for "100 kilometers", "132 kaki" for "132 meter",
    "42.195마일" for "42.195킬로미터"; :data:`judging.numbers.UNITS`): every acceptable
    answer with a unit whose numbers the answer gives says another unit, and none says
    the answer's. An answer without a unit (``[accept 100]``) says nothing of the unit."""
    said = _said_units(core)
    kinds = {k for k, _u in said}
    other = None
    for a in accept:
        units = _said_units(a.toks)
        if not units or not a.nums:
            continue
        if units & said:
            return None
        if other is None and {k for k, _u in units} & kinds:
            other = a
    if other is None:
        return None
    theirs = " ".join(t for t in other.toks if t in UNITS)
    mine = " ".join(t for t in core if t in UNITS)
    return _decide("number", False, other.alt.text,
                   f"says '{mine}' where '{other.alt.text}' has '{theirs}': another unit")


# generic words said with a currency's name: Thai เงิน ("money") before it (เงินบาท,
# เงินเยน), Korean 화 (貨) after it (원화, 엔화, 달러화)
MONEY_BEFORE = unicodedata.normalize("NFKC", "เงิน")
MONEY_AFTER = "화"


def currency_word(core_norm: str, accept: tuple[_Alt, ...]) -> Decision | None:
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
            return _decide("affix", True, a.alt.text,
                           f"'{core_norm}' is the currency '{a.alt.text}' with the word for money")
    return None


# words that make a number a decade in the seed languages (folded, as tokenized): vi
# "thập niên 60", "những năm 60", id/ms "tahun 60-an", ko "60년대", zh/ja "60年代"
DECADE_MARKS = frozenset({"nien", "an", "년대", "年代"})
# words a decade may add or drop around its number ("tahun 60-an" for "1960-an")
_DECADE_FRAME = frozenset({"thap", "nien", "nhung", "nam", "tahun", "an", "the"})


def decade_words(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
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
            return _decide("decade", True, a.alt.text,
                           f"'{' '.join(core)}' is the decade of '{a.alt.text}' without its "
                           f"century")
    return None


# the question words that ask for a person (the question as normalized: zh/ja 谁 after
# zhconv, th ใคร, ko 누구, vi ai, id/ms siapa)
_WHO = ("谁", "だれ", "ใคร", "누구", "who")
_WHO_WORDS = frozenset({"ai", "siapa", "siapakah", "who", "whom", "누구"})


@lru_cache(maxsize=4096)
def asks_who(qnorm: str) -> bool:
    """Does a question (its tokens joined by spaces) ask for a person?"""
    return any(w in qnorm for w in _WHO[:4]) or not _WHO_WORDS.isdisjoint(qnorm.split())


def surname_in_run(cand: str, accept: tuple[_Alt, ...]) -> Decision | None:
    """Rule 10 for names written in scripts without spaces: correct when the short
    answer is the last part of an acceptable name of two to four parts (``フレミング``
    for ``アレクサンダー・フレミング``, ``弗莱明`` for ``亚历山大·弗莱明``, ``เฮมิงเวย์`` for
    ``เออร์เนสต์ เฮมิงเวย์``), its affixes aside. Asked only for a question about a
    person (these scripts have no capitals to tell a name from a place)."""
    for a in accept:
        parts = a.norm.split()
        if 2 <= len(parts) <= 4 and NOSPACE.search(parts[-1]) and len(parts[-1]) >= 2 and (
                find_in_run(parts[-1], cand) == "exact"):
            return _decide("surname", True, a.alt.text,
                           f"'{cand}' is the surname of '{a.alt.text}'")
    return None


# Korean titles that may stand before a surname ("대통령 링컨": President Lincoln)
_KO_TITLES = frozenset({"대통령", "장군", "감독", "박사", "교수", "왕", "여왕", "황제", "총리",
                        "수상", "선생", "작가", "가수", "배우", "선수", "회장", "전"})


def other_person_hangul(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
    """Rule 11 for names written in Hangul (no capitals tell a name there, so asked only
    for a question about a person): wrong when the two-word answer has an acceptable
    name's surname after another given name (``마리엘 헤밍웨이`` for ``어니스트 헤밍웨이
    [accept 헤밍웨이]``, ``젭 부시`` for ``조지 W. 부시``), even when the surname alone is
    accepted."""
    if len(core) != 2 or core[0] in _KO_TITLES or any(a.toks == core for a in accept):
        return None
    for a in accept:
        if len(a.toks) >= 2 and a.toks[-1] == core[-1] and core[0] not in a.toks and (
                HANGUL.search(a.toks[-1])):
            return _decide("other-person", False, a.alt.text,
                           f"'{' '.join(core)}' shares only the surname with '{a.alt.text}'")
    return None


def _decimal_words(core_norm: str, numeric: Sequence[_Alt]) -> Decision | None:
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
            return _decide("number-words", True, a.alt.text,
                           f"'{core_norm}' reads as {decimal}, as in '{a.alt.text}'")
    return None


def _phrase_number(core_norm: str, accept: tuple[_Alt, ...], numeric: Sequence[_Alt]
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
    for a in numeric:
        digits = [i for i, t in enumerate(a.toks) if t in a.nums]
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
            return _decide("number-words", True, a.alt.text,
                           f"'{core_norm}' says the number of '{a.alt.text}' in words")
        other = other or a
    if other is not None and len(numeric) == len(accept):
        return _decide("number", False, other.alt.text,
                       f"'{core_norm}' says another number than '{other.alt.text}'")
    return None


def _other_counter(text: str, answer: str) -> bool:
    """Do two numbers carry different counters (``三月`` "March" and ``3日`` "the 3rd",
    ``삼 년`` and ``3개월``, ``tiga hari`` and ``3 bulan``)? Only when both are one
    number with a counter; spaces between the number and its counter do not count."""
    a, c = whole_number(answer), whole_number(text)
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


# counters that count the same thing (months: Korean 달 and 개월, Japanese か月 and ヶ月)
_SAME_COUNTER = {unicodedata.normalize("NFKC", "\x00" + k): "\x00" + v for k, v in {
    "달": "개월", "ヶ月": "か月", "カ月": "か月", "ケ月": "か月", "箇月": "か月", "个月": "か月",
    "個月": "か月"}.items()}


def may_be_number(word: str) -> bool:
    """Could a number word of another language start with ``word`` (see
    :func:`judging.numbers.read_number`)?"""
    return word[:1] in FIRST_CHARS or word in FIRST_WORDS or word[:2] in (
        "ke", "th") or word == "tahun" or (  # (id/ms "tahun seribu ...": "the year 1...")
        word[:3] == "ika")  # (tl ordinals: "ikalawa", "ikaapat")


_SCRIPT_RANK = {"exact": 5, "found": 4, "negated": 3, "hedged": 3, "embedded": 2, "shares": 1,
                "none": 0}
# a candidate up to this many characters is "short" in a script without spaces
_SHORT_RUN = 40


def _mark_clusters(text: str) -> list[tuple[str, str]]:
    """(letter, its combining marks) for each letter or digit of ``text`` (NFD, lower
    case; ``đ`` counts as ``d``)."""
    out: list[tuple[str, str]] = []
    for ch in unicodedata.normalize("NFD", text.lower().replace("đ", "d")):
        if unicodedata.combining(ch):
            if out:
                out[-1] = (out[-1][0], out[-1][1] + ch)
        elif ch.isalnum():
            out.append((ch, ""))
    return out


# letters only Vietnamese writes (ơ ư ă đ, and the tone-marked vowels of U+1EA0-U+1EF9)
_VIETNAMESE = re.compile("[\u01a0\u01a1\u01af\u01b0\u0102\u0103\u0110\u0111\u1ea0-\u1ef9]")


def marks_conflict(a: str, b: str) -> bool:
    """Do two Vietnamese texts with the same letters carry different marks on one
    letter, both marked (``phô`` "show off" and ``phở`` the soup; tone and vowel marks
    make words)? A letter without marks on one side is no conflict (``Ha Noi``, ``Hà
    Noi`` for ``Hà Nội``), nor a mark dropped from a letter that keeps another (``Huê``
    for ``Huế``), nor another language's accent typed wrong (``Beyoncè``)."""
    if not (_VIETNAMESE.search(a) or _VIETNAMESE.search(b)):
        return False
    ca, cb = _mark_clusters(a), _mark_clusters(b)
    if len(ca) != len(cb):
        return False
    if any(x[0] != y[0] for x, y in zip(ca, cb, strict=True)):
        return False
    # both marked, neither marks a part of the other's ("Huê" for "Huế" only drops a tone)
    return any(x[1] and y[1] and not (set(x[1]) <= set(y[1]) or set(y[1]) <= set(x[1]))
               for x, y in zip(ca, cb, strict=True))


def hangul_spacing(core_norm: str, accept: tuple[_Alt, ...]) -> Decision | None:
    """Correct when a Korean short answer equals an acceptable answer up to spaces:
    the spacing of Korean compounds is free (``스타트렉`` / ``스타 트렉``, ``세계대전`` /
    ``세계 대전``)."""
    if not HANGUL.search(core_norm):
        return None
    joined = core_norm.replace(" ", "")
    for a in accept:
        if " " in a.norm + core_norm and a.norm.replace(" ", "") == joined:
            return _decide("affix", True, a.alt.text,
                           f"matches '{a.alt.text}' up to the spacing of a compound")
    return None


_KANA = re.compile("[\u3041-\u3096\u30a1-\u30f6]")
# katakana to hiragana (the two syllabaries write the same sounds)
_HIRAGANA = {c: c - 0x60 for c in range(0x30A1, 0x30F7)}
# after that: ヴァ and バ, ヴィ and ビ ... write the same loanword (ヴァイオリン / バイオリン),
# and so do a word with and without its final long-vowel mark (コンピューター /
# コンピュータ; a mark inside a word stays: ボーリング "drilling" is not ボウリング)
_VU = (("ゔぁ", "ば"), ("ゔぃ", "び"), ("ゔぇ", "べ"), ("ゔぉ", "ぼ"), ("ゔ", "ぶ"))
_FINAL_LONG = re.compile("(?<=[\u30a1-\u30f6ー]{2}[\u30a1-\u30f6])ー(?![\u30a1-\u30f6ー])")


def _kana_key(text: str) -> str:
    """``text`` with a katakana word's final long-vowel mark dropped, katakana as
    hiragana and ヴ as the ば row (see above)."""
    if "ー" in text:
        text = _FINAL_LONG.sub("", text)  # (on katakana: the word ends where it does)
    text = text.translate(_HIRAGANA)
    if "ゔ" in text:
        for old, new in _VU:
            text = text.replace(old, new)
    return text


def script_rules(cand: str, accept: tuple[_Alt, ...], prompts: tuple[_Alt, ...],
                  rejects: tuple[_Alt, ...]) -> Decision | None:
    """Rule 3b: answers in Chinese, Japanese, Thai, Myanmar, Khmer or Lao, matched at
    character level (:func:`judging.scripts.find_in_run`). ``None`` when no answer of
    the answerline is in such a script, or the candidate is long and unmatched
    (the calibrator then decides)."""
    for r in rejects:
        if NOSPACE.search(r.norm) and find_in_run(r.norm, cand) in ("exact", "found"):
            return _decide("reject:do-not-accept", False, r.alt.text,
                           f"the answerline says do not accept '{r.alt.text}'")
    for p in prompts:
        if NOSPACE.search(p.norm) and find_in_run(p.norm, cand) == "exact":
            return _decide("prompt", False, p.alt.text,
                           f"the answerline says prompt on '{p.alt.text}'", prompt=True)
    best = "none"
    best_alt: _Alt | None = None
    scripted = 0
    for a in accept:
        if not NOSPACE.search(a.norm):
            continue
        scripted += 1
        kind = find_in_run(a.norm, cand)
        if _SCRIPT_RANK[kind] > _SCRIPT_RANK[best]:
            best, best_alt = kind, a
    if scripted and _SCRIPT_RANK[best] < _SCRIPT_RANK["negated"] and _KANA.search(cand):
        # the same word in hiragana and in katakana (ふじさん / フジサン, キジ / きじ), with
        # ヴ or バ, with or without its final long-vowel mark
        hira = _kana_key(cand)
        for a in accept:
            if not NOSPACE.search(a.norm):
                continue
            a_hira = _kana_key(a.norm)
            if (a_hira, hira) == (a.norm, cand):
                continue  # (neither has katakana: nothing changes)
            kind = find_in_run(a_hira, hira)
            if _SCRIPT_RANK[kind] > _SCRIPT_RANK[best]:
                best, best_alt = kind, a
    if best_alt is None:
        return None
    text = best_alt.alt.text
    if best == "exact":
        return _decide("affix", True, text,
                       f"matches '{text}' up to particles, copulas and suffixes")
    if best == "found":
        return _decide("contains-word", True, text, f"says '{text}' as a word")
    short = len(cand.replace(" ", "")) <= _SHORT_RUN
    if best == "negated" and short:
        return _decide("negation", False, text, f"the answer negates '{text}'")
    if best == "hedged" and short:
        return _decide("hedge", False, text,
                       f"the answer hedges between '{text}' and another answer")
    if best in ("embedded", "shares") and short:
        detail = (f"has '{text}' only inside another word" if best == "embedded"
                  else f"shares characters with '{text}' but is another word")
        return _decide("other-word", False, text, detail)
    if best == "none" and short and scripted == len(accept) and NOSPACE.search(cand):
        return _decide("no-match", False, None,
                       "shares no character with any acceptable answer")
    return None


_DECIMAL = re.compile(r"\d+\.\d+")


def _alt_fraction(a: _Alt) -> Fraction | None:
    return read_fraction(a.alt.text, " ".join(tokens(a.alt.text)))


def fraction(text: str, core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
    """A short answer that is a fraction (:func:`judging.numbers.read_fraction`: ``3분의
    1``, ``三分之二``, ``two thirds``, ``dua pertiga``) against answers that are fractions
    (or decimals): correct when one has its value, wrong when every acceptable answer is
    a fraction of another value ("3분의 1" for "2/3" shared the digits 2 and 3); ``None``
    when an acceptable answer is no fraction."""
    mine = read_fraction(text, " ".join(core))
    if mine is None and len(core) == 1 and _DECIMAL.fullmatch(core[0]):
        mine = Fraction(core[0])  # a decimal against fractions: "0.75" for "3/4"
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
            return _decide("number-words", True, a.alt.text,
                           f"'{text}' is the fraction {mine}, as '{a.alt.text}'")
        if abs(theirs - mine) < Fraction(1, 100):
            return None  # (a rounded decimal: "0.33" for "1/3" is left to the other rules)
        other = other or a
    if other is None:
        return None
    return _decide("number", False, other.alt.text,
                   f"'{text}' is the fraction {mine}, not '{other.alt.text}'")


# Words that tell two people of one name apart (the last word of the name, or "the"
# and it): a regnal or generational numeral, and the generation words, which say young
# or old; a numeral and a generation word are not compared ("Johann Strauss II" is "the
# Younger", another family's II need not be)
_GENERATION = {"jr": "young", "junior": "young", "younger": "young", "fils": "young",
               "sr": "old", "senior": "old", "elder": "old", "pere": "old",
               "i": "1", "ii": "2", "iii": "3", "iv": "4", "1": "1", "2": "2", "3": "3", "4": "4"}
GENERATION_WORDS = frozenset(_GENERATION)


def _generation(toks: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """A name's words less its generation mark, and the mark (``None``: none)."""
    mark = _GENERATION.get(toks[-1]) if len(toks) >= 2 else None
    if mark is None:
        return toks, None
    base = toks[:-2] if len(toks) >= 3 and toks[-2] == "the" else toks[:-1]
    return base, mark


def generation(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
    """Wrong when a short name ends with a generation mark (``Johann Strauss I``,
    ``Alexandre Dumas fils``, ``Pliny the Younger``) and an acceptable answer is the same
    name with another mark of the same kind (``Johann Strauss II``, ``Dumas père``) or,
    for a young/old mark, with none while another acceptable answer has the other mark
    ("Alexandre Dumas fils" for "Alexandre Dumas [accept Dumas père]"). ``None`` when an
    acceptable answer has the answer's mark, or the names differ (``Henry VII``)."""
    base, mark = _generation(core)
    if mark is None or not base or not all(t.isalpha() for t in base):
        return None
    marks = [_generation(a.toks) for a in accept]
    if any(m == mark for _b, m in marks):
        return None
    numeral = mark.isdigit()
    others = {m for _b, m in marks if m is not None and m.isdigit() == numeral}
    for a, (a_base, a_mark) in zip(accept, marks, strict=True):
        if a_base != base:
            continue
        if (a_mark is not None and a_mark.isdigit() == numeral) or (
                a_mark is None and not numeral and others):
            return _decide("other-person", False, a.alt.text,
                           f"'{' '.join(core)}' names another generation than "
                           f"'{a.alt.text}'")
    return None

