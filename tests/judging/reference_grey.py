"""A plain version of the judge's grey-case features, kept as the specification.

``judging.features.grey_analysis`` computes the calibrator's features for most judged
pairs and is written for speed (no per-pair position lists, a stem memo, counts
through small intersections, prefilters). This is the straightforward version it
replaced, word for word but for this docstring; ``test_grey_features.py`` checks
that both give the same features, rule, match and detail on every dataset row and
on constructed cases. Keep it unchanged unless the features themselves change.
"""

from __future__ import annotations

import math

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from judging.equivalence import _result
from judging.features import ZERO, Analysis, find_runs, is_negated, max_edits, word_family
from judging.normalize import STOPWORDS, stem
from judging.preparation import SHORT_TOKENS, Alt, Cand

_extract_one = process.extractOne
_lev_distance = Levenshtein.distance


def reference_grey(info: Cand, accept: tuple[Alt, ...], qtok: frozenset[str],
                   all_alt_tokens: frozenset[str]) -> Analysis:
    """The grey-case features as first written: every feature the plain way."""
    cand = info.toks
    cand_set = info.tok_set
    cand_nums = info.nums
    core = info.core
    core_norm = info.core_norm
    full_norm = info.full_norm
    n = len(cand)
    short = 1.0 if len(core) <= 4 else 0.0
    cand_content = info.content
    best_key = (-1.0, -1.0)
    best: Alt | None = None
    f_contains = f_recall = f_rfuzzy = f_rnoq = f_inq = f_surname = 0.0
    f_ratio = f_partial = f_prec = 0.0
    f_nmatch = f_npart = 0.0
    f_nmiss = 1.0 if accept else 0.0
    f_last = f_given = f_gconf = f_head = f_rweight = 0.0
    f_missing = 1.0
    f_rstem = f_family = 0.0
    short_core = len(core) <= SHORT_TOKENS
    core_content = info.core_content
    any_num = False
    f_neg = 0.0
    first_pos = 1.0
    n_contained = 0
    negated: list[Alt] = []  # the answers every mention of which is negated
    memo = info.memo
    ratio_fn = fuzz.ratio
    nmax = max(1, n)

    def fuzzy_in(t: str) -> bool:
        # a close spelling of ``t`` among the candidate's content words
        if t in cand_set:
            return True
        if len(t) < 6 or not cand_content:
            return False
        hit = memo.get(t)
        if hit is None:
            hit = memo[t] = _extract_one(t, cand_content, scorer=_lev_distance,
                                         score_cutoff=max_edits(len(t))) is not None
        return hit

    alt_months: set[str] = set()
    alt_pairs: set[tuple[str, str]] = set()
    for a in accept:
        content = a.content_or_toks
        hit = content & cand_set
        n_content = len(content)
        if len(hit) == n_content:
            recall = rfuzzy = rweight = rstem = 1.0
            missing = 0.0
        else:
            recall = len(hit) / n_content
            found = len(hit)
            for t in content - hit:
                if len(t) >= 6 and fuzzy_in(t):
                    found += 1
            rfuzzy = found / n_content
            rweight = sum(map(len, hit)) / a.total_len if hit else 0.0
            longest = a.longest
            missing = 0.0 if longest in hit or longest in qtok or fuzzy_in(longest) else 1.0
            a_stems = a.stems
            c_stems = frozenset(map(stem, cand_content))
            rstem = len(a_stems & c_stems) / len(a_stems)
        if rweight > f_rweight:
            f_rweight = rweight
        if rstem > f_rstem:
            f_rstem = rstem
        if short_core and f_family < 1.0:
            fam = sum(1 for t in content if any(word_family(c, t) for c in core_content))
            fam /= n_content
            if fam > f_family:
                f_family = fam
        if missing < f_missing:
            f_missing = missing
        new_content = content - qtok
        if new_content:
            rnoq = len(new_content & cand_set) / len(new_content)
            inq = 0.0
        else:
            rnoq = recall
            inq = 1.0
        if recall == 1.0:
            positions = find_runs(cand, a.toks)
            if positions:
                contains = 1.0
                n_contained += 1
                if all(is_negated(cand, p) for p in positions):
                    f_neg = 1.0
                    negated.append(a)
                pos = positions[0] / nmax
                if pos < first_pos:
                    first_pos = pos
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
        if a.head and not contains and find_runs(cand, a.head):
            f_head = 1.0
        if not f_last:
            last = a.last
            if last not in STOPWORDS and fuzzy_in(last):
                f_last = 1.0
        if a.person:
            if a.surname in cand_set:
                f_surname = 1.0
                i = cand.index(a.surname)
                prev = cand[i - 1] if i > 0 else ""
                if prev and prev not in STOPWORDS and prev not in a.toks and prev.isalpha():
                    f_gconf = 1.0
            elif a.given in cand_set and not fuzzy_in(a.surname or ""):
                f_given = 1.0
        ratio = ratio_fn(core_norm, a.norm) / 100.0
        if contains:
            partial = 1.0
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
            alt_months |= a.months
            alt_pairs |= a.pairs
        else:
            f_nmiss = 0.0
        key = (contains + rnoq + rfuzzy * 0.5, ratio)
        if key > best_key:
            best_key = key
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
    core_content = info.core_content - qtok
    if core_content:
        f_prec = len(core_content & all_alt_tokens) / len(core_content)
    refusal = 1.0 if info.refusal else 0.0
    disclaimer = 1.0 if info.disclaimer else 0.0
    n_new = len(info.content_set - qtok - all_alt_tokens)
    feats = (
        f_contains,
        f_contains * (1.0 if len(core) <= SHORT_TOKENS else 0.0),
        f_recall,
        f_rfuzzy,
        f_rnoq,
        f_inq,
        f_surname,
        f_ratio,
        f_partial,
        f_prec,
        f_prec * short,
        f_nmatch,
        f_npart,
        f_nmiss,
        math.log1p(n),
        short,
        f_neg,
        refusal,
        first_pos,
        f_recall * short,
        1.0 if f_recall >= 1.0 else 0.0,
        math.log1p(n_new),
        f_last,
        f_given,
        f_month,
        f_day,
        math.log(max(1, len(accept))),
        n_contained / max(1, len(accept)),
        disclaimer,
        f_gconf,
        f_ratio * short,
        f_rfuzzy * short,
        f_last * short,
        math.log1p(n_new) * short,
        f_head,
        f_rweight,
        f_missing if accept else 0.0,
        f_rstem,
        f_family,
        1.0 if f_recall > 0.0 and f_rnoq == 0.0 and f_inq == 0.0 else 0.0,
    )
    if (len(core) <= 2 and f_recall == 0.0 and f_rfuzzy == 0.0 and f_head == 0.0 and f_rstem == 0.0
            and not any(Levenshtein.distance(core_norm, a.norm) <= max_edits(len(a.norm))
                        or any(word_family(c, t) for c in core for t in a.content)
                        for a in accept)):
        # A short answer sharing no word, and no close spelling, with any answer:
        # whole-string similarity alone (Austria ~ Australia) is not evidence.
        # (a hard verdict: scored by its rule, so its features are the zeros of every
        # other hard rule's; the judge tests this before computing any feature)
        return _result("no-match", False, None,
                       "shares no word or close spelling with any acceptable answer", ZERO)
    if negated and len(negated) == n_contained:
        # every answer it mentions is set aside: a hard negation
        return _result("negation", False, negated[-1].alt.text,
                       f"the answer mentions '{negated[-1].alt.text}' only to set it aside",
                       ZERO)
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
    return _result(rule, None, matched, detail, feats)


def reference_regime(g: Analysis, info: Cand, answer_short: float, script: float) -> Analysis:
    """:func:`reference_grey`'s 40 features followed by the four regime features (issue
    13), the plain way: the calibrator learnt long LLM sentences, where sharing words
    means being right; for a short answer against a short answer, sharing some words
    and adding others is a different entity. ``judging.features.grey_analysis`` builds them
    in its own feature tuple. A hard verdict (the short ``no-match``) is returned as
    it is: its features are already all of them, zero."""
    if g.hard is not None:
        return g
    f = g.features
    recall = f[2]
    swap = 1.0 if 0.0 < recall < 1.0 and f[9] < 1.0 and len(info.core) <= SHORT_TOKENS else 0.0
    return g._replace(features=(*f, answer_short, answer_short * f[15], swap, script))
