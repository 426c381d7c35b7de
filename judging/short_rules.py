"""The rules of the judge (since version 2026.12.4) for short answers and other scripts (pure
Python, no Django): rule 3b (scripts without spaces), 12a (another generation of one
name), 12b (confusable entities), 12c (another word sharing a word's start), 12d
(another entity built on the answer), 12e (another kind of entity), 12f (another
subtitle) and the rules for people's names in other scripts, as numbered in
docs/judging.md. The rules for numbers are in :mod:`judging.number_rules`.

:mod:`judging.equivalence` calls them in its rule order and turns their
:data:`Decision` into its ``Analysis``. They read the answerline's prepared
alternatives (``preparation.Alt``: ``norm``, ``toks``, ``nums``, ``months``,
``person``, ``head`` and ``alt.text``) and return ``None`` when they do not decide.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from judging.entities import (
    BUILT_WORDS,
    LICENSED,
    PLACES,
    VIETNAMESE,
    club_city,
    head_first,
    named_after,
    other_word,
    substitution,
)
from judging.features import find_runs
from judging.normalize import _DEMONYMS, STOPWORDS, strip_articles, tokens
from judging.preparation import NOT_PERSON_FIRST
from judging.scripts import HANGUL, NOSPACE, find_in_run, in_a_clause

if TYPE_CHECKING:
    from judging.preparation import Alt

__all__ = [
    "GENERATION_WORDS",
    "PLACE_KIND_WORDS",
    "Decision",
    "asks_person",
    "asks_who",
    "built_on",
    "comma_head",
    "confusable",
    "decide",
    "generation",
    "hyphen_words",
    "other_person_hangul",
    "place_named",
    "prefix_word",
    "proper_words",
    "script_rules",
    "surname_in_run",
]

# (rule, correct, matched answerline text, detail, prompt)
Decision = tuple[str, bool, "str | None", str, bool]


def decide(rule: str, correct: bool, matched: str | None, detail: str, *,
            prompt: bool = False) -> Decision:
    """A rule's :data:`Decision` (shared by :mod:`judging.number_rules`)."""
    return (rule, correct, matched, detail, prompt)


# Stop words that are words of a title ("Let It Be" / "Let It Go", "For a Few Dollars More"
# / "A Fistful of Dollars"): compared as words when the answer is capitalized as a title
# (h-probe13); articles, prepositions and conjunctions are not
_TITLE_STOPS: Final = frozenset(w for w in STOPWORDS if w.isascii() and len(w) > 1) - frozenset({
    "'s", "an", "and", "or", "nor", "of", "in", "on", "at", "to", "for", "with", "by", "from",
    "into", "as", "than", "the"})


def _title_stops(core: tuple[str, ...], answer: tuple[str, ...]) -> frozenset[str]:
    """The title stop words of either side (``_NONE`` when there are none, the common
    case)."""
    if _TITLE_STOPS.isdisjoint(answer) and _TITLE_STOPS.isdisjoint(core):
        return _NONE
    return _TITLE_STOPS.intersection(answer) | _TITLE_STOPS.intersection(core)


# Tagalog articles before a person's name (not Vietnamese "sĩ", which folds to "si":
# "Ca sĩ", a singer)
_TL_NAME_ARTICLES: Final = frozenset({"si", "sina", "kay", "kina"})


def confusable(core: tuple[str, ...], accept: tuple[Alt, ...],
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
    if len(core) >= 2 and core[0] in _TL_NAME_ARTICLES and "sĩ" not in text.lower():
        core = core[1:]  # the Tagalog article before a name: "Si Rizal" (blind27)
    found = None
    surname_only = False
    head: tuple[str, ...] | None = None
    first = head_first(qtok, text)  # (or an answer's Vietnamese letters, per answer)
    for a in accept:
        proper = proper_words(a.alt.text)
        # letters with marks on either side (Vietnamese): a capitalized word that
        # folds to an English stop word is still a name ("Mỹ", "Tổ")
        keep = proper | proper_words(text) if not (text.isascii() and a.alt.text.isascii()) \
            else _title_stops(core, a.toks) if len(proper) >= 2 and not a.person else _NONE
        sub = substitution(core, a.toks, qtok, months=bool(a.months), proper=proper,
                           person=a.person, hyphen=hyphen_words(a.alt.text),
                           joined=hyphen_words(text) if "-" in text else _NONE, keep=keep,
                           head_first=first or head_first(_NONE, a.alt.text))
        if sub is None:
            continue
        if sub is LICENSED or (a.head and substitution(
                core, a.head, qtok, proper=proper) is LICENSED):
            if (len(a.toks) < len(core) and core[-1] == a.toks[-1]
                    and core[0] not in NOT_PERSON_FIRST
                    and any(b.person and len(b.toks) > 1 and b.toks[-1] == core[-1]
                            and b is not a for b in accept)):
                # a surname accepted alone (or with initials) licenses no other given
                # name before it: "Johann Christian Bach" for "Johann Sebastian Bach
                # [accept J. S. Bach; accept Bach]" (h-probe13); the full name decides
                surname_only = True
                continue
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
    if surname_only and not (a.person and a.toks[-1] == core[-1]):
        return None
    if sub.kind == "installment":
        detail = f"drops the number {sub[2]} of '{a.alt.text}' (another installment)"
        return decide("installment", False, a.alt.text, detail)
    if sub.kind == "given":
        detail = (f"drops the last name words '{sub[2]}' of '{a.alt.text}': another person "
                  f"or work")
        return decide("other-entity", False, a.alt.text, detail)
    if sub.kind == "title":
        detail = f"drops '{sub[2]}' of '{a.alt.text}': another work or the whole series"
        return decide("other-entity", False, a.alt.text, detail)
    if sub.kind == "extends":
        detail = f"extends '{a.alt.text}' by '{sub[1]}': the name of another entity"
        return decide("other-entity", False, a.alt.text, detail)
    if sub.kind == "initials":
        detail = (f"keeps only the middle initials '{sub[1]}' of '{sub[2]}' in "
                  f"'{a.alt.text}': another person")
        return decide("other-person", False, a.alt.text, detail)
    if sub.kind == "part":
        detail = f"drops '{sub[2]}' of the hyphenated name '{a.alt.text}': another entity"
        return decide("other-entity", False, a.alt.text, detail)
    if sub.kind == "qualifier":
        word = sub[1] or sub[2]
        verb = "adds" if sub[1] else "drops"
        detail = f"{verb} the qualifier '{word}', so it names another entity than '{a.alt.text}'"
    else:
        detail = (f"says '{sub[1]}' where '{a.alt.text}' has '{sub[2]}': another entity "
                  f"sharing a word")
    return decide("other-entity", False, a.alt.text, detail)


def subtitle(core: tuple[str, ...], text: str, accept: tuple[Alt, ...],
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
            return decide("other-entity", False, a.alt.text,
                           f"adds the subtitle '{' '.join(rest)}' to '{a.alt.text}': "
                           f"another installment")
    return None


_AND_THE: Final = re.compile(r"\s+and\s+the\s+", re.IGNORECASE)


def other_sequel_title(text: str, accept: tuple[Alt, ...]) -> Decision | None:
    """Wrong when the answer is a series title of the form "X and the Y" with another
    Y than every acceptable answer of that series ("Harry Potter and the Chamber of
    Secrets" for "Harry Potter and the Philosopher's Stone", "Indiana Jones and the
    Temple of Doom" for "... and the Last Crusade"; blind18): the Ys share no word.
    ``None`` otherwise (another answer is left to the other rules)."""
    parts = _AND_THE.split(text, maxsplit=1)
    if len(parts) != 2:
        return None
    head = strip_articles(tokens(parts[0]))
    mine = {t for t in tokens(parts[1]) if t not in STOPWORDS}
    if not head or not mine:
        return None
    found = None
    for a in accept:
        theirs = _AND_THE.split(a.alt.text, maxsplit=1)
        if len(theirs) != 2 or strip_articles(tokens(theirs[0])) != head:
            continue
        if not mine.isdisjoint(tokens(theirs[1])):
            return None
        found = found or a
    if found is None:
        return None
    return decide("other-entity", False, found.alt.text,
                  f"names another title of the series of '{found.alt.text}'")


def other_subtitle(text: str, accept: tuple[Alt, ...]) -> Decision | None:
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
    return decide("other-entity", False, found.alt.text,
                   f"gives another subtitle than '{found.alt.text}': another installment")


# words an acronym may skip ("United States of America" -> USA)
_ACRONYM_SKIP: Final = frozenset({"of", "the", "and", "for", "on", "in", "de", "du", "des", "a", "an"})
_ROMAN_TAIL: Final = {"I": "1", "II": "2", "III": "3", "IV": "4", "V": "5"}


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


def acronym(text: str, accept: tuple[Alt, ...]) -> Decision | None:
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
            return decide("acronym", True, a.alt.text,
                           f"'{written}' is the acronym of '{a.alt.text}'")
    return None


# id/ms particles written onto the word before them: emphasis, question, "too", and
# "-nya" (its, the: "kucingnya")
_ENCLITICS: Final = frozenset({"lah", "kah", "pun", "nya"})


def prefix_word(core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
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
        if len(pair[1]) >= 3 and pair[0][len(pair[1]):] in _ENCLITICS and pair[0].startswith(
                pair[1]):
            # the Indonesian/Malay particles written onto a word ("kucinglah", "Jakartakah";
            # blind19): the same word
            return decide("affix", True, a.alt.text,
                          f"says '{pair[1]}' with the particle '-{pair[0][len(pair[1]):]}'")
        if found is None:
            found = decide("other-word", False, a.alt.text,
                            f"says '{pair[0]}' where '{a.alt.text}' has '{pair[1]}': another "
                            f"word sharing its start")
    return found


def built_on(core: tuple[str, ...], accept: tuple[Alt, ...],
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
            found = found or decide("prompt:club", False, a.alt.text,
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
            found = decide("other-entity", False, a.alt.text,
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
_STATE_WORDS: Final = frozenset({"republic"})


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


def kind_change(core: tuple[str, ...], accept: tuple[Alt, ...], qtok: frozenset[str]
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
            return decide("other-entity", False, a.alt.text,
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


_WHO: Final = ("谁", "だれ", "ใคร", "누구", "who")
_WHO_WORDS: Final = frozenset({"ai", "siapa", "siapakah", "sino", "who", "whom", "누구"})  # (tl "sino")


@lru_cache(maxsize=4096)
def asks_who(qnorm: str) -> bool:
    """Does a question (its tokens joined by spaces) ask for a person?"""
    return any(w in qnorm for w in _WHO[:4]) or not _WHO_WORDS.isdisjoint(qnorm.split())


def surname_in_run(cand: str, accept: tuple[Alt, ...]) -> Decision | None:
    """Rule 10 for names written in scripts without spaces: correct when the short
    answer is the last part of an acceptable name of two to four parts (``フレミング``
    for ``アレクサンダー・フレミング``, ``弗莱明`` for ``亚历山大·弗莱明``, ``เฮมิงเวย์`` for
    ``เออร์เนสต์ เฮมิงเวย์``), its affixes aside. Asked only for a question about a
    person (these scripts have no capitals to tell a name from a place)."""
    for a in accept:
        parts = a.norm.split()
        if 2 <= len(parts) <= 4 and NOSPACE.search(parts[-1]) and len(parts[-1]) >= 2 and (
                find_in_run(parts[-1], cand) == "exact"):
            return decide("surname", True, a.alt.text,
                           f"'{cand}' is the surname of '{a.alt.text}'")
    return None


# the question words a kind word follows (zh/ja: 第几交响曲, 哪个国家, 何交響曲) or precedes (th:
# ประเภทใด)
_ASK_BEFORE: Final = ("几", "幾", "哪", "什么", "什麼", "何", "どの", "どんな")
_ASK_AFTER: Final = ("ใด", "อะไร", "ไหน")


def _asked_kind(rest: str, question: str) -> bool:
    """Does ``rest`` stand in ``question`` right after a question word or before one (the
    kind of thing asked: 交响曲 in "是第几交响曲")?"""
    i = question.find(rest)
    while i >= 0:
        if question[:i].endswith(_ASK_BEFORE) or question[i + len(rest):].startswith(
                _ASK_AFTER):
            return True
        i = question.find(rest, i + 1)
    return False


def question_part(cand: str, accept: tuple[Alt, ...], question: str) -> Decision | None:
    """Rule 3b, an answer in a script without spaces said without the kind of thing the
    question asks for (h-probe13): correct when the short answer is an acceptable answer's
    start or end and the rest (two characters or more) is the word the question asks with
    (``第五`` for ``第五交响曲`` after "……是第几交响曲？", was ``other-word``; not ``เกาหลี`` for
    ``เกาหลีใต้`` after a question that says ใต้ elsewhere). ``question`` is normalized as
    the answers are, without spaces."""
    c = cand.replace(" ", "")
    if len(c) < 2:
        return None
    for a in accept:
        n = a.norm.replace(" ", "")
        if abs(len(n) - len(c)) < 2 or len(n) < 2 or not NOSPACE.search(n):
            continue
        if (n.startswith(c) and _asked_kind(n[len(c):], question)) or (
                n.endswith(c) and _asked_kind(n[:-len(c)], question)):
            return decide("affix", True, a.alt.text,
                           f"'{cand}' is '{a.alt.text}' less the kind the question asks for")
        if len(c) - len(n) >= 2 and c.endswith(n):
            # ... or after a name the question says (贝多芬第五交响曲 for 第五交响曲 after
            # "贝多芬的命运交响曲是哪一首？"), 的 or の between them or not
            head = c[:-len(n)]
            if head[-1] in "的の":
                head = head[:-1]
            if len(head) >= 2 and head in question:
                return decide("affix", True, a.alt.text,
                               f"'{cand}' is '{a.alt.text}' after a name the question says")
        if len(c) - len(n) >= 2 and c.startswith(n) and _asked_kind(c[len(n):], question):
            # ... or with it: 第5号交响曲 for 第5号
            return decide("affix", True, a.alt.text,
                           f"'{cand}' is '{a.alt.text}' and the kind the question asks for")
    return None


# Korean titles that may stand before a surname ("대통령 링컨": President Lincoln)
_KO_TITLES: Final = frozenset({"대통령", "장군", "감독", "박사", "교수", "왕", "여왕", "황제", "총리",
                        "수상", "선생", "작가", "가수", "배우", "선수", "회장", "전"})


def other_person_hangul(core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
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
            return decide("other-person", False, a.alt.text,
                           f"'{' '.join(core)}' shares only the surname with '{a.alt.text}'")
    return None


_SCRIPT_RANK: Final = {"exact": 5, "found": 4, "negated": 3, "hedged": 3, "embedded": 2, "shares": 1,
                "none": 0}
# a candidate up to this many characters is "short" in a script without spaces
_SHORT_RUN: Final = 40


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




def marks_conflict(a: str, b: str, question: str = "") -> bool:
    """Do two Vietnamese texts with the same letters carry different marks on one
    letter, both marked (``phô`` "show off" and ``phở`` the soup; tone and vowel marks
    make words)? A letter without marks on one side is no conflict (``Ha Noi``, ``Hà
    Noi`` for ``Hà Nội``), nor a mark dropped from a letter that keeps another (``Huê``
    for ``Huế``), nor another language's accent typed wrong (``Beyoncè``). The texts
    are Vietnamese when one of them or the ``question`` has a letter only Vietnamese
    writes: ``cà`` (eggplant) for ``cá`` (fish) uses French letters (blind19)."""
    if not (VIETNAMESE.search(a) or VIETNAMESE.search(b) or (
            question and VIETNAMESE.search(question))):
        return False
    ca, cb = _mark_clusters(a), _mark_clusters(b)
    if len(ca) != len(cb):
        return False
    if any(x[0] != y[0] for x, y in zip(ca, cb, strict=True)):
        return False
    # both marked, neither marks a part of the other's ("Huê" for "Huế" only drops a tone)
    return any(x[1] and y[1] and not (set(x[1]) <= set(y[1]) or set(y[1]) <= set(x[1]))
               for x, y in zip(ca, cb, strict=True))


def hangul_spacing(core_norm: str, accept: tuple[Alt, ...]) -> Decision | None:
    """Correct when a Korean short answer equals an acceptable answer up to spaces:
    the spacing of Korean compounds is free (``스타트렉`` / ``스타 트렉``, ``세계대전`` /
    ``세계 대전``)."""
    if not HANGUL.search(core_norm):
        return None
    joined = core_norm.replace(" ", "")
    for a in accept:
        if " " in a.norm + core_norm and a.norm.replace(" ", "") == joined:
            return decide("affix", True, a.alt.text,
                           f"matches '{a.alt.text}' up to the spacing of a compound")
    return None


_KANA: Final = re.compile("[\u3041-\u3096\u30a1-\u30f6]")
# katakana to hiragana (the two syllabaries write the same sounds)
_HIRAGANA: Final = {c: c - 0x60 for c in range(0x30A1, 0x30F7)}
# after that: ヴァ and バ, ヴィ and ビ ... write the same loanword (ヴァイオリン / バイオリン),
# and so do a word with and without its final long-vowel mark (コンピューター /
# コンピュータ; a mark inside a word stays: ボーリング "drilling" is not ボウリング)
_VU: Final = (("ゔぁ", "ば"), ("ゔぃ", "び"), ("ゔぇ", "べ"), ("ゔぉ", "ぼ"), ("ゔ", "ぶ"))
_FINAL_LONG: Final = re.compile("(?<=[\u30a1-\u30f6ー]{2}[\u30a1-\u30f6])ー(?![\u30a1-\u30f6ー])")


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


def script_rules(cand: str, accept: tuple[Alt, ...], prompts: tuple[Alt, ...],
                  rejects: tuple[Alt, ...], clauses: tuple[str, ...] = ()) -> Decision | None:
    """Rule 3b: answers in Chinese, Japanese, Thai, Myanmar, Khmer or Lao, matched at
    character level (:func:`judging.scripts.find_in_run`). ``None`` when no answer of
    the answerline is in such a script, or the candidate is long and unmatched
    (the calibrator then decides). ``clauses``: the candidate's clauses as written
    (:func:`judging.scripts.clauses_of`), normalized; an answer that is only inside another word of the
    whole run may still end or start a clause ("东京，它是日本的首都")."""
    for r in rejects:
        if NOSPACE.search(r.norm) and find_in_run(r.norm, cand) in ("exact", "found"):
            return decide("reject:do-not-accept", False, r.alt.text,
                           f"the answerline says do not accept '{r.alt.text}'")
    for p in prompts:
        if NOSPACE.search(p.norm) and find_in_run(p.norm, cand) == "exact":
            return decide("prompt", False, p.alt.text,
                           f"the answerline says prompt on '{p.alt.text}'", prompt=True)
    best = "none"
    best_alt: Alt | None = None
    scripted = 0
    for a in accept:
        if not NOSPACE.search(a.norm):
            continue
        scripted += 1
        kind = find_in_run(a.norm, cand)
        if kind in ("embedded", "shares") and clauses:
            kind = in_a_clause(a.norm, clauses) or kind
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
            kind = find_in_run(a_hira, hira, words=False)
            if _SCRIPT_RANK[kind] > _SCRIPT_RANK[best]:
                best, best_alt = kind, a
    if best_alt is None:
        return None
    text = best_alt.alt.text
    if best == "exact":
        return decide("affix", True, text,
                       f"matches '{text}' up to particles, copulas and suffixes")
    if best == "found":
        return decide("contains-word", True, text, f"says '{text}' as a word")
    short = len(cand.replace(" ", "")) <= _SHORT_RUN
    if best == "negated" and short:
        return decide("negation", False, text, f"the answer negates '{text}'")
    if best == "hedged" and short:
        return decide("hedge", False, text,
                       f"the answer hedges between '{text}' and another answer")
    if best in ("embedded", "shares") and short:
        detail = (f"has '{text}' only inside another word" if best == "embedded"
                  else f"shares characters with '{text}' but is another word")
        return decide("other-word", False, text, detail)
    if best == "none" and short and scripted == len(accept) and NOSPACE.search(cand):
        return decide("no-match", False, None,
                       "shares no character with any acceptable answer")
    return None

# Words that tell two people of one name apart (the last word of the name, or "the"
# and it): a regnal or generational numeral, and the generation words, which say young
# or old; a numeral and a generation word are not compared ("Johann Strauss II" is "the
# Younger", another family's II need not be)
_GENERATION: Final = {"jr": "young", "junior": "young", "younger": "young", "fils": "young",
               "sr": "old", "senior": "old", "elder": "old", "pere": "old",
               "i": "1", "ii": "2", "iii": "3", "iv": "4", "1": "1", "2": "2", "3": "3", "4": "4"}
GENERATION_WORDS: Final = frozenset(_GENERATION)


def _generation(toks: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """A name's words less its generation mark, and the mark (``None``: none)."""
    mark = _GENERATION.get(toks[-1]) if len(toks) >= 2 else None
    if mark is None:
        return toks, None
    base = toks[:-2] if len(toks) >= 3 and toks[-2] == "the" else toks[:-1]
    return base, mark


def generation(core: tuple[str, ...], accept: tuple[Alt, ...]) -> Decision | None:
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
            return decide("other-person", False, a.alt.text,
                           f"'{' '.join(core)}' names another generation than "
                           f"'{a.alt.text}'")
    return None


# words that make a name a place's (en, vi "thành phố", id/ms "kota", "bandar", tl
# "lungsod"), when the answerline does not use them
PLACE_KIND_WORDS: Final = frozenset({"city", "town", "state", "county", "province", "thanh", "pho", "tinh",
                          "kota", "bandar", "lungsod", "siyudad"})
_PLACE_EXTRA: Final = PLACE_KIND_WORDS | {"of", "the", "ng", "di"}


def asks_person(question: str) -> bool:
    """Does the question ask for a person (its words with the stopwords: "who")?"""
    return asks_who(" ".join(tokens(question)))


def place_named(core: tuple[str, ...], persons: tuple[Alt, ...],
                 alt_tokens: frozenset[str]) -> Alt | None:
    """The person whose name (whole, or the surname) ``core`` holds with only place
    words beside it that the answerline does not use ("thanh pho ho chi minh"), else
    ``None``."""
    for a in persons:
        for name in (a.toks, (a.surname,) if a.surname else ()):
            pos = find_runs(core, name) if name else None
            if not pos:
                continue
            extra = core[:pos[0]] + core[pos[0] + len(name):]
            if extra and all(t in _PLACE_EXTRA for t in extra) and any(
                    t in PLACE_KIND_WORDS and t not in alt_tokens for t in extra):
                return a
    return None
