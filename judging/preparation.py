"""What the judge computes once per answerline, question and candidate (pure Python).

:func:`prepared` parses an answerline and normalizes each acceptable, prompted and
rejected alternative once (:class:`Alt`: tokens, content words, numbers, name parts,
months); :func:`describe` does the same for a candidate from its tokens (:class:`Cand`:
its core without articles, hedging fillers and particles, numbers, refusal and
disclaimer flags), after :func:`final_tokens` has kept the last answer of a
self-correction. The rules (:mod:`judging.equivalence`) and the calibrator's features
(:mod:`judging.features`) only read these objects, so each text is analysed once
however many pairs it is judged in; answerlines and questions are cached per process,
candidates per batch (see ``equivalence.judge_many``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from operator import attrgetter
from typing import Final

from judging.answerline import Alternative, Answerline, parse_answerline
from judging.corrections import GATE as _CORRECTION_GATE
from judging.corrections import (
    LEAD_PARTICLES,
    MAX_HEAD,
    MAX_TAIL,
    TAIL_PARTICLES,
    final_answer,
)
from judging.measure_rules import answer_temperatures
from judging.money_rules import answer_amounts
from judging.normalize import (
    _DEMONYMS,
    ARTICLES,
    DECADE_WORDS,
    SIGN_WORDS,
    STOPWORDS,
    decades,
    normalize,
    numbers_in,
    signed_numbers,
    stem,
    strip_articles,
    tokens,
)
from judging.numbers import SEED_SCALES, merge_number_tokens
from judging.scripts import strip_korean
from judging.time_rules import answer_times

_FILLER_PREFIXES: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "i think that", "i think", "i believe that", "i believe", "i guess", "i would say",
        "id say", "my guess is", "my answer is", "the answer is", "answer is", "answer",
        "i am not sure but", "im not sure but", "not sure but", "maybe", "probably",
        "perhaps", "possibly", "it must be", "it might be", "it could be", "it would be",
        "it is", "it was", "its", "it", "is it", "that is", "thats", "this is", "um", "uh",
        "hmm", "oh", "well", "ok", "okay", "definitely", "surely", "certainly",
        # vi and id/ms hedges after folding ("Tôi nghĩ là X", "chắc chắn không phải X",
        # "Menurut saya X", "pasti bukan X")
        "toi nghi la", "toi nghi", "toi doan la", "toi doan", "chac chan la", "chac chan",
        "chac la", "co le la", "co le", "dap an la", "saya pikir", "saya kira",
        "menurut saya", "jawabannya adalah", "jawabannya", "jawaban saya", "pasti",
        "jawapannya ialah", "jawapannya adalah", "jawapannya", "jawapan saya", "saya rasa",
        "do la", "cau tra loi la", "ang sagot ay si", "ang sagot ay",
        "mungkin", "sepertinya", "kayaknya", "kalau tidak salah",
        # "not sure (but)" before the answer is a hedge, not a negation of it: vi "Tôi không
        # chắc, có thể là X", id/ms "Saya tidak yakin, X"
        "toi khong chac chan", "toi khong chac", "khong chac chan", "khong chac", "co the la",
        "co the", "hinh nhu la", "hinh nhu", "saya tidak yakin", "saya kurang yakin",
        "tidak yakin", "kurang yakin",
        # ko, as tokenized ("아마(도) X", "제 생각에(는) X", "정답은 X")
        "아마", "제 생각에", "제 생각엔", "내 생각에", "정답",
        # tl hedges, with the personal article after them ("siguro si Aguinaldo": the
        # article is no given name)
        "siguro si", "siguro", "sa tingin ko si", "sa tingin ko", "baka si",
    )
)
_FILLER_SUFFIXES: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in ("i think", "i believe", "i guess", "maybe", "probably", "perhaps", "right",
              # ko "(X일) 거예요 / 겁니다 / 거야 / 것 같아요": "it will be X", after the
              # copula is stripped (normalize)
              "거", "겁니다", "거야", "것 같아", "것 같습니다",
              # id/ms and vi hedges after the answer ("Yogyakarta kayaknya", "Huế thì phải")
              "kayaknya", "sepertinya", "mungkin", "thi phai", "chac vay",
              # id/ms "if I'm not mistaken" after the answer ("..., kalau tidak salah"),
              # tl "yata" (I think)
              "kalau tidak salah", "kalau gak salah", "kalau nggak salah", "yata",
              # id/ms particles after the answer ("Kuala Lumpur lah", "Medan kot"), and
              # the ones that address the asker ("Yupiter ya", "Yupiter kak", "... pak");
              # vi "nhé" (not "nha", the last syllable of Tây Ban Nha and Bồ Đào Nha; nor id
              # "dong", vi "Đông" of Quảng Đông folded, nor "kan", of Naoto Kan)
              "lah", "kot", "sih", "deh", "ya", "kak", "nih", "kok", "pak", "bu", "nhe",
              # tag questions after the answer: id/ms "X bukan?" (isn't it?), vi "X phải
              # không?", "X đúng không?"
              "bukan", "phai khong", "dung khong")
)
REFUSAL: Final = (
    "i dont know", "i do not know", "not sure", "no information", "cannot", "can not",
    "unable to", "unknown", "no answer", "not possible", "i am sorry", "im sorry",
    "not provide", "no record", "not specified", "not mentioned", "not clear",
)
_NAME_PARTICLES: Final = frozenset(
    {"van", "von", "de", "der", "den", "da", "di", "du", "la", "le", "del", "della", "bin",
     "ibn", "al", "el", "st", "mc", "mac", "ter", "ten", "y"}
)
_NAME_SUFFIXES: Final = frozenset({"jr", "sr", "ii", "iii", "iv", "2", "3", "4"})
NOT_PERSON_FIRST: Final = frozenset(
    {"new", "san", "santa", "saint", "st", "los", "las", "united", "north", "south", "east",
     "west", "great", "lake", "mount", "mt", "fort", "port", "the", "republic", "kingdom",
     "state", "university", "battle", "treaty", "river", "cape", "gulf", "bay", "isle",
     "el", "la", "le", "big", "little", "old", "upper", "lower", "central", "royal",
     "blue", "white",  # (entities.QUALIFIERS: "Blue Nile" is no person)
     "northern", "southern", "eastern", "western", "justice", "judge", "president", "general",
     "king", "queen", "prince", "princess", "sir", "dame", "lord", "lady", "dr", "mr", "mrs",
     "ms", "pope", "emperor", "senator", "governor", "captain", "chief", "executive", "chef",
     "colonel", "admiral", "bishop", "father", "count", "duke", "baron",
     "maestro", "professor", "prof", "rev", "reverend", "coach", "agent", "officer",
     "gen", "col", "lt", "sgt", "capt", "cpt", "adm", "gov", "sen", "rep", "pres", "maj",
     "congresswoman", "congressman", "vice", "secretary", "ambassador", "mayor", "minister",
     "chancellor",
     # a club's first word, a state's or a place's kind in Indonesian and Vietnamese (after
     # folding), and vi compass qualifiers ("Nam Sudan", "Tây Úc", "Cộng hòa Dominica",
     # "Republik Dominika" are places, not a given name and a surname)
     "republik", "kota", "pulau", "gunung",
     "sungai", "danau", "provinsi", "kabupaten", "teluk", "selat", "cong", "tinh", "song",
     "nui", "bac", "nam", "tay",
     # ms/id places and languages ("Kuala Terengganu", "Bahasa Malaysia"; blind23)
     "kuala", "bandar", "tanjung", "bukit", "negeri", "bahasa",
     # honorifics of the seed languages before a name ("Pak Soekarno", "Bu Kartini",
     # "Tuan Hang Tuah", "Khun ...", "Gng. ..."; blind25)
     "pak", "bapak", "bu", "ibu", "tuan", "puan", "encik", "cik", "khun", "gng",
     # the Tagalog article before a person's name ("Si Rizal", "kay Bonifacio"; blind27)
     "si", "sina", "kay", "kina",
     # clubs: "Real Madrid", "Inter Milan" are no people (entities.CLUB_WORDS)
     "real", "inter", "atletico", "athletic", "sporting", "dynamo", "dinamo", "olympique",
     "borussia", "racing", "deportivo", "fc", "ac", "afc", "cf", "sc"}
)
# the kinds of a musical work: "Choral Symphony" is a work and no person (_person_parts),
# "Fifth Symphony" is named by "the Fifth" (equivalence._KIND_WORDS)
WORK_KINDS: Final = frozenset({"symphony", "concerto", "sonata", "sonatina", "quartet", "quintet",
                         "trio", "suite", "overture", "mass", "requiem", "nocturne", "etude",
                         "prelude", "fugue", "waltz", "rhapsody", "serenade", "cantata",
                         "oratorio", "partita", "mazurka", "polonaise", "ballade",
                         "scherzo", "impromptu", "toccata", "invention", "symphonie",
                         "concertos", "sonatas", "symphonies"})
_NOT_PERSON_LAST: Final = frozenset(
    {"river", "university", "city", "ocean", "sea", "lake", "mountain", "mountains",
     "island", "islands", "state", "states", "kingdom", "republic", "county", "park",
     "bay", "street", "college", "school", "company", "war", "act", "party", "beach",
     "valley", "desert", "canal", "bridge", "tower", "church", "cathedral", "palace",
     "hall", "stadium", "field", "airport", "station", "road", "avenue", "square",
     "bank", "band", "club", "team", "empire", "dynasty", "movement", "league", "award",
     "prize", "festival", "theatre", "theater", "museum", "hospital", "institute",
     "corporation", "inc", "ltd", "records", "studios", "sound", "strait", "peninsula",
     "province", "region", "district", "territory", "coast", "falls", "creek", "forest",
     "canyon", "cup", "series", "bowl", "show", "games", "game", "day", "era", "age",
     "period", "system", "theory", "law", "effect", "syndrome", "disease", "judge", "express",
     "court", "house", "building", "center", "centre", "library", "line", "railway",
     # clubs: "Leeds United" is no person (entities.CLUB_WORDS)
     "united", "rovers", "wanderers", "fc", "cf", "afc",
     # works: "Choral Symphony", "Emperor Concerto" (blind24)
     *WORK_KINDS, "opera", "variations", "march", "album", "song"}
)
_COUNTRIES: Final = frozenset(_DEMONYMS.values())
SHORT_TOKENS: Final = 6
MONTHS: Final = frozenset(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
)


class Alt:
    """An answerline alternative, normalized once (cached per answerline).

    A plain class with ``__slots__``, not a dataclass or named tuple: the rules read
    its attributes a few dozen times per judged pair, and slot reads are the fastest
    attribute access CPython specializes.
    """

    __slots__ = (
        "alt",
        "content",
        "content_or_toks",
        "given",
        "head",
        "last",
        "longest",
        "months",
        "norm",
        "nums",
        "pairs",
        "partial_key",
        "person",
        "required_norms",
        "stem_words",
        "stems",
        "surname",
        "toks",
        "total_len",
    )

    def __init__(self, alt: Alternative, toks: tuple[str, ...], norm: str,
                 months: frozenset[str], pairs: frozenset[tuple[str, str]]) -> None:
        """Analyse an alternative from its final tokens (``norm``: joined by spaces;
        ``months`` and ``pairs``: as :func:`_month_days` reads them).
        :func:`_prep_alts` builds it; each field is assigned where it is computed."""
        self.alt = alt
        self.toks = toks
        self.norm = norm
        self.months = months
        self.pairs = pairs
        self.last = toks[-1]
        self.partial_key = "\x00" + norm
        self.person, self.surname, self.given = _person_parts(alt, toks)
        all_toks = frozenset(toks)
        strict = self.content = all_toks - STOPWORDS
        content = self.content_or_toks = strict or all_toks
        self.longest = max(sorted(content), key=len)
        self.total_len = sum(map(len, content))
        self.stems = frozenset(map(stem, content))
        # numbers_in() over the digit-led tokens only (as for a candidate)
        digit_led = _SIGNED_START.findall(" " + norm)
        self.nums = _numbers_in(tuple(digit_led)) if digit_led else EMPTY
        text = alt.text
        self.required_norms = (tuple(n for n in map(normalize, alt.required) if n)
                               if alt.required else ())
        self.head = strip_articles(tokens(text.split(",")[0])) if "," in text else ()
        # for each stem of the answer's content words, every word with that stem; filled
        # by grey_analysis the first time a candidate lacks some of the answer's words
        self.stem_words: tuple[tuple[str, ...], ...] | None = None


def _person_parts(alt: Alternative, toks: tuple[str, ...]) -> tuple[bool, str | None, str | None]:
    """Is ``alt`` a person's name? If so, also its surname and given name (normalized)."""
    words = alt.text.split()
    if not 2 <= len(words) <= 5 or words[0] == "The":
        return False, None, None  # ("The Dark Knight Rises" is a title)
    if sum(map(str.isupper, _WORD_START.findall(alt.text))) < 2:
        return False, None, None  # (fewer than two capitalised words)
    core = toks if _NAME_SUFFIXES.isdisjoint(toks) else [t for t in toks if t not in _NAME_SUFFIXES]
    if (len(core) < 2 or core[0] in NOT_PERSON_FIRST or core[-1] in _NOT_PERSON_LAST
            or core[0] in _DEMONYMS  # ("American Samoa" is a place)
            or "new" in core[1:]  # ("Papua New Guinea" too)
            or core[-1] in _COUNTRIES):  # ("Saudi Arabia")
        return False, None, None
    if not _NOT_IN_NAMES.isdisjoint(core):
        return False, None, None
    # (a name has no digits, nor a number word: "Beethoven's Ninth"; tested last, as it
    # reads every character)
    if any(map(str.isdigit, alt.text)) or core[-1].isdigit():
        return False, None, None
    # surname: the last word plus any particles before it ("van beethoven" -> "beethoven")
    surname = core[-1]
    given = core[0]
    if given in _NAME_PARTICLES:
        return False, None, None
    return True, surname, given


# the first character of each word (as str.split() splits: re's \s agrees)
_WORD_START: Final = re.compile(r"(?<!\S)\S")
# stopwords that are not name particles: a person's name has none
_NOT_IN_NAMES: Final = STOPWORDS - _NAME_PARTICLES


def _prep_alts(alts: tuple[Alternative, ...]) -> tuple[Alt, ...]:
    """Normalize answerline alternatives once (the judge reads them for every pair)."""
    out = []
    for a in alts:
        toks = strip_articles(tokens(a.text))
        if not toks:
            continue
        norm = " ".join(toks)
        months, pairs = _NO_MONTHS
        # (a round number is in the tokens, not always in the text: "One Hundred and One")
        if "00" in norm or not _RARE_WORDS.isdisjoint(toks):
            if ("00" in norm or not _MERGE_GATE.isdisjoint(toks)) and _may_merge(toks, norm):
                toks = merge_number_tokens(toks)
            toks = signed_numbers(toks)
            if not _DECADE_WORDS.isdisjoint(toks):
                toks = decades(toks)
            if not toks:
                continue
            norm = " ".join(toks)
            months, pairs = _month_days(toks)
        out.append(Alt(a, toks, norm, months, pairs))
    return tuple(out)


Prepared = tuple[Answerline, tuple[Alt, ...], tuple[Alt, ...], tuple[Alt, ...],
                  frozenset[str], float, tuple[Alt, ...], tuple[Alt, ...], tuple[Alt, ...],
                  tuple[Alt, ...], frozenset[str], frozenset[str], str, tuple[str, ...],
                  tuple[str, ...], tuple[str, ...]]


def _regnal(a: Alt) -> bool:
    """Does an answer end in a regnal number after a name ("Louis XIV" -> "louis 14",
    "John Paul I": the lone I is one)? Rule 12r reads only these."""
    last = "1" if a.toks[-1] == "i" else a.toks[-1]
    return len(a.toks) >= 2 and last.isdigit() and int(last) <= 30


# a decimal comma: digits, a comma, then digits that are no group of three ("2,5 km")
_DECIMAL_COMMA: Final = re.compile(r"\d,(?!\d{3}(?!\d))\d")


def squash(norm: str, text: str) -> str:
    """A normalized answer without its spaces, for an answer said letter by letter ("C
    O two" for "CO2") or digit by digit ("five five five, zero one four seven" for
    "555-0147"); ``""`` when that would join the two sides of a decimal comma (``text``
    "2,5 km" normalizes to "2 5 km", and is no "25 km"; blind26)."""
    return "" if "," in text and _DECIMAL_COMMA.search(text) else norm.replace(" ", "")


def _measures(texts: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The acceptable answers (their texts, one per line) that read as a time, an amount
    of money and a temperature, the text lowered and split once for the three gates."""
    low = texts.lower()
    words = frozenset(low.split())
    return (answer_times(texts, low, words), answer_amounts(texts, low, words),
            answer_temperatures(texts, words))


@lru_cache(maxsize=16384)
def prepared(key: str | tuple[str, ...]) -> Prepared:
    """Parse and normalize an answerline once; the judge calls this for every pair.
    Returns the answerline; its acceptable, prompt and reject alternatives; the
    acceptable answers' content words; the ``answer_short`` regime feature (an
    acceptable answer of at most two words); then the acceptable answers with
    numbers, those that are a person's name, those with required parts and those
    ending in a regnal number (the rules that read only these skip the others); and,
    for the rules' gates, the acceptable answers' normalized forms, the same without
    spaces, their texts as written, one per line, and those of them that read as a
    clock time or duration (:mod:`judging.time_rules`), as an amount of money
    (:mod:`judging.money_rules`) and as a temperature (:mod:`judging.measure_rules`),
    found once per answerline, not per pair."""
    line = parse_answerline(key)
    accept = _prep_alts(line.acceptable)
    prompts = _prep_alts(line.prompts) if line.prompts else ()
    rejects = _prep_alts(line.rejects) if line.rejects else ()
    if len(accept) == 1:  # (most answerlines: no loops)
        one = accept[0]
        return (line, accept, prompts, rejects, one.content, 1.0 if len(one.toks) <= 2 else 0.0,
                accept if one.nums else (), accept if one.person else (),
                accept if one.required_norms else (), accept if _regnal(one) else (),
                frozenset((one.norm,)), frozenset((squash(one.norm, one.alt.text),)), one.alt.text,
                *_measures(one.alt.text))
    if not accept:
        return (line, accept, prompts, rejects, frozenset(), 0.0, (), (), (), (), frozenset(),
                frozenset(), "", (), (), ())
    norms = frozenset(map(_NORM, accept))
    return (line, accept, prompts, rejects, frozenset().union(*map(_CONTENT, accept)),
            1.0 if min(map(len, map(_TOKS, accept))) <= 2 else 0.0,
            tuple(filter(_NUMS, accept)), tuple(filter(_PERSON, accept)),
            tuple(filter(_REQUIRED_NORMS, accept)), tuple(filter(_regnal, accept)),
            norms, frozenset([squash(a.norm, a.alt.text) for a in accept]),
            (texts := "\n".join(map(_TEXT, accept))), *_measures(texts))


# (field readers for prepared(), with no Python frame per answer)
_CONTENT: Final = attrgetter("content")
_NORM: Final = attrgetter("norm")
_NUMS: Final = attrgetter("nums")
_PERSON: Final = attrgetter("person")
_REQUIRED_NORMS: Final = attrgetter("required_norms")
_TEXT: Final = attrgetter("alt.text")
_TOKS: Final = attrgetter("toks")


@lru_cache(maxsize=16384)
def question_tokens(question: str) -> frozenset[str]:
    """Content words of the question (weak evidence when a candidate repeats them)."""
    return frozenset(tokens(question)) - STOPWORDS if question else frozenset()


_NO_MONTHS: tuple[frozenset[str], frozenset[tuple[str, str]]] = (frozenset(), frozenset())


def _month_days(toks: tuple[str, ...]) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """Months named in ``toks`` and (month, day) pairs ("july 4", "4 july")."""
    months = MONTHS.intersection(toks)
    if not months:
        return _NO_MONTHS
    pairs = set()
    last = len(toks) - 1
    for month in months:  # (only the months' places are visited)
        i = -1
        for _ in range(toks.count(month)):
            i = toks.index(month, i + 1)
            if i and toks[i - 1].isdigit() and 1 <= int(toks[i - 1]) <= 31:
                pairs.add((month, toks[i - 1]))
            if i < last and toks[i + 1].isdigit() and 1 <= int(toks[i + 1]) <= 31:
                pairs.add((month, toks[i + 1]))
    return frozenset(months), frozenset(pairs)


_DISCLAIMER: Final = ("as an ai", "i do not have access", "i dont have access", "real time information",
               "as of my", "knowledge cutoff", "i cannot browse", "i am unable")


_PREFIX_BY_FIRST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _p in sorted(_FILLER_PREFIXES, key=len, reverse=True):
    _PREFIX_BY_FIRST[_p[0]] = (*_PREFIX_BY_FIRST.get(_p[0], ()), _p)
_SUFFIX_BY_LAST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _p in sorted(_FILLER_SUFFIXES, key=len, reverse=True):
    _SUFFIX_BY_LAST[_p[-1]] = (*_SUFFIX_BY_LAST.get(_p[-1], ()), _p)
for _w in TAIL_PARTICLES:
    # (no filler: a key here only sends the answer down describe's filler branch, which
    # marks it for _without_particle at no cost to other answers)
    _SUFFIX_BY_LAST.setdefault(_w, ())
for _w in LEAD_PARTICLES:
    _PREFIX_BY_FIRST.setdefault(_w, ())  # (tl "si Rizal": the same way, at the start)


def strip_fillers(toks: tuple[str, ...]) -> tuple[str, ...]:
    """Drop hedging fillers around the answer: "I think it's X, maybe" -> "X"."""
    changed = True
    while changed and toks:
        changed = False
        for p in _PREFIX_BY_FIRST.get(toks[0], ()):
            if len(toks) > len(p) and toks[: len(p)] == p:
                toks = toks[len(p):]
                changed = True
                break
        for p in _SUFFIX_BY_LAST.get(toks[-1], ()):
            if len(toks) > len(p) and toks[-len(p):] == p:
                toks = toks[: -len(p)]
                if p[0] in _KO_WILL_BE and len(toks[-1]) >= 3 and toks[-1][-1] in "일인":
                    # its copula: 서울일 거예요, 한라산인 것 같아요 -> 서울, 한라산
                    toks = (*toks[:-1], strip_korean(toks[-1][:-1]))
                changed = True
                break
    return strip_articles(toks)


_KO_WILL_BE: Final = frozenset({"거", "겁니다", "거야", "것"})


class Cand:
    """A candidate answer, analysed once (by :func:`describe`): cached per candidate
    string for :func:`judge`, once per batch in :func:`judge_many`.

    ``memo`` holds this candidate's spelling-variant look-ups and partial
    similarities. A ``__slots__`` class for fast attribute reads (see :class:`Alt`).
    """

    __slots__ = (
        "content",
        "content_set",
        "core",
        "core_content",
        "core_norm",
        "disclaimer",
        "full_norm",
        "memo",
        "months",
        "nums",
        "pairs",
        "particle",
        "refusal",
        "text",
        "tok_set",
        "toks",
    )

    def __init__(self, toks: tuple[str, ...], joined: str, tok_set: frozenset[str],
                 months: frozenset[str], pairs: frozenset[tuple[str, str]], text: str) -> None:
        """Analyse a candidate from its final tokens (``joined``: joined by spaces,
        ``tok_set``: as a set, ``months`` and ``pairs``: as :func:`_month_days` reads
        them; ``text``: as written). :func:`describe` builds it; each field is
        assigned where it is computed."""
        self.text = text  # as written (rule 12b reads its comma)
        self.toks = toks
        self.tok_set = tok_set
        self.months = months
        self.pairs = pairs
        self.memo: dict = {}
        n = len(toks)
        first = toks[0]
        article = n > 1 and first in ARTICLES
        full_norm = self.full_norm = joined[len(first) + 1:] if article else joined
        content = self.content = self.content_set = tok_set - STOPWORDS
        if first in _PREFIX_BY_FIRST or toks[-1] in _SUFFIX_BY_LAST:
            core = self.core = strip_fillers(toks)
            # ends with one of TAIL_PARTICLES (or starts with one of LEAD_PARTICLES)
            self.particle = toks[-1] in TAIL_PARTICLES or first in LEAD_PARTICLES
            # the core is the whole answer, or the answer less a leading article (a
            # stopword: the same content words), or less some fillers
            if core is toks:
                self.core_norm = joined
                self.core_content = content
            elif article and len(core) == n - 1 and core[0] is toks[1]:
                self.core_norm = full_norm
                self.core_content = content
            else:
                self.core_norm = " ".join(core)
                self.core_content = frozenset(core) - STOPWORDS
        else:
            self.particle = False
            self.core_content = content
            if article:
                self.core = toks[1:]
                self.core_norm = full_norm
            else:
                self.core = toks
                self.core_norm = joined
        # numbers_in() over the digit-led tokens only (the others never count)
        digit_led = _SIGNED_START.findall(" " + joined)
        self.nums = _numbers_in(tuple(digit_led)) if digit_led else EMPTY
        self.refusal = n <= 40 and mentions_refusal(full_norm)
        self.disclaimer = n > 8 and any(map(full_norm.__contains__, _DISCLAIMER))


# a token that starts with a digit, or with a minus sign and a digit ("-40")
_SIGNED_START: Final = re.compile(r" (-?\d[^ ]*)")


@lru_cache(maxsize=65536)
def describe_text(candidate: str) -> Cand | None:
    """Normalize and describe a candidate once; ``None`` if it has no words."""
    return describe(final_tokens(candidate, tokens(candidate)), candidate)


def _may_merge(toks: tuple[str, ...], joined: str | None = None) -> bool:
    """Could :func:`~judging.numbers.merge_number_tokens` change ``toks``? Cheap:
    a regex for a round number before a remainder, a set test for the scale words,
    and a regex for two single letters in a row only when a letter is there."""
    text = " " + (joined if joined is not None else " ".join(toks)) + " "
    if _TWO_NUMBERS.search(text) is not None:
        return True
    if _SCALE_WORDS.isdisjoint(toks):
        return not _LETTERS.isdisjoint(toks) and _LETTER_PAIR.search(text) is not None
    return _MERGE_HINT.search(text) is not None


# _may_merge can be true only with a round number ("00 " in the text) or one of these
_MERGE_GATE: Final = frozenset({"point", "half", "quarter", "quarters", "hundred", "thousand", "million",
                         "billion", "trillion", "dozen", *"bcdefghjklmnopqrstuvwxyz",
                         *SEED_SCALES})
_SCALE_WORDS: Final = frozenset({"point", "half", "quarter", "quarters", "hundred", "thousand", "million",
                          "billion", "trillion", "dozen", *SEED_SCALES})
_LETTERS: Final = frozenset("bcdefghjklmnopqrstuvwxyz")
_LETTER_PAIR: Final = re.compile(r" [a-z] [a-z] ")
NOT_BUT_START: Final = frozenset({"not", "its", "it", "bukan", "khong", "chang", "hindi", "wala",
                            # (corrections._NOT_ADVERB: "definitely not Lyon, it's Paris")
                            "definitely", "certainly", "surely", "probably", "obviously",
                            "clearly",
                            # (corrections._BELIEVERS: "Many attribute this line to X,
                            # but it was actually ..."; blind28)
                            "many", "most", "some", "people", "everyone", "everybody",
                            "others"})
CORRECTION_MAX: Final = MAX_HEAD + MAX_TAIL + 4  # longer answers are never read as corrected


# a round number and a remainder: "300 25", "1000 and 5", "1800 12"
_TWO_NUMBERS: Final = re.compile(r" \d*00 (?:and )?\d")

_MERGE_HINT: Final = re.compile(
    r" (?:[a-z] [a-z] |point \d|(?:\d[^ ]*|a) (?:point|million|billion|trillion|dozen|quarters? |half |"
    r"juta |ribu |trieu |nghin |libo |milyon |miliar |bilyon |"
    r"hundred|thousand|and (?:a|1) (?:half|quarter))|hundred |thousand )")


def final_tokens(text: str, toks: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens of the last answer asserted in ``text`` (a self-correction such as
    "Sydney? No, actually Canberra" is judged as "Canberra"; see
    :mod:`judging.corrections`), else ``toks``."""
    if not toks or len(toks) > CORRECTION_MAX:
        return toks
    # a marker stands within the first MAX_HEAD + 1 words ("not X but Y": at the start)
    if text.isascii() and toks[0] not in NOT_BUT_START and _CORRECTION_GATE.isdisjoint(
            toks[1:MAX_HEAD + 2]):
        return toks
    tail = final_answer(text)
    if tail is None:
        return toks
    return tokens(tail) or toks


def said_last(text: str) -> str:
    """``text`` less a self-correction's first answer ("2309 เอ๊ย 2310 ครับ" -> "2310
    ครับ"), for the few rules that read the answer as written (its tokens are the
    last answer's already: :func:`final_tokens`); called only where such a rule runs
    (an ASCII text without a marker word of the gate is the text itself)."""
    if text.isascii() and _CORRECTION_GATE.isdisjoint(tokens(text)) and (
            text[:3].lower() not in ("not", "it'", "its", "it ")):
        return text
    return final_answer(text) or text


def describe(toks: tuple[str, ...], text: str = "") -> Cand | None:
    """Describe a candidate from its tokens (``text``: as written); ``None`` if it
    has no words."""
    if not toks:
        return None
    joined = " ".join(toks)
    tok_set = frozenset(toks)
    if "00 " in joined or not _RARE_WORDS.isdisjoint(tok_set):
        # (most answers have no number words, sign, decade or month)
        if ("00 " in joined or not _MERGE_GATE.isdisjoint(tok_set)) and _may_merge(toks, joined):
            merged = merge_number_tokens(toks)
            if merged != toks:
                toks = merged
                joined = " ".join(toks)
                tok_set = frozenset(toks)
        if not SIGN_WORDS.isdisjoint(tok_set):
            signed = signed_numbers(toks)
            if signed is not toks:
                toks = signed
                joined = " ".join(toks)
                tok_set = frozenset(toks)
        if not _DECADE_WORDS.isdisjoint(tok_set):
            toks = decades(toks)
            joined = " ".join(toks)
            tok_set = frozenset(toks)
        months, pairs = _month_days(toks)
    else:
        months, pairs = _NO_MONTHS
    return Cand(toks, joined, tok_set, months, pairs, text)


EMPTY: frozenset[str] = frozenset()
_DECADE_WORDS: Final = frozenset(DECADE_WORDS)
_DEMONYM_WORDS: Final = frozenset(_DEMONYMS)
# a candidate with none of these words (and no round number, "00 ") has no number
# words to merge, sign, decade or month
_RARE_WORDS: Final = _MERGE_GATE | SIGN_WORDS | _DECADE_WORDS | MONTHS
# numbers_in() without its cache, for candidates (nearly all distinct) and answers
_numbers_in: Final = numbers_in.__wrapped__


def mentions_refusal(text: str) -> bool:
    """Does ``text`` contain a refusal phrase? Every phrase contains "no", "sorry" or
    "unable" ("know", "cannot"), so most texts are settled by three substring tests."""
    if "no" in text or "sorry" in text or "unable" in text:
        return any(map(text.__contains__, REFUSAL))
    return False
