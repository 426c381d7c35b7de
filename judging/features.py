"""The grey zone: features for the calibrator, and the short answer that shares nothing
(pure Python).

A pair no hard rule of :func:`judging.equivalence._analyze` settles ends here.
:func:`grey_analysis` computes the calibrator's features (``calibration.FEATURE_NAMES``):
each the best over the acceptable answers (token recall with and without the
question's words, containment, close spellings, stems, word families, name parts,
numbers, months, negation near a mention), then the regime features (answer length,
script). Before them, :func:`shares_nothing` decides the hard ``no-match`` of a short
answer that shares no word, close spelling, stem or word family with any acceptable
answer: its features would never be read. The plain reference of these features,
kept in step by a test, is ``tests/judging/reference_grey.py``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final, NamedTuple

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from judging.calibration import FEATURE_NAMES
from judging.normalize import (
    _DEMONYMS,
    ARTICLES,
    STOPWORDS,
    stem,
)
from judging.preparation import EMPTY, SHORT_TOKENS, Alt, Cand

_extract_one: Final = process.extractOne
_lev_distance: Final = Levenshtein.distance


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


NEGATORS: Final = frozenset(
    {"not", "isnt", "wasnt", "arent", "werent", "never", "neither", "nor", "doesnt", "didnt",
     "dont", "cannot", "cant", "aint",
     # vi (không, chẳng phải), id/ms (bukan, tidak), tl (hindi), ko (안), after fold()
     "khong", "bukan", "tidak", "안"}
)
_NEG_SKIP: Final = ARTICLES | {"in", "at", "on", "from", "by", "to", "of", "be", "is", "it", "was",
                        "called", "named"}


def find_runs(seq: tuple[str, ...], sub: tuple[str, ...]) -> list[int]:
    """Start positions of ``sub`` as a contiguous run in ``seq``."""
    n, m = len(seq), len(sub)
    if m == 0 or m > n:
        return []
    first = sub[0]
    out: list[int] = []
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
    """Is some content word of the candidate a close spelling of ``t``, a word of 6+
    letters the candidate lacks and ``memo`` does not hold yet (see :func:`max_edits`)?
    The answer goes into ``memo``: the callers look there first."""
    n = len(t)
    # (max_edits(n) for 6+ letters, inlined: this runs for most missing words)
    close = memo[t] = _extract_one(t, cand_content, scorer=_lev_distance,
                                   score_cutoff=1 if n < 10 else 2 if n < 14 else 3) is not None
    return close


def _n_close(missing: frozenset[str], cand_content: frozenset[str], memo: dict) -> int:
    """How many of ``missing``, answer words the candidate lacks, have 6+ letters and a
    close spelling among the candidate's content words ``cand_content`` (not empty)?
    Each such word is looked up once per candidate and left in ``memo``."""
    found = 0
    for t in missing:
        if len(t) >= 6:
            close = memo.get(t)
            if close is None:
                close = _close_spelling(t, cand_content, memo)
            if close:
                found += 1
    return found


def _spelled_close(t: str, cand_content: frozenset[str], memo: dict) -> bool:
    """Does the candidate, which lacks word ``t``, give it (6+ letters) as a close
    spelling among its content words?"""
    if len(t) < 6 or not cand_content:
        return False
    close = memo.get(t)
    return _close_spelling(t, cand_content, memo) if close is None else close


def find_first(seq: tuple[str, ...], sub: tuple[str, ...]) -> int:
    """Start of the first contiguous run of ``sub`` in ``seq``, or -1 (see :func:`find_runs`)."""
    m = len(sub)
    if m == 1:
        try:
            return seq.index(sub[0])
        except ValueError:
            return -1
    stop = len(seq) - m + 1  # (a run starts before this)
    if not m or stop <= 0:
        return -1
    first = sub[0]
    start = 0
    while True:
        try:
            i = seq.index(first, start, stop)
        except ValueError:
            return -1
        if seq[i : i + m] == sub:
            return i
        start = i + 1


# "instead of X", "unlike X" (blind21): X set aside as the other choice
_SET_ASIDE: Final = frozenset({"instead", "unlike"})
# what may stand just before a negated mention ("no": "there is no thunderstorm";
# "with": "compared with Queen"; blind28)
NEG_NEAR: Final = NEGATORS | _NEG_SKIP | _SET_ASIDE | {"than", "no", "with"}
# a comparison sets aside what it compares with ("compared with Queen", "deeper than a
# humpback whale's song"; blind28), unless the sentence says nothing else is so ("no
# other whale is louder than the blue whale")
_COMPARED: Final = frozenset({"compared", "likened", "comparable"})
_COMPARATIVES: Final = frozenset({"more", "less", "rather"})
_NO_BEFORE: Final = frozenset({"is", "was", "are", "were", "theres", "with", "has", "have", "had",
                        "hear", "hears", "heard"})
_NONE_ELSE: Final = frozenset({"no", "nothing", "none", "nobody", "other", "any", "anything", "else"})
_NEGATING: Final = NEGATORS | _SET_ASIDE
# Tagalog "hindi" (not) before the article of a name or noun ("hindi si Rizal", "hindi
# ang Pasig"; blind27): not in NEGATORS, where it would also be the Hindi language
_TL_NOT: Final = "hindi"
_TL_ARTICLES: Final = frozenset({"si", "ang", "sa", "ni", "kay", "ng"})


_DEMONYMS_OF: dict[str, tuple[str, ...]] = {}
for _w, _c in _DEMONYMS.items():
    _DEMONYMS_OF[_c] = (*_DEMONYMS_OF.get(_c, ()), _w)
# stem() without its cache: the spellings tried below are mostly not words
_stem_uncached: Final = stem.__wrapped__


@lru_cache(maxsize=65536)
def stem_preimage(s: str) -> tuple[str, ...]:
    """Every word whose :func:`~judging.normalize.stem` is ``s``.

    ``stem`` only maps a demonym to its country, turns ``ies`` into ``y`` or drops
    ``es`` (after ``ss``, ``sh``, ``ch``, ``x``) or ``s``, so a word with stem ``s``
    is ``s`` itself, ``s + "s"``, ``s + "es"`` (if ``s`` ends so), ``s[:-1] + "ies"``
    (if ``s`` ends in ``y``) or a demonym of ``s``; the ones that really stem to
    ``s`` are kept. This lets :func:`grey_analysis` test whether the candidate has a word
    with stem ``s`` by looking these few words up, without stemming the candidate.
    """
    # (``s`` itself through stem's cache: it is mostly an answer's word, stemmed already)
    words = [s] if stem(s) == s else []
    w = s + "s"
    if _stem_uncached(w) == s:
        words.append(w)
    if s.endswith(("ss", "sh", "ch", "x")) and _stem_uncached(w := s + "es") == s:
        words.append(w)
    if s.endswith("y") and _stem_uncached(w := s[:-1] + "ies") == s:
        words.append(w)
    if s in _DEMONYMS_OF:
        words += [w for w in _DEMONYMS_OF[s] if _stem_uncached(w) == s]
    return tuple(words)


def is_negated(seq: tuple[str, ...], pos: int) -> bool:
    """Is the mention starting at ``pos`` preceded by a negation ("not (the) X"), or
    set aside as the other choice ("a cockatoo rather than a kookaburra", "instead of
    X"; blind18; "unlike X", blind21; Tagalog "hindi si X", blind27)? Looks back at most
    three words, past the words of ``_NEG_SKIP``."""
    for j in range(pos - 1, -1 if pos < 4 else pos - 4, -1):
        t = seq[j]
        if t in _NEGATING:
            return True
        if t == "to" and j > 0 and seq[j - 1] in _COMPARED:
            return True  # ("to" is a word to skip: "compared to X")
        if t not in _NEG_SKIP:
            if t in _TL_ARTICLES:
                return j > 0 and seq[j - 1] == _TL_NOT
            if t == "no":
                # "there is no thunderstorm", "with no X" (not "No. 5", nor "No, X did not")
                return j > 0 and seq[j - 1] in _NO_BEFORE and seq[pos][:1].isalpha()
            if t == "with":
                return j > 0 and seq[j - 1] in _COMPARED
            # ("than" is no word to skip: "rather than X" sets X aside, and so does a
            # comparative, "deeper than X", where the sentence says not that nothing
            # else is so)
            return t == "than" and j > 0 and (seq[j - 1] in _COMPARATIVES or (
                seq[j - 1].endswith("er") and _NONE_ELSE.isdisjoint(seq[:j])))
    return False


def word_family(a: str, b: str) -> bool:
    """Same word family: a shared start of >= 5 letters covering >= 75% of the shorter
    word (Zoroastrian ~ Zoroastrianism, sharecroppers ~ sharecropping; not Austria ~
    Australia)."""
    n = min(len(a), len(b))
    if n < 5:
        return False
    # the shared start needed: 5 letters, and ceil(0.75 * n) = (3n + 3) // 4 (more from 7)
    k = 5 if n < 7 else (3 * n + 3) // 4
    return a[:k] == b[:k]


def max_edits(n: int) -> int:
    """Edits a spelling variant of an ``n``-letter word may have: none below 6 letters,
    one below 10, two below 14, three beyond (Tchaikovski ~ Tchaikovsky, not Austria ~
    Australia)."""
    return 0 if n < 6 else 1 if n < 10 else 2 if n < 14 else 3


ZERO: Final = tuple(0.0 for _ in FEATURE_NAMES)




# A short answer sharing no word, and no close spelling, with any answer: whole-string
# similarity alone (Austria ~ Australia) is not evidence. A hard verdict, so no features.
NO_MATCH: Final = Analysis("no-match", False, False, None,
                     "shares no word or close spelling with any acceptable answer", ZERO)


def shares_nothing(info: Cand, accept: tuple[Alt, ...]) -> bool:
    """Is a short answer (a core of at most two words) a hard ``no-match``? No
    acceptable answer shares a word with the candidate (``recall`` 0), a close
    spelling (``recall_fuzzy`` 0), its part before a comma (``comma_head`` 0) or a
    stem (``recall_stem`` 0), and none is a close spelling of the core or shares a
    word family with it. Tested before :func:`grey_analysis` computes any feature: these are
    the only features the test reads, and a quarter to a third of short answers end
    here, whose other features no one reads (a hard verdict is scored by its rule)."""
    cand_set = info.tok_set
    cand_content = info.content
    memo = info.memo
    cand = info.toks
    for a in accept:
        content = a.content_or_toks
        if not content.isdisjoint(cand_set) or (
                cand_content and _n_close(content, cand_content, memo)):
            return False
        head = a.head
        if head and find_first(cand, head) >= 0:
            return False
        stem_words = a.stem_words
        if stem_words is None:
            stem_words = a.stem_words = tuple(map(stem_preimage, a.stems))
        if not all(map(cand_content.isdisjoint, stem_words)):
            return False
    core = info.core
    core_norm = info.core_norm
    n = len(core_norm)
    # (a word family shares its first five letters, see word_family: only the answer
    # words starting with a core word's five are tried, and only in an answer whose text
    # has those five somewhere)
    starts = {c[:5] for c in core if len(c) >= 5}
    for a in accept:
        norm = a.norm
        k = max_edits(len(norm))
        if (norm == core_norm) if not k else (
                abs(len(norm) - n) <= k and _lev_distance(core_norm, norm, score_cutoff=k) <= k):
            return False
        if starts and any(map(norm.__contains__, starts)):
            for t in a.content:
                if t[:5] in starts:
                    for c in core:
                        if word_family(c, t):
                            return False
    return True


_log: Final = math.log
_log1p: Final = math.log1p


def _stem_recall(a: Alt, cand_content: frozenset[str]) -> float:
    """The share of the answer's stems that some candidate word stems to (``recall_stem``;
    the answer's words per stem are filled on ``a`` the first time)."""
    stem_words = a.stem_words
    if stem_words is None:
        stem_words = a.stem_words = tuple(map(stem_preimage, a.stems))
    n_stems = len(stem_words)
    return (n_stems - sum(map(cand_content.isdisjoint, stem_words))) / n_stems


def grey_analysis(info: Cand, accept: tuple[Alt, ...], qtok: frozenset[str],
                  all_alt_tokens: frozenset[str], answer_short: float, script: float) -> Analysis:
    """Features for the calibrator: each the best over the acceptable answers, then
    the four regime features (``answer_short`` and ``script`` as
    :func:`judging.equivalence._analyze` found them): the calibrator learnt long LLM
    sentences, where sharing words means being right; for a short answer against a
    short answer, sharing some words and adding others is a different entity.

    Written for speed (most pairs end here): spelling-variant look-ups only for the
    answer words the candidate lacks, and only for words of 6+ letters (a shorter
    word may not differ at all, see :func:`max_edits`), memoized per candidate. Each
    answer is one of three cases (it shares no word, all its words, or some), and a
    feature whose value a case fixes (1.0 for an answer wholly in the candidate) is set
    there rather than computed and compared.
    """
    core = info.core
    n_core = len(core)
    if n_core <= 2 and shares_nothing(info, accept):
        return NO_MATCH
    cand = info.toks
    cand_set = info.tok_set
    cand_nums = info.nums
    core_norm = info.core_norm
    full_norm = info.full_norm
    cand_content = info.content
    core_content = info.core_content
    memo = info.memo
    n = len(cand)
    nmax = n or 1
    short_core = n_core <= SHORT_TOKENS
    best_key = best_ratio = -1.0
    best: Alt | None = None
    f_contains = f_recall = f_rfuzzy = f_rnoq = f_inq = f_surname = 0.0
    f_ratio = f_partial = f_prec = f_nmatch = f_npart = 0.0
    f_last = f_given = f_gconf = f_head = f_rweight = f_rstem = f_family = f_neg = 0.0
    # (with no acceptable answer, both stay 0.0)
    f_nmiss = f_missing = 1.0 if accept else 0.0
    first_pos = 1.0
    n_contained = n_negated = 0
    negated: Alt | None = None
    ratio_fn = fuzz.ratio
    # a word family shares its first five letters (see word_family): only an answer
    # whose text has a core word's five is read, and only the core's words with the
    # same five are tried
    family_starts = {c[:5] for c in core_content if len(c) >= 5} if short_core else None
    # months and (month, day) pairs of the numeric answers (built only if any)
    alt_months: frozenset[str] = EMPTY
    alt_pairs: frozenset[tuple[str, str]] = frozenset()
    for a in accept:
        content = a.content_or_toks
        if content.isdisjoint(cand_set):
            # none of its words: no recall (without the question's words too), no
            # containment, no weight; a close spelling or a stem at most
            contains = rnoq = 0.0
            if content <= qtok:
                f_inq = 1.0
            if f_recall == 1.0:
                # An earlier answer is wholly in the candidate, so the best of these is
                # reached already, and this one cannot become the best-matching one (its
                # key, at most 0.5, stays below that answer's 1.5)
                rfuzzy = 0.0
            else:
                if cand_content:
                    rfuzzy = _n_close(content, cand_content, memo) / len(content)
                    if rfuzzy > f_rfuzzy:
                        f_rfuzzy = rfuzzy
                else:
                    rfuzzy = 0.0
                # (_n_close just looked up each of its words of 6+ letters)
                longest = a.longest
                if longest in qtok or memo.get(longest):
                    f_missing = 0.0
                rstem = _stem_recall(a, cand_content)
                if rstem > f_rstem:
                    f_rstem = rstem
        elif content <= cand_set:
            # all its words: recall, close spellings, weight and stems are full
            f_recall = f_rnoq = f_rfuzzy = f_rweight = f_rstem = 1.0
            f_missing = 0.0
            if content <= qtok:
                f_inq = 1.0
            rnoq = rfuzzy = 1.0
            a_toks = a.toks
            # (a one-word answer is in the candidate: it is its whole content)
            p0 = cand.index(a_toks[0]) if len(a_toks) == 1 else find_first(cand, a_toks)
            if p0 >= 0:
                contains = f_contains = f_partial = 1.0
                n_contained += 1
                # negated only if every mention is
                if (p0 and cand[p0 - 1] in NEG_NEAR and is_negated(cand, p0)
                        and all(is_negated(cand, p) for p in find_runs(cand, a_toks))):
                    f_neg = 1.0
                    n_negated += 1
                    negated = a
                pos = p0 / nmax
            else:
                contains = 0.0
                pos = 0.5 + 0.5 * min(map(cand.index, content)) / nmax
            if pos < first_pos:
                first_pos = pos
        else:
            # some of its words
            contains = 0.0
            hit = content & cand_set
            n_hit = len(hit)
            n_content = len(content)
            recall = n_hit / n_content
            if content.isdisjoint(qtok):  # (most answers: then the recall is the same)
                rnoq = recall
            else:
                new_content = content - qtok
                if new_content:
                    rnoq = len(new_content & cand_set) / len(new_content)
                else:
                    rnoq = recall
                    f_inq = 1.0
            pos = 0.5 + 0.5 * min(map(cand.index, hit)) / nmax
            if pos < first_pos:
                first_pos = pos
            if f_recall == 1.0:
                # (as above; a close spelling matters only if this answer could still
                # become the best-matching one)
                if rnoq + 0.5 < best_key:
                    rfuzzy = 0.0
                elif cand_content:
                    rfuzzy = (n_hit + _n_close(content - cand_set, cand_content, memo)) / n_content
                else:
                    rfuzzy = recall
            else:
                if cand_content:
                    rfuzzy = (n_hit + _n_close(content - cand_set, cand_content, memo)) / n_content
                else:
                    rfuzzy = recall
                rweight = sum(map(len, hit)) / a.total_len
                if rweight > f_rweight:
                    f_rweight = rweight
                # (_n_close just looked up each missing word of 6+ letters)
                longest = a.longest
                if longest in cand_set or longest in qtok or memo.get(longest):
                    f_missing = 0.0
                rstem = _stem_recall(a, cand_content)
                if rstem > f_rstem:
                    f_rstem = rstem
                if recall > f_recall:
                    f_recall = recall
            if rfuzzy > f_rfuzzy:
                f_rfuzzy = rfuzzy
            if rnoq > f_rnoq:
                f_rnoq = rnoq
        norm = a.norm
        if family_starts and f_family < 1.0 and any(map(norm.__contains__, family_starts)):
            n_fam = 0
            for t in content:
                start = t[:5]
                if start in family_starts:
                    for c in core_content:
                        if c[:5] == start and word_family(c, t):
                            n_fam += 1
                            break
            fam = n_fam / len(content)
            if fam > f_family:
                f_family = fam
        if not contains and a.head and find_first(cand, a.head) >= 0:
            f_head = 1.0
        if not f_last:
            last = a.last
            if last not in STOPWORDS and (
                    last in cand_set or _spelled_close(last, cand_content, memo)):
                f_last = 1.0
        if a.person:
            surname = a.surname
            if surname in cand_set:
                f_surname = 1.0
                i = cand.index(surname)
                prev = cand[i - 1] if i > 0 else ""
                if prev and prev not in STOPWORDS and prev not in a.toks and prev.isalpha():
                    f_gconf = 1.0
            elif a.given in cand_set and not _spelled_close(surname or "", cand_content, memo):
                f_given = 1.0
        ratio = ratio_fn(core_norm, norm) / 100.0
        if ratio > f_ratio:
            f_ratio = ratio
        if not contains and f_partial != 1.0:
            # (an answer in the candidate makes it 1.0: the best)
            if len(norm) >= 3:
                partial = memo.get(a.partial_key)
                if partial is None:
                    partial = memo[a.partial_key] = fuzz.partial_ratio(norm, full_norm) / 100.0
            else:
                partial = ratio
            if partial > f_partial:
                f_partial = partial
        nums = a.nums
        if nums:
            shared = nums & cand_nums
            if nums <= cand_nums:
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
    if negated is not None and n_negated == n_contained:
        # every acceptable answer it mentions, it sets aside ("a cockatoo rather than a
        # kookaburra", "..., not Hey Jude"; blind18): it offers another answer
        return Analysis("negation", False, False, negated.alt.text,
                        f"the answer mentions '{negated.alt.text}' only to set it aside", ZERO)
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
    n_in_q = len(content_set & qtok)
    n_core_new = len(core_content) - (
        n_in_q if core_content is content_set else len(core_content & qtok))
    if n_core_new:
        f_prec = len(core_content & alt_new) / n_core_new
    n_new = len(content_set) - n_in_q - len(content_set & alt_new)
    log_new = _log1p(n_new)
    n_acc = len(accept) or 1
    is_short = n_core <= 4
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
        _log1p(n),
        1.0 if is_short else 0.0,
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
        _log(n_acc),
        n_contained / n_acc,
        1.0 if info.disclaimer else 0.0,
        f_gconf,
        f_ratio if is_short else 0.0,
        f_rfuzzy if is_short else 0.0,
        f_last if is_short else 0.0,
        log_new if is_short else 0.0,
        f_head,
        f_rweight,
        f_missing,
        f_rstem,
        f_family,
        1.0 if f_recall > 0.0 and f_rnoq == 0.0 and f_inq == 0.0 else 0.0,
        # the regime features
        answer_short,
        answer_short if is_short else 0.0,
        1.0 if short_core and 0.0 < f_recall < 1.0 and f_prec < 1.0 else 0.0,
        script,
    )
    matched = best.alt.text if best is not None else None
    if f_contains:
        rule = "contains"
        detail = f"mentions '{matched}'"
    elif f_ratio >= 0.8 or f_rfuzzy > f_recall:
        rule = "fuzzy"
        detail = f"is a close spelling of '{matched}' (similarity {max(f_ratio, f_partial):.2f})"
    elif f_surname:
        rule = "surname"
        detail = f"names the surname of '{matched}'"
    elif f_recall > 0:
        rule = "token-overlap"
        detail = f"shares {f_recall:.0%} of the words of '{matched}'"
    else:
        rule = "no-match"
        detail = "shares no words with any acceptable answer"
        matched = None
    return Analysis(rule, None, False, matched, detail, feats)
