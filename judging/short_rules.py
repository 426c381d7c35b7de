"""The rules of judge version 2026.12.3 for short answers and other scripts (pure
Python, no Django): rule 3b (scripts without spaces), 7b (number words of other
languages), 12b (confusable entities), 12c (another word sharing a word's start)
and 12d (another entity built on the answer), as numbered in docs/judging.md.

:mod:`judging.equivalence` calls them in its rule order and turns their
:data:`Decision` into its ``Analysis``. They read the answerline's prepared
alternatives (``equivalence._Alt``: ``norm``, ``toks``, ``nums``, ``months``,
``person``, ``head`` and ``alt.text``) and return ``None`` when they do not decide.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from judging.entities import (
    BUILT_WORDS,
    LICENSED,
    club_city,
    named_after,
    other_word,
    substitution,
)
from judging.normalize import strip_articles, tokens
from judging.numbers import FIRST_CHARS, FIRST_WORDS, read_number
from judging.scripts import NOSPACE, find_in_run

if TYPE_CHECKING:
    from judging.equivalence import _Alt

__all__ = ["Decision", "built_on", "comma_head", "confusable", "hyphen_words",
           "may_be_number", "number_words", "prefix_word", "proper_words",
           "read_number_cached", "script_rules"]

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
    found = None
    head: tuple[str, ...] | None = None
    for a in accept:
        proper = proper_words(a.alt.text)
        sub = substitution(core, a.toks, qtok, months=bool(a.months), proper=proper,
                           person=a.person, hyphen=hyphen_words(a.alt.text),
                           joined=hyphen_words(text) if "-" in text else _NONE)
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


def built_on(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> Decision | None:
    """Rule 12d: wrong when the short answer is another entity built on an acceptable
    one-word answer, or the answer one built on it ("Real Madrid" for "Madrid",
    "Indian Ocean" for "India", "Dominican Republic" / "Dominica", see
    :func:`judging.entities.named_after`). Every acceptable answer that shares a word
    with the candidate must be so contradicted (an ``[accept]`` of the longer name
    licenses it); ``None`` otherwise. Only the city of a club named with a word
    before it ("Madrid" for "Real Madrid") is a prompt (rule ``prompt:club``), not
    wrong: the club's own fans may say it."""
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


def number_words(core_norm: str, cand_nums: frozenset[str], accept: tuple[_Alt, ...],
                  numeric: list[_Alt]) -> Decision | None:
    """Rule 7b: a short answer in number words of another language against a numeric
    answer ("三百二十五", "세 번", "ba trăm", "dua belas" for 325, 3, 300, 12), or
    digits against an answer in such words. Wrong when the values differ and every
    acceptable answer is a number."""
    if numeric and not cand_nums:
        value = read_number_cached(core_norm)
        if value is None:
            return None
        for a in numeric:
            if str(value) in a.nums:
                return _decide("number-words", True, a.alt.text,
                               f"'{core_norm}' reads as {value}, as in '{a.alt.text}'")
        if len(numeric) == len(accept):
            return _decide("number", False, numeric[0].alt.text,
                           f"'{core_norm}' reads as {value}, not '{numeric[0].alt.text}'",
                           )
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


def may_be_number(word: str) -> bool:
    """Could a number word of another language start with ``word`` (see
    :func:`judging.numbers.read_number`)?"""
    return word[:1] in FIRST_CHARS or word in FIRST_WORDS or word[:2] in (
        "ke", "th")


_SCRIPT_RANK = {"exact": 5, "found": 4, "negated": 3, "embedded": 2, "shares": 1, "none": 0}
# a candidate up to this many characters is "short" in a script without spaces
_SHORT_RUN = 40


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
    if best in ("embedded", "shares") and short:
        detail = (f"has '{text}' only inside another word" if best == "embedded"
                  else f"shares characters with '{text}' but is another word")
        return _decide("other-word", False, text, detail)
    if best == "none" and short and scripted == len(accept) and NOSPACE.search(cand):
        return _decide("no-match", False, None,
                       "shares no character with any acceptable answer")
    return None
