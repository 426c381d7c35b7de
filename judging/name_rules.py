"""Rules 12m and 12n: an answer that names the answer's place, language, ocean or
trivia thing in another language or by an older name, or names another one.

The names come from :mod:`judging.names` (CLDR and a hand-written table). Split from
:func:`judging.equivalence._analyze` (2026.12.10), which calls :func:`by_other_name`
for every short answer after rules 1–6: rule 12m judges the answer again against the
answer's other names with every rule the judge has (so particles, copulas, sentences,
negation and hedges work in the other language), through the ``analyze`` it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from judging.features import ZERO, Analysis
from judging.names import entities_of, entity_of_norm, name_key, other_names
from judging.normalize import normalize
from judging.preparation import Alt, Cand, prepared

# what rule 12n says an entity of judging.names is, by the first letter of its key
ENTITY_KINDS = {"T": "country or region", "C": "city", "L": "language", "O": "ocean",
                "R": "region", "P": "planet or star", "E": "chemical element",
                "A": "animal", "I": "instrument", "S": "sport", "D": "day of the week",
                "K": "colour"}

# a state named with the name of a city ("华盛顿州", "워싱턴주", "รัฐวอชิงตัน" for
# "Washington, D.C."): the script rules take 州 and 주 off as administrative suffixes
STATE_MARKS = ("州", "주", "รัฐ")

_NO_ENTITIES: frozenset[str] = frozenset()
_NOTHING = Analysis("empty", False, False, None, "", ZERO)

Analyze = Callable[[Cand, tuple[str, ...], str, bool], Analysis]


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
