"""Confusable entities: a short answer that shares words with the answer but swaps
one the answerline does not license (pure Python, no Django).

``North Korea`` for ``South Korea``, ``C minor`` for ``C major``, ``Star Trek`` for
``Star Wars``, ``George Bush`` for ``George Washington``, ``Toy Story`` for ``Toy
Story 2``, ``Korea`` for ``North Korea``: sharing a word is what makes these look
right to a containment or token-overlap judge, and what makes them wrong. The judge
asks :func:`substitution` for each acceptable answer once no earlier rule settled a
short answer; only when *every* acceptable answer that shares a word with the
candidate is contradicted is the answer wrong (an ``[accept]`` that the candidate
matches licenses it).

A candidate word counts as one of the answer's words when it is the same word, a
close spelling (one edit in 6-9 letters, two in 10-13, ...), the same stem or word
family (``French`` ~ ``France``, ``Zoroastrian`` ~ ``Zoroastrianism``) or an
abbreviation or initial of it (``Mt`` ~ ``Mount``, ``F`` ~ ``Fitzgerald``). Generic
words (``city``, ``river``, ``film``, titles) and the question's own words are never
evidence of a substitution.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Final, NamedTuple

from rapidfuzz.distance import OSA, Levenshtein

from judging.features import max_edits
from judging.normalize import _DEMONYMS, STOPWORDS, stem, tokens
from judging.numbers import FIRST_WORDS
from judging.preparation import WORK_KINDS

__all__ = [
    "GENERIC",
    "LICENSED",
    "PLACES",
    "QUALIFIERS",
    "Substitution",
    "club_city",
    "named_after",
    "other_subtitle_word",
    "other_word",
    "same_word",
    "substitution",
]

# Countries (the demonym table's), US states and Canadian provinces: after a place
# they are an appositive ("Paris France", "Austin Texas"), not another name.
PLACES: Final = frozenset(_DEMONYMS.values()) | frozenset({
    "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut",
    "delaware", "florida", "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa",
    "kansas", "kentucky", "louisiana", "maine", "maryland", "massachusetts", "michigan",
    "minnesota", "mississippi", "missouri", "montana", "nebraska", "nevada", "ohio",
    "oklahoma", "oregon", "pennsylvania", "tennessee", "texas", "utah", "vermont",
    "virginia", "washington", "wisconsin", "wyoming", "usa", "us", "uk", "ontario",
    "quebec", "alberta", "manitoba", "saskatchewan", "england", "scotland", "wales",
    "europe", "asia", "africa", "carolina", "dakota", "hampshire", "jersey", "york"
})

# Words that distinguish one entity from a sibling sharing its other words: adding
# or dropping one is a different entity ("North Korea" / "Korea", "New York" / "York").
QUALIFIERS: Final = frozenset({
    "north", "south", "east", "west", "northern", "southern", "eastern", "western",
    "northeast", "northwest", "southeast", "southwest", "upper", "lower", "major",
    "minor", "new", "old", "greater", "lesser", "inner", "outer", "elder", "younger",
    "high", "low", "left", "right", "first", "last", "early", "late", "equatorial",
    # the seed languages' (after folding): id/ms, vi, tl, ko
    "utara", "selatan", "timur", "barat", "tengah", "bac", "nam", "dong", "tay", "xich", "hilagang",
    "timog", "silangan", "kanluran", "북", "남", "동", "서", "적도", "적", "북부", "남부",
    # ("적": 적도 after the particle 도 is stripped)
    # a club's first word makes a club of a place ("Real Madrid" / "Madrid", "Inter Milan")
    "real", "atletico", "inter", "sporting", "olympique", "dynamo", "dinamo",
    "레알", "아틀레티코", "인테르",
    # a state's distinguishing word ("Democratic Republic of the Congo" / "Republic of
    # the Congo")
    "democratic",
    # colours that tell siblings apart ("Blue Nile" / "White Nile" / "Nile")
    "blue", "white",
}) | frozenset({
    # an instrument's family in id/ms, and its or a voice's register (h-probe13, below:
    # _FAMILIES, _REGISTERS)
    "tiup", "pukul", "petik", "gesek",
    "bass", "alto", "tenor", "soprano", "baritone", "contrabass", "contralto", "sopranino",
    "piccolo", "mezzo", "알토", "테너", "소프라노", "바리톤", "베이스", "콘트라베이스",
})
# Words that describe rather than name: never the evidence of a substitution.
GENERIC: Final = frozenset({
    "city", "town", "village", "river", "mount", "mt", "mountain", "mountains", "lake",
    "island", "islands", "province", "state", "county", "country", "nation", "kingdom",
    "republic", "empire", "capital", "band", "group", "film", "movie", "novel", "book",
    "song", "album", "series", "show", "tv", "game", "play", "opera", "poem", "story",
    "team", "club", "university", "college", "company", "corporation", "inc", "co",
    "ltd", "dr", "mr", "mrs", "ms", "sir", "saint", "st", "king", "queen", "president",
    "general", "captain", "lord", "lady", "prince", "princess", "emperor", "pope",
    "jr", "sr", "people", "person", "man", "woman", "answer", "name", "called",
    "named", "known", "famous", "author", "writer", "singer", "actor", "actress",
    "composer", "painter", "artist", "scientist", "botanist", "physicist", "chemist",
    "poet", "novelist", "playwright", "philosopher", "mathematician", "astronaut",
    "explorer", "inventor", "engineer", "economist", "politician", "statesman", "region", "area", "district", "bay",
    "sea", "ocean", "language", "dynasty", "era", "period", "century", "year", "years",
    "yes", "correct", "probably", "maybe", "think", "believe", "sure", "obviously",
    "definitely", "certainly", "guess", "perhaps", "surely", "actually", "express",
    "justice", "judge", "senator", "governor", "mayor", "chief", "professor", "prof",
    "reverend", "rev", "father", "bishop", "cardinal", "archbishop", "duke", "earl",
    "count", "baron", "tsar", "czar", "sultan", "shah", "chancellor", "minister", "prime",
    "dame", "admiral", "colonel", "sergeant", "lieutenant", "coach", "doctor", "mister",
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
    # ranks and offices abbreviated ("Gen. MacArthur")
    "gen", "col", "lt", "sgt", "capt", "cpt", "adm", "gov", "sen", "pres", "maj",
    # a club's legal suffix ("Real Madrid CF", "Arsenal FC")
    "fc", "cf", "afc",
    # the seed languages' kind words of places (folded): vi vịnh (bay), núi (mountain);
    # id/ms gunung, sungai, selat, puncak, danau, pulau, teluk, tasik, bukit; tl bundok,
    # ilog, bulkan ("vịnh Lan Hạ" for "vịnh Hạ Long" shares only the kind and a syllable)
    "vinh", "nui", "gunung", "sungai", "selat", "puncak", "danau", "pulau", "teluk",
    "tasik", "bukit", "bundok", "ilog", "bulkan",
    # "brass instruments" for "Brass" is the family (h-probe13)
    "instrument",
})
# place words that name part of a name ("Manchester City", "Bay of Biscay")
_PLACE_WORDS: Final = frozenset({"city", "town", "river", "lake", "ocean", "sea", "bay", "mount",
                          "mountain", "island", "islands", "county", "state", "kingdom",
                          "republic", "empire", "dynasty", "band", "club", "team"})
_KEYS: Final = frozenset({"major", "minor"})  # musical keys: a qualifier even in lower case
# An instrument's register (h-probe13): a qualifier even in lower case, added, dropped or
# swapped ("bass clarinet" for "Clarinet", "clarinet" for "bass clarinet", "alto saxophone"
# for "tenor saxophone"; "bass guitar" for "guitar" was accepted at 0.89)
_REGISTERS: Final = frozenset({"bass", "alto", "tenor", "soprano", "baritone", "contrabass",
                        "contralto", "sopranino", "piccolo", "mezzo",
                        # ko (알토 색소폰, 베이스 기타)
                        "알토", "테너", "소프라노", "바리톤", "베이스", "콘트라베이스"})
# kinds of musical work: the same number with another kind is another work ("Piano
# Concerto No. 2" for "Symphony No. 2"; h-probe13)
# id/ms instrument families ("alat musik tiup" for "alat musik pukul": wind for struck)
_FAMILIES: Final = frozenset({"tiup", "pukul", "petik", "gesek"})
_LOWER_QUALIFIERS: Final = _KEYS | _REGISTERS | _FAMILIES
# a key's accidental after its letter: "E major" for "E-flat major" is another key; so is
# its mode "minor" ("Symphony in C" for "Symphony No. 5 in C minor": C major is said as "C")
_ACCIDENTALS: Final = frozenset({"flat", "sharp", "minor"})
_KEY_LETTERS: Final = frozenset("abcdefgh")  # (H: German B)
_PLACE_PREPS: Final = frozenset({"in", "at", "from", "during"})
# catalogue words written out or abbreviated ("Opus 67" / "Op. 67", "KV 626" / "Köchel
# 626"): the same word (h-probe13)
_CATALOGUE: Final = {"opus": "op", "op": "op", "kochel": "k", "kv": "k", "k": "k"}
# the words before an installment's number ("Star Wars" for "Star Wars: Episode V", "The
# Godfather" for "The Godfather Part II": the title without them is another work)
_PART_WORDS: Final = frozenset({"part", "chapter", "episode", "volume", "vol", "book", "season"})
# a question asking for a language, accent or dialect: a demonym before a language is
# its variety there ("Brazilian Portuguese" for "Portuguese"; h-probe13)
_LANGUAGE_ASKED: Final = frozenset({"language", "languages", "dialect", "dialects", "accent",
                             "accents", "speak", "speaks", "spoken", "speaking", "bahasa",
                             "wika", "tieng", "ngon"})
_GENERATIONS: Final = frozenset({"jr", "sr", "junior", "senior"})
# A candidate joining two names ("Aaron and Andrew") is a list, not a swap.
_JOINERS: Final = frozenset({"and", "or", "nor", "andor"})


class Substitution(NamedTuple):
    """``(kind, extra, missing)``: ``kind`` is ``"substitution"`` (a word swapped),
    ``"qualifier"`` (a distinguishing word added or dropped), ``"installment"``
    (the answer's number dropped), ``"title"`` (the last words of a title dropped),
    ``"extends"`` (a one-word name extended by
    another word), ``"part"`` (part of a hyphenated name dropped), ``"initials"`` (some
    of a person's middle names kept as initials, not all) or ``"given"`` (a
    person's surname dropped, the given names kept); ``extra`` the
    candidate's word, ``missing`` the answer's."""

    kind: str
    extra: str
    missing: str


LICENSED: Final = Substitution("licensed", "", "")


def _abbrev(short: str, long: str) -> bool:
    """``short`` is an initial or abbreviation of ``long`` (``f``/``fitzgerald``,
    ``mt``/``mount``, ``st``/``saint``, ``gen``/``general``): same first letter, its
    letters in order, and either a prefix of ``long`` or ending in its last letter
    (so ``da`` is not an abbreviation of ``dicaprio``)."""
    if not short or len(short) >= len(long) or short[0] != long[0] or not short.isalpha():
        return False
    if len(short) == 1 or (long.startswith(short) and (
            len(short) > 2 or len(long) > 4 or not short.isascii())):
        return True  # (not "to" for "tong": two Vietnamese syllables after folding)
    if short[-1] != long[-1] or any(ch in "aeiouy" for ch in short[1:]):
        return False  # (abbreviations drop vowels: "bay" is not "Biscay")
    it = iter(long)
    return len(short) <= 4 and all(ch in it for ch in short)


# English nicknames and the given names they stand for (rule 7: "Jimmy Flynn" for "James
# P. Flynn", "Jack Kennedy" for "John F. Kennedy" name the same person; EVOUNA). A
# nickname that only shortens its name ("Dave", "Chris") needs no entry: a shared start
# already says so.
_NICKNAME_LIST: Final = {
    "william": "billy willy willie liam", "robert": "bob bobby robbie",
    "james": "jim jimmy jimmie jamie", "richard": "rick ricky richie",
    "edward": "eddie ted teddy", "theodore": "ted teddy theo",
    "thomas": "tom tommy", "michael": "mike mikey mickey", "john": "jack johnny",
    "charles": "charlie", "henry": "harry", "margaret": "peggy maggie",
    "elizabeth": "betty beth liz lizzie bess libby eliza", "katherine": "kate katie kathy",
    "catherine": "kate katie cathy", "sarah": "sally sadie", "mary": "molly polly",
    "abraham": "abe", "alexander": "alex", "andrew": "andy", "anthony": "tony",
    "benjamin": "benny", "daniel": "danny", "donald": "donnie", "frederick": "freddie",
    "gerald": "gerry jerry", "joseph": "joe joey", "lawrence": "larry", "leonard": "lenny",
    "matthew": "matt", "nicholas": "nicky", "patrick": "paddy", "peter": "pete",
    "philip": "phil", "ronald": "ronnie", "samuel": "sammy", "stephen": "steve",
    "steven": "steve", "walter": "walt", "cynthia": "cindy", "susan": "susie",
    "deborah": "debbie", "patricia": "patty trish", "jennifer": "jenny",
    "rebecca": "becky becca", "victoria": "vicky tori", "virginia": "ginny",
    "harold": "harry hal", "timothy": "timmy", "kenneth": "kenny", "douglas": "doug",
    "zachary": "zach zack", "howard": "howie", "woodrow": "woody"}
# (not the nicknames that are common words too, "will", "bill", "rich", "frank", "pat",
# "ray": the table is read for every word of a name, and same_word for every word)
NICKNAMES: dict[str, frozenset[str]] = {}
for _name, _nicks in _NICKNAME_LIST.items():
    for _nick in _nicks.split():
        NICKNAMES[_nick] = NICKNAMES.get(_nick, frozenset()) | {_name}
        NICKNAMES[_name] = NICKNAMES.get(_name, frozenset()) | {_nick}
del _name, _nicks, _nick


_I_Y: Final = frozenset("iy")


def same_word(c: str, a: str) -> bool:
    """Could candidate word ``c`` stand for answer word ``a``? (The cheap tests
    first: the word family test is implied by a shared 3-letter start, an
    abbreviation needs the same first letter, a spelling variant a length within
    its edits.)"""
    if c == a:
        return True
    if c.isdigit() or a.isdigit():
        return False
    if c in NICKNAMES and a in NICKNAMES[c]:
        return True  # "Jimmy" for "James"
    if ("oe" in a or "dj" in a or "tj" in a) and _new_spelling(a) == _new_spelling(c):
        return True  # Indonesian names in the old spelling: Soekarno, Toer, Djakarta
    if c[:1] == a[:1]:
        if len(c) >= 3 and len(a) >= 3 and c[1:3] == a[1:3] and _same_start(c, a):
            return True  # Dave ~ David, Alex ~ Alexander (as the other-person rule)
        if _abbrev(c, a) or _abbrev(a, c) or stem(c) == stem(a):
            return True
    elif (c in _DEMONYMS or a in _DEMONYMS) and stem(c) == stem(a):
        # (a stem keeps the word's first letter, but a demonym's is its country's:
        # "dutch" -> "netherlands"; so other words starting differently never share one)
        return True
    n = min(len(a), len(c))
    if n < 6:
        # (a word under 6 letters has no spelling variant, but may drop a silent letter
        # of a longer name: "Maler" for "Mahler", blind24; a catalogue word may be
        # abbreviated: "op" for "opus", "kv" for "kochel")
        if len(a) >= 6 and c[:1] == a[:1] and c.isalpha() and surname_spelling(c, a):
            return True
        if n == 5 == len(a) == len(c) and c[0] == a[0] and sorted(c) == sorted(a) and (
                OSA.distance(c, a) == 1 or {x for x, y in zip(c, a, strict=True) if x != y}
                == _I_Y):
            return True  # two letters swapped: "Bahru" for "Bharu", "Cyndi" for "Cindy"
        return c in _CATALOGUE and _CATALOGUE.get(a) == _CATALOGUE[c]
    k = 1 if n < 10 else 2 if n < 14 else 3
    # (two letters swapped count as one edit: "Micheal" for "Michael"; blind18)
    return abs(len(a) - len(c)) <= k and OSA.distance(c, a, score_cutoff=k) <= k


def surname_spelling(c: str, surname: str) -> bool:
    """Is the one word ``c`` (its first letter the surname's) a misspelling of a
    surname of 6+ letters: within :func:`~judging.features.max_edits` by edits that keep its
    sound (:func:`sound_alike`: "Bethoven", "Tschaikowsky", "Nietzche"; not
    "Keller" for "Kepler", another surname), a swap of two letters in a row counting
    as one edit ("Einstien"), or the surname's letters with one moved ("Ghandi" for
    "Gandhi": same letters, same last letter, two edits)?"""
    k = max_edits(len(surname))
    d = Levenshtein.distance(c, surname)
    if d <= k and sound_alike(c, surname):
        return True
    if d > 2 or len(c) != len(surname):
        return False
    return OSA.distance(c, surname) < min(d, k + 1) or (
        c[-1] == surname[-1] and sorted(c) == sorted(surname))


# Letters one spelling of a name writes for another with the same sound: vowels (and
# y), c/k/q, s/z, soft c, v/w/f, i/j/y
_SOUND_CLASSES: Final = ("aeiouy", "ckq", "sz", "cs", "vwf", "ijy")
_SOUND_SAME: Final = frozenset((x, y) for cls in _SOUND_CLASSES for x in cls for y in cls)
# a letter a spelling adds or drops without changing the sound: a vowel, a silent h
# or w; also a doubled letter, and s/t/c in a sibilant cluster ("tsch", "tz", "sch")
_SILENT: Final = frozenset("aeiouyhw")
_SIBILANT: Final = frozenset("szch")


def sound_alike(c: str, surname: str) -> bool:
    """Does every edit from ``c`` to ``surname`` keep the name's sound? A letter
    replaced within one of :data:`_SOUND_CLASSES`; a letter added or dropped that is
    silent, doubles its neighbour, or is s, t or c beside a sibilant. ("Keller" for
    "Kepler" replaces p by l: another name.)"""
    for op in Levenshtein.editops(c, surname):
        if op.tag == "replace":
            if (c[op.src_pos], surname[op.dest_pos]) not in _SOUND_SAME:
                return False
            continue
        # the letter added or dropped, and its neighbours in the longer word
        word, at = (surname, op.dest_pos) if op.tag == "insert" else (c, op.src_pos)
        x = word[at]
        near = word[max(0, at - 1):at] + word[at + 1:at + 2]
        if not (x in _SILENT or x in near or (x in "stc" and not _SIBILANT.isdisjoint(near))):
            return False
    return True


_OLD_SPELLING: Final = (("oe", "u"), ("dj", "j"), ("tj", "c"))


def _new_spelling(w: str) -> str:
    """An Indonesian/Malay word in today's spelling: the old one wrote oe for u, dj for
    j, tj for c (``Pramoedya Ananta Toer`` is ``Pramudya Ananta Tur``)."""
    for old, new in _OLD_SPELLING:
        w = w.replace(old, new)
    return w


def _same_start(c: str, a: str) -> bool:
    """The start two words share stands for the shorter one: it is short (a nickname,
    ``Dave`` for ``David``, ``Chris`` for ``Christopher``) or most of it (``german``,
    ``germany``); two long words that share only their first letters are two names
    (``Missouri``, ``Mississippi``)."""
    n = min(len(c), len(a))
    if n <= 5:
        return True
    k = 3
    while k < n and c[k] == a[k]:
        k += 1
    return k >= 0.6 * n


# Question words of Vietnamese (folded), Indonesian/Malay and Filipino that English
# does not write: a question in a language whose noun compounds put the head first
_HEAD_FIRST_QUESTION: Final = frozenset({
    "gi", "nao", "dau", "bao", "nhieu", "cua", "khong", "duoc", "nhung", "cac", "nguoi",
    "apa", "siapa", "berapa", "mana", "manakah", "apakah", "bagaimana", "kapan", "bila",
    "yang", "ini", "itu", "dengan", "dari", "adalah", "ialah",
    "ano", "anong", "sino", "saan", "ilan", "kailan", "ang", "ng", "mga", "nang"})


# letters only Vietnamese writes (ơ ư ă đ and the tone-marked vowels)
VIETNAMESE: Final = re.compile("[\u01a0\u01a1\u01af\u01b0\u0102\u0103\u0110\u0111\u1ea0-\u1ef9]")


def head_first(question: frozenset[str], *texts: str) -> bool:
    """Is a pair in Vietnamese, Indonesian/Malay or Filipino, whose noun compounds put
    the head first ("xe buýt", a bus; "rumah sakit", a hospital)? Told by the question's
    words, or a letter only Vietnamese writes in one of ``texts``."""
    return not _HEAD_FIRST_QUESTION.isdisjoint(question) or any(
        not t.isascii() and VIETNAMESE.search(t) for t in texts)


def _generic(word: str) -> bool:
    """A describing word (``GENERIC``), plural or not (``films``, ``islands``)."""
    return word in GENERIC or stem(word) in GENERIC


def _content(toks: Iterable[str], keep: frozenset[str] = frozenset()) -> list[str]:
    return [t for t in toks if t not in STOPWORDS or t in keep]


# Ordinal words of the seed languages after folding: id/ms "pertama", "kedua", ...;
# vi "thứ nhất", "thứ hai", ... (the number word after "thu"). English ordinals are
# digits already (normalize); these become digits here so that "Perang Dunia Kedua"
# for "Perang Dunia I" swaps a number and "Perang Dunia Pertama" does not.
_ID_ORDINALS: Final = {"pertama": "1", "kesatu": "1", "kedua": "2", "ketiga": "3", "keempat": "4",
                "kelima": "5", "keenam": "6", "ketujuh": "7", "kedelapan": "8",
                "kesembilan": "9", "kesepuluh": "10"}
_VI_ORDINALS: Final = {"nhat": "1", "nhi": "2", "hai": "2", "ba": "3", "tu": "4", "nam": "5",
                "sau": "6", "bay": "7", "tam": "8", "chin": "9", "muoi": "10"}
# the words an ordinal follows in Vietnamese: "thứ nhất" (first), "hạng nhì" (second
# place), "giải nhất" (first prize)
_VI_ORDINAL_AFTER: Final = frozenset({"thu", "hang", "giai"})


def ordinal_digits(words: list[str]) -> list[str]:
    """``words`` with the ordinal words of Indonesian/Malay and Vietnamese as digits
    (``["perang", "dunia", "kedua"]`` -> ``[..., "2"]``, ``["thu", "nhat"]`` ->
    ``["thu", "1"]``, ``["hang", "nhi"]`` -> ``["hang", "2"]``); the same list when it has
    none (the common case)."""
    if _VI_ORDINAL_AFTER.isdisjoint(words) and _ID_ORDINALS.keys().isdisjoint(words):
        return words
    out = list(words)
    for i, w in enumerate(words):
        if w in _ID_ORDINALS:
            out[i] = _ID_ORDINALS[w]
        elif i and words[i - 1] in _VI_ORDINAL_AFTER and w in _VI_ORDINALS:
            out[i] = _VI_ORDINALS[w]
    return out


@lru_cache(maxsize=16384)
def _words(toks: tuple[str, ...], keep: frozenset[str]) -> tuple[str, ...]:
    """The content words :func:`substitution` compares (ordinals as digits; "World War
    I" ends in "1": the tokenizer leaves a lone I alone); ``()`` when there are none.
    Cached: the same answer and short answer recur across the answerline's pairs."""
    words = ordinal_digits(_content(toks, keep))
    if words and len(toks) >= 2 and toks[-1] == "i":
        words.append("1")
    return tuple(words)


@lru_cache(maxsize=16384)
def _answer_words(answer: tuple[str, ...], keep: frozenset[str]
                  ) -> tuple[tuple[str, ...], dict[str, int], frozenset[str]]:
    """An answer's :func:`_words`, each word's position (the last of equal words) and
    its epithets ("Peter the Great": ``great``), prepared once per answer (shared by
    every caller through the cache: read them, never change them)."""
    words = _words(answer, keep)
    epithet = frozenset(answer[i + 1] for i in range(1, len(answer) - 1) if answer[i] == "the")
    return words, {a: i for i, a in enumerate(words)}, epithet


def clear_caches() -> None:
    """Empty this module's caches (:func:`judging.equivalence.clear_caches` calls it)."""
    _words.cache_clear()
    _answer_words.cache_clear()


def substitution(core: tuple[str, ...], answer: tuple[str, ...],
                 question: frozenset[str] = frozenset(), *,
                 months: bool = False, proper: frozenset[str] | None = None,
                 person: bool = False, hyphen: frozenset[str] = frozenset(),
                 joined: frozenset[str] = frozenset(),
                 keep: frozenset[str] = frozenset(),
                 head_first: bool = False) -> Substitution | None:
    """Does the short answer ``core`` contradict ``answer`` (both normalized tokens)?

    ``None`` when they share no word (nothing to say: other rules decide);
    :data:`LICENSED` when they do and the candidate only adds or drops ordinary
    words (``Franklin Roosevelt`` for ``Franklin Delano Roosevelt``) or every
    difference is licensed (see the module docstring). ``months``: the answer is
    a date (dropping its year is not an installment). ``proper``: the answer's words
    that are capitalized as written (``None``: all of them). Only a name is
    confusable: a swapped word must be one of them, a number or a qualifier, and an
    added qualifier or a dropped number needs a capitalized answer (``the lower leg``
    for ``leg`` is a description, ``North Korea`` for ``Korea`` another country).
    ``person``: the answer is a person's name (then a name word added after it is
    another person, ``George Washington Carver``, and so is a middle name swapped,
    ``George W. Bush`` for ``George H. W. Bush``; a middle name added or dropped is
    not, see docs/judging.md). ``hyphen``: the answer's
    words that are parts of a hyphenated name (dropping one is another entity:
    ``Guinea`` for ``Guinea-Bissau``); ``joined``: the candidate's (a word joined
    to the answer's by a hyphen is no appositive: ``Austria-Hungary``). ``keep``:
    words that are names although they fold to an English stop word (Vietnamese
    ``Mỹ`` -> ``my``, ``Tổ`` -> ``to``: "Châu Mỹ" for "Châu Phi"). ``head_first``: the
    pair is in a language whose noun compounds put the head first (vi, id/ms, tl: see
    :func:`head_first`), where a common noun's compound with a word swapped or dropped
    is another thing.
    """
    if not _JOINERS.isdisjoint(core) and _JOINERS.isdisjoint(answer):
        return None  # (a title with "and" is one name: "Harry Potter and the ...")
    c_words = _words(core, keep)
    if not c_words:
        return None
    a_words, a_index, epithet = _answer_words(answer, keep)
    if not a_words:
        return None
    if len(c_words) == len(a_words) >= 2 and not _KEY_LETTERS.isdisjoint(c_words):
        # a key letter swapped, every other word the same: "Canon in C" for "Canon in D"
        # (h-probe13; a letter is otherwise an initial, and "c" would stand for "canon")
        diff = [i for i, (x, y) in enumerate(zip(c_words, a_words, strict=True)) if x != y]
        if len(diff) == 1 and c_words[diff[0]] in _KEY_LETTERS and (
                a_words[diff[0]] in _KEY_LETTERS):
            return Substitution("substitution", c_words[diff[0]], a_words[diff[0]])
    if len(c_words) == len(a_words) >= 2 and proper and not months:
        # a name's kind word swapped in its place, the rest the same: "United Kingdom"
        # for "United States", "Panama City" for "Panama Canal" (blind18; a kind word
        # is otherwise no evidence, so this is tested first)
        diff = [i for i, (x, y) in enumerate(zip(c_words, a_words, strict=True)) if x != y]
        if len(diff) == 1 and (c := c_words[diff[0]]).isalpha() and _generic(c) and (
                a := a_words[diff[0]]) in proper and _generic(a) and not same_word(c, a):
            return Substitution("substitution", c, a)
    # "Abraham Lincoln Jr." for "Abraham Lincoln": the son
    for c in c_words:
        if c in _GENERATIONS and c not in a_words and len(a_words) >= 2:
            return Substitution("qualifier", c, "")
    if person and len(a_words) >= 4 and 3 <= len(c_words) < len(a_words) and (
            c_words[0] == a_words[0] and c_words[-1] == a_words[-1] and len(c_words[0]) > 1):
        partial = _partial_initials(c_words[1:-1], a_words[1:-1])
        if partial is not None:
            return partial
    if person and a_words[-1] in _GENERATIONS and a_words[-1] not in c_words and len(
            c_words) >= 3 and c_words[0] == a_words[0] and len(c_words[0]) > 1:
        # a middle initial added where the answer says which generation: "George W.
        # Bush" (the son) for "George Bush Sr."
        added = [c for c in c_words[1:-1] if len(c) == 1 and c.isalpha() and c not in a_words]
        if added:
            return Substitution("substitution", added[0], a_words[-1])
    if question and len(c_words) == len(a_words) >= 2:
        swap = _question_word_swap(c_words, a_words, a_index, question, proper,
                                      head_first)
        if swap is not None:
            return swap
    matched_a: set[int] = set()
    # per candidate word: the answer positions it matches (empty: an extra word,
    # None: ignored -- a generic or question word)
    slots: list[list[int] | None] = []
    extra: list[str] = []
    shared = False
    for c in c_words:
        # the same word (most), else the looser tests against every answer word
        hit = [a_index[c]] if c in a_index else [
            i for i, a in enumerate(a_words) if same_word(c, a)
            and not (keep and (len(a) == 1 or len(c) == 1))]  # (vi "Á" is a word, no initial)
        if not hit and hyphen and len(c) >= 3 and c.isalpha():
            # one word for an answer's hyphenated letters: "MTP" for "M-TP"
            hit = _joined_at(c, a_words)
        if hit:
            matched_a.update(hit)
            # sharing a number or a generic word ("54 Mbps", "years") is no evidence
            shared = shared or (not c.isdigit() and not _generic(c))
            slots.append(hit)
        elif c not in question and not _generic(c):
            extra.append(c)
            slots.append([])
        else:
            slots.append(None)
    if not shared:
        if matched_a and not WORK_KINDS.isdisjoint(extra):
            # only a number shared, another kind of work: "Piano Concerto No. 2" for
            # "Symphony No. 2"
            kinds = [a for i, a in enumerate(a_words) if i not in matched_a and a in WORK_KINDS]
            if kinds:
                return Substitution("substitution",
                                    next(c for c in extra if c in WORK_KINDS), kinds[0])
        # "Lake Huron" for "Lake Superior", "Qing dynasty" for "Ming dynasty": only a
        # generic word shared, one name word swapped for another
        if (len(a_words) == 1 and proper and a_words[0] in proper and len(extra) == 1
                and c_words == core and len(core) == 2 and core[0] == a_words[0]):
            # a one-word name that is a common word, extended by a name: "Queen Latifah"
            # for "Queen", "Prince Royce" for "Prince" (blind18): another artist
            return Substitution("extends", extra[0], "")
        if not (len(extra) == 1 and matched_a and len(a_words) == 2 and proper):
            return None
        name = [a for i, a in enumerate(a_words) if i not in matched_a]
        if len(name) != 1 or name[0] not in proper or _generic(name[0]):
            return None
        return Substitution("substitution", extra[0], name[0])
    # a place word is no evidence when dropped, but swapped for a name it is one
    # ("Manchester United" for "Manchester City")
    swappable = {i: a for i, a in enumerate(a_words) if i not in matched_a
                 and a in _PLACE_WORDS and (proper is None or a in proper)}
    missing_at = {i: a for i, a in enumerate(a_words) if i not in matched_a
                  and not _generic(a) and a not in question}
    if missing_at and extra and not keep:
        # an initialism of the candidate's words: "rb" for "Richard Bedford"
        initials = "".join(c[0] for c in extra)
        missing_at = {i: a for i, a in missing_at.items()
                      if not (len(a) <= 3 and a.isalpha() and a in initials)}
        # ... or of the answer's: "jq" for "John Quincy"
        a_initials = "".join(a[0] for a in missing_at.values())
        for k, c in enumerate(c_words):
            if slots[k] == [] and len(c) <= 3 and c.isalpha() and c in a_initials:
                slots[k] = None
                extra.remove(c)
                missing_at = {i: a for i, a in missing_at.items() if a[0] not in c}
    missing = list(missing_at.values())
    named = proper is None or bool(proper)
    if not extra and missing_at:
        place = _place_word_swap(c_words, slots, missing_at, question, proper)
        if place is not None:
            return place
    if not (_ACCIDENTALS.isdisjoint(missing) and _ACCIDENTALS.isdisjoint(extra)):
        # a key's accidental added or dropped after the same letter: "E major" for
        # "E-flat major", "C-sharp minor" for "C minor" (h-probe13)
        acc = _accidental(c_words, a_words, slots, missing_at)
        if acc is not None:
            return acc
    if len(extra) > 2:
        return LICENSED  # a description around the answer, not another name
    if extra and (missing or swappable):
        few = len(a_words) <= 2  # "C major": a short answer's qualifier, capital or not
        for k, slot in enumerate(slots):
            if slot != []:
                continue
            c = c_words[k]
            # the answer positions this extra word stands between ("North [Korea]"
            # stands before "korea": it takes the place of "south"; "Wilhelm Rontgen
            # born" adds "born" after the name, it does not replace "Conrad")
            before = [i for s in slots[:k] if s for i in s]
            after = [i for s in slots[k + 1:] if s for i in s]
            lo = max(before) if before else -1
            hi = min(after) if after else len(a_words)
            # (or just before the answer word the next candidate word says, whatever the
            # order around it: "Symphony from the Old World" for "New World Symphony";
            # blind27)
            nxt = slots[k + 1] if k + 1 < len(slots) else None
            for i, a in (missing_at | swappable).items():
                if not (lo < i < hi or (nxt and i + 1 in nxt and c in QUALIFIERS)):
                    continue
                if c.isdigit() != a.isdigit():
                    continue  # a number added for a word ("Matthew 6:9") is no swap
                if a.isdigit() or ((few or a in _LOWER_QUALIFIERS) and a in QUALIFIERS) \
                        or proper is None \
                        or a in proper or a in epithet or (person and 0 < i < len(a_words) - 1):
                    return Substitution("substitution", c, a)
        if len(extra) == 1 and len(missing) == 1 and (
                proper is None or missing[0] in proper) and (
                len(c_words) == len(a_words) == 2 or (
                    len(c_words) == len(a_words) == 3
                    and sum(map(_generic, c_words)) == sum(map(_generic, a_words)) == 1)):
            # two names sharing one word in another place: "Thomas Jefferson" for
            # "Jefferson Davis"; also after a kind word: "vịnh Lan Hạ" for "vịnh Hạ Long"
            # (not a place said after the name with a preposition: "Reagan in Berlin" for
            # "Ronald Reagan"; h-probe13)
            k = core.index(extra[0]) if extra[0] in core else 0
            if k >= 2 and core[k - 1] in _PLACE_PREPS:
                return LICENSED
            return Substitution("substitution", extra[0], missing[0])
        if (not named and len(extra) == 1 and len(missing) == 1
                and head_first and len(c_words) == len(a_words) in (2, 3)
                and c_words.index(extra[0]) == a_words.index(missing[0])
                and extra[0].isalpha() and missing[0].isalpha()):
            # a common noun's compound with one word swapped in its place, after a
            # question in a language whose compounds put the head first (vi, id/ms, tl):
            # another thing ("xe máy" for "xe buýt", "rumah makan" for "rumah sakit",
            # "gà mái" for "gà trống"; blind18, blind19). English compounds swap
            # synonyms as often ("pyloric valve" for "pyloric sphincter", EVOUNA)
            return Substitution("substitution", extra[0], missing[0])
        return LICENSED
    if not extra and missing and named:
        dropped = [a for a in missing if a in hyphen]
        if dropped and (not person or len(dropped[0]) <= 3) and any(
                a_words[i] in hyphen for i in matched_a):
            # part of a hyphenated name dropped: "Guinea" for "Guinea-Bissau"; of a
            # person's, only a syllable of a given name ("Kim Jong" for "Kim Jong-un",
            # not "Tamera Mowry" for "Tamera Mowry-Housley")
            return Substitution("part", "", dropped[0])
        nums = [a for a in missing if a.isdigit()]
        if nums and not months and int(nums[0]) <= 30 and (len(nums) == len(missing) or (
                len(missing) == 2 and missing[0] in _PART_WORDS and a_words[-2:] == tuple(
                    missing))) and any(not a.isdigit() for a in a_words):
            return Substitution("installment", "", nums[0])
        k = len(c_words)
        if (not months and k < len(a_words) - 1 and a_words[:k] == c_words
                and a_words[k].isdigit() and int(a_words[k]) <= 30
                and not any(map(str.isdigit, c_words)) and proper is not None
                and proper.issuperset(c_words) and proper.issuperset(a_words[k + 1:])):
            # the title before an installment's number and a subtitle, every word
            # capitalized: "The Terminator" for "Terminator 2: Judgment Day" ("Unlimited"
            # for "Unlimited six-year terms" is no title)
            return Substitution("installment", "", a_words[k])
        # (an epithet dropped is left to the calibrator: "Constantine" for "Constantine
        # the Great" is accepted, "Peter" for "Peter the Great" may be prompted)
        quals = [a for a in missing if a in QUALIFIERS and (
            proper is None or a in proper or a in _REGISTERS)]
        if quals:
            # an initial or abbreviation standing for the qualifier: "S. Dakota" for
            # "South Dakota", "DR Congo" for "Democratic Republic of the Congo"
            firsts = {t[0] for t in core if len(t) <= 3 and t.isalpha() and t not in a_words}
            quals = [a for a in quals if a[0] not in firsts]
        if len(a_words) == 2 and missing == [a_words[0]] and a_words[0] in _DEMONYMS:
            quals.append(a_words[0])  # "Samoa" for "American Samoa"
        if quals:
            return Substitution("qualifier", "", quals[0])
        k = len(c_words)
        if person and 2 <= k < len(a_words) and c_words == a_words[:k] and hyphen.isdisjoint(
                a_words[k:]) and all(
                w in missing or _generic(w) for w in a_words[k:]) and not all(
                map(_generic, a_words[k:])):
            # a person's given names without the surname: "Mary Wollstonecraft" for "Mary
            # Wollstonecraft Shelley" (another person), "John Quincy" for "John Quincy
            # Adams"; a title read as a name likewise, "Super Mario" for "Super Mario
            # Bros." (h-probe13)
            return Substitution("given", "", " ".join(a_words[k:]))
        cut = _title_cut(c_words, a_words, answer, missing, proper, person)
        if cut is not None:
            return cut
    if (not named and len(c_words) == len(core) == 1 and len(a_words) == len(answer) == 2
            and a_words[0] == c_words[0] and a_words[1].isalpha()
            and head_first and core[0] not in FIRST_WORDS
            and not core[0][:1].isdigit()):
        # the head of a head-first compound alone, after a question in vi, id/ms or tl:
        # "nasi" (rice) for "nasi goreng", "sepeda" (a bicycle) for "sepeda motor"
        # (blind19). Not a number for a number and its counter ("tiga" for "tiga
        # ekor"); the other way round a word added may only describe ("kereta baru", a
        # new car, for "kereta"), so that is left to the calibrator
        return Substitution("qualifier", "", a_words[1])
    if extra and not missing and not named and not _REGISTERS.isdisjoint(extra):
        # "bass clarinet" for "clarinet" (an answer in lower case names an instrument too)
        return Substitution("qualifier", next(c for c in extra if c in _REGISTERS), "")
    if not extra and missing and not named and not _REGISTERS.isdisjoint(missing):
        return Substitution("qualifier", "", next(a for a in missing if a in _REGISTERS))
    if extra and not missing and named:
        quals = [c for c in extra if c in QUALIFIERS]
        if quals:
            return Substitution("qualifier", quals[0], "")
        # a full name and one more name word after it: "George Washington Carver" for
        # "George Washington" is another person
        if (person and len(extra) == 1 and len(core) == len(answer) + 1
                and core[:-1] == answer and core[-1] == extra[0] and extra[0].isalpha()):
            return Substitution("substitution", extra[0], "")
        if (len(c_words) == len(core) == len(extra) + 1 and len(a_words) == 1
                and all(map(str.isalpha, extra)) and (proper is None or a_words[0] in proper)):
            # one name extended by one or two words: "Guinea-Bissau" or "Guinea Bissau"
            # for "Guinea", "Guinea Xích Đạo", "Austria-Hungary" for "Austria", "American Samoa" for
            # "Samoa" (a given name before a surname is not: "Abraham Lincoln" for
            # "Lincoln"; nor a country or state after a place: "Paris France")
            # (not in Korean, where the verb follows: "세종대왕이 만들었습니다")
            if core[0] == a_words[0] and a_words[0].isascii() and (
                    not PLACES.issuperset(extra)
                    or not joined.isdisjoint(extra)) and not (
                    a_words[0] in _DEMONYMS and _DEMONYMS.keys() >= set(extra)
                    and not _LANGUAGE_ASKED.isdisjoint(question)):
                # (a language after an accent or language asked for is its variety:
                # "Scottish English" for "Scottish" after "Which accent ...?"; h-probe13)
                return Substitution("extends", extra[0], "")
            if core[-1] == a_words[0] and extra[0] in _DEMONYMS and not (
                    a_words[0] in _DEMONYMS and not _LANGUAGE_ASKED.isdisjoint(question)):
                return Substitution("qualifier", extra[0], "")
    return LICENSED


def _partial_initials(c_mid: tuple[str, ...], a_mid: tuple[str, ...]) -> Substitution | None:
    """Some but not all of a person's two or more middle names, as initials: "George W.
    Bush" for "George H. W. Bush" or "George Herbert Walker Bush" is his son (blind18).
    A middle name dropped whole is licensed ("John Kennedy"), and so is every initial
    kept ("George H. W. Bush" for "George Herbert Walker Bush")."""
    if not c_mid or not all(len(c) == 1 and c.isalpha() for c in c_mid):
        return None
    initials = [a[0] for a in a_mid]
    it = iter(initials)
    if len(c_mid) < len(initials) and all(c in it for c in c_mid):
        return Substitution("initials", " ".join(c_mid), " ".join(initials))
    return None


def _accidental(c_words: tuple[str, ...], a_words: tuple[str, ...],
                slots: list[list[int] | None], missing_at: dict[int, str]
                ) -> Substitution | None:
    """An accidental (``flat``, ``sharp``) or ``minor`` after a key letter that both say,
    on one side only: another key."""
    for i, a in missing_at.items():
        if a in _ACCIDENTALS and i and len(a_words[i - 1]) == 1 and any(
                s and i - 1 in s for s in slots):
            return Substitution("qualifier", "", a)
    for k, c in enumerate(c_words):
        if c in _ACCIDENTALS and slots[k] == [] and k and len(c_words[k - 1]) == 1 and slots[
                k - 1]:
            return Substitution("qualifier", c, "")
    return None


def _joined_at(c: str, a_words: tuple[str, ...]) -> list[int]:
    """The positions of two or three answer words in a row that written together are
    ``c`` (``["m", "tp"]`` for ``mtp``: "Sơn Tùng MTP" for "Sơn Tùng M-TP"); ``[]`` if
    none."""
    for i, a in enumerate(a_words[:-1]):
        if c.startswith(a) and a.isalpha():
            rest = c[len(a):]
            if rest == a_words[i + 1]:
                return [i, i + 1]
            if i + 2 < len(a_words) and rest == a_words[i + 1] + a_words[i + 2]:
                return [i, i + 1, i + 2]
    return []


def _question_word_swap(c_words: tuple[str, ...], a_words: tuple[str, ...],
                        a_index: dict[str, int], question: frozenset[str],
                        proper: frozenset[str] | None, head_first: bool = False
                        ) -> Substitution | None:
    """One name word swapped in place where one of the two words is also a word of
    the question: "The Legend of Korra" for "The Legend of Zelda" after "Which series
    follows Princess Zelda?", "Hà Nam" for "Hà Nội" after "Thủ đô của Việt Nam ...?".
    The question's words are no evidence of what a candidate adds or drops, but a
    word standing where the answer has another name word is a swap wherever either
    came from. The other words must be the answer's, word for word, and one of them
    neither generic nor the question's (the shared evidence). ``head_first``: a compound
    of a language that puts its head first, where a common noun swapped is another
    thing too ("mi goreng" for "nasi goreng" after "Nasi yang digoreng ...?"; blind25)."""
    diff = [i for i, (c, a) in enumerate(zip(c_words, a_words, strict=True)) if c != a]
    if len(diff) != 1:
        return None
    i = diff[0]
    c, a = c_words[i], a_words[i]
    if not (c in question or a in question) or c in a_index:
        return None
    if not (c.isalpha() and a.isalpha()) or _generic(c) or _generic(a) or same_word(c, a):
        return None
    if not (proper is None or a in proper or a in QUALIFIERS or head_first):
        return None
    if all(w in question or _generic(w) for j, w in enumerate(a_words) if j != i):
        return None
    return Substitution("substitution", c, a)


# the kind of a named thing: dropping it leaves the name ("Golden Gate" for "Golden Gate
# Bridge", "Camp Nou" for "Camp Nou Stadium")
_KIND_HEADS: Final = _PLACE_WORDS | frozenset({
    "bridge", "tower", "stadium", "arena", "park", "street", "avenue", "road", "square",
    "airport", "station", "museum", "gallery", "palace", "castle", "building", "hall",
    "center", "centre", "canal", "desert", "falls", "forest", "valley", "beach", "church",
    "cathedral", "temple", "mosque", "abbey", "school", "library", "hospital", "zoo",
    "records", "studios", "pictures", "airlines", "airways", "motors", "group", "festival",
    "award", "awards", "prize", "cup", "trophy", "act", "treaty", "war", "battle",
})


def _title_cut(c_words: tuple[str, ...], a_words: tuple[str, ...], answer: tuple[str, ...],
               missing: list[str], proper: frozenset[str] | None, person: bool
               ) -> Substitution | None:
    """The first words of a name of two words or more, its last name words dropped: "The
    Dark Knight" for "The Dark Knight Rises", "Super Mario" for "Super Mario Bros."
    (a series or another work). Not a person's name (a
    middle name may go), nor a place, generic or initial dropped ("United States"
    for "United States of America", "Golden Gate" for "Golden Gate Bridge")."""
    k = len(c_words)
    if (person or proper is None or len(a_words) < 2 or not 0 < k < len(a_words)
            or c_words != a_words[:k] or len(missing) != len(a_words) - k):
        return None
    tail = a_words[k:]
    at = answer.index(c_words[-1]) if c_words[-1] in answer else -1
    if at < 0 or at + 1 >= len(answer) or answer[at + 1] != tail[0]:
        return None  # a phrase after "of", "in", "and" describes or lists: "Charles
        # Carroll of Carrollton", "Camping World Stadium in Orlando"
    if all(w in proper and w.isalpha() and len(w) > 3 and w not in PLACES
           and not _generic(w) and w not in _KIND_HEADS for w in tail):
        return Substitution("title", "", " ".join(tail))
    return None


def _place_word_swap(c_words: tuple[str, ...], slots: list[list[int] | None],
                     missing_at: dict[int, str], question: frozenset[str] | Iterable[str],
                     proper: frozenset[str] | None) -> Substitution | None:
    """A place word of the candidate (``city``, ``river``: otherwise generic, so not
    an extra word) standing where the answer has a name word it drops: "Manchester
    City" for "Manchester United" (the other way round is the swappable case)."""
    for k, c in enumerate(c_words):
        if slots[k] is not None or c not in _PLACE_WORDS or c in question:
            continue
        before = [i for s in slots[:k] if s for i in s]
        after = [i for s in slots[k + 1:] if s for i in s]
        lo = max(before) if before else -1
        hi = min(after) if after else len(c_words) + len(missing_at)
        for i, a in missing_at.items():
            if lo < i < hi and not a.isdigit() and (proper is None or a in proper):
                return Substitution("substitution", c, a)
    return None


# Endings that make a word of the same family (a plural, a demonym, an -ism): a
# candidate word that is the answer's word plus one of these, or the other way
# round, is the same word; any other ending makes another word ("Nigeria" for
# "Niger", "Romania" for "Roman", "China" for "Chin").
SAME_WORD_ENDINGS: Final = frozenset({
    "s", "es", "n", "an", "ans", "ian", "ians", "ns", "ese", "ish", "i", "is", "ic", "ics",
    "ism", "ist", "ite", "er", "ers", "ed", "ing", "al", "ly", "e", "a", "y", "o", "um", "us",
    # four letters ("Pluto" and "Plutonium" differ by four): longer endings of one word
    "ists", "isms", "ites", "ings", "ness", "ment", "ical", "ally", "ized", "ised", "eans",
    "ship", "less", "like",
})


def other_word(core: tuple[str, ...], answer: tuple[str, ...], *, person: bool = False
               ) -> tuple[str, str] | None:
    """``(candidate word, answer word)`` when the short answer ``core`` is ``answer``
    with one word replaced by a different word that shares its start: one is the
    other plus an ending that does not make a word of the same family ("Niger" for
    "Nigeria", "Nigeria" for "Niger", "Roman" for "Romania"); else ``None``.

    A plural, a demonym or an ``-ism`` is the same word (:data:`SAME_WORD_ENDINGS`),
    and a person's given name may be shortened ("Alex" for "Alexander Fleming"), so
    for a person only the surname is compared."""
    if len(core) != len(answer):
        return None
    found = None
    for i, (c, a) in enumerate(zip(core, answer, strict=True)):
        if c == a:
            continue
        if found is not None:
            return None  # two words differ: not this rule's case
        short, long = (c, a) if len(c) < len(a) else (a, c)
        if (len(short) < 3 or not long.startswith(short) or not long.isascii()
                or not long.isalpha() or len(long) - len(short) > 4
                or long[len(short):] in SAME_WORD_ENDINGS
                or (person and i != len(answer) - 1)):
            return None
        found = (c, a)
    return found


# A name built on another name (rule 12d): the club of a city ("Real Madrid",
# "Inter Milan", "Manchester United"), the sea or gulf of a country ("Indian Ocean",
# "Gulf of Mexico", "Ấn Độ Dương", "Teluk Meksiko"), a state named by another
# country's adjective ("Dominican Republic" is not Dominica). The states and the
# Indonesian/Vietnamese seas are wrong either way round ("Dominica" for "Dominican
# Republic"); a club's city for the club is not ruled on.
# (Not the abbreviations FC, AC, CF: "Liverpool FC", "Real Madrid CF", "FC Barcelona",
# "AC Milan" are what "Liverpool", "Real Madrid", "Barcelona", "Milan" name in a
# question about clubs.)
CLUB_WORDS: Final = frozenset({
    "real", "inter", "internazionale", "atletico", "athletic", "sporting", "dynamo", "dinamo",
    "olympique", "borussia", "racing", "deportivo", "united", "rovers", "wanderers", "albion",
    "hotspur",
})
# after a country's adjective: a body of water or land form ("Arabian Sea", "Korean
# Peninsula"); "<noun> of <country>": "Sea of Japan", "Gulf of Mexico"
FEATURE_NOUNS: Final = frozenset({"ocean", "sea", "gulf", "bay", "peninsula", "strait", "straits",
                           "channel", "desert", "plateau", "basin"})
# the same nouns before a name, in Indonesian/Malay and Vietnamese (after folding):
# "Laut Jawa", "Teluk Meksiko", "Samudra Hindia", "Selat Sunda", "Vịnh Mexico",
# "Biển Đông"; and the Vietnamese "dương" (ocean) after one: "Ấn Độ Dương"
FEATURE_BEFORE: Final = frozenset({"laut", "teluk", "samudra", "samudera", "selat", "semenanjung",
                            "gurun", "vinh", "bien"})
FEATURE_AFTER: Final = frozenset({"duong"})
# after a country's adjective: a state ("Dominican Republic", "Ottoman Empire")
STATE_WORDS: Final = frozenset({"republic", "empire", "kingdom", "federation", "union",
                         "confederation", "commonwealth", "emirates", "sultanate"})
BUILT_WORDS: Final = CLUB_WORDS | FEATURE_NOUNS | FEATURE_BEFORE | FEATURE_AFTER | STATE_WORDS
# club words that come before the city ("Real Madrid"): the city alone is ambiguous
# between the club and its rivals ("Atlético Madrid"), so a moderator prompts
CLUB_BEFORE: Final = CLUB_WORDS - {"united", "rovers", "wanderers", "albion", "hotspur"}


def _adjective_of(adj: str, name: str) -> bool:
    """Is ``adj`` an adjective made from ``name`` ("indian"/"india", "dominican"/
    "dominica", "persian"/"persia", "french"/"france")? Not the same word."""
    if adj == name:
        return False
    if _DEMONYMS.get(adj) == name:
        return True
    # the name plus an ending, or its last letter replaced by one ("arabia" -> "arabian")
    return len(name) >= 4 and adj.startswith(name[:-1]) and 0 < len(adj) - len(name) + 1 <= 4


def named_after(core: tuple[str, ...], answer: tuple[str, ...]) -> str | None:
    """The word that makes the short answer ``core`` another entity built on the
    one-word ``answer``, or the answer one built on ``core`` (both normalized
    tokens, articles stripped); ``None`` when neither is.

    ``Real Madrid`` for ``Madrid``, ``Indian Ocean`` for ``India``,
    ``Sea of Japan`` for ``Japan``, ``Dominican Republic`` / ``Dominica`` (either
    way round), ``Ấn Độ Dương`` for ``Ấn Độ``, ``Teluk Meksiko`` for ``Meksiko``.
    Not: ``Caspian Sea`` for ``Caspian`` (the answer's own word), ``French
    Republic`` for ``France`` (the country's own adjective: the same state), ``Bay
    of Biscay`` for ``Biscay`` (not a country: the bay may be what the answer
    names)."""
    for short, long, forward in ((answer, core, True), (core, answer, False)):
        if not 1 <= len(short) <= 2 or len(long) != len(short) + 1 \
                or BUILT_WORDS.isdisjoint(long):
            continue
        first, last = long[0], long[-1]
        # (a club's city for the club is left to the calibrator: "Milan" is what many
        # call AC Milan, "Leeds" Leeds United)
        if long[1:] == short and (first in FEATURE_BEFORE or (forward and first in CLUB_WORDS)):
            return first  # "Real Madrid" for "Madrid", "Teluk Meksiko" / "Meksiko"
        if long[:-1] == short and (last in FEATURE_AFTER or (forward and last in CLUB_WORDS)):
            return last  # "Manchester United" for "Manchester", "Ấn Độ Dương" / "Ấn Độ"
        if len(short) != 1:
            continue
        name = short[0]
        if forward and last in FEATURE_NOUNS and _adjective_of(first, name):
            return last  # "Indian Ocean" for "India" (not the other way: "India" may
            # be what a question about the ocean's name asks for)
        if last in STATE_WORDS and _adjective_of(first, name) and _DEMONYMS.get(first) != name:
            return last  # "Dominican Republic" / "Dominica", not "French Republic"
    # "<feature> of <country>": "Sea of Japan", "Gulf of Mexico"
    if (len(answer) == 1 and len(core) == 3 and core[1] == "of" and core[0] in FEATURE_NOUNS
            and core[2] == answer[0] and answer[0] in PLACES):
        return core[0]
    return None


def club_city(core: tuple[str, ...], answer: tuple[str, ...]) -> str | None:
    """The club word when the short answer ``core`` is only the city of the club
    ``answer`` named with a word before it ("Madrid" for "Real Madrid", "Milan" for
    "Inter Milan"): not wrong, not enough (the city has other clubs), so the judge
    prompts. ``None`` otherwise (a club named with a word after its city, "Leeds" for
    "Leeds United", is what its fans call it)."""
    if len(answer) == len(core) + 1 and answer[0] in CLUB_BEFORE and answer[1:] == core:
        return answer[0]
    return None



_ROMAN: Final = frozenset("ivxlc")


def other_subtitle_word(core: tuple[str, ...], accept: tuple, qtok: frozenset[str]
                        ) -> str | None:
    """The acceptable answer written "Title: Subtitle" whose subtitle a short answer
    without the colon shares a word of, but with a word of its own that is in neither
    the title, the subtitle nor the question (and no misspelling of theirs): another
    title sharing a word of the subtitle ("Age of Empires" for "Avengers: Age of
    Ultron", "Return of the Jedi" for "The Lord of the Rings: The Return of the King";
    not "Age of Ultron", "Avengers Age of Ultron", "Age of Ultran"). Its text, or
    ``None`` (also when an answer without a subtitle shares a word with it)."""
    mine = frozenset(t for t in core if t not in STOPWORDS)
    if not mine:
        return None
    found = None
    for a in accept:
        text = a.alt.text
        if ":" not in text:
            if not mine.isdisjoint(a.toks):
                return None  # (an answer without a subtitle that it may be: left as it was)
            continue
        head, _sep, tail = text.partition(":")
        title = frozenset(tokens(head)) - STOPWORDS
        sub = frozenset(tokens(tail)) - STOPWORDS
        if mine.isdisjoint(sub):
            continue
        # (a number or a Roman numeral is no word of another title: "Episode 4" for
        # "Episode IV")
        extra = frozenset(e for e in mine - title - sub - qtok
                          if not e.isdigit() and not (len(e) <= 4 and set(e) <= _ROMAN))
        missing = sub - mine
        if not extra or not missing or any(
                same_word(e, w) for e in extra for w in (*missing, *title)):
            return None
        found = found or text
    return found


# Indonesian patronyms: a child's name is the parent's name and "putri" (daughter) or
# "putra" (son) in one word ("Megawati Soekarnoputri", "Guruh Soekarnoputra"): another
# person than the parent the answer names
PATRONYM_ENDS: Final = ("putri", "putra", "puteri", "putera")


def patronym_of(core: tuple[str, ...], accept: tuple) -> str | None:
    """The acceptable answer (as written) whose name a word of ``core`` makes into a
    child's patronym ("soekarnoputri" for "Soekarno"), when ``core`` does not say that
    word of the answer itself; else ``None``."""
    for t in core:
        if not t.endswith(PATRONYM_ENDS):
            continue
        base = t[:-5] if t.endswith(("putri", "putra")) else t[:-6]
        if len(base) < 3:
            continue
        for a in accept:
            if base in a.toks and t not in a.toks:
                return a.alt.text
    return None
