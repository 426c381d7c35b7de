"""Rule 12m's table: the names of one place, language or ocean in every seed language.

An answer may name the right country in the question's language while the answerline
names it in English, or the other way round (``日本``, ``Nhật Bản``, ``Jepang`` for
``Japan``; ``Germany`` for ``Deutschland``), or by an older English name moderators
accept (``Peking``, ``Bombay``). The judge's other rules see no shared word and reject
such an answer as ``no-match``. :func:`other_names` gives the answerline's other names,
and :func:`judging.equivalence._analyze` judges the answer against them with every rule
it has (affixes, sentences, negation, hedges), so ``答案是日本。`` and ``일본입니다`` are
found and ``không phải Nhật Bản`` is still negated.

Two files (read once, on first use; no download, no Babel at run time):

* ``data/names_cldr.json``: generated from the Unicode CLDR by
  :mod:`judging.build_names` (countries and continents, languages, the cities CLDR
  names as time zones' exemplar cities);
* ``data/names_added.json``: hand-written additions (short and older English names,
  more cities, the oceans, common trivia things), with its provenance, and the CLDR
  names it drops (``Ho Chi Minh`` for the city is the man's name too).

A name two entities of one kind share is dropped (neither is meant); a name of
entities of different kinds (Indonesian ``Jepang`` is the country and the language)
means the country first, then the city, the ocean, the language.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Final

import judging
from judging.normalize import strip_articles, tokens

# (found through the package, not this module's __file__: the compiled build of this
# module lives outside the package directory; judging.native)
_DATA: Final = Path(next(iter(judging.__path__))) / "data"
FILES: Final = ("names_cldr.json", "names_added.json")
# the order in which a name of several kinds of entity is read: a country, a city, an
# ocean, a language, a region that is no country, then the things of names_added.json (planets and the Sun and Moon,
# chemical elements, animals, instruments, sports, days of the week, colours)
_PREFER: Final = "TCOLRPEAISDK"
# the tokenizer without its cache: the table's eight thousand names are read once and
# would only crowd the cache the judged answers use
_tokens: Final = tokens.__wrapped__


def name_key(name: str) -> str:
    """A name as the judge compares it: its normalized tokens, a leading article
    dropped (the form of :attr:`judging.preparation.Alt.norm`)."""
    return " ".join(strip_articles(_tokens(name)))


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, str], dict[str, tuple[tuple[str, str], ...]]]:
    """(normalized name -> entity, entity -> its names as written and normalized),
    built once."""
    names: dict[str, dict[str, None]] = {}
    for file in FILES:
        data = json.loads((_DATA / file).read_text(encoding="utf-8"))
        for entity, written in data["entities"].items():
            names.setdefault(entity, {}).update(dict.fromkeys(written))
        for entity, dropped in data.get("dropped", {}).items():
            for name in dropped:  # (a CLDR name that is also a person's)
                names.get(entity, {}).pop(name, None)
    by_key: dict[str, set[str]] = {}
    for entity, written in names.items():
        for name in written:
            key = name_key(name)
            if key:
                by_key.setdefault(key, set()).add(entity)
    index: dict[str, str] = {}
    for key, entities in by_key.items():
        if len({e[0] for e in entities}) < len(entities):
            continue  # two countries (or cities, ...) share it: it names neither
        index[key] = min(entities, key=lambda e: _PREFER.index(e[0]))
    return index, {e: tuple((w, name_key(w)) for w in written)
                   for e, written in names.items()}


NO_NAMES: tuple[int, tuple[str, ...], tuple[str, ...]] = (-1, (), ())


def other_names(norms: Iterable[str]) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """For the normalized acceptable answers ``norms``: the position of the first that
    names a known entity, the entity's names as written in every language of the
    table, less those the answers already say, and those names normalized (an answer
    that contains none of them as a substring cannot match them). :data:`NO_NAMES`
    when no answer is a known name."""
    index, names = _table()
    norms = tuple(norms)
    for i, norm in enumerate(norms):
        entity = index.get(norm)
        if entity is not None:
            said = set(norms)
            others = [(n, k) for n, k in names[entity] if k not in said]
            return i, tuple(n for n, _ in others), tuple(k for _, k in others)
    return NO_NAMES


@lru_cache(maxsize=4096)
def entities_of(norms: tuple[str, ...]) -> frozenset[str] | None:
    """The entities the normalized acceptable answers ``norms`` name, or ``None`` when
    one of them is no known name (then what the answerline names is not known)."""
    index = _table()[0]
    found = [index.get(n) for n in norms]
    return None if None in found else frozenset(found)  # type: ignore[arg-type]


def entity_of(name: str) -> str | None:
    """The entity (``T:JP``, ``L:ja``, ``C:Asia/Tokyo``, ``O:Pacific``, ``P:Mars``) a name names,
    or ``None`` (unknown, or shared by two entities of one kind)."""
    return _table()[0].get(name_key(name))


def entity_of_norm(norm: str) -> str | None:
    """:func:`entity_of` for a name already normalized (an answer's ``core_norm``)."""
    return _table()[0].get(norm)
