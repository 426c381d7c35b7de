"""Write ``judging/data/names_cldr.json``: the names of countries and regions, of
languages and of cities in every seed language and in their own, from the Unicode
Common Locale Data Repository (CLDR), for rule 12m (:mod:`judging.names`).

Run by hand when Babel (a dev dependency, which carries CLDR) is upgraded::

    .venv/bin/python -m judging.build_names

The judge itself never imports Babel: it reads the file this writes, so production
installs need neither Babel nor CLDR's 30 MB. ``tests/judging/test_names.py`` checks
that the committed file is what this writes with the installed Babel.

What is taken, per entity (``T:`` territory, ``L:`` language, ``C:`` city):

* the seed locales' names (:data:`SEED_LOCALES`): en, ko, zh (simplified and
  traditional), ja, th, vi, id, ms, fil;
* a country's names in its official languages (``Deutschland``, ``Italia``), a
  language's own name (``Deutsch``, ``日本語``);
* the exemplar city of each time zone (CLDR names about 400 cities, capitals mostly:
  ``Asia/Tokyo`` is ``東京``, ``도쿄``, ``โตเกียว``; ``Asia/Saigon`` is ``사이공``);
* a continent's name with the word "continent", in Thai before it and in Japanese
  after it (``ทวีปเอเชีย``, ``アジア大陸``);
* a country name's parenthesized other name as a name of its own ("Myanmar (Burma)");
  :mod:`judging.names` drops a name that two entities of one kind share
  ("홍콩(중국 특별행정구)" and "마카오(중국 특별행정구)");
* for Indonesian, Malay and Thai, a language's name with the word "language" before it
  (``bahasa Jepang``, ``ภาษาญี่ปุ่น``) instead of CLDR's bare name, which is the
  country's name too (``Jepang``, ``Korea``): bare, it would make the country and its
  language one entity.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

OUT = Path(__file__).resolve().parent / "data" / "names_cldr.json"

SEED_LOCALES = ("en", "ko", "zh", "zh_Hant", "ja", "th", "vi", "id", "ms", "fil")
# regions named like countries; the other numeric regions ("Southern Asia") are not
# answers people give
CONTINENTS = ("002", "005", "009", "019", "142", "150", "003", "013", "AQ")
# CLDR's pseudo-territories and groupings that are no place
SKIP_TERRITORIES = frozenset({"ZZ", "QO", "EU", "EZ", "UN", "XA", "XB"})
LANGUAGE_WORD = {"id": "bahasa", "ms": "bahasa", "th": "ภาษา"}
_PAREN = re.compile(r"^(.+?)\s*\((.+)\)$")


def _names(name: str) -> list[str]:
    """A CLDR name, and its two parts when it carries another in parentheses."""
    m = _PAREN.match(name)
    return [name, m.group(1), m.group(2)] if m else [name]


def build() -> dict:
    """The names file's content (sorted, so that a rebuild is byte-identical)."""
    import babel
    from babel import Locale
    from babel.core import UnknownLocaleError, get_global

    def locale(code: str) -> Locale | None:
        try:
            return Locale.parse(code)
        except (UnknownLocaleError, ValueError):
            return None

    seeds = [Locale.parse(c) for c in SEED_LOCALES]
    english = seeds[0]
    entities: dict[str, set[str]] = {}

    def add(key: str, names: list[str | None]) -> None:
        for n in names:
            if n:
                entities.setdefault(key, set()).update(
                    _names(n.strip()) if key[0] == "T" else [n.strip()])

    territory_languages = get_global("territory_languages")
    for code in english.territories:
        if code in SKIP_TERRITORIES or not (code.isalpha() or code in CONTINENTS):
            continue
        own = [lang for lang, info in territory_languages.get(code, {}).items()
               if info.get("official_status") in ("official", "de_facto_official")]
        locales = seeds + [x for x in map(locale, own) if x is not None]
        names = [x.territories.get(code) for x in locales]
        if code in CONTINENTS:
            # the word "continent" with the name, as Thai and Japanese say it
            # (ทวีปเอเชีย, アジア大陸)
            th, ja = seeds[SEED_LOCALES.index("th")], seeds[SEED_LOCALES.index("ja")]
            names += [f"ทวีป{th.territories[code]}", f"{ja.territories[code]}大陸"]
        add(f"T:{code}", names)

    for code in english.languages:
        own = locale(code) if "_" not in code else None
        if own is None:
            continue  # (a language without a CLDR locale of its own: too obscure to say)
        names = [own.languages.get(code)]
        for seed in seeds:
            word = LANGUAGE_WORD.get(seed.language)
            bare = seed.languages.get(code)
            if word and bare and not bare.lower().startswith(word):
                bare = f"{word}{bare}" if seed.language == "th" else f"{word} {bare}"
            names.append(bare)
        add(f"L:{code}", names)

    zone_territories = get_global("zone_territories")
    for zone, territory in zone_territories.items():
        if "/" not in zone or zone.startswith("Etc/"):
            continue
        own = [lang for lang, info in territory_languages.get(territory, {}).items()
               if info.get("official_status") in ("official", "de_facto_official")]
        locales = seeds + [x for x in map(locale, own) if x is not None]
        default = zone.rsplit("/", 1)[1].replace("_", " ")
        add(f"C:{zone}", [default] + [(x.time_zones.get(zone) or {}).get("city")
                                      for x in locales])

    return {
        "source": (f"the Unicode CLDR data of Babel {babel.__version__}; Unicode License v3 "
                   "(https://www.unicode.org/license.txt). Generated by "
                   "`python -m judging.build_names`; do not edit by hand."),
        "locales": list(SEED_LOCALES),
        "entities": {k: sorted(v) for k, v in sorted(entities.items())},
    }


def main() -> None:
    data = build()
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=0, sort_keys=False) + "\n",
                   encoding="utf-8")
    n = sum(map(len, data["entities"].values()))
    print(f"wrote {OUT} ({len(data['entities'])} entities, {n} names)")


if __name__ == "__main__":
    main()
