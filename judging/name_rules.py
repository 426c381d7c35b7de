"""Rules 12m and 12n: an answer that names the answer's place, language, ocean or
trivia thing in another language or by an older name, or names another one; rule 12u:
a sentence that names another person of the answer's surname.

The names come from :mod:`judging.names` (CLDR and a hand-written table). Split from
:func:`judging.equivalence._analyze` (2026.12.10), which calls :func:`by_other_name`
for every short answer after rules 1–6: rule 12m judges the answer again against the
answer's other names with every rule the judge has (so particles, copulas, sentences,
negation and hedges work in the other language), through the ``analyze`` it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from judging.entities import NICKNAMES
from judging.features import ZERO, Analysis, find_runs
from judging.names import entities_of, entity_of_norm, name_key, other_names
from judging.normalize import STOPWORDS, normalize, tokens
from judging.preparation import NOT_PERSON_FIRST, Alt, Cand, describe, prepared, question_tokens
from judging.short_rules import asks_person

# what rule 12n says an entity of judging.names is, by the first letter of its key
ENTITY_KINDS: Final = {"T": "country or region", "C": "city", "L": "language", "O": "ocean",
                "R": "region", "P": "planet or star", "E": "chemical element",
                "A": "animal", "I": "instrument", "S": "sport", "D": "day of the week",
                "K": "colour"}

# a state named with the name of a city ("华盛顿州", "워싱턴주", "รัฐวอชิงตัน" for
# "Washington, D.C."): the script rules take 州 and 주 off as administrative suffixes
STATE_MARKS: Final = ("州", "주", "รัฐ")

_NO_ENTITIES: frozenset[str] = frozenset()
_NOTHING: Final = Analysis("empty", False, False, None, "", ZERO)

Analyze = Callable[[Cand, str | tuple[str, ...], str, bool], Analysis]


@lru_cache(maxsize=16384)
def answerline_names(key: str | tuple[str, ...]) -> tuple[
        int, tuple[str, ...], tuple[str, ...], bool, frozenset[str]]:
    """Rule 12m's names for an answerline (:func:`judging.names.other_names` of its
    acceptable answers: the first known answer's position, its other names as written
    and normalized), rule 12o's gate on it (has it letters outside ASCII, or "nh",
    which a Vietnamese respelling has?) and the entities its answers name, once per
    answerline."""
    abroad = False
    for k in (key,) if isinstance(key, str) else key:
        if not k.isascii() or "nh" in k:
            abroad = True
            break
    at, names, name_norms = other_names([a.norm for a in prepared(key)[1]])
    if at < 0:
        return at, names, name_norms, abroad, _NO_ENTITIES
    known = frozenset([e for a in prepared(key)[1] if (e := entity_of_norm(a.norm))])
    return at, names, name_norms, abroad, known


def says_name(question: str, name: str) -> bool:
    """Does the question say the (normalized) name: its words in a row, or its
    characters in a script without spaces?"""
    q = normalize(question)
    return name in q if not name.isascii() else f" {name} " in f" {q} "


def names_a_state(text: str, name: str | None) -> bool:
    """Does the answer as written add a state's mark to the name it matched?"""
    core = text.strip().rstrip("。.!?")
    return name is not None and any(
        (core.endswith(m) or core.startswith(m)) and m not in name for m in STATE_MARKS)


def by_other_name(info: Cand, key: str | tuple[str, ...], accept: Sequence[Alt],
                  alt_tokens: frozenset[str], question: str, analyze: Analyze
                  ) -> tuple[Analysis | None, bool]:
    """Rules 12m and 12n for a short answer: the decision (``None``: neither decides)
    and whether rules 12k (backwards) and 12o may read the pair (it shares no word with
    the answerline and one side has letters outside ASCII or "nh")."""
    at, names, name_norms, abroad, known = answerline_names(key)
    core_norm = info.core_norm
    if at >= 0 and (mine := entity_of_norm(core_norm)) in known and mine[0] == "T" and not (
            question and says_name(question, core_norm)):
        # the same country's name in another language, sharing a word with the answer's
        # ("Korea Selatan" for "South Korea", before rule 12b reads "selatan" as a
        # swapped qualifier; countries only: a city may bear a person's name, "Thành
        # phố Hồ Chí Minh")
        return Analysis("alias:translation", True, False, accept[at].alt.text,
                        f"'{info.text}' is '{accept[at].alt.text}' in another language or "
                        f"by another name", ZERO), False
    if not alt_tokens.isdisjoint(info.toks):
        return None, False
    abroad = abroad or not info.text.isascii() or "nh" in info.text
    if at < 0:
        return None, abroad
    answer = accept[at].alt.text
    full_norm = info.full_norm
    # 12m: judged again against the other names, only when the answer says one of
    # them, or is in kana ("とうきょう" reads as "Tokyo", rule 3b)
    if names and (any(n in full_norm for n in name_norms) or (
            "\u3041" <= full_norm[:1] <= "\u30ff")):
        again = analyze(info, names, question, True)
        if again.matched is not None and question and says_name(
                question, name_key(again.matched)):
            # the name the question says ("Bombay" after "Bombay was renamed to what?"):
            # no answer (rule 12i), whatever the names mean
            again = _NOTHING
        if again.hard and not again.prompt and not names_a_state(info.text, again.matched):
            return Analysis("alias:translation", True, False, answer,
                            f"'{again.matched}' is '{answer}' in another language or by "
                            f"another name", ZERO), abroad
        if again.hard is None and again.rule == "contains" and (
                entity_of_norm(name_key(again.matched) if again.matched else "")
                or "?")[0] in "TCLO":
            # a place or language in a sentence ("Tôi chọn Nhật Bản"): the calibrator
            # decides, as it does for the answer in the answerline's language (not a
            # thing: "gấu trúc đỏ", the red panda, mentions "gấu trúc", the giant panda,
            # and its qualifier makes it another animal)
            return Analysis("contains", None, False, again.matched,
                            f"mentions '{again.matched}', '{answer}' in another language or "
                            f"by another name", again.features), abroad
    # 12n: the name of another place, language, ocean or thing ("India" for "Indian
    # Ocean", "Genova" for "Geneva", "Japanese" for "Japan"): wrong when every
    # acceptable answer is a known name and none names the answer's
    mine = entity_of_norm(core_norm)
    if mine is not None:
        theirs = entities_of(tuple([a.norm for a in accept]))
        # (a region is no country and no language, but may stand for the country
        # people mean: "Korea" for "한국" is left to the calibrator)
        if theirs is not None and mine not in theirs and not (
                mine[0] == "R" and any(t[0] == "T" for t in theirs)):
            return Analysis("other-entity", False, False, answer,
                            f"'{core_norm}' names another {ENTITY_KINDS[mine[0]]} than "
                            f"'{answer}'", ZERO), abroad
    return None, abroad


# trailing marks a name's last word may carry in a sentence
_RUN_END: Final = ",;:!?)\"\u201d"


def name_runs(text: str) -> list[tuple[str, bool, bool]]:
    """The runs of capitalized words and initials in ``text`` ("Robert F. Kennedy" in
    "It sounds like Robert F. Kennedy speaking."), each with whether it ends in a
    possessive ("Mozart's father": the run names an owner, not the answer) and whether
    it follows "and", "or" or "&" after a capitalized word (a list of given names before
    one surname: "Henry and William Deutschendorf"). A run ends at a word in lower case,
    at a comma or other mark, and at a full stop after a word that is no initial."""
    runs: list[tuple[str, bool, bool]] = []
    words: list[str] = []
    listed = False
    prev = prev2 = ""
    for w in text.replace(",", ", ").split():
        w = w.lstrip("(\"\u201c")
        stripped = w.rstrip(_RUN_END)
        if not stripped[:1].isupper():
            if words:
                runs.append((" ".join(words), False, listed))
                words = []
            prev2, prev = prev, w
            continue
        if not words:
            listed = prev.lower() in _LIST_WORDS and not prev2.islower()  # ("areAaron and")
        ends = stripped != w
        if stripped.endswith(".") and len(stripped.rstrip(".")) > 2:
            stripped = stripped.rstrip(".")
            ends = True
        owner = stripped.endswith(("'s", "\u2019s"))
        words.append(stripped[:-2] if owner else stripped)
        if ends or owner:
            runs.append((" ".join(words), owner, listed))
            words = []
        prev2, prev = prev, w
    if words:
        runs.append((" ".join(words), False, listed))
    return runs


# words of a question that asks for a person without "who" ("Which U.S. president ...?",
# "Name this composer"); with short_rules.asks_person's question words of every seed language
_PERSON_NOUNS: Final = frozenset({
    "president", "composer", "singer", "actor", "actress", "author", "writer", "poet",
    "painter", "artist", "scientist", "player", "leader", "king", "queen", "emperor",
    "inventor", "director", "speaker", "narrator", "rapper", "musician", "politician",
    "minister", "novelist", "playwright", "philosopher", "physicist", "chemist",
    "astronaut", "explorer", "conductor", "pianist", "guitarist", "drummer", "vocalist",
    "host", "presenter", "comedian", "athlete", "footballer", "senator", "governor",
    "general", "pope", "saint", "prophet", "founder", "person", "man", "woman", "whose"})
# a list of given names before one surname ("Aaron and Andrew Harrison")
_LIST_WORDS: Final = frozenset({"and", "or", "&"})


def may_name_another(cand: tuple[str, ...], persons: Sequence[Alt]) -> bool:
    """The gate of :func:`person_in_sentence`, cheap: does a person's surname stand in
    ``cand`` after a word that is not the start of that person's name as the answerline
    writes it ("ted kennedy", not "john f kennedy")?"""
    for a in persons:
        n = len(a.toks) - 1
        if n < 1 or a.surname not in cand:
            continue
        given = a.toks[:-1]
        p = cand.index(a.surname)
        while True:
            if p and cand[max(0, p - n):p] != given and cand[p - 1] not in STOPWORDS:
                return True
            try:
                p = cand.index(a.surname, p + 1)
            except ValueError:
                break
    return False


def person_in_sentence(info: Cand, key: str | tuple[str, ...], persons: Sequence[Alt],
                       question: str, analyze: Analyze) -> Analysis | None:
    """Rule 12u: wrong when the answer says an acceptable person's surname only inside
    the names of other people ("The speaker sounds like Ted Kennedy." for "John F.
    Kennedy [accept Kennedy]", "It was George W. Bush in 2004." for "George H. W.
    Bush"): each capitalized run that ends in the surname is judged as the short answer
    it is, and the rule decides only when every such run is another person and none is
    the answer or left to the calibrator ("President Kennedy"). An owner's name is no
    answer of its own ("Robert F. Kennedy's brother, John F. Kennedy"); a list of given
    names before one surname may hold the answer ("Aaron and Andrew Harrison"), and so
    is left alone. Only when the question asks for a person (by a question word or a
    noun such as "president"): a run of capitalized words is also the name of a board,
    an album or a place ("Securities and Exchange Board", "Genius Hits the Road"), which
    the answerline's words may resemble."""
    if not (asks_person(question) or not _PERSON_NOUNS.isdisjoint(question_tokens(question))):
        return None
    named = [a for a in persons if len(a.toks) >= 2 and a.toks[0] not in NOT_PERSON_FIRST]
    surnames = {a.surname for a in named}
    if not surnames:
        return None
    cand = info.toks
    if any(find_runs(cand, b.toks) for b in prepared(key)[1]
           if b.toks and not (len(b.toks) == 1 and b.toks[0] in surnames)):
        return None  # an acceptable answer is said too ("Rockwell featuring ...")
    other: tuple[str, Analysis] | None = None
    for run, owner, listed in name_runs(info.text):
        toks = tokens(run)
        if listed or (toks and toks[-1] in surnames and not owner and len(toks) == 1):
            return None  # (the surname alone or after a list of given names: maybe the answer)
        if owner or len(toks) < 2 or toks[-1] not in surnames or toks[0] in NOT_PERSON_FIRST or (
                toks == info.core or toks == info.toks or run == info.text):
            continue  # (the whole answer was judged already)
        first = toks[0]
        if any(a.surname == toks[-1] and (toks == a.toks or (len(toks) == 2 and (
                a.toks[0] == first or first in NICKNAMES.get(a.toks[0], ())
                or (len(first) == 1 and a.toks[0][:1] == first)))) for a in named):
            return None  # the answer, or its given name, nickname or initial ("Jack Kennedy")
        run_info = describe(toks, run)
        if run_info is None:
            continue
        found = analyze(run_info, key, question, False)
        if found.hard is not False or found.prompt or found.rule not in (
                "other-person", "other-entity"):
            return None  # the answer itself, or a name the calibrator reads
        if other is None:
            other = (run, found)
    if other is None:
        return None
    run, found = other
    return Analysis("other-person", False, False, found.matched,
                    f"names '{run}': {found.detail}", ZERO)
