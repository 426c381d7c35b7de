"""Rule-based, interpretable answer equivalence (PEDANTS-like; pure Python, no Django).

``judge(candidate, answerline, question=...)`` decides whether a free-text answer
matches an answerline and says why. It works in two layers:

1. **Hard rules**, in priority order -- ``empty``, ``exact``/``alias:*``,
   ``reject:do-not-accept``, ``prompt``, ``negation``, ``hedge``, ``installment``,
   ``number``, ``required``, ``surname``, ``given-name``. They settle a case outright
   and always win (a ``do not accept`` beats any fuzzy similarity; ``15`` is never
   ``5``; ``Not Canberra.`` is never ``Canberra``).
2. **Grey cases** (long sentences from LLMs, partial names, misspellings) go to a
   small logistic-regression calibrator over interpretable features of the rule
   engine -- token recall of the reference in the candidate (with the question's own
   words discounted), contiguous containment, fuzzy similarity, name parts and
   numbers. Its weights live in ``judging/calibrator.json`` (trained by
   ``python -m judging.train_calibrator``) and are loaded once at import.

Every :class:`Verdict` carries ``score`` (calibrated probability of correct), the
``rule`` that decided, the reference it ``matched`` and a one-sentence explanation.
Bump :data:`EQUIVALENCE_VERSION` whenever a rule or the calibrator changes, so that
stored verdicts can be re-scored.
"""

from __future__ import annotations

import gc
import math
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA, Levenshtein

from judging.answerline import Alternative, Answerline, parse_answerline
from judging.calibration import (
    FEATURE_NAMES,
    QUESTION_KIND_NAMES,
    SHORT_FEATURE,
    Calibrator,
    adds_or_drops,
    adds_or_drops_many,
    load_calibrator,
    question_kind,
)
from judging.corrections import GATE as _CORRECTION_GATE
from judging.corrections import (
    LEAD_PARTICLES,
    MAX_HEAD,
    MAX_TAIL,
    TAIL_PARTICLES,
    final_answer,
    without_particle,
)
from judging.entities import BUILT_WORDS as _BUILT_WORDS
from judging.entities import (
    FEATURE_AFTER,
    FEATURE_BEFORE,
    GENERIC,
    other_subtitle_word,
    patronym_of,
)
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
    tokens_many,
)
from judging.number_rules import (
    DECADE_MARKS,
    ERA_MARKS,
    MONEY_AFTER,
    MONEY_BEFORE,
    currency_word,
    decade,
    decade_words,
    era_year,
    fraction,
    may_be_number,
    number_words,
    numbers_by_word,
    other_unit,
    read_number_cached,
)
from judging.numbers import (
    FIRST_CHARS,
    FIRST_WORDS,
    FRACTION_MARKS,
    FRACTION_WORDS,
    UNIT_WORDS,
    decimal_point,
    digit_comma,
    digit_comma_line,
    merge_number_tokens,
    read_fraction,
)
from judging.scripts import HANGUL, batchim, strip_korean
from judging.short_rules import (
    GENERATION_WORDS,
    Decision,
    acronym,
    asks_who,
    built_on,
    confusable,
    generation,
    hangul_spacing,
    kind_change,
    marks_conflict,
    other_person_hangul,
    other_subtitle,
    prefix_word,
    proper_words,
    script_rules,
    surname_in_run,
)

_extract_one = process.extractOne
_lev_distance = Levenshtein.distance
_osa_distance = OSA.distance

__all__ = [
    "EQUIVALENCE_VERSION",
    "FEATURE_NAMES",
    "Verdict",
    "analyze",
    "clear_caches",
    "judge",
    "judge_many",
]

EQUIVALENCE_VERSION = "2026.12.7"


# judge_many pauses the cyclic garbage collector for batches at least this large.
GC_PAUSE_MIN_BATCH = 256
# judge_many works through a batch in blocks of this many pairs (see _judge_batch).
JUDGE_BLOCK = 512


@dataclass(frozen=True)
class Verdict:
    """The judge's decision on one candidate answer.

    ``correct`` is the final decision; ``prompt`` is True when the answerline asks
    the responder for more (``[prompt on X]``) -- a prompted answer is not correct
    as a final answer. ``score`` is the calibrated probability that a human would
    mark the answer correct; ``rule`` names the rule that decided (see
    ``docs/judging.md``); ``matched`` is the answerline text it matched, if any.
    """

    correct: bool
    prompt: bool
    score: float
    rule: str
    matched: str | None
    explanation: str
    version: str = EQUIVALENCE_VERSION


class Analysis(NamedTuple):
    """What the rule engine found: a hard decision, or features for the calibrator.

    A named tuple rather than a dataclass: one is built per judged pair, and tuples
    are several times cheaper to create.
    """

    rule: str
    hard: bool | None  # True/False when a hard rule decided, None for grey cases
    prompt: bool
    matched: str | None
    detail: str
    features: tuple[float, ...]


_NEGATORS = frozenset(
    {"not", "isnt", "wasnt", "arent", "werent", "never", "neither", "nor", "doesnt", "didnt",
     "dont", "cannot", "cant", "aint",
     # vi (không, chẳng phải), id/ms (bukan, tidak), tl (hindi), ko (안), after fold()
     "khong", "bukan", "tidak", "안"}
)
# A short answer opening with one of these negates what follows ("chẳng phải X").
_NEG_OPENERS = _NEGATORS | {"chang", "hindi"}
# Korean negative copulas after the noun: "서울이 아닙니다", "서울 아니에요".
_NEG_AFTER = frozenset(
    form for w in ("아닙니다", "아니다", "아니에요", "아니예요", "아니야", "아냐", "아닌", "아니요",
                   "아니", "아니오", "아니었어요", "아니었다", "아님", "아니지", "아닌데",
                   "아니거든요")
    for form in (w, strip_korean(w)))
# "I don't think (it's) X" and its vi / id forms (after folding): a doubt is a negation
_DOUBT = tuple(tuple(p.split()) for p in (
    "i dont think", "i do not think", "i dont believe", "i do not believe", "i doubt",
    "toi khong nghi", "toi khong cho", "saya tidak rasa", "saya tidak pikir",
    "saya tidak kira", "saya tak rasa", "saya tak fikir"))
_DOUBTERS = frozenset(p[0] for p in _DOUBT)
_DOUBT_SKIP = frozenset({"it", "its", "is", "that", "la", "rang", "bahwa", "itu", "ini",
                         "the", "answer", "was"})
# words between a negator and the answer: vi "phải", "là"; id "lah"; tl "ang", "si"
_NEG_FILLER = frozenset({"phai", "la", "lah", "ang", "si", "ay"})
_NEG_SKIP = ARTICLES | {"in", "at", "on", "from", "by", "to", "of", "be", "is", "it", "was",
                        "called", "named"}
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
_REFUSAL = (
    "i dont know", "i do not know", "not sure", "no information", "cannot", "can not",
    "unable to", "unknown", "no answer", "not possible", "i am sorry", "im sorry",
    "not provide", "no record", "not specified", "not mentioned", "not clear",
)
_NAME_PARTICLES = frozenset(
    {"van", "von", "de", "der", "den", "da", "di", "du", "la", "le", "del", "della", "bin",
     "ibn", "al", "el", "st", "mc", "mac", "ter", "ten", "y"}
)
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "2", "3", "4"})
_NOT_PERSON_FIRST = frozenset(
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
     # a club's first word, a state's or a place's kind in Indonesian and Vietnamese (after
     # folding), and vi compass qualifiers ("Nam Sudan", "Tây Úc", "Cộng hòa Dominica",
     # "Republik Dominika" are places, not a given name and a surname)
     "republik", "kota", "pulau", "gunung",
     "sungai", "danau", "provinsi", "kabupaten", "teluk", "selat", "cong", "tinh", "song",
     "nui", "bac", "nam", "tay",
     # clubs: "Real Madrid", "Inter Milan" are no people (entities.CLUB_WORDS)
     "real", "inter", "atletico", "athletic", "sporting", "dynamo", "dinamo", "olympique",
     "borussia", "racing", "deportivo", "fc", "ac", "afc", "cf", "sc"}
)
_NOT_PERSON_LAST = frozenset(
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
     "united", "rovers", "wanderers", "fc", "cf", "afc"}
)
_COUNTRIES = frozenset(_DEMONYMS.values())
_SHORT_TOKENS = 6
_PART_WORDS = frozenset({"part", "chapter", "episode", "volume", "vol", "book", "season"})
_MONTHS = frozenset(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
)


def _is_year(v: str) -> bool:
    """A four-digit number that reads as a year (1500-2099)."""
    return len(v) == 4 and v[:2] in ("15", "16", "17", "18", "19", "20")


def _approx(ref: frozenset[str], cand: frozenset[str]) -> bool:
    """Do the numbers agree approximately? Decimals within 3% (``2.4`` ~ ``2.45``),
    integers >= 1000 that are not years within 2%, or a candidate inside a range
    ``10–12``. Small integers and years must match exactly: ``15`` is never ``5``."""
    ints = sorted(float(r) for r in ref)
    if len(ints) == 2 and not any(_is_year(r) for r in ref) and ints[0] < ints[1]:
        lo, hi = ints
        if any(lo <= float(c) <= hi for c in cand):
            return True
    for r in ref:
        decimal = "." in r
        if not decimal and (len(r) < 4 or _is_year(r)):
            continue
        rv = float(r)
        tol = 0.03 if decimal else 0.02
        for c in cand:
            cv = float(c)
            if rv and abs(cv - rv) / abs(rv) <= tol:
                return True
    return False


_HEDGE_SPLIT = frozenset({"or", "andor", "either", "versus", "vs",
                          # a second answer offered as a maybe: "Paris, maybe Lyon",
                          # "Paris but perhaps Lyon" (a maybe before or after the only
                          # answer is a filler, stripped before: "maybe Paris")
                          "maybe", "perhaps", "possibly", "mungkin",
                          "hoac", "atau",  # vi "hoặc", id/ms "atau"
                          "hay", "ataupun",  # vi "hay (là)" (or), ms "ataupun"
                          "아니면", "또는", "혹은"})  # ko


class _Alt:
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
                 content: frozenset[str], nums: frozenset[str], person: bool,
                 surname: str | None, given: str | None, required_norms: tuple[str, ...],
                 head: tuple[str, ...], content_or_toks: frozenset[str], last: str,
                 months: frozenset[str], pairs: frozenset[tuple[str, str]], longest: str,
                 total_len: int, stems: frozenset[str], partial_key: str) -> None:
        self.alt = alt
        self.toks = toks
        self.norm = norm
        self.content = content
        self.nums = nums
        self.person = person
        self.surname = surname
        self.given = given
        self.required_norms = required_norms
        self.head = head
        self.content_or_toks = content_or_toks
        self.last = last
        self.months = months
        self.pairs = pairs
        self.longest = longest
        self.total_len = total_len
        self.stems = stems
        # for each stem of the answer's content words, every word with that stem; filled
        # by _grey the first time a candidate lacks some of the answer's words
        self.stem_words: tuple[tuple[str, ...], ...] | None = None
        self.partial_key = partial_key


def _person_parts(alt: Alternative, toks: tuple[str, ...]) -> tuple[bool, str | None, str | None]:
    """Is ``alt`` a person's name? If so, also its surname and given name (normalized)."""
    words = alt.text.split()
    if not 2 <= len(words) <= 5 or words[0] == "The":
        return False, None, None  # ("The Dark Knight Rises" is a title)
    if len([w for w in words if w[:1].isupper()]) < 2:
        return False, None, None
    core = [t for t in toks if t not in _NAME_SUFFIXES]
    if (len(core) < 2 or core[0] in _NOT_PERSON_FIRST or core[-1] in _NOT_PERSON_LAST
            or core[0] in _DEMONYMS  # ("American Samoa" is a place)
            or "new" in core[1:]  # ("Papua New Guinea" too)
            or core[-1] in _COUNTRIES):  # ("Saudi Arabia")
        return False, None, None
    if any(t in STOPWORDS and t not in _NAME_PARTICLES for t in core):
        return False, None, None
    # (a name has no digits: tested last, as it reads every character)
    if any(map(str.isdigit, alt.text)):
        return False, None, None
    # surname: the last word plus any particles before it ("van beethoven" -> "beethoven")
    surname = core[-1]
    given = core[0]
    if given in _NAME_PARTICLES:
        return False, None, None
    return True, surname, given


def _prep_alts(alts: tuple[Alternative, ...]) -> tuple[_Alt, ...]:
    """Normalize answerline alternatives once (the judge reads them for every pair)."""
    out = []
    for a in alts:
        toks = strip_articles(tokens(a.text))
        # (a round number is in the tokens, not always in the text: "One Hundred and One")
        if toks and (not _MERGE_GATE.isdisjoint(toks) or "00" in " ".join(toks)) and \
                _may_merge(toks):
            toks = merge_number_tokens(toks)
        toks = signed_numbers(toks)
        if not _DECADE_WORDS.isdisjoint(toks):
            toks = decades(toks)
        if not toks:
            continue
        person, surname, given = _person_parts(a, toks)
        months, pairs = _month_days(toks)
        all_toks = frozenset(toks)
        strict = all_toks - STOPWORDS
        content = strict or all_toks
        norm = " ".join(toks)
        out.append(
            _Alt(
                a,
                toks,
                norm,
                strict,
                numbers_in(toks),
                person,
                surname,
                given,
                tuple(n for n in map(normalize, a.required) if n) if a.required else (),
                strip_articles(tokens(a.text.split(",")[0])) if "," in a.text else (),
                content,
                toks[-1],
                months,
                pairs,
                max(sorted(content), key=len),
                sum(map(len, content)),
                frozenset(map(stem, content)),
                "\x00" + norm,
            )
        )
    return tuple(out)


_Prepared = tuple[Answerline, tuple[_Alt, ...], tuple[_Alt, ...], tuple[_Alt, ...],
                  frozenset[str], float, tuple[_Alt, ...], tuple[_Alt, ...], tuple[_Alt, ...]]


@lru_cache(maxsize=16384)
def _prepared(key: str | tuple[str, ...]) -> _Prepared:
    """Parse and normalize an answerline once; the judge calls this for every pair.
    Returns the answerline; its acceptable, prompt and reject alternatives; the
    acceptable answers' content words; the ``answer_short`` regime feature (an
    acceptable answer of at most two words); then the acceptable answers with
    numbers, those that are a person's name and those with required parts (the
    short-answer rules that read only these skip the others)."""
    line = parse_answerline(key)
    accept = _prep_alts(line.acceptable)
    prompts = _prep_alts(line.prompts) if line.prompts else ()
    rejects = _prep_alts(line.rejects) if line.rejects else ()
    if len(accept) == 1:  # (most answerlines: no loops)
        one = accept[0]
        return (line, accept, prompts, rejects, one.content, 1.0 if len(one.toks) <= 2 else 0.0,
                accept if one.nums else (), accept if one.person else (),
                accept if one.required_norms else ())
    alt_tokens = frozenset().union(*(a.content for a in accept)) if accept else frozenset()
    answer_short = 1.0 if any(len(a.toks) <= 2 for a in accept) else 0.0
    return (line, accept, prompts, rejects, alt_tokens, answer_short,
            tuple(a for a in accept if a.nums), tuple(a for a in accept if a.person),
            tuple(a for a in accept if a.required_norms))


@lru_cache(maxsize=16384)
def _question_tokens(question: str) -> frozenset[str]:
    """Content words of the question (weak evidence when a candidate repeats them)."""
    return frozenset(t for t in tokens(question) if t not in STOPWORDS) if question else frozenset()


_NO_MONTHS: tuple[frozenset[str], frozenset[tuple[str, str]]] = (frozenset(), frozenset())


def _month_days(toks: tuple[str, ...]) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """Months named in ``toks`` and (month, day) pairs ("july 4", "4 july")."""
    if _MONTHS.isdisjoint(toks):
        return _NO_MONTHS
    months = set()
    pairs = set()
    for i, t in enumerate(toks):
        if t in _MONTHS:
            months.add(t)
            for j in (i - 1, i + 1):
                if 0 <= j < len(toks) and toks[j].isdigit() and 1 <= int(toks[j]) <= 31:
                    pairs.add((t, toks[j]))
    return frozenset(months), frozenset(pairs)


_DISCLAIMER = ("as an ai", "i do not have access", "i dont have access", "real time information",
               "as of my", "knowledge cutoff", "i cannot browse", "i am unable")


_PREFIX_BY_FIRST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _p in sorted(_FILLER_PREFIXES, key=len, reverse=True):
    _PREFIX_BY_FIRST[_p[0]] = (*_PREFIX_BY_FIRST.get(_p[0], ()), _p)
_SUFFIX_BY_LAST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _p in sorted(_FILLER_SUFFIXES, key=len, reverse=True):
    _SUFFIX_BY_LAST[_p[-1]] = (*_SUFFIX_BY_LAST.get(_p[-1], ()), _p)
for _w in TAIL_PARTICLES:
    # (no filler: a key here only sends the answer down _describe's filler branch, which
    # marks it for _without_particle at no cost to other answers)
    _SUFFIX_BY_LAST.setdefault(_w, ())
for _w in LEAD_PARTICLES:
    _PREFIX_BY_FIRST.setdefault(_w, ())  # (tl "si Rizal": the same way, at the start)


def _strip_fillers(toks: tuple[str, ...]) -> tuple[str, ...]:
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


_KO_WILL_BE = frozenset({"거", "겁니다", "거야", "것"})


class _Cand:
    """A candidate answer, analysed once: cached per candidate string for :func:`judge`,
    once per batch in :func:`judge_many`.

    ``memo`` holds this candidate's spelling-variant look-ups and partial
    similarities. A ``__slots__`` class for fast attribute reads (see :class:`_Alt`).
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

    def __init__(self, toks: tuple[str, ...], full_norm: str, core: tuple[str, ...],
                 core_norm: str, tok_set: frozenset[str], nums: frozenset[str],
                 content: frozenset[str], content_set: frozenset[str],
                 core_content: frozenset[str], months: frozenset[str],
                 pairs: frozenset[tuple[str, str]], refusal: bool, disclaimer: bool,
                 memo: dict, text: str, particle: bool = False) -> None:
        self.text = text  # as written (rule 12b reads its comma)
        self.toks = toks
        self.full_norm = full_norm
        self.core = core
        self.core_norm = core_norm
        self.tok_set = tok_set
        self.nums = nums
        self.content = content
        self.content_set = content_set
        self.core_content = core_content
        self.months = months
        self.pairs = pairs
        self.refusal = refusal
        self.disclaimer = disclaimer
        self.memo = memo
        self.particle = particle  # ends with one of TAIL_PARTICLES


_NUM_START = re.compile(r" (\d[^ ]*)")
_SIGNED_START = re.compile(r" (-?\d[^ ]*)")  # (with a signed number: "-40")


@lru_cache(maxsize=65536)
def _candidate(candidate: str) -> _Cand | None:
    """Normalize and describe a candidate once; ``None`` if it has no words."""
    return _describe(_final_tokens(candidate, tokens(candidate)), candidate)


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
_MERGE_GATE = frozenset({"point", "half", "quarter", "quarters", "hundred", "thousand", "million",
                         "billion", "trillion", "dozen", *"bcdefghjklmnopqrstuvwxyz"})
_SCALE_WORDS = frozenset({"point", "half", "quarter", "quarters", "hundred", "thousand", "million",
                          "billion", "trillion", "dozen"})
_LETTERS = frozenset("bcdefghjklmnopqrstuvwxyz")
_LETTER_PAIR = re.compile(r" [a-z] [a-z] ")
_NOT_BUT_START = frozenset({"not", "its", "it", "bukan", "khong", "chang",
                            # (corrections._NOT_ADVERB: "definitely not Lyon, it's Paris")
                            "definitely", "certainly", "surely", "probably", "obviously",
                            "clearly"})
_CORRECTION_MAX = MAX_HEAD + MAX_TAIL + 4  # longer answers are never read as corrected


# a round number and a remainder: "300 25", "1000 and 5", "1800 12"
_TWO_NUMBERS = re.compile(r" \d*00 (?:and )?\d")

_MERGE_HINT = re.compile(
    r" (?:[a-z] [a-z] |point \d|(?:\d[^ ]*|a) (?:point|million|billion|trillion|dozen|quarters? |half |"
    r"hundred|thousand|and (?:a|1) (?:half|quarter))|hundred |thousand )")


def _final_tokens(text: str, toks: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens of the last answer asserted in ``text`` (a self-correction such as
    "Sydney? No, actually Canberra" is judged as "Canberra"; see
    :mod:`judging.corrections`), else ``toks``."""
    if not toks or len(toks) > _CORRECTION_MAX:
        return toks
    # a marker stands within the first MAX_HEAD + 1 words ("not X but Y": at the start)
    if text.isascii() and toks[0] not in _NOT_BUT_START and _CORRECTION_GATE.isdisjoint(
            toks[1:MAX_HEAD + 2]):
        return toks
    tail = final_answer(text)
    if tail is None:
        return toks
    return tokens(tail) or toks


def _said_last(text: str) -> str:
    """``text`` less a self-correction's first answer ("2309 เอ๊ย 2310 ครับ" -> "2310
    ครับ"), for the few rules that read the answer as written (its tokens are the
    last answer's already: :func:`_final_tokens`); called only where such a rule runs
    (an ASCII text without a marker word of the gate is the text itself)."""
    if text.isascii() and _CORRECTION_GATE.isdisjoint(tokens(text)) and (
            text[:3].lower() not in ("not", "it'", "its", "it ")):
        return text
    return final_answer(text) or text


def _describe(toks: tuple[str, ...], text: str = "") -> _Cand | None:
    """Describe a candidate from its tokens (``text``: as written); ``None`` if it
    has no words."""
    if not toks:
        return None
    joined = " ".join(toks)
    tok_set = frozenset(toks)
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
    n = len(toks)
    full_norm = joined[len(toks[0]) + 1:] if n > 1 and toks[0] in ARTICLES else joined
    particle = False
    if toks[0] in _PREFIX_BY_FIRST or toks[-1] in _SUFFIX_BY_LAST:
        core = _strip_fillers(toks)
        particle = toks[-1] in TAIL_PARTICLES or toks[0] in LEAD_PARTICLES
    else:
        core = strip_articles(toks)
    content_set = tok_set - STOPWORDS
    # the core is the whole answer, or the answer less a leading article (a stopword)
    if core is toks:
        core_norm = joined
        core_content = content_set
    elif len(core) == n - 1 and core[0] is toks[1] and toks[0] in ARTICLES:
        core_norm = full_norm
        core_content = content_set
    else:
        core_norm = " ".join(core)
        core_content = frozenset(core) - STOPWORDS
    months, pairs = _NO_MONTHS if _MONTHS.isdisjoint(tok_set) else _month_days(toks)
    # numbers_in() over the digit-led tokens only (the others never count)
    digit_led = (_NUM_START if "-" not in joined else _SIGNED_START).findall(" " + joined)
    return _Cand(
        toks,
        full_norm,
        core,
        core_norm,
        tok_set,
        _numbers_in(tuple(digit_led)) if digit_led else _EMPTY,
        content_set,
        content_set,
        core_content,
        months,
        pairs,
        n <= 40 and _refusal(full_norm),
        n > 8 and any(map(full_norm.__contains__, _DISCLAIMER)),
        {},
        text,
        particle,
    )


_EMPTY: frozenset[str] = frozenset()
_DECADE_WORDS = frozenset(DECADE_WORDS)
_DEMONYM_WORDS = frozenset(_DEMONYMS)
# numbers_in() without its cache, for candidates (nearly all distinct)
_numbers_in = numbers_in.__wrapped__


def _refusal(text: str) -> bool:
    """Does ``text`` contain a refusal phrase? Every phrase contains "no", "sorry" or
    "unable" ("know", "cannot"), so most texts are settled by three substring tests."""
    if "no" in text or "sorry" in text or "unable" in text:
        return any(map(text.__contains__, _REFUSAL))
    return False


def _find(seq: tuple[str, ...], sub: tuple[str, ...]) -> list[int]:
    """Start positions of ``sub`` as a contiguous run in ``seq``."""
    n, m = len(seq), len(sub)
    if m == 0 or m > n:
        return []
    first = sub[0]
    out = []
    start = 0
    while True:
        try:
            i = seq.index(first, start)
        except ValueError:
            return out
        if i + m > n:
            return out
        if seq[i : i + m] == sub:
            out.append(i)
        start = i + 1


def _close_spelling(t: str, cand_content: frozenset[str], memo: dict) -> bool:
    """Is some content word of the candidate a close spelling of ``t`` (a word of 6+
    letters the candidate lacks, see :func:`_max_edits`)? Memoized per candidate."""
    close = memo.get(t)
    if close is None:
        close = memo[t] = _extract_one(t, cand_content, scorer=_lev_distance,
                                       score_cutoff=_max_edits(len(t))) is not None
    return close


def _found_fuzzy(content: frozenset[str], n_hit: int, cand_set: frozenset[str],
                 cand_content: frozenset[str], memo: dict) -> int:
    """How many of an answer's words the candidate gives (``n_hit`` of them exactly),
    counting a missing word of 6+ letters found as a close spelling."""
    found = n_hit
    if cand_content:
        for t in content:
            if len(t) >= 6 and t not in cand_set and _close_spelling(t, cand_content, memo):
                found += 1
    return found


def _fuzzy_in(t: str, cand_set: frozenset[str], cand_content: frozenset[str],
              memo: dict) -> bool:
    """Does the candidate give word ``t``, exactly or (6+ letters) as a close spelling
    among its content words?"""
    if t in cand_set:
        return True
    if len(t) < 6 or not cand_content:
        return False
    return _close_spelling(t, cand_content, memo)


def _find_first(seq: tuple[str, ...], sub: tuple[str, ...]) -> int:
    """Start of the first contiguous run of ``sub`` in ``seq``, or -1 (see :func:`_find`)."""
    m = len(sub)
    if m == 1:
        try:
            return seq.index(sub[0])
        except ValueError:
            return -1
    n = len(seq)
    if m == 0 or m > n:
        return -1
    first = sub[0]
    start = 0
    while True:
        try:
            i = seq.index(first, start)
        except ValueError:
            return -1
        if i + m > n:
            return -1
        if seq[i : i + m] == sub:
            return i
        start = i + 1


_NEG_NEAR = _NEGATORS | _NEG_SKIP  # what may stand just before a negated mention


_DEMONYMS_OF: dict[str, tuple[str, ...]] = {}
for _w, _c in _DEMONYMS.items():
    _DEMONYMS_OF[_c] = (*_DEMONYMS_OF.get(_c, ()), _w)
# stem() without its cache: the spellings tried below are mostly not words
_stem_uncached = stem.__wrapped__


@lru_cache(maxsize=65536)
def _stem_preimage(s: str) -> tuple[str, ...]:
    """Every word whose :func:`~judging.normalize.stem` is ``s``.

    ``stem`` only maps a demonym to its country, turns ``ies`` into ``y`` or drops
    ``es`` (after ``ss``, ``sh``, ``ch``, ``x``) or ``s``, so a word with stem ``s``
    is ``s`` itself, ``s + "s"``, ``s + "es"`` (if ``s`` ends so), ``s[:-1] + "ies"``
    (if ``s`` ends in ``y``) or a demonym of ``s``; the ones that really stem to
    ``s`` are kept. This lets :func:`_grey` test whether the candidate has a word
    with stem ``s`` by looking these few words up, without stemming the candidate.
    """
    forms = [s, s + "s"]
    if s.endswith(("ss", "sh", "ch", "x")):
        forms.append(s + "es")
    if s.endswith("y"):
        forms.append(s[:-1] + "ies")
    if s in _DEMONYMS_OF:
        forms += _DEMONYMS_OF[s]
    return tuple([w for w in forms if _stem_uncached(w) == s])


def _negated(seq: tuple[str, ...], pos: int) -> bool:
    """Is the mention starting at ``pos`` preceded by a negation ("not (the) X")?"""
    j = pos - 1
    steps = 0
    while j >= 0 and steps < 3:
        t = seq[j]
        if t in _NEGATORS:
            return True
        if t not in _NEG_SKIP:
            return False
        j -= 1
        steps += 1
    return False


def _same_given(a: str, b: str) -> bool:
    """Could given-name tokens ``a`` and ``b`` name the same person? Same word, a
    shared 3-letter start (Dave/David, Dan/Daniel), initials (RB/Richard), or a close
    spelling."""
    if a == b or a[:3] == b[:3]:
        return True
    if len(a) <= 3 and a.isalpha() and b[:1] == a[:1]:
        return True
    if len(b) <= 3 and b.isalpha() and a[:1] == b[:1]:
        return True
    return _close(a, b)


def _word_family(a: str, b: str) -> bool:
    """Same word family: a shared start of >= 5 letters covering >= 75% of the shorter
    word (Zoroastrian ~ Zoroastrianism, sharecroppers ~ sharecropping; not Austria ~
    Australia)."""
    n = min(len(a), len(b))
    if n < 5:
        return False
    k = 0
    while k < n and a[k] == b[k]:
        k += 1
    return k >= 5 and k >= 0.75 * n


def _max_edits(n: int) -> int:
    """Edits a spelling variant of an ``n``-letter word may have: none below 6 letters,
    one below 10, two below 14, three beyond (Tchaikovski ~ Tchaikovsky, not Austria ~
    Australia)."""
    return 0 if n < 6 else 1 if n < 10 else 2 if n < 14 else 3


def _surname_spelling(c: str, surname: str) -> bool:
    """Is the one word ``c`` (its first letter the surname's) a misspelling of a
    surname of 6+ letters: within :func:`_max_edits`, a swap of two letters in a row
    counting as one edit ("Einstien"), or the surname's letters with one moved
    ("Ghandi" for "Gandhi": same letters, same last letter, two edits)?"""
    k = _max_edits(len(surname))
    d = _lev_distance(c, surname)
    if d <= k:
        return True
    if d > 2 or len(c) != len(surname):
        return False
    return _osa_distance(c, surname) <= k or (
        c[-1] == surname[-1] and sorted(c) == sorted(surname))


def _close(a: str, b: str) -> bool:
    """Spelling-variant test for short strings: stricter the shorter they are."""
    if a == b:
        return True
    n = min(len(a), len(b))
    if n < 4:
        return False
    if a[:1] != b[:1] and n < 8:
        return False
    cutoff = 92 if n < 6 else 88 if n < 10 else 85
    return fuzz.ratio(a, b) >= cutoff


def _alt_matches_core(a: _Alt, core: tuple[str, ...], core_norm: str) -> bool:
    """Does a short phrase give answer ``a`` (equal, containing it, or a close spelling)?"""
    if core_norm == a.norm:
        return True
    if _find(core, a.toks):
        return True
    return not a.nums and len(a.norm) >= 4 and _close(core_norm, a.norm)


# what ends the negated part of "not X but Y" (en, id/ms)
_NEG_BUT = frozenset({"but", "tapi", "tetapi", "melainkan"})
# negators that may stand inside a short answer: "Atlantic, not Pacific"
_NEG_INNER = frozenset({"not", "khong", "bukan", "chang"})


# Words that say what kind of thing a name is, in English and (folded) in Indonesian/
# Malay and Vietnamese: "Vịnh Hạ Long" is named by "Hạ Long", "Selat Sunda" by "Sunda".
_KIND_WORDS = GENERIC | FEATURE_BEFORE | FEATURE_AFTER | frozenset(
    {"kota", "pulau", "gunung", "sungai", "danau", "provinsi", "kabupaten", "tinh", "nui"})


def _names(a: _Alt, seg: tuple[str, ...]) -> bool:
    """Does the phrase ``seg`` name answer ``a`` (as :func:`_alt_matches_core`, or all
    of its words but generic ones: "Pacific" for "Pacific Ocean", "Hạ Long" for "Vịnh
    Hạ Long")?"""
    if _alt_matches_core(a, seg, " ".join(seg)):
        return True
    names = [t for t in a.content if t not in _KIND_WORDS]
    return bool(names) and all(t in seg for t in names)


# the longest answer read for a negated answer at its end ("…, not Hey Jude")
_NEG_TAIL_MAX = 16


def _negated_inside(core: tuple[str, ...], accept: tuple[_Alt, ...], *,
                    whole_tail: bool = False) -> _Alt | None:
    """"X, not Y" (``Atlantic, not Pacific``, ``Huế, không phải Hà Nội``): the
    acceptable answer that Y names when X names none, else ``None`` ("Lisbon, not
    Porto" for "Lisbon" is right). ``whole_tail`` (a longer answer): Y must be the
    answer itself, word for word, not a phrase holding it."""
    inner = [k for k in range(1, len(core) - 1) if core[k] in _NEG_INNER]
    if not inner:
        return None
    i = inner[-1]
    before, after = core[:i], core[i + 1:]
    while after and (after[0] in _NEG_FILLER or after[0] in ARTICLES):
        after = after[1:]
    if not after or not any(t not in STOPWORDS for t in before):
        return None
    if any(_names(a, before) for a in accept):
        return None
    if whole_tail:
        tail = " ".join(after)
        return next((a for a in accept if tail == a.norm), None)
    return next((a for a in accept if _names(a, after)), None)


# script-rule rejections that number words may overturn (rule 3b before 7b)
_NUMBER_OVERRIDES = frozenset({"other-word", "no-match"})


def _korean_or(text: str, core: tuple[str, ...]) -> tuple[str, ...]:
    """``core`` with ``또는`` ("or") after each word but the last that ``text`` says
    with the particle (이)나 ("박찬욱이나 봉준호": "Park Chan-wook or Bong Joon-ho"),
    which the normalizer takes off; ``core`` itself when the words do not line up."""
    words = [w.strip(".,;:!?\"'()") for w in text.split()]
    if len(words) != len(core):
        return core
    out: list[str] = []
    for w, t in zip(words, core, strict=True):
        out.append(t)
        if len(w) >= 3 and w[-1] == "나" and not w.endswith("하나") and (
                batchim(w[-3]) if w[-2] == "이" else not batchim(w[-2])):
            out.append("또는")
    return tuple(out) if len(out) > len(core) and out[-1] != "또는" else core


def _hedge(core: tuple[str, ...], accept: tuple[_Alt, ...]) -> str | None:
    """Two different answers joined by "or": return the wrong one, else None."""
    if not any(t in _HEDGE_SPLIT for t in core) or len(core) > 9:
        return None
    segments: list[tuple[str, ...]] = []
    cur: list[str] = []
    for t in core:
        if t in _HEDGE_SPLIT:
            if cur:
                segments.append(tuple(cur))
            cur = []
        else:
            cur.append(t)
    if cur:
        segments.append(tuple(cur))
    # ("Paris but maybe Lyon": the "but" before a split word is no part of an answer)
    segments = [strip_articles(s[:-1] if s[-1] == "but" else s) for s in segments
                if any(t not in STOPWORDS for t in s)]
    if len(segments) < 2:
        return None
    if any(len(s) > 4 for s in segments):
        return None
    hits = [any(_alt_matches_core(a, s, " ".join(s)) for a in accept) for s in segments]
    if any(hits) and not all(hits):
        wrong = segments[hits.index(False)]
        # a segment sharing a word with some answer is a variant, not another answer
        if any(a.content & set(wrong) for a in accept):
            return None
        return " ".join(wrong)
    return None


def _matches_directive(alts: tuple[_Alt, ...], core: tuple[str, ...], core_norm: str,
                       cand: tuple[str, ...], *, contain: bool) -> _Alt | None:
    """The prompt/reject entry the answer gives: equal, contained (when ``contain``) or
    a close spelling (similarity >= 85 for entries of 5+ letters without numbers)."""
    for a in alts:
        if core_norm == a.norm or (contain and _find(cand, a.toks)):
            return a
        if len(a.norm) >= 5 and not a.nums and fuzz.ratio(core_norm, a.norm) >= 85:
            return a
    return None


def _result(rule: str, hard: bool | None, matched: str | None, detail: str,
            feats: tuple[float, ...], prompt: bool = False) -> Analysis:
    """Build an :class:`Analysis` (positional shorthand used by the rules)."""
    return Analysis(rule, hard, prompt, matched, detail, feats)


_ZERO = tuple(0.0 for _ in FEATURE_NAMES)


_EMPTY_ANSWER = Analysis("empty", False, False, None, "the answer is empty", _ZERO)
_NO_WORDS = Analysis("empty", False, False, None, "the answer has no words", _ZERO)


def analyze(candidate: str, answerline: str | Sequence[str], question: str = "") -> Analysis:
    """Run the rule engine; return a hard decision or the calibrator's features."""
    if not candidate or candidate.isspace():
        return _EMPTY_ANSWER
    return _analyze(_candidate(candidate), answerline, question)


def _without_particle(info: _Cand, alt_tokens: frozenset[str]) -> _Cand:
    """``info`` less a particle after the answer that the answerline does not use: tl
    "po" (polite), id/ms "dong", "kan", vi "nha" ("Pinatubo po", "Borobudur dong"; see
    :data:`judging.corrections.TAIL_PARTICLES`), or before it: tl "si" ("si Rizal";
    :data:`judging.corrections.LEAD_PARTICLES`); ``info`` itself otherwise."""
    if len(info.toks) < 2:
        return info
    lead, tail = info.toks[0] not in alt_tokens, info.toks[-1] not in alt_tokens
    if not (lead or tail):
        return info
    bare = without_particle(info.text, lead=lead, tail=tail)
    return info if bare is None else (_candidate(bare) or info)


def _analyze(info: _Cand | None, answerline: str | Sequence[str], question: str) -> Analysis:
    """:func:`analyze` for a candidate already described (``None``: no words)."""
    if info is None:
        return _NO_WORDS
    key = answerline if isinstance(answerline, str) else tuple(answerline)
    (_line, accept, prompts, rejects, alt_tokens, answer_short, numeric, persons,
     required) = _prepared(key)
    if info.particle:
        info = _without_particle(info, alt_tokens)
    cand = info.toks
    full_norm = info.full_norm
    core = info.core
    core_norm = info.core_norm
    short = len(core) <= _SHORT_TOKENS

    # 1. exact / alias (not when both are written with marks and a mark differs:
    # Vietnamese "phô" is not "phở")
    clash = None
    # a formula or code said letter by letter ("C O two" for "CO2", "H two O" for
    # "H2O"): the words joined without spaces (tried only for a candidate of a few
    # words with a number and a word of letters; "three sixty-five" is left to the
    # number rules)
    joined = "".join(core) if 1 < len(core) <= 4 and info.nums and any(
        t.isalpha() for t in core) else ""
    for a in accept:
        if full_norm == a.norm or core_norm == a.norm or (
                joined and joined == a.norm.replace(" ", "")):
            if not info.text.isascii() and not a.alt.text.isascii() and marks_conflict(
                    info.text, a.alt.text):
                clash = a
                continue
            kind = a.alt.kind
            rule = "exact" if kind in ("main", "list") else f"alias:{kind}"
            return _result(rule, True, a.alt.text, f"matches '{a.alt.text}' after normalization",
                           _ZERO)
    if clash is not None:
        return _result("other-word", False, clash.alt.text,
                       f"differs from '{clash.alt.text}' by a mark that makes another word", _ZERO)

    # 2. do not accept / reject
    if rejects:
        r = _matches_directive(rejects, core, core_norm, cand, contain=short)
        if r is not None:
            return _result("reject:do-not-accept", False, r.alt.text,
                           f"the answerline says do not accept '{r.alt.text}'", _ZERO)

    # 3. prompt
    if prompts:
        p = _matches_directive(prompts, core, core_norm, cand, contain=False)
        if p is not None:
            return _result("prompt", False, p.alt.text,
                           f"the answerline says prompt on '{p.alt.text}'", _ZERO, prompt=True)

    # 3a (first). a decimal comma ("0,75", "2,5 kg"; id/ms and vi write one): read as a point on
    # both sides, then judged again (only a short answer with a number against a numeric
    # answerline, one of the two with a comma: "25" for "0,25" is no longer two numbers)
    if numeric and short and info.nums and (
            ("," in info.text and digit_comma(info.text)) or digit_comma_line(key)):
        moved = decimal_point(info.text, key)
        if moved is not None:
            again = _candidate(moved[0])
            if again is not None:
                return _analyze(again, moved[1], question)

    # 3a. a fraction against fractions ("3분의 1" for "2/3", "三分之二", "two thirds",
    # "dua pertiga"): only a short answer with a fraction word, a slash, a script's
    # fraction mark or two numbers alone, against an answerline with a number
    if numeric and short and (
            not FRACTION_WORDS.isdisjoint(cand) or "/" in info.text or "%" in info.text
            or "percent" in cand
            or (len(core) == 2 and core[1].isdigit() and core[0].isdigit())
            or (len(core) == 1 and "." in core_norm and info.nums)
            or (not full_norm.isascii() and any(m in full_norm for m in FRACTION_MARKS))):
        frac = fraction(_said_last(info.text), core, accept)
        if frac is not None:
            return _decided(frac)

    # 3b. scripts without spaces: character-level matching with affix tolerance
    script = 0.0 if full_norm.isascii() else 1.0
    if script:
        found = script_rules(core_norm or full_norm, accept, prompts, rejects)
        if found is None and short:
            found = hangul_spacing(core_norm, accept)
        if short and (found is None or not found[1]) and (
                core_norm.endswith(MONEY_AFTER) or core_norm.startswith(MONEY_BEFORE)):
            money = currency_word(core_norm, accept)  # 원화 for 원, เงินบาท for บาท
            if money is not None:
                found = money
        if (numeric and not info.nums and 2 <= len(core) <= 3 and (found is None or not found[1])
                and " " in info.text):
            # 팔월 십오일 for 8월 15일: each word a number and its counter, all compared
            # (삼월 이일 is no 3월 1일)
            found = numbers_by_word(_said_last(info.text), accept) or found
        if found is not None:
            if (not found[1] and numeric and not info.nums and found[0] in _NUMBER_OVERRIDES
                    and (core_norm or full_norm)[:1] in FIRST_CHARS):
                # number words that another acceptable answer writes in digits, its
                # counter or the question's unit aside ("十七" for "17音 [accept 十七音]"
                # after "何音", "百分之七十" for "70%"): rule 7b decides
                worded = number_words(core_norm or full_norm, info.nums, accept, numeric,
                                      _question_tokens(question))
                if worded is not None and worded[1]:
                    found = worded
            elif (not found[1] and numeric and info.nums and len(core) <= 3
                  and any(a.alt.text[:1] in _ERA_FIRST for a in numeric)
                  and (era := era_year(_said_last(info.text), accept)) is not None):
                found = era  # 1945 ค่ะ for ค.ศ. 1945, 1945年 for 公元1945年
            elif not found[1] and info.nums and not DECADE_MARKS.isdisjoint(core):
                found = decade_words(core, accept) or found  # 60年代 for 1960年代
            elif (not found[1] and found[0] == "other-word" and short and question
                  and asks_who(" ".join(_question_tokens(question)))):
                # フレミング for アレクサンダー・フレミング after "誰 ...?"
                found = surname_in_run(core_norm or full_norm, accept) or found
            return _decided(found)

    # 4. negation of a short answer ("not Canberra", "it isn't Bolivia", "không phải
    # Hà Nội", "bukan Jakarta", "서울이 아닙니다")
    if core and len(core) <= _SHORT_TOKENS + 1:
        rest: tuple[str, ...] = ()
        if core[0] in _NEG_OPENERS:
            rest = core[1:]
            while rest and rest[0] in _NEG_FILLER:
                rest = rest[1:]
            if not _NEG_BUT.isdisjoint(rest):
                # "not the Atlantic but the Pacific": only the part before "but" is negated
                rest = rest[:min(rest.index(t) for t in _NEG_BUT if t in rest)]
            rest = strip_articles(_strip_fillers(rest)) if rest else rest
        elif len(core) >= 2 and core[-1] in _NEG_AFTER:
            rest = core[:-1]
        elif core[0] in _DOUBTERS:
            # "I don't think it's Paris", "Tôi không nghĩ là Paris", "Saya tidak rasa
            # Paris": a doubt about the answer negates it
            n = next((len(p) for p in _DOUBT if core[:len(p)] == p), 0)
            rest = core[n:] if n else ()
            while rest and rest[0] in _DOUBT_SKIP:
                rest = rest[1:]
            rest = strip_articles(rest) if rest and rest[0] != "so" else ()
        if rest:
            rest_norm = " ".join(rest)
            for a in accept:
                # (the answer without its kind word is negated too: "không phải Hạ
                # Long" for "Vịnh Hạ Long")
                if _alt_matches_core(a, rest, rest_norm) or (
                        len(a.toks) > len(rest) and _names(a, rest)):
                    return _result("negation", False, a.alt.text,
                                   f"the answer negates '{a.alt.text}'", _ZERO)
        elif len(core) >= 3 and not _NEG_INNER.isdisjoint(core[1:-1]):
            negated = _negated_inside(core, accept)
            if negated is not None:
                return _result("negation", False, negated.alt.text,
                               f"the answer names another answer and negates "
                               f"'{negated.alt.text}'", _ZERO)
    elif len(core) <= _NEG_TAIL_MAX and not _NEG_INNER.isdisjoint(core[-_SHORT_TOKENS:-1]):
        # a sentence that ends by negating an answer: "This sounds like Let It Be, not
        # Hey Jude" (the tail after the negation must be the answer, word for word)
        negated = _negated_inside(core, accept, whole_tail=True)
        if negated is not None:
            return _result("negation", False, negated.alt.text,
                           f"the answer names another answer and negates "
                           f"'{negated.alt.text}'", _ZERO)

    # 5. hedge between two answers
    if len(core) <= 9 and not _HEDGE_SPLIT.isdisjoint(core):
        wrong = _hedge(core, accept)
        if wrong is not None:
            return _result("hedge", False, None,
                           f"the answer hedges between a correct answer and '{wrong}'", _ZERO)
    elif script and 2 <= len(core) <= 9 and "나 " in info.text:
        # Korean "X(이)나 Y": "X or Y" (the normalizer took the particle off)
        wrong = _hedge(_korean_or(info.text, core), accept)
        if wrong is not None:
            return _result("hedge", False, None,
                           f"the answer hedges between a correct answer and '{wrong}'", _ZERO)

    cand_nums = info.nums
    qtok = _question_tokens(question)

    # 6. installments and numbers
    if short:
        # (both tests below need a number in the answer: most short answers skip them)
        last_digit = bool(core) and core[-1].isdigit()
        for a in accept if last_digit or cand_nums else ():
            # "Jaws 2" for "Jaws": the answer followed by a small number and nothing else
            # (or by "Part", "Episode", ... and one: "The Godfather Part II")
            if last_digit and (pos := _find(core, a.toks)) and len(a.nums) < len(a.toks) and (
                    pos[0] + len(a.toks) == len(core) - 1 or (
                        pos[0] + len(a.toks) == len(core) - 2 and core[-2] in _PART_WORDS)):
                last = core[-1]
                if int(last) <= 30 and last not in a.nums:
                    return _result("installment", False, a.alt.text,
                                   f"'{core_norm}' is a different installment from "
                                   f"'{a.alt.text}'", _ZERO)
            # "Final Fantasy VIII" for "Final Fantasy VII": same words, another number
            if a.nums and cand_nums and a.nums != cand_nums and not _MONTHS & a.content:
                a_words = tuple(t for t in a.toks if t not in a.nums)
                c_words = tuple(t for t in core if t not in cand_nums)
                small = all(x.isdigit() and int(x) <= 30 for x in a.nums | cand_nums)
                if small and a_words and a_words == c_words:
                    return _result("installment", False, a.alt.text,
                                   f"'{core_norm}' has a different number from "
                                   f"'{a.alt.text}'", _ZERO)
        if (numeric and not cand_nums and (may_be_number(core[0]) or (len(core) >= 2 and (
                not FIRST_WORDS.isdisjoint(core) or (
                    "ke" in core_norm and any(t[:2] == "ke" for t in core)))))) or (
                cand_nums and len(numeric) < len(accept)) or (
                not numeric and not cand_nums and core[0] in FIRST_WORDS):
            # (the second line: number words inside a phrase, "thế kỷ mười chín" for
            # "thế kỷ 19", "sila keempat"; the last: against answers in number words)
            worded = number_words(core_norm, cand_nums, accept, numeric, qtok)
            if worded is not None:
                return _decided(worded)
        if numeric and cand_nums and len(numeric) == len(accept) and not any(
                a.nums <= cand_nums or not (cand_nums - a.nums) or _approx(a.nums, cand_nums)
                for a in numeric):
            if not DECADE_MARKS.isdisjoint(core):
                dec = decade_words(core, accept)  # "thập niên 60" for "thập niên 1960"
                if dec is not None:
                    return _decided(dec)
            grouped = _grouped_number(core, numeric)
            if grouped is not None:
                return _result("number-words", True, grouped.alt.text,
                               f"'{core_norm}' read in groups is '{grouped.alt.text}'", _ZERO)
            return _result("number", False, numeric[0].alt.text,
                           f"the numbers in the answer ({', '.join(sorted(cand_nums))}) "
                           f"differ from '{numeric[0].alt.text}'", _ZERO)
        if cand_nums and numeric and not UNIT_WORDS.isdisjoint(core):
            # the same number in another unit: "100 miles" for "100 kilometers"
            unit = other_unit(core, accept)
            if unit is not None:
                return _decided(unit)
    elif numeric and len(core) <= 12 and not cand_nums and may_be_number(core[0]):
        # number words of a long reading ("một nghìn chín trăm bốn mươi lăm" is seven words)
        worded = number_words(core_norm, cand_nums, accept, numeric, qtok)
        if worded is not None:
            return _decided(worded)

    # 7. required parts, surname, given name (short answers only)
    if short:
        # a decade without its century: "the sixties", "'60s" for "1960s"
        if "0s" in core_norm:
            dec = decade(core, accept)
            if dec is not None:
                return _decided(dec)
        for a in required:
            if all(_find(core, tuple(r.split())) for r in a.required_norms):
                return _result("required", True, a.alt.text,
                               f"gives the required part of '{a.alt.text}'", _ZERO)
        # an acronym in capitals: "WWII" for "World War II", "USA"
        if len(core) == 1 and len(core[0]) <= 7 and info.text.isupper():
            acro = acronym(info.text, accept)
            if acro is not None:
                return _decided(acro)
        # 12d. another entity built on the answer ("Real Madrid" for "Madrid"); before
        # the surname rule, which reads "Madrid" as the surname of "Real Madrid"
        if len(core) <= 3 and not (_BUILT_WORDS.isdisjoint(core)
                                   and _BUILT_WORDS.isdisjoint(alt_tokens)):
            built = built_on(core, accept, qtok)
            if built is not None:
                return _decided(built)
        for a in persons:
            if (core_norm == a.surname or (
                    len(core) == 1 and len(a.surname) >= 6 and core_norm[:1] == a.surname[:1]
                    and _surname_spelling(core_norm, a.surname))):
                return _result("surname", True, a.alt.text,
                               f"'{core_norm}' is the surname of '{a.alt.text}'", _ZERO)
        for a in persons:
            if 2 <= len(core) <= 4 and core[-1] == a.surname and not any(
                    b.norm == core_norm or (len(core) == 4 and b is not a and _find(core, b.toks))
                    for b in accept):  # (four words: not when they hold another answer)
                given = [t for t in core[:-1] if t not in STOPWORDS and t not in _NOT_PERSON_FIRST]
                if given and not any(_same_given(g, t) for g in given for t in a.toks[:-1]):
                    return _result("other-person", False, a.alt.text,
                                   f"'{core_norm}' shares only the surname with "
                                   f"'{a.alt.text}'", _ZERO)
        for a in persons:
            if core_norm == a.given and len(a.toks) == 2 and a.surname in qtok and (
                    "," not in a.alt.text):
                # the question names the surname: "Serena" after "Which Williams sister
                # ...?" (the given name is what it asks for; not of a name with a middle
                # name: "John" for "John Quincy Adams" after "Which Adams ...?")
                return _result("given-name-asked", True, a.alt.text,
                               f"'{core_norm}' is the given name of '{a.alt.text}', whose "
                               f"surname the question says", _ZERO)
            if "," not in a.alt.text and core_norm == a.given and not any(
                    b.norm == core_norm or b.surname == core_norm for b in accept) and not (
                    # a number and the question's noun: "13th" for "Thirteenth Amendment"
                    # after "Which amendment ...?" (no given name)
                    core_norm.isdecimal() and qtok.issuperset(a.toks[1:])):
                return _result("given-name", False, a.alt.text,
                               f"'{core_norm}' is only the given name of '{a.alt.text}'", _ZERO)

        # 11 for Hangul names ("마리엘 헤밍웨이" for "어니스트 헤밍웨이 [accept 헤밍웨이]")
        if script and len(core) == 2 and question and core[-1] in alt_tokens and HANGUL.search(
                core[-1]) and asks_who(" ".join(qtok)):
            other = other_person_hangul(core, accept)
            if other is not None:
                return _decided(other)
        # 12a. another generation of one name ("Johann Strauss I" for "Johann Strauss II",
        # "Alexandre Dumas fils" for "Alexandre Dumas [accept Dumas père]")
        if core[-1] in GENERATION_WORDS:
            other_gen = generation(core, accept)
            if other_gen is not None:
                return _decided(other_gen)
        # 12b. a confusable entity: shares words, swaps one the answerline does not license
        # (only when the answer shares a word with an acceptable answer)
        if not alt_tokens.isdisjoint(core):
            swapped = confusable(core, accept, qtok, info.text)
            if swapped is not None:
                return _decided(swapped)
            # 12g. another title sharing a word of a subtitle ("Age of Empires" for
            # "Avengers: Age of Ultron"): only against an answer with a colon
            if ":" not in info.text and ":" in (key if isinstance(key, str) else "".join(key)):
                sub = other_subtitle_word(core, accept, qtok)
                if sub is not None:
                    return _result("other-entity", False, sub,
                                   f"shares a word of the subtitle of '{sub}' but says "
                                   f"another title", _ZERO)
        # 12c. another word sharing a word's start ("Niger" for "Nigeria")
        if len(core) <= 3:
            other = prefix_word(core, accept)
            if other is not None:
                return _decided(other)
        # 12d. another kind of entity: "Mexico City" for "Mexico", "Dominican Republic"
        # for "Dominica"
        if len(core) <= 2:
            kind = kind_change(core, accept, qtok)
            if kind is not None:
                return _decided(kind)
        # 12h. a child named by a patronym built on the answer's name ("Megawati
        # Soekarnoputri" for "Soekarno")
        if "put" in core_norm and (child := patronym_of(core, accept)) is not None:
            return _result("other-person", False, child,
                           f"'{core_norm}' names a child of '{child}' (a patronym)", _ZERO)

    # 12f. another subtitle after the same series title ("The Lord of the Rings: The Two
    # Towers" for "...: The Fellowship of the Ring"), at any length
    if ":" in info.text and len(core) <= 16 and any(":" in a.alt.text for a in accept):
        sub = other_subtitle(info.text, accept)
        if sub is not None:
            return _decided(sub)

    # 8. grey case: features for the calibrator
    return _grey(info, accept, qtok, alt_tokens, answer_short, script)


def _grouped_number(core: tuple[str, ...], numeric: tuple[_Alt, ...]) -> _Alt | None:
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
    grouped = tuple(out)
    return next((a for a in numeric if a.toks == grouped), None)


# the first characters of the eras a year may be written after (number_rules.ERA_MARKS)
_ERA_FIRST = frozenset(m[0] for m in ERA_MARKS)


def _decided(d: Decision) -> Analysis:
    """A :mod:`judging.short_rules` decision as an :class:`Analysis`."""
    return Analysis(d[0], d[1], d[4], d[2], d[3], _ZERO)




# A short answer sharing no word, and no close spelling, with any answer: whole-string
# similarity alone (Austria ~ Australia) is not evidence. A hard verdict, so no features.
_NO_MATCH = Analysis("no-match", False, False, None,
                     "shares no word or close spelling with any acceptable answer", _ZERO)


def _shares_nothing(info: _Cand, accept: tuple[_Alt, ...]) -> bool:
    """Is a short answer (a core of at most two words) a hard ``no-match``? No
    acceptable answer shares a word with the candidate (``recall`` 0), a close
    spelling (``recall_fuzzy`` 0), its part before a comma (``comma_head`` 0) or a
    stem (``recall_stem`` 0), and none is a close spelling of the core or shares a
    word family with it. Tested before :func:`_grey` computes any feature: these are
    the only features the test reads, and a quarter to a third of short answers end
    here, whose other features no one reads (a hard verdict is scored by its rule)."""
    cand_set = info.tok_set
    cand_content = info.content
    memo = info.memo
    for a in accept:
        content = a.content_or_toks
        if not content.isdisjoint(cand_set) or (
                cand_content and _found_fuzzy(content, 0, cand_set, cand_content, memo)):
            return False
        if a.head and _find_first(info.toks, a.head) >= 0:
            return False
        stem_words = a.stem_words
        if stem_words is None:
            stem_words = a.stem_words = tuple(map(_stem_preimage, a.stems))
        if not all(map(cand_content.isdisjoint, stem_words)):
            return False
    core = info.core
    core_norm = info.core_norm
    n = len(core_norm)
    # (a word family shares its first five letters, see _word_family: only the answer
    # words starting with a core word's five are tried)
    starts = {c[:5] for c in core if len(c) >= 5}
    for a in accept:
        norm = a.norm
        k = _max_edits(len(norm))
        if (norm == core_norm) if not k else (
                abs(len(norm) - n) <= k and _lev_distance(core_norm, norm, score_cutoff=k) <= k):
            return False
        if starts and any(t[:5] in starts and any(_word_family(c, t) for c in core)
                          for t in a.content):
            return False
    return True


def _grey(info: _Cand, accept: tuple[_Alt, ...], qtok: frozenset[str],
          all_alt_tokens: frozenset[str], answer_short: float, script: float) -> Analysis:
    """Features for the calibrator: each the best over the acceptable answers, then
    the four regime features (``answer_short`` and ``script`` as :func:`_analyze`
    found them): the calibrator learnt long LLM sentences, where sharing words means
    being right; for a short answer against a short answer, sharing some words and
    adding others is a different entity.

    Written for speed (most pairs end here): spelling-variant look-ups only for the
    answer words the candidate lacks, and only for words of 6+ letters (a shorter
    word may not differ at all, see :func:`_max_edits`), memoized per candidate.
    """
    core = info.core
    if len(core) <= 2 and _shares_nothing(info, accept):
        return _NO_MATCH
    cand = info.toks
    cand_set = info.tok_set
    cand_nums = info.nums
    core_norm = info.core_norm
    full_norm = info.full_norm
    n = len(cand)
    short = 1.0 if len(core) <= 4 else 0.0
    cand_content = info.content
    best_key = best_ratio = -1.0
    best: _Alt | None = None
    f_contains = f_recall = f_rfuzzy = f_rnoq = f_inq = f_surname = 0.0
    f_ratio = f_partial = f_prec = 0.0
    f_nmatch = f_npart = 0.0
    f_nmiss = 1.0 if accept else 0.0
    f_last = f_given = f_gconf = f_head = f_rweight = 0.0
    f_missing = 1.0
    f_rstem = f_family = 0.0
    short_core = len(core) <= _SHORT_TOKENS
    core_content = info.core_content
    any_num = False
    f_neg = 0.0
    first_pos = 1.0
    n_contained = 0
    memo = info.memo
    ratio_fn = fuzz.ratio
    nmax = max(1, n)

    family_starts: set[str] | None = None
    # months and (month, day) pairs of the numeric answers (built only if any)
    alt_months: frozenset[str] = _EMPTY
    alt_pairs: frozenset[tuple[str, str]] = _EMPTY
    for a in accept:
        content = a.content_or_toks
        hit = _EMPTY if content.isdisjoint(cand_set) else content & cand_set
        n_content = len(content)
        n_hit = len(hit)
        recall = n_hit / n_content
        if content.isdisjoint(qtok):  # (most answers: then the recall is the same)
            rnoq = recall
            inq = 0.0
        else:
            new_content = content - qtok
            if new_content:
                rnoq = len(new_content & cand_set) / len(new_content)
                inq = 0.0
            else:
                rnoq = recall
                inq = 1.0
        if n_hit == n_content:
            rfuzzy = rweight = rstem = 1.0
            missing = 0.0
            a_toks = a.toks
            # (a one-word answer is in the candidate: it is its whole content)
            p0 = cand.index(a_toks[0]) if len(a_toks) == 1 else _find_first(cand, a_toks)
            if p0 >= 0:
                contains = 1.0
                n_contained += 1
                # negated only if every mention is
                if (p0 and cand[p0 - 1] in _NEG_NEAR and _negated(cand, p0)
                        and all(_negated(cand, p) for p in _find(cand, a_toks))):
                    f_neg = 1.0
                pos = p0 / nmax
            else:
                contains = 0.0
                pos = 0.5 + 0.5 * min(map(cand.index, hit)) / nmax
            if pos < first_pos:
                first_pos = pos
        else:
            contains = 0.0
            if hit:
                pos = 0.5 + 0.5 * min(map(cand.index, hit)) / nmax
                if pos < first_pos:
                    first_pos = pos
            if f_recall == 1.0:
                # An earlier answer is wholly in the candidate, so the best of these
                # four is reached already; a close spelling matters only if this answer
                # could still become the best-matching one.
                rweight = rstem = 0.0
                missing = 1.0
                if rnoq + 0.5 < best_key:
                    rfuzzy = 0.0
                else:
                    rfuzzy = _found_fuzzy(content, n_hit, cand_set, cand_content, memo) / n_content
            else:
                rfuzzy = _found_fuzzy(content, n_hit, cand_set, cand_content, memo) / n_content
                rweight = sum(map(len, hit)) / a.total_len if hit else 0.0
                longest = a.longest
                missing = 0.0 if longest in hit or longest in qtok or _fuzzy_in(longest, cand_set, cand_content, memo) else 1.0
                # the answer's stems that some candidate word stems to, over all stems
                stem_words = a.stem_words
                if stem_words is None:
                    stem_words = a.stem_words = tuple(map(_stem_preimage, a.stems))
                n_stems = len(stem_words)
                rstem = (n_stems - sum(map(cand_content.isdisjoint, stem_words))) / n_stems
        if rweight > f_rweight:
            f_rweight = rweight
        if rstem > f_rstem:
            f_rstem = rstem
        if short_core and f_family < 1.0:
            if family_starts is None:
                family_starts = {c[:5] for c in core_content if len(c) >= 5}
            # a word family shares its first five letters (see _word_family): only
            # the core's words with the same five are tried
            fam = sum(1 for t in content if t[:5] in family_starts
                      and any(c[:5] == t[:5] and _word_family(c, t) for c in core_content)
                      ) / n_content if family_starts else 0.0
            if fam > f_family:
                f_family = fam
        if missing < f_missing:
            f_missing = missing
        if a.head and not contains and _find_first(cand, a.head) >= 0:
            f_head = 1.0
        if not f_last:
            last = a.last
            if last not in STOPWORDS and _fuzzy_in(last, cand_set, cand_content, memo):
                f_last = 1.0
        if a.person:
            if a.surname in cand_set:
                f_surname = 1.0
                i = cand.index(a.surname)
                prev = cand[i - 1] if i > 0 else ""
                if prev and prev not in STOPWORDS and prev not in a.toks and prev.isalpha():
                    f_gconf = 1.0
            elif a.given in cand_set and not _fuzzy_in(a.surname or "", cand_set, cand_content, memo):
                f_given = 1.0
        ratio = ratio_fn(core_norm, a.norm) / 100.0
        if contains:
            partial = 1.0
        elif f_partial == 1.0:
            partial = 0.0  # an earlier answer is contained: the best is reached
        elif len(a.norm) >= 3:
            partial = memo.get(a.partial_key)
            if partial is None:
                partial = memo[a.partial_key] = fuzz.partial_ratio(a.norm, full_norm) / 100.0
        else:
            partial = ratio
        if a.nums:
            any_num = True
            shared = a.nums & cand_nums
            if a.nums <= cand_nums:
                f_nmatch = 1.0
            elif shared:
                f_npart = 1.0
            if shared or not cand_nums:
                f_nmiss = 0.0
            if a.months:
                alt_months = alt_months | a.months
                alt_pairs = alt_pairs | a.pairs
        else:
            f_nmiss = 0.0
        # the best-matching answer: by (containment + recall, similarity)
        key = contains + rnoq + rfuzzy * 0.5
        if key > best_key or (key == best_key and ratio > best_ratio):
            best_key = key
            best_ratio = ratio
            best = a
        if contains > f_contains:
            f_contains = contains
        if recall > f_recall:
            f_recall = recall
        if rfuzzy > f_rfuzzy:
            f_rfuzzy = rfuzzy
        if rnoq > f_rnoq:
            f_rnoq = rnoq
        if inq > f_inq:
            f_inq = inq
        if ratio > f_ratio:
            f_ratio = ratio
        if partial > f_partial:
            f_partial = partial
    if not any_num:
        f_nmiss = 0.0
    f_month = f_day = 0.0
    if alt_months:
        c_months, c_pairs = info.months, info.pairs
        if c_months and not (c_months & alt_months):
            f_month = 1.0
        elif (alt_pairs and c_pairs and not (c_pairs & alt_pairs)
              and {m for m, _ in c_pairs} & {m for m, _ in alt_pairs}):
            f_day = 1.0
    # precision over the core's words the question lacks; the candidate's words in
    # neither the question nor an answer. Counted through small intersections: with
    # ``alt_new`` (the answers' words the question lacks; usually all of them)
    # disjoint from ``qtok``, |S & (qtok | alt)| = |S & qtok| + |S & alt_new|.
    alt_new = all_alt_tokens if qtok.isdisjoint(all_alt_tokens) else all_alt_tokens - qtok
    content_set = info.content_set
    core_content = info.core_content
    n_in_q = len(content_set & qtok)
    n_core_new = len(core_content) - (
        n_in_q if core_content is content_set else len(core_content & qtok))
    if n_core_new:
        f_prec = len(core_content & alt_new) / n_core_new
    n_new = len(content_set) - n_in_q - len(content_set & alt_new)
    log_new = math.log1p(n_new)
    is_short = short == 1.0
    # x * short is x or 0.0 (every such feature is >= 0): no multiplications
    feats = (
        f_contains,
        f_contains if short_core else 0.0,
        f_recall,
        f_rfuzzy,
        f_rnoq,
        f_inq,
        f_surname,
        f_ratio,
        f_partial,
        f_prec,
        f_prec if is_short else 0.0,
        f_nmatch,
        f_npart,
        f_nmiss,
        math.log1p(n),
        short,
        f_neg,
        1.0 if info.refusal else 0.0,
        first_pos,
        f_recall if is_short else 0.0,
        1.0 if f_recall >= 1.0 else 0.0,
        log_new,
        f_last,
        f_given,
        f_month,
        f_day,
        math.log(max(1, len(accept))),
        n_contained / max(1, len(accept)),
        1.0 if info.disclaimer else 0.0,
        f_gconf,
        f_ratio if is_short else 0.0,
        f_rfuzzy if is_short else 0.0,
        f_last if is_short else 0.0,
        log_new if is_short else 0.0,
        f_head,
        f_rweight,
        f_missing if accept else 0.0,
        f_rstem,
        f_family,
        1.0 if f_recall > 0.0 and f_rnoq == 0.0 and f_inq == 0.0 else 0.0,
        # the regime features
        answer_short,
        answer_short if is_short else 0.0,
        1.0 if short_core and 0.0 < f_recall < 1.0 and f_prec < 1.0 else 0.0,
        script,
    )
    if f_contains:
        rule = "contains"
    elif f_ratio >= 0.8 or f_rfuzzy > f_recall:
        rule = "fuzzy"
    elif f_surname:
        rule = "surname"
    elif f_recall > 0:
        rule = "token-overlap"
    else:
        rule = "no-match"
    matched = best.alt.text if best is not None else None
    if rule == "contains":
        detail = f"mentions '{matched}'"
    elif rule == "fuzzy":
        detail = f"is a close spelling of '{matched}' (similarity {max(f_ratio, f_partial):.2f})"
    elif rule == "surname":
        detail = f"names the surname of '{matched}'"
    elif rule == "token-overlap":
        detail = f"shares {f_recall:.0%} of the words of '{matched}'"
    else:
        detail = "shares no words with any acceptable answer"
        matched = None
    return Analysis(rule, None, False, matched, detail, feats)


# ------------------------------------------------------------------------- verdicts

# the committed weights (judging/calibration.py), loaded once
CALIBRATOR = load_calibrator()

_object_new = object.__new__


def _new_verdict(correct: bool, prompt: bool, score: float, rule: str, matched: str | None,
                 explanation: str) -> Verdict:
    """``Verdict(...)`` without the frozen dataclass's per-field ``object.__setattr__``
    calls (a third of the cost of judging a pair once the rules are fast); the result
    is an ordinary, equal, still frozen :class:`Verdict`."""
    v = _object_new(Verdict)
    d = v.__dict__
    d["correct"] = correct
    d["prompt"] = prompt
    d["score"] = score
    d["rule"] = rule
    d["matched"] = matched
    d["explanation"] = explanation
    d["version"] = EQUIVALENCE_VERSION
    return v


def _verdict(a: Analysis, calibrator: Calibrator, p: float | None = None,
             script: bool = False, question: str = "") -> Verdict:
    """Turn the rule engine's analysis into a Verdict (calibrated score for grey cases);
    ``p`` is the calibrated probability when the caller computed it in a batch;
    ``script``: the candidate is in another script (see :meth:`Calibrator.hard_score`);
    ``question``: its kind moves the score (:func:`question_kind`)."""
    if a.hard is not None:
        score = calibrator.hard_score(a.rule, a.hard, script, question_kind(question))
        head = "Prompt" if a.prompt else "Correct" if a.hard else "Wrong"
        return _new_verdict(a.hard, a.prompt, score, a.rule, a.matched,
                            f"{head} ({a.rule}): {a.detail}.")
    if p is None:
        p = calibrator.probability(a.features)
    correct = p >= calibrator.threshold
    if calibrator.platt:
        p = calibrator.score(p, a.features[SHORT_FEATURE], question_kind(question),
                             adds_or_drops(a.features))
    return _grey_verdict(a, correct, p)


def _grey_verdict(a: Analysis, correct: bool, score: float) -> Verdict:
    """The verdict of a grey case decided ``correct`` and scored ``score``."""
    return _new_verdict(
        correct,
        False,
        round(score, 4),
        a.rule,
        a.matched,
        f"{'Correct' if correct else 'Wrong'} ({a.rule}, calibrated p={score:.2f}): the answer "
        f"{a.detail}.",
    )


# one feature row, and one question kind, as native C doubles (see _judge_batch)
_FEATURE_ROW = struct.Struct(f"{len(FEATURE_NAMES)}d")
_KIND_ROW = struct.Struct(f"{len(QUESTION_KIND_NAMES)}d")


def judge(candidate: str, answerline: str | Sequence[str], *, question: str = "",
          calibrator: Calibrator | None = None) -> Verdict:
    """Judge one candidate answer against an answerline (or a list of answers).

    ``question`` is optional context: words the question already contains are weak
    evidence that the candidate knows the answer. ``calibrator`` overrides the
    committed weights (used by cross-validation).
    """
    a = analyze(candidate, answerline, question)
    return _verdict(a, calibrator or CALIBRATOR, None,
                    a.hard is not None and candidate_script(candidate), question)




def candidate_script(candidate: str) -> bool:
    """Has the candidate letters outside ASCII after folding and normalizing (the
    regime feature ``script``)? Picks the hard rules' rates (:meth:`Calibrator.hard_score`)."""
    if candidate.isascii():
        return False
    info = _candidate(candidate)
    return info is not None and not info.full_norm.isascii()


def judge_many(candidates: Sequence[str], answerlines: Sequence[str | Sequence[str]],
               questions: Sequence[str] | None = None, *,
               calibrator: Calibrator | None = None) -> list[Verdict]:
    """Judge a batch: ``candidates[i]`` against ``answerlines[i]`` (and ``questions[i]``).

    Same verdicts as :func:`judge` per item. Built for batches of answers never seen
    before (a re-score, an import): answerlines and questions are cached across calls
    like :func:`judge`'s, candidates are not (see :func:`_judge_batch`). For batches of
    :data:`GC_PAUSE_MIN_BATCH` pairs or more the cyclic garbage collector is paused
    while the rules run: judging creates no reference cycles, but it allocates many
    small containers while the caches grow, and the collector's repeated passes over
    those caches cost about a fifth of a cold batch. It is re-enabled (if it was on)
    before returning, also on error.
    """
    if len(candidates) != len(answerlines):
        raise ValueError("candidates and answerlines must have the same length")
    if questions is not None and len(questions) != len(candidates):
        raise ValueError("questions must have the same length as candidates")
    cal = calibrator or CALIBRATOR
    qs = questions if questions is not None else [""] * len(candidates)
    pause = len(candidates) >= GC_PAUSE_MIN_BATCH and gc.isenabled()
    if not pause:
        return _judge_batch(candidates, answerlines, qs, cal)
    gc.disable()
    try:
        return _judge_batch(candidates, answerlines, qs, cal)
    finally:
        gc.enable()
        # One pass over what this batch allocated, inside the call (not left to the
        # caller's next allocation): the work the paused collector would have done
        # on the young objects, done once.
        gc.collect(0)


def _judge_batch(candidates: Sequence[str], answerlines: Sequence[str | Sequence[str]],
                 qs: Sequence[str], cal: Calibrator) -> list[Verdict]:
    """The body of :func:`judge_many` (arguments checked)."""
    # Candidates are described once per batch, not through _candidate()'s cache: in a
    # batch they are nearly all distinct, and cached copies would only be more for
    # the cyclic collector to walk. The batch goes in blocks, so that a block's
    # candidates are still in the CPU's caches when the rules read them.
    # The batch's answerlines and questions first, in one pass: each is prepared once
    # (a few candidates share it), and their objects are then not interleaved in
    # memory with the candidates' short-lived ones.
    keys = [a if isinstance(a, str) else tuple(a) for a in answerlines]
    for line in dict.fromkeys(keys):
        _prepared(line)
    for q in dict.fromkeys(qs):
        _question_tokens(q)
    out: list[Verdict] = []
    for start in range(0, len(candidates), JUDGE_BLOCK):
        stop = start + JUDGE_BLOCK
        block = candidates[start:stop]
        infos: dict[str, _Cand | None] = dict.fromkeys(block)
        for text, toks in zip(infos, tokens_many(infos), strict=True):
            # (the self-correction gate inline: most answers are long or have no marker)
            if toks and len(toks) <= _CORRECTION_MAX and (not text.isascii() or (
                    toks[0] in _NOT_BUT_START
                    or not _CORRECTION_GATE.isdisjoint(toks[1:MAX_HEAD + 2]))):
                toks = _final_tokens(text, toks)
            infos[text] = _describe(toks, text)
        analyses = [
            _EMPTY_ANSWER if not c or c.isspace() else _analyze(infos[c], line, q)
            for c, line, q in zip(block, keys[start:stop], qs[start:stop], strict=True)
        ]
        grey = [a.features for a in analyses if a.hard is None]
        # (a hard verdict's score reads whether the candidate is in another script)
        bq = qs[start:stop]
        if len(grey) < 64:
            out += [_verdict(a, cal, None, a.hard is not None and not c.isascii() and (
                        (i := infos[c]) is not None and not i.full_norm.isascii()), q)
                    for a, c, q in zip(analyses, block, bq, strict=True)]
            continue
        # One matrix product for the calibrator instead of a Python loop per pair, and
        # the scores' Platt maps as array operations. The rows go in packed as C
        # doubles, row by row: numpy's element-by-element conversion of the tuples
        # (np.fromiter, np.array) costs twice as much.
        x = np.frombuffer(b"".join([_FEATURE_ROW.pack(*f) for f in grey]), dtype=float)
        x = x.reshape(len(grey), len(FEATURE_NAMES))
        p = cal.probabilities(x)
        probs = iter(p.tolist())
        kinds = np.frombuffer(b"".join([_KIND_ROW.pack(*question_kind(q)) for a, q in zip(
            analyses, bq, strict=True) if a.hard is None]), dtype=float).reshape(
            len(grey), len(QUESTION_KIND_NAMES)) if cal.question_platt else None
        scores = iter(cal.scores(p, x[:, SHORT_FEATURE], kinds, adds_or_drops_many(x)).tolist())
        out += [_grey_verdict(a, next(probs) >= cal.threshold, next(scores))
                if a.hard is None else _verdict(
                    a, cal, None, not c.isascii() and (
                        (i := infos[c]) is not None and not i.full_norm.isascii()), q)
                for a, c, q in zip(analyses, block, bq, strict=True)]
    return out


def clear_caches() -> None:
    """Empty every parse/normalize cache (for cold-start timing, or to free memory)."""
    from judging import answerline, entities, normalize

    for fn in (normalize.fold, normalize.tokens, normalize.normalize, normalize.content_tokens,
               normalize.numbers_in, normalize.stem, answerline._parse_string,
               answerline._parse_list, _prepared, _candidate, _question_tokens,
               _stem_preimage, proper_words, read_number_cached, question_kind,
               read_fraction, digit_comma_line):
        fn.cache_clear()
    normalize.clear_chunk_cache()
    entities.clear_caches()
